"""The table in one page: the seats played here, drawn from their seat clients, and their gestures.

The game itself belongs to a host (web/table/host.py). On the host's page the controller holds that host and
a seat client per local person, joined in memory: one for a game against the computer, several for
pass-and-play (with a cover between turns), beside friends who join from elsewhere. On a friend's page
there is no host here: one seat client whose messages travel over the network (``join``).
The controller talks to the page through a small port (``Port``) so the whole flow runs under CPython
in the tests with a fake page. No browser import here.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from durak import Game
from durak.actions import parse_action
from durak.messages import Message
from durak.series import Series
from web.shared import storage
from web.table.host import THINK_SLICE, Host, make_bot
from web.table.moves import NO_PICK, Menu, Outcome, Pick
from web.table.params import Settings
from web.table.protocol import refusal_message
from web.table.render import Scene, screen
from web.table.seat import SeatClient, display_names


class Port(Protocol):
    """What the controller needs from the page."""

    def show(self, frame: dict[str, Any]) -> None: ...
    def spawn(self, coro: Awaitable[None]) -> None: ...
    async def sleep(self, seconds: float) -> None: ...


async def sliced_hint(view: dict[str, Any], legal: list[Any],
                      sleep: Callable[[float], Awaitable[None]]) -> tuple[str, Message]:
    """``durak.ai.hint`` computed in slices: the hard player's move and its coded reason (with the proof
    when the endgame search finished: "won: every defence loses", not "99%")."""
    from durak.ai import make_player, reason

    actions = [parse_action(a) for a in legal]
    thinker = make_player("hard", seed=len(view.get("history", []))).start(view, actions)
    while not thinker.step(max_seconds=THINK_SLICE):
        await sleep(0)
    action = thinker.best()
    chance = getattr(thinker, "values", {}).get(action)
    return str(action), reason(view, actions, action, chance, bool(getattr(thinker, "proven", False)))


class Controller:
    """One page's seats: which one is shown, the viewer's half-made choice, hints and messages."""

    def __init__(self, port: Port, store: storage.Store, lang: str = "en", speed: str = "normal",
                 bot_factory: Callable[[str, int], Any] = make_bot) -> None:
        self.port = port
        self.store = store
        self.lang = lang
        self.speed = speed
        self.host = Host(port, speed=speed, bot_factory=bot_factory)
        self.host.on_save = self.save
        self.host.after_send = self._after_host
        self.clients: dict[int, SeatClient] = {}
        self.remote = False  # a friend's page: the host is in another browser
        self.viewer = 0
        self.covered = False
        self.pick: Pick = NO_PICK
        self.accusing = False  # cheat mode: the viewer is choosing the table card to accuse
        self.hint: tuple[str, Message] | None = None
        self.message: Message | None = None  # a notice of this page, said in the language of each frame
        self.stats: dict[str, float] = {"ai_moves": 0, "ai_ms": 0.0, "step_max_ms": 0.0, "frame_max_ms": 0.0}
        self.hinting = False
        self.on_change: Callable[[], None] | None = None  # called after each frame (tests, app hooks)

    # ------------------------------------------------------------------ properties
    @property
    def game(self) -> Game:
        return self.host.game

    @property
    def series(self) -> Series | None:
        return self.host.series

    @property
    def settings(self) -> Settings:
        return self.host.settings

    @property
    def source(self) -> str:
        return self.host.source

    @property
    def client(self) -> SeatClient | None:
        return self.clients.get(self.viewer)

    @property
    def thinking(self) -> int | None:
        """The seat whose AI is thinking (None: nobody's)."""
        return self.host.thinking

    @property
    def busy(self) -> bool:
        """The host is playing automatic moves (AIs, a lone pass): gestures wait."""
        return self.host.driving

    def is_human(self, seat: int) -> bool:
        return self.settings.seats[seat] == "human"

    @property
    def multi_human(self) -> bool:
        """Several people take turns at this page (pass-and-play)."""
        return len(self.clients) > 1

    @property
    def names(self) -> list[str]:
        client = self.client
        seats = client.seats if client and client.seats else [{"kind": k} for k in self.settings.seats]
        return display_names(seats, self.lang, sorted(self.clients))

    # ------------------------------------------------------------------ starting and saving
    def start(self, settings: Settings, source: str = "") -> str | None:
        """Deal a new series; returns a message (in the current language) if the rules are unplayable."""
        error = self.host.start(settings, source, lang=self.lang)
        if error:
            return error
        self._attach_local()
        return None

    def play_from(self, game: Game, source: str = "") -> None:
        """Play on from ``game`` (a position or record a link opened): the local player at seat 0, the normal
        AI at the others."""
        self.host.play_from(game, source)
        self._attach_local()

    def apply(self, seat: int, action: str) -> bool:
        """Play ``action`` for a seat of this page, as its gestures would; False (with the refusal shown)
        when the host refuses it."""
        client = self.clients.get(seat)
        if client is None:
            return False
        client.act(action)
        return client.refused is None

    def _attach_local(self) -> None:
        """A seat client for each person at this page, joined to the host in memory."""
        for seat in self.clients:
            self.host.close_peer(f"local:{seat}")
        humans = [i for i, kind in enumerate(self.settings.seats) if kind == "human"]
        self.clients = {seat: SeatClient(seat, self._local_sender(seat)) for seat in humans}
        first = self.game.to_act
        self.viewer = first if first in self.clients else humans[0]
        self.covered = self.multi_human
        self._reset_ui()
        for seat, client in self.clients.items():
            self.host.open_peer(f"local:{seat}", client.deliver, seat=seat)
        self.save()

    def _local_sender(self, seat: int) -> Callable[[dict[str, Any]], None]:
        def send(message: dict[str, Any]) -> None:
            self.host.receive(f"local:{seat}", message)
        return send

    def _reset_ui(self) -> None:
        self.pick = NO_PICK
        self.hint = None
        self.message = None

    def play_again(self) -> None:
        if self.remote or self.series is None or self.game.result is None:
            return
        self.covered = self.multi_human
        self._reset_ui()
        self.host.play_again()

    def snapshot(self) -> dict[str, Any]:
        return {**self.host.snapshot(), "viewer": self.viewer, "covered": self.covered}

    def save(self) -> None:
        if not self.remote and self.series is not None and self.clients:
            storage.save(self.store, self.snapshot())

    def restore(self, data: dict[str, Any]) -> None:
        """Continue from a save (raises on anything unusable; the caller sets the save aside)."""
        self.host.restore(data)
        settings = self.settings
        viewer = data.get("viewer", 0)
        if not isinstance(viewer, int) or not 0 <= viewer < settings.players or settings.seats[viewer] != "human":
            raise ValueError("bad viewer")
        covered = bool(data.get("covered", False))
        self._attach_local()
        self.viewer = viewer
        self.covered = covered and self.multi_human

    # ------------------------------------------------------------------ a friend's page
    def join(self, seat: int, send: Callable[[dict[str, Any]], None]) -> SeatClient:
        """This page plays ``seat`` of a host elsewhere; ``send`` carries the seat's messages to it."""
        self.remote = True
        self.clients = {seat: SeatClient(seat, send)}
        self.viewer = seat
        self.covered = False
        self._reset_ui()
        return self.clients[seat]

    def receive_remote(self, text: object) -> None:
        client = self.client
        if client is not None and client.receive_text(text):
            self._after_host()

    def set_current(self, current: bool) -> None:
        """A friend's page lost (or regained) its host: a lost position is not shown as the current one."""
        client = self.client
        if client is not None and client.current != current:
            client.current = current
            self.pick = NO_PICK
            self.refresh()

    # ------------------------------------------------------------------ drawing
    def _after_host(self) -> None:
        """The host's messages for this change have all arrived: follow the turn, redraw."""
        if not self.remote:
            self._follow_turn()
        client = self.client
        if client is not None and client.refused is not None:
            self.pick = NO_PICK
        self.refresh()

    def _follow_turn(self) -> None:
        """Pass-and-play: the page shows the local person who must decide now, behind a cover."""
        client = self.client
        if client is None or client.view is None:
            return
        seat = client.view.get("to_act")
        other = self.clients.get(seat) if isinstance(seat, int) else None
        if other is None or not isinstance(seat, int) or seat == self.viewer or other.legal in ([], ["pass"]):
            return
        self.viewer = seat
        self.covered = self.multi_human
        self._reset_ui()
        self.save()

    def menu(self) -> Menu | None:
        client = self.client
        if client is None or client.view is None or self.covered or not client.current:
            return None
        view = client.view
        if view.get("to_act") != self.viewer or view.get("result") is not None:
            return None
        legal = client.legal
        if not legal or (legal == ["pass"] and not client.cheats):
            return None  # nothing to decide: the host answers a lone pass by itself
        if client.seats and client.seats[self.viewer]["status"] == "ai":
            return None  # the AI plays this seat for now
        return Menu(legal, view["variant"], client.cheats)

    def scene(self) -> Scene:
        client = self.client
        assert client is not None and client.view is not None
        local = sorted(self.clients)
        seats = client.seats or [{"kind": k, "status": "connected"} for k in self.settings.seats]
        kinds = ["human" if i in local else ("friend" if s["kind"] in ("human", "friend") else s["kind"])
                 for i, s in enumerate(seats)]
        message = self.message
        if client.refused is not None:
            message = refusal_message(client.refused)
        online = any(s["kind"] == "friend" for s in seats)
        return Scene(view=client.view, lang=self.lang, names=self.names, kinds=kinds,
                     menu=self.menu(), pick=self.pick, thinking=client.thinking, fresh=client.fresh,
                     hint=self.hint, covered=self.covered, log=client.log, series=client.series,
                     message=message, you=None if self.multi_human else self.viewer,
                     statuses=[s["status"] for s in seats] if online else [],
                     said=dict(client.said), timer=client.timer if online else None,
                     deal_check=client.deal_check if self.remote else None,
                     guest=self.remote, stale=not client.current, accusations=self.accusable(),
                     accusing=self.accusing and bool(self.accusable()), accusation=client.accusation,
                     closing=client.closing)

    def accusable(self) -> list[str]:
        """Cheat mode: the table cards the shown seat may accuse now (none behind a pass-and-play cover)."""
        client = self.client
        if client is None or self.covered or not client.current:
            return []
        return [action.split()[1] for action in client.accusations]

    def refresh(self) -> None:
        client = self.client
        if client is None or client.view is None:
            return
        started = time.perf_counter()
        frame = screen(self.scene())
        frame["speed"] = self.speed
        frame["over"] = client.view.get("result") is not None
        self.stats.update(self.host.stats)
        frame["stats"] = self.stats
        self.port.show(frame)
        self.stats["frame_max_ms"] = max(self.stats["frame_max_ms"], (time.perf_counter() - started) * 1000)
        if self.on_change:
            self.on_change()

    # ------------------------------------------------------------------ playing
    def kick(self) -> None:
        """Let the AIs (and automatic passes) play until a person must act."""
        if not self.remote:
            self.host.kick()

    def _human_menu(self) -> Menu | None:
        return self.menu()

    def _follow(self, outcome: Outcome) -> None:
        if outcome.action:
            client = self.client
            assert client is not None
            self.pick = NO_PICK
            self.hint = None
            self.message = None
            client.act(str(outcome.action))
            return
        self.pick = outcome.pick
        self.message = None
        self.refresh()

    def click_card(self, card: str) -> None:
        menu = self._human_menu()
        if menu is not None:
            self._follow(menu.click_card(self.pick, card))

    def click_target(self, target: str) -> None:
        if target.startswith("accuse:"):
            self._accuse(target.split(":", 1)[1])
            return
        menu = self._human_menu()
        if menu is not None:
            self._follow(menu.click_target(self.pick, target))

    def drop(self, card: str, target: str) -> None:
        menu = self._human_menu()
        if menu is not None:
            self._follow(menu.drop(self.pick, card, target))

    def _accuse(self, card: str) -> None:
        """Name a table card as a cheat (out of turn: the host decides in arrival order)."""
        client = self.client
        if client is None or not self.accusing or card not in self.accusable():
            return
        self.accusing = False
        self.pick = NO_PICK
        self.message = None
        client.act(f"accuse {card}")

    def cancel(self) -> None:
        client = self.client
        if self.accusing:
            self.accusing = False
            self.refresh()
            return
        if not self.pick.empty or self.message or (client is not None and client.refused is not None):
            self.pick = NO_PICK
            self.message = None
            if client is not None:
                client.refused = None
            self.refresh()

    def say(self, quick: str) -> None:
        """A quick message from the shown seat to the whole table."""
        client = self.client
        if client is not None and not self.covered:
            client.say(quick)

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
        if action == "accuse":
            self.accusing = not self.accusing and bool(self.accusable())
            self.pick = NO_PICK
            self.refresh()
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
        client = self.client
        seat = self.viewer
        assert client is not None and client.view is not None
        seq = client.seq
        try:
            found = await sliced_hint(client.view, client.legal, self.port.sleep)
        finally:
            self.hinting = False
        if client is self.client and client.seq == seq and client.view.get("to_act") == seat:
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
        self.host.set_speed(speed)

    def settings_for_dialog(self) -> Settings:
        return self.host.settings_for_dialog()

