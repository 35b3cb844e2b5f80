"""The game flow: whose turn, AI thinking in slices, human gestures to actions, saves and the log.

The engine owns the state; this class only asks it (``legal_actions``, ``view``), tells it
(``apply``) and redraws. It talks to the page through a small port (``Port``) so the whole flow runs
under CPython in the tests with a fake page. No browser import here.
"""

from __future__ import annotations

import random
import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any, Protocol

from durak import Game, IllegalAction, Rules, RulesError
from durak.events import Event
from durak.messages import Message
from durak.narrate import deal, narrate
from durak.series import Series

from . import storage
from .i18n import say, t
from .moves import NO_PICK, Menu, Outcome, Pick
from .params import Settings, normalise_seats, problems
from .render import Scene, screen

#: Seconds an AI move stays "thinking" on screen, by speed (instant: tests and impatient players).
AI_PAUSE = {"slow": 1.0, "normal": 0.55, "fast": 0.25, "instant": 0.0}
#: Seconds before an automatic pass (the human had nothing to add), so the table can be read.
AUTO_PASS_PAUSE = {"slow": 0.5, "normal": 0.3, "fast": 0.15, "instant": 0.0}
THINK_SLICE = 0.03  # seconds of AI search per main-thread task
LOG_KEEP = 30
#: The events the recent-plays list tells (draws and new rounds show on the table itself).
LOG_KINDS = frozenset({"attack", "defend", "transfer", "take", "pass", "exchange", "pickup", "discard", "out"})


class Port(Protocol):
    """What the controller needs from the page."""

    def show(self, frame: dict[str, Any]) -> None: ...
    def spawn(self, coro: Awaitable[None]) -> None: ...
    async def sleep(self, seconds: float) -> None: ...


class FirstLegal:
    """Stand-in player used only if the AI package cannot be imported: plays the first legal action."""

    def choose(self, view: dict[str, Any], legal: list[Any]) -> Any:
        return legal[0]


def make_bot(level: str, seed: int) -> Any:
    try:
        from durak.ai import make_player
    except ImportError:
        return FirstLegal()
    return make_player(level, seed=seed)


async def sliced_hint(view: dict[str, Any], legal: list[Any],
                      sleep: Callable[[float], Awaitable[None]]) -> tuple[str, Message]:
    """``durak.ai.hint`` computed in slices: the hard player's move and its coded reason (with the proof
    when the endgame search finished: "won: every defence loses", not "99%")."""
    from durak.ai import make_player, reason

    thinker = make_player("hard", seed=len(view.get("history", []))).start(view, legal)
    while not thinker.step(max_seconds=THINK_SLICE):
        await sleep(0)
    action = thinker.best()
    chance = getattr(thinker, "values", {}).get(action)
    return str(action), reason(view, legal, action, chance, bool(getattr(thinker, "proven", False)))


def seat_names(settings: Settings, lang: str) -> list[str]:
    humans = settings.humans
    names = []
    bot = 0
    for seat, kind in enumerate(settings.seats):
        if kind == "human":
            if len(humans) == 1:
                names.append(t(lang, "seat_you"))
            else:
                names.append(t(lang, "seat_player", n=seat + 1))
        else:
            bot += 1
            names.append(t(lang, "seat_bot", n=bot))
    return names


class Controller:
    """One table: settings, the series and its current game, the viewer's half-made choice."""

    def __init__(self, port: Port, store: storage.Store, lang: str = "en", speed: str = "normal",
                 bot_factory: Callable[[str, int], Any] = make_bot) -> None:
        self.port = port
        self.store = store
        self.lang = lang
        self.speed = speed
        self.bot_factory = bot_factory
        self.settings = Settings()
        self.source = ""
        self.series: Series | None = None
        self.viewer = 0
        self.covered = False
        self.pick: Pick = NO_PICK
        self.hint: tuple[str, Message] | None = None
        self.message: Message | None = None  # a refusal or notice, said in the language of each frame
        self.log: list[dict[str, Any]] = []
        self.thinking: int | None = None
        self.fresh: frozenset[str] = frozenset()
        self.bots: dict[int, Any] = {}
        self.generation = 0
        self._driving = False
        self.stats: dict[str, float] = {"ai_moves": 0, "ai_ms": 0.0, "step_max_ms": 0.0, "frame_max_ms": 0.0}
        self.hinting = False
        self.busy = False  # an automatic move is on its way: no gestures meanwhile
        self.on_change: Callable[[], None] | None = None  # called after each frame (tests, app hooks)

    # ------------------------------------------------------------------ properties
    @property
    def game(self) -> Game:
        assert self.series is not None
        return self.series.game

    @property
    def names(self) -> list[str]:
        return seat_names(self.settings, self.lang)

    @property
    def you(self) -> int | None:
        """The one local human's seat, whom the messages call "you" (None in pass-and-play)."""
        return None if self.multi_human else self.settings.humans[0]

    @property
    def multi_human(self) -> bool:
        return len(self.settings.humans) > 1

    def is_human(self, seat: int) -> bool:
        return self.settings.seats[seat] == "human"

    # ------------------------------------------------------------------ starting and saving
    def start(self, settings: Settings, source: str = "") -> str | None:
        """Deal a new series; returns a message (in the current language) if the rules are unplayable."""
        found = problems(settings)
        if found:
            key, values = found[0]
            return t(self.lang, key, **values)
        try:
            rules = Rules(**settings.rules_kwargs())
        except RulesError as error:
            return t(self.lang, "err_rules", reason=say(self.lang, error.message))
        seed = settings.seed if settings.seed is not None else random.SystemRandom().randrange(10**9)
        self.settings = settings
        self.source = source
        self.series = Series(rules, seed=seed)
        self._new_game_state()
        return None

    def play_from(self, game: Game, source: str = "") -> None:
        """Play on from ``game`` (a position or record a link opened): its rules, the local player at seat 0
        and the normal AI at the others, in a new series around it."""
        rules = game.rules
        settings = Settings(variant=rules.variant, players=rules.players, deck=rules.deck, throw_in=rules.throw_in,
                            first_defence_limit=rules.first_defence_limit, exchange=rules.trump_six_exchange,
                            first_attack=rules.first_attack, teams=rules.teams, seats=("human",))
        self.settings = normalise_seats(settings)
        self.source = source
        self.series = Series(rules)
        self.series.game = game
        self._new_game_state()

    def _new_game_state(self) -> None:
        self.generation += 1
        self.bots = {}
        self.pick = NO_PICK
        self.hint = None
        self.message = None
        self.thinking = None
        self.fresh = frozenset()
        game = self.game
        humans = self.settings.humans
        first = game.to_act
        self.viewer = first if first is not None and self.is_human(first) else humans[0]
        self.covered = self.multi_human
        self.log = [deal(game.trump, first, self.you).to_dict()]
        self.save()

    def play_again(self) -> None:
        if self.series is None or self.game.result is None:
            return
        self.series.next_game()
        self._new_game_state()
        self.refresh()
        self.kick()

    def snapshot(self) -> dict[str, Any]:
        assert self.series is not None
        return {"settings": self.settings.to_dict(), "source": self.source, "series": self.series.to_dict(),
                "viewer": self.viewer, "covered": self.covered, "log": self.log[-LOG_KEEP:]}

    def save(self) -> None:
        if self.series is not None:
            storage.save(self.store, self.snapshot())

    def restore(self, data: dict[str, Any]) -> None:
        """Continue from a save (raises on anything unusable; the caller sets the save aside)."""
        settings = Settings.from_dict(data["settings"])
        series = Series.from_dict(data["series"])
        if series.rules != Rules(**settings.rules_kwargs()):
            raise ValueError("the saved settings and game disagree")
        viewer = data.get("viewer", 0)
        if not isinstance(viewer, int) or not 0 <= viewer < settings.players or settings.seats[viewer] != "human":
            raise ValueError("bad viewer")
        log = data.get("log", [])
        if not isinstance(log, list) or not all(isinstance(e, dict) for e in log):
            raise ValueError("bad log")
        self.settings = settings
        self.source = str(data.get("source", ""))
        self.series = series
        self.generation += 1
        self.bots = {}
        self.viewer = viewer
        self.covered = bool(data.get("covered", False)) and self.multi_human
        self.log = log[-LOG_KEEP:]
        self.pick = NO_PICK
        self.hint = None
        self.message = None
        self.thinking = None
        self.fresh = frozenset()

    # ------------------------------------------------------------------ drawing
    def menu(self) -> Menu | None:
        if self.series is None:
            return None
        game = self.game
        if game.to_act != self.viewer or self.covered or self.thinking is not None or self.busy:
            return None
        legal = game.legal_actions(self.viewer)
        if not legal or [str(a) for a in legal] == ["pass"]:
            return None  # nothing to decide: drive() answers a lone pass by itself
        return Menu(legal, game.rules.variant)

    def scene(self) -> Scene:
        game = self.game
        view = game.view(self.viewer)
        standings = self.series.standings() if self.series else None
        return Scene(view=view, lang=self.lang, names=self.names, kinds=list(self.settings.seats),
                     menu=self.menu(), pick=self.pick, thinking=self.thinking, fresh=self.fresh,
                     hint=self.hint, covered=self.covered, log=self.log, series=standings,
                     message=self.message, you=self.you)

    def refresh(self) -> None:
        if self.series is None:
            return
        started = time.perf_counter()
        frame = screen(self.scene())
        frame["speed"] = self.speed
        frame["over"] = self.game.result is not None
        frame["stats"] = self.stats
        self.port.show(frame)
        self.stats["frame_max_ms"] = max(self.stats["frame_max_ms"], (time.perf_counter() - started) * 1000)
        if self.on_change:
            self.on_change()

    # ------------------------------------------------------------------ playing
    def _table_cards(self) -> set[str]:
        cards: set[str] = set()
        for attack, defence in self.game.table:
            cards.add(str(attack))
            if defence is not None:
                cards.add(str(defence))
        return cards

    def apply(self, seat: int, action: Any) -> bool:
        """Play ``action`` for ``seat``; log it, save, redraw. False (with a message) if refused."""
        game = self.game
        before = self._table_cards()
        had_table = bool(before)
        try:
            events = game.apply(seat, action)
        except IllegalAction as error:
            self.message = error.message
            self.pick = NO_PICK
            self.refresh()
            return False
        for event in events:
            self._log_event(event, had_table)
        self.log = self.log[-LOG_KEEP:]
        self.fresh = frozenset(self._table_cards() - before)
        self.pick = NO_PICK
        self.hint = None
        self.message = None
        self.save()
        return True

    def _log_event(self, event: Event, had_table: bool) -> None:
        """One line of the recent plays, in the narrator's words (durak/narrate.py), kept as a coded message
        so the log reads in whatever language the page shows."""
        if event.kind in LOG_KINDS:
            message = narrate(event, self.you, throw_in=had_table)
            if message is not None:
                self.log.append(message.to_dict())

    def kick(self) -> None:
        """Let the AIs (and automatic passes) play until a human must act."""
        if not self._driving and self.series is not None:
            self.port.spawn(self.drive())

    async def drive(self) -> None:
        if self._driving:
            return
        self._driving = True
        generation = self.generation
        try:
            while generation == self.generation:
                game = self.game
                seat = game.to_act
                if seat is None:
                    self.thinking = None
                    self.refresh()
                    break
                legal = game.legal_actions(seat)
                if not legal:  # an engine defect: nobody can move; say so rather than spin
                    print(f"durak table: seat {seat} is to act but has no legal action; the game cannot go on")
                    self.message = Message("table_stuck", {"seat": seat}, f"seat {seat} has no legal action")
                    self.refresh()
                    break
                if self.is_human(seat):
                    if [str(a) for a in legal] == ["pass"]:  # nothing to add: answer for them
                        pause = AUTO_PASS_PAUSE.get(self.speed, 0.0)
                        if pause and seat == self.viewer and not self.covered:
                            self.busy = True
                            self.refresh()
                            await self.port.sleep(pause)
                            self.busy = False
                            if generation != self.generation or game is not self.game or game.to_act != seat:
                                continue
                        self.apply(seat, legal[0])
                        self.refresh()
                        await self.port.sleep(0)
                        continue
                    if seat != self.viewer:
                        self.viewer = seat
                        self.covered = self.multi_human
                        self.pick = NO_PICK
                        self.save()
                    self.refresh()
                    break
                self.thinking = seat
                pause = AI_PAUSE.get(self.speed, 0.0)
                if pause:
                    self.refresh()
                action = await self.think(seat, legal)
                if pause:
                    await self.port.sleep(pause)
                if generation != self.generation or game is not self.game:
                    break
                self.thinking = None
                self.apply(seat, action)
                self.refresh()
                await self.port.sleep(0)  # one AI move per main-thread task
        finally:
            self._driving = False
            if generation != self.generation:
                self.kick()

    async def think(self, seat: int, legal: list[Any]) -> Any:
        """The AI's choice, computed in slices of THINK_SLICE seconds so the page never freezes.

        An AI that fails must not stop the table: the move falls back to the normal level (then to the
        first legal action) and a one-line warning goes to the console.
        """
        bot = self.bots.get(seat)
        if bot is None:
            seed = (self.series.seed if self.series else 0) * 7 + seat
            bot = self.bots[seat] = self.bot_factory(self.settings.seats[seat], seed)
        view = self.game.view(seat)
        started = time.perf_counter()
        try:
            if hasattr(bot, "start"):
                thinker = bot.start(view, legal)
                while True:
                    step_start = time.perf_counter()
                    done = thinker.step(max_seconds=THINK_SLICE)
                    self.stats["step_max_ms"] = max(self.stats["step_max_ms"],
                                                    (time.perf_counter() - step_start) * 1000)
                    if done:
                        break
                    await self.port.sleep(0)
                action = thinker.best()
            else:
                action = bot.choose(view, legal)
            if action not in legal:
                raise ValueError(f"the AI chose {action}, which is not legal")
        except Exception as error:
            print(f"durak table: the {self.settings.seats[seat]} AI failed ({type(error).__name__}: {error}); "
                  "playing the normal level's move instead")
            try:
                action = self.bot_factory("normal", 0).choose(view, legal)
            except Exception:
                action = legal[0]
        self.stats["ai_moves"] += 1
        self.stats["ai_ms"] += (time.perf_counter() - started) * 1000
        return action

    # ------------------------------------------------------------------ gestures
    def _human_menu(self) -> Menu | None:
        menu = self.menu()
        if menu is None or not self.is_human(self.viewer):
            return None
        return menu

    def _follow(self, outcome: Outcome) -> None:
        if outcome.action:
            if self.apply(self.viewer, outcome.action):
                self.refresh()
                self.kick()
            return
        self.pick = outcome.pick
        self.message = None
        self.refresh()

    def click_card(self, card: str) -> None:
        menu = self._human_menu()
        if menu is not None:
            self._follow(menu.click_card(self.pick, card))

    def click_target(self, target: str) -> None:
        menu = self._human_menu()
        if menu is not None:
            self._follow(menu.click_target(self.pick, target))

    def drop(self, card: str, target: str) -> None:
        menu = self._human_menu()
        if menu is not None:
            self._follow(menu.drop(self.pick, card, target))

    def cancel(self) -> None:
        if not self.pick.empty or self.message:
            self.pick = NO_PICK
            self.message = None
            self.refresh()

    def press(self, action: str) -> None:
        """A fixed button: take, pass, transfer, exchange, hint, play, cancel, reveal, play-again."""
        if action == "reveal":
            if self.covered:
                self.covered = False
                self.save()
                self.refresh()
                self.kick()
            return
        if action == "play-again":
            self.play_again()
            return
        if action == "cancel":
            self.cancel()
            return
        menu = self._human_menu()
        if menu is None:
            return
        if action in ("take", "pass", "exchange"):
            text = menu.text(action)
            if text:
                self._follow(Outcome(text))
        elif action == "transfer":
            self._follow(menu.press_transfer(self.pick))
        elif action == "play":
            text = menu.set_action(self.pick.selected)
            if text:
                self._follow(Outcome(text))
        elif action == "hint" and not self.hinting:
            self.hinting = True
            self.port.spawn(self._hint())

    async def _hint(self) -> None:
        game = self.game
        seat = self.viewer
        moves = len(game.history)
        try:
            found = await sliced_hint(game.view(seat), game.legal_actions(seat), self.port.sleep)
        finally:
            self.hinting = False
        if game is self.game and len(game.history) == moves and game.to_act == seat:
            self.hint = found
            self.pick = NO_PICK
            self.refresh()

    # ------------------------------------------------------------------ preferences
    def set_lang(self, lang: str) -> None:
        """Say everything in ``lang`` from the next frame on: the position, a hint and a refusal stay."""
        self.lang = lang
        self.refresh()

    def set_speed(self, speed: str) -> None:
        self.speed = speed

    def settings_for_dialog(self) -> Settings:
        return replace(self.settings, seed=None)
