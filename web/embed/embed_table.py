"""The table in another site's frame: embed.html given the table's game parameters opens the table itself
(``index.html?embed=1&variant=…``), run by web/table/table.js and the engine worker (web/worker/bridge.py) as
always, with two differences that make it safe to embed:

- its saves and preferences live under their own keys (``EmbedStore``: ``durak.embed.save`` beside the
  site's ``durak.save``), so an embedded game never overwrites the game a visitor has in progress;
- it tells the host page what happens (``durak:move``, ``durak:gameover``) and takes the host's moves
  (``durak:play``) and new deals (``durak:reset``). ``TableBridge`` does that through a callback;
  ``attach`` binds it to the worker's messages, and web/embed/embed-frame.js carries them to and from the parent
  window (web/table/table.js relays them between the page and the worker).

Pure Python.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from durak import Game
from web.examples.narration import refusal
from web.shared.i18n import t
from web.shared.storage import Store
from web.table.controller import Controller

SITE_PREFIX = "durak."
EMBED_PREFIX = "durak.embed."


class EmbedStore:
    """A ``storage.Store`` whose keys are the embed's own: ``durak.save`` is kept as ``durak.embed.save``."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner

    @staticmethod
    def key(key: str) -> str:
        return EMBED_PREFIX + key.removeprefix(SITE_PREFIX)

    def get(self, key: str) -> str | None:
        return self.inner.get(self.key(key))

    def set(self, key: str, value: str) -> None:
        self.inner.set(self.key(key), value)

    def remove(self, key: str) -> None:
        self.inner.remove(self.key(key))


def result_of(game: Game) -> dict[str, Any] | None:
    result = game.result
    if result is None:
        return None
    return {"durak": result.durak, "draw": result.draw, "losers": list(result.losers), "out": list(result.out_order)}


class TableBridge:
    """Between the table's controller and the host page: reports moves and ends, plays the host's moves."""

    def __init__(self, controller: Controller, emit: Callable[[str, dict[str, Any]], None]) -> None:
        self.controller = controller
        self.emit = emit
        self.game: Game | None = None
        self.seen = 0
        self.over = False

    def changed(self) -> None:
        """After each frame the table draws: the moves played since the last one, and a game's end."""
        if self.controller.series is None:
            return
        game = self.controller.game
        if game is not self.game:  # a new deal, or the embed's own save restored: told from its first move
            self.game, self.seen, self.over = game, 0, False
        for seat, action in game.history[self.seen:]:
            self.emit("durak:move", {"seat": seat, "action": str(action)})
        self.seen = len(game.history)
        result = result_of(game)
        if result is not None and not self.over:
            self.over = True
            self.emit("durak:gameover", {"result": result})

    def play(self, text: str) -> dict[str, Any]:
        """The host's move for the table's player: {"ok": true}, or {"error", "code"} and nothing changes."""
        controller = self.controller
        lang = controller.lang
        if controller.series is None:
            return {"error": t(lang, "embed_no_move_now"), "code": "embed.no_move_now"}
        game, seat = controller.game, controller.viewer
        if game.to_act != seat or not controller.is_human(seat) or controller.busy or controller.thinking is not None:
            return {"error": t(lang, "embed_no_move_now"), "code": "embed.no_move_now"}
        try:
            game.copy().apply(seat, text)  # the engine judges on a copy, so a refusal changes nothing
        except ValueError as error:  # IllegalAction, NotationError
            code = str(getattr(error, "code", "") or "")
            return {"error": refusal(lang, error, controller.names, seat), "code": code}
        if controller.apply(seat, text):
            controller.refresh()
            controller.kick()
        return {"ok": True}

    def reset(self) -> dict[str, Any]:
        """Deal again with the same settings (the same deal when the link fixed the seed)."""
        controller = self.controller
        if controller.series is None:
            return {"error": t(controller.lang, "embed_no_move_now"), "code": "embed.no_move_now"}
        error = controller.start(controller.settings, source=controller.source)
        if error:
            return {"error": error, "code": "embed.bad_settings"}
        controller.refresh()
        controller.kick()
        return {"ok": True}


def attach(controller: Controller, post: Callable[[dict[str, Any]], None]) -> TableBridge:
    """A bridge told of every frame the controller draws, whose messages for the host window leave as the
    engine worker's ``embed`` {message} messages (the page hands them to web/embed/embed-frame.js, which posts
    them to the parent window)."""
    bridge = TableBridge(controller, lambda kind, payload: post({"t": "embed", "message": {**payload, "type": kind}}))
    before = controller.on_change

    def changed() -> None:
        if before is not None:
            before()
        bridge.changed()

    controller.on_change = changed
    return bridge
