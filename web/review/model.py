"""The game review screen's model: a record's frames and move list, and the engine's verdicts in words.

A ``Session`` reviews one record for one seat. ``data(lang)`` is everything web/review/review.js needs to step
through the game without Python: the frames (web/examples/frames.py's shape, drawn by web/examples/stepper.js), the move
list, the seats' names and the words of the screen. A finished game has two sets of frames, every hand
open and the reviewer's own knowledge; an unfinished one only the second, and neither the record nor a
position (which name every card), so no card the reviewer did not know reaches the page. ``grade`` runs
durak/review.py's grader in slices and publishes the verdicts as they come, in the page's language.
Pure Python, no browser import.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Awaitable, Callable, Generator, Iterator
from contextlib import contextmanager
from typing import Any

from durak import Event, Game, review
from durak import events as ev
from durak.actions import ACCUSE, Action
from durak.narrate import narrate
from durak.record import Record, parse_record
from durak.review import Verdict
from web.examples.frames import board_labels, frame
from web.examples.narration import TOLD
from web.shared.i18n import action_text, capitalised, say, seat_names, t

#: Seconds of grading per slice. Far under the 50 ms a browser counts as a long task: on a shared machine
#: the page's thread is descheduled for up to hundreds of milliseconds, and the shorter each task, the
#: fewer of those pauses land inside one (docs/review.md, "Speed"). Throughput is the same as with 20 ms.
SLICE = 0.008
#: Steps of the game (replayed, then drawn as frames) per main-thread task when a review opens.
STEPS_PER_PIECE = 8
#: The progress bar moves at most this often (seconds) between verdicts: each update redraws a little.
PROGRESS_EVERY = 0.25


def told(lang: str, events: list[Event], names: list[str], me: int | None, *, throw_in: bool = False) -> str:
    """What one move did, as ``me`` saw it (another seat's draws stay face down; ``me`` is "you"; None: a
    spectator, who sees no draw)."""
    lines = []
    for event in events:
        message = narrate(event, me, throw_in=throw_in) if event.kind in TOLD else None
        if message is not None:
            lines.append(capitalised(say(lang, message, names)) + ".")
    return " ".join(lines)


def seen_frame(game: Game, seat: int, *, said_text: str = "") -> dict[str, Any]:
    """The frame as ``seat`` knew it: its own hand, the cards known in other hands, the rest face down.

    Built from ``game.view(seat)`` alone, and without the position text (which names every card).
    """
    view = game.view(seat)
    result = view["result"]
    hands, hidden = [], []
    for other in range(view["players"]):
        known = view["hand"] if other == seat else view["known"][other]
        hands.append(list(known))
        hidden.append(view["hand_sizes"][other] - len(known))
    return {
        "hands": hands, "hidden": hidden, "talon": view["talon"], "trump": view["trump"],
        "trump_card": view["trump_card"], "trump_exposed": view["trump_exposed"],
        "table": [[attack, defence] for attack, defence in view["table"]], "discard": len(view["discard"]),
        "attacker": view["attacker"], "defender": view["defender"], "to_act": view["to_act"],
        "taking": view["taking"], "limit": view["limit"], "out": list(view["out_order"]),
        "result": None if result is None else {"durak": result["durak"], "draw": result["draw"]},
        "said": said_text, "comment": "",
    }


class Session:
    """One review: a record, the seat whose moves are graded, the seats' names, and the grading.

    Constructing one only reads the record; the game at every step, the seat's decisions and the grader
    are built by ``data_in_pieces`` a few steps per main-thread task, or at once on first use.
    """

    def __init__(self, record: Record, seat: int = 0, names: list[str] | None = None, *,
                 you: int | None = None, worlds: int = review.WORLDS) -> None:
        self.record = record
        start = record.start(Game)
        players = start.players
        if not 0 <= seat < players:
            raise ValueError(f"seat {seat} is not at this {players}-player table")
        self.seat = seat
        self.names = list(names) if names else [record.header.get(f"Player{s}", "") for s in range(players)]
        self.you = you  # the seat the names call "you" (the table's player); None for a record from elsewhere
        self.moves = [(move.seat, move.action) for move in record.moves]
        self.worlds = worlds
        self.stopped = False
        self._games: list[Game] = []
        self._decisions: list[review.Decision] = []
        self._grader: review.Grader | None = None
        self._building = self._build(start)

    def _build(self, start: Game) -> Iterator[None]:
        """Replay the record a few steps per piece, then collect the seat's decisions and start grading."""
        for game in self.record.frames(Game):
            self._games.append(game)
            if len(self._games) % STEPS_PER_PIECE == 0:
                yield
        self._decisions = review.decisions(start, self.moves, self.seat)
        yield
        self._grader = review.start(self._decisions, worlds=self.worlds)

    def _built(self) -> None:
        for _ in self._building:
            pass

    @property
    def games(self) -> list[Game]:
        """The game at every step (0: the deal), each an independent copy."""
        self._built()
        return self._games

    @property
    def decisions(self) -> list[review.Decision]:
        """The graded seat's real choices (durak/review.py)."""
        self._built()
        return self._decisions

    @property
    def finished(self) -> bool:
        return self.games[-1].result is not None

    @property
    def grader(self) -> review.Grader:
        self._built()
        assert self._grader is not None
        return self._grader

    @classmethod
    def from_text(cls, text: str, seat: int = 0, names: list[str] | None = None, *, you: int | None = None,
                  worlds: int = review.WORLDS) -> Session:
        """A review of a record's text; ``RecordError`` if it does not read or replay."""
        return cls(parse_record(text), seat, names, you=you, worlds=worlds)

    def for_seat(self, seat: int) -> Session:
        """The same game reviewed for another seat: only once it is over (before, that seat's knowledge
        is not the reviewer's to see)."""
        if not self.finished and seat != self.seat:
            raise ValueError("an unfinished game is reviewed only for the seat that played it here")
        return Session(self.record, seat, self.names, you=self.you, worlds=self.worlds)

    # ------------------------------------------------------------------ what the page shows
    def seat_names(self, lang: str) -> list[str]:
        fallback = seat_names(lang, len(self.names), self.you)
        return [name or fallback[seat] for seat, name in enumerate(self.names)]

    def data(self, lang: str) -> dict[str, Any]:
        """Everything the review screen draws, JSON-safe, in ``lang``."""
        pieces = self.data_in_pieces(lang)
        while True:
            try:
                next(pieces)
            except StopIteration as finished:
                data: dict[str, Any] = finished.value
                return data

    def data_in_pieces(self, lang: str, steps_per_piece: int = STEPS_PER_PIECE
                       ) -> Generator[None, None, dict[str, Any]]:
        """``data(lang)`` built a few steps at a time, yielding in between: the replay and a long game's
        frames would make one main-thread task of over 100 ms in the page."""
        yield from self._building
        names = self.seat_names(lang)
        seen, opened, moves = [], [], []
        for index, game in enumerate(self.games):
            line = ""
            if index:
                before = self.games[index - 1]
                seat, action = self.moves[index - 1]
                events = before.copy().apply(seat, action)
                line = told(lang, events, names, self.you, throw_in=bool(before.table))
                moves.append(move_entry(lang, index - 1, before, seat, action, events, names, self.you))
            seen.append(seen_frame(game, self.seat, said_text=line))
            if self.finished:
                opened.append(frame(game, said=line))
            if index % steps_per_piece == steps_per_piece - 1:
                yield
        yield
        data: dict[str, Any] = {
            "id": "review", "title": t(lang, "review.title"), "names": names, "seat": self.seat,
            "seats": list(range(len(names))) if self.finished else [self.seat],
            "finished": self.finished, "steps": len(self.games), "seen": seen, "moves": moves,
            "graded": sorted(d.move for d in self.decisions),
            "labels": board_labels(lang), "words": words(lang, names[self.seat]),
        }
        if self.finished:
            data["open"] = opened
        return data

    def verdicts(self, lang: str) -> list[dict[str, Any]]:
        """The verdicts so far, each with its words in ``lang``."""
        return [verdict_data(v, lang, self.seat_names(lang)) for v in self.grader.verdicts]

    def progress(self, lang: str) -> dict[str, Any]:
        """How far grading is, the turning point so far, and the first estimate of the decision being
        graded (None when there is none, or grading is stopped)."""
        review_now = self.grader.review()
        estimate = None if self.stopped else self.grader.estimate()
        return {"done": len(self.grader.verdicts), "total": len(self.decisions),
                "percent": round(100 * self.grader.progress), "complete": review_now.complete,
                "stopped": self.stopped and not review_now.complete, "turning": review_now.turning,
                "estimate": None if estimate is None else self.estimate_data(*estimate, lang)}

    def estimate_data(self, verdict: Verdict, worlds: int, lang: str) -> dict[str, Any]:
        """A first estimate for the page: a verdict's fields, marked, with a note of what it rests on."""
        data = verdict_data(verdict, lang, self.seat_names(lang))
        data.update(estimate=True, note=t(lang, "review.estimate_note", worlds=worlds, total=self.worlds))
        return data

    def game_at(self, step: int) -> Game:
        """An independent copy of the game at ``step`` (0: the deal), to play on from."""
        if not 0 <= step < len(self.games):
            raise ValueError(f"step {step} is not in this game of {len(self.games)} steps")
        return self.games[step].copy()

    # ------------------------------------------------------------------ grading
    async def grade(self, sleep: Callable[[float], Awaitable[None]],
                    publish: Callable[[list[dict[str, Any]], dict[str, Any]], None], lang: Callable[[], str],
                    slice_seconds: float = SLICE) -> None:
        """Grade in slices until done or ``stop``, yielding to the page between slices. ``publish`` gets the
        new verdicts (in the language ``lang()`` says now) and the progress when a verdict is in, and the
        progress alone at most every ``PROGRESS_EVERY`` seconds, or as soon as a decision's first estimate
        is in (the page shows it until the verdict)."""
        self.stopped = False
        shown = len(self.grader.verdicts)
        told = time.perf_counter()
        estimated: int | None = None  # the move whose first estimate was published last
        with frozen_heap():
            while not self.stopped:
                done = self.grader.step(slice_seconds)
                count = len(self.grader.verdicts)
                estimate = self.grader.estimate()
                first_estimate = estimate is not None and estimate[0].move != estimated
                if count != shown or done or first_estimate or time.perf_counter() - told >= PROGRESS_EVERY:
                    names = self.seat_names(lang())
                    publish([verdict_data(v, lang(), names) for v in self.grader.verdicts[shown:count]],
                            self.progress(lang()))
                    shown, told = count, time.perf_counter()
                    estimated = None if estimate is None else estimate[0].move
                if done:
                    return
                await sleep(0)
        publish([], self.progress(lang()))

    def stop(self) -> None:
        """Cancel: the grading loop ends after its current slice; the verdicts so far stay."""
        self.stopped = True


@contextmanager
def frozen_heap() -> Iterator[None]:
    """While grading, the garbage collector leaves the objects that existed before alone (``gc.freeze``).

    Its full collections otherwise walk the whole page's heap: 60-75 ms in Pyodide, inside a 20 ms step,
    which made tasks of over 80 ms. Frozen objects are still freed when their count drops; the few in
    cycles wait for ``unfreeze`` at the end, so nothing leaks.
    """
    gc.freeze()
    try:
        yield
    finally:
        gc.unfreeze()


def move_entry(lang: str, index: int, before: Game, seat: int, action: Action, events: list[Event],
               names: list[str], you: int | None) -> dict[str, Any]:
    """One line of the move list: who played what, in words; in cheat mode, whether the move was a cheat
    (a card play the rules forbid, which the engine accepted), and an accusation's outcome: ``caught`` or
    ``wrong``, the seat that took the table, and the narrator's sentence."""
    entry: dict[str, Any] = {"move": index, "seat": seat, "text": t(lang, "review.move_line", name=names[seat],
                                                                     action=action_text(lang, str(action)))}
    if not before.rules.cheating:
        return entry
    if action.kind == ACCUSE:
        verdict = next(event for event in events if event.kind in (ev.CAUGHT, ev.WRONG))
        taker = next(event.player for event in events if event.kind == ev.PICKUP)
        entry["accusation"] = {"outcome": verdict.kind, "target": verdict.target, "taker": taker,
                               "text": told(lang, [verdict], names, you)}
    elif action not in before.legal_actions(seat):
        entry["cheat"] = True
    return entry


def verdict_data(verdict: Verdict, lang: str, names: list[str]) -> dict[str, Any]:
    """A verdict for the page: its numbers, its grade and its line in ``lang`` (actions in words)."""
    message = verdict.message.to_dict()
    params = dict(message["params"])
    for key in ("played", "best"):
        if isinstance(params.get(key), str):
            params[key] = action_text(lang, params[key])
    line = say(lang, {"code": message["code"], "params": params}, names)
    data = verdict.to_dict()
    data.update(line=line[:1].upper() + line[1:], grade_text=t(lang, f"review.grade_{verdict.grade}"),
                chances=t(lang, "review.chances", before=_percent(verdict.before, verdict.proven, lang),
                          after=_percent(verdict.after, verdict.proven, lang)))
    return data


def _percent(chance: float, proven: bool, lang: str) -> str:
    """An estimate is never shown as 0% or 100%; a proof is exact."""
    return t(lang, "percent", n=round(100 * chance) if proven else min(99, max(1, round(100 * chance))))


#: The screen's own words (review.js fills the {fields}).
WORD_KEYS = ("review.title", "review.btn_close", "review.seat", "review.graded", "review.btn_stop", "review.btn_resume",
             "review.open_hands", "review.moves", "review.deal", "review.turning_point", "review.proven_note",
             "review.btn_download", "review.btn_copy", "review.copied", "review.btn_play_on", "review.play_on_done",
             "review.grade_good", "review.grade_inaccuracy", "review.grade_mistake", "review.grade_blunder",
             "review.cheat", "review.caught", "review.wrong")


def words(lang: str, name: str) -> dict[str, str]:
    found = {key.removeprefix("review."): t(lang, key) for key in WORD_KEYS}
    found.update(grading=t(lang, "review.grading", percent="{percent}"),
                 stopped=t(lang, "review.stopped", done="{done}", total="{total}"),
                 nothing=t(lang, "review.nothing", name=name), unfinished=t(lang, "review.unfinished", name=name))
    return found
