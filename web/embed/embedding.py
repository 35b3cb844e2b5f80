"""What embed.html adds to the worked examples: any record or position as frames, and moves by notation.

A site may embed a whole game record (``embed.html?record=r1…``) or one position (``?position=p1…``), in
the URL-safe forms of durak.links. This replays it with the engine into the frames web/examples/stepper.js draws
(web/examples/frames.py), as the rules pages' builder does for the worked examples. The host page may also play a
move named in notation (the ``durak:play`` message) on "try it yourself"'s game (web/examples/tryout.py); every move
played there is reported to the host (``durak:move``). Pure Python, no browser import: web/embed/engine_calls.py
answers the page's calls with it, in the engine worker.
"""

from __future__ import annotations

from typing import Any

from durak import Game
from durak.record import from_url_safe, parse_record
from web.examples.frames import frame, record_frames, seat_names
from web.examples.narration import refusal
from web.examples.tryout import Tryout
from web.shared.i18n import t, translate_comment

KINDS = ("record", "position")


def link_frames(kind: str, value: str, lang: str) -> dict[str, Any]:
    """{id, title, names, frames} of a URL-safe record or position, as the builder makes them for an example
    (the page takes the words to draw them with, ``labels``, from the built examples: they name every card).

    Raises RecordError (a ValueError) for anything that does not read: a bad link, an illegal move."""
    if kind not in KINDS:
        raise ValueError(f"an embed shows a record or a position, not {kind!r}")
    text = from_url_safe(value, expect=kind)
    if kind == "position":
        game = Game.from_position(text)
        names = seat_names({}, lang, game.players)
        frames = [frame(game)]
        title = t(lang, "embed_position_title")
    else:
        record = parse_record(text)
        names, frames = record_frames(record, lang)
        title = translate_comment(lang, record.title) if record.title else t(lang, "embed_record_title")
    return {"id": kind, "title": title, "names": names, "frames": frames}


def moves_since(game: Game, count: int) -> list[dict[str, Any]]:
    """The moves played after the first ``count`` of the game's history, as durak:move reports them."""
    return [{"seat": seat, "action": str(action)} for seat, action in game.history[count:]]


class EmbedTryout(Tryout):
    """"Try it yourself" as an embed plays it: the host page may also name the reader's move in notation."""

    def play(self, text: str) -> dict[str, Any]:
        """Play ``text`` for the reader's seat: the answer web/examples/stepper.js draws plus the moves played, or
        {"error", "code"} when the engine refuses it (in the page's language; the game is unchanged)."""
        if not self.live:
            return {"error": t(self.lang, "embed_no_move_now"), "code": "embed.no_move_now"}
        before = len(self.game.history)
        try:
            answer = self._apply(self.seat, text)
        except ValueError as error:  # IllegalAction, NotationError: the engine changed nothing
            return {"error": refusal(self.lang, error, self.names), "code": str(getattr(error, "code", "") or "")}
        return {**answer, "moves": moves_since(self.game, before)}
