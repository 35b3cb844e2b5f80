"""The host of a table: the one authority. It owns the series, runs the AIs, applies every action,
keeps the sequence number and saves; each seat only receives its own messages and sends actions back.

Seats reach the host through *peers*: a seat client in the same page (in-memory), a tab on the same
device (BroadcastChannel) or a friend's browser (a WebRTC data channel) — all speak web/table/protocol.py.
A message for a seat is built from ``game.view(seat)``, ``game.legal_actions(seat)`` and the events
``seen_by(seat)`` only, so nothing a seat may not know is ever handed to its peer.

No DOM and no pyscript here (a port gives spawn and sleep), so the host runs under CPython in the tests
and could move into a web worker.
"""

from __future__ import annotations

import hmac
import random
import secrets
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol

from durak import Event, Game, IllegalAction, Rules, RulesError
from durak.actions import NotationError
from durak.cards import parse_card
from durak.narrate import deal, narrate
from durak.series import Series
from web.shared.i18n import say, t
from web.table import fairdeal
from web.table.params import LEVELS, Settings, normalise_seats, problems
from web.table.protocol import ProtocolError, check_shape, decode_incoming, refusal

#: Seconds an AI move stays "thinking" on screen at least, by speed (instant: tests and impatient players).
#: The hard AI searches through it, on top of its own budget: the player waits that long anyway, and on a
#: slow phone the extra search is most of hard's strength (docs/ai.md, "Thinking through the pause").
AI_PAUSE = {"slow": 1.0, "normal": 0.55, "fast": 0.25, "instant": 0.0}
#: Seconds before an automatic pass (the player had nothing to add), so the table can be read.
AUTO_PASS_PAUSE = {"slow": 0.5, "normal": 0.3, "fast": 0.15, "instant": 0.0}
THINK_SLICE = 0.03  # seconds of AI search per main-thread task
#: Cheat mode: seconds before an AI speaks up about a cheat it noticed, by speed, times its level's factor
#: (a sharp eye is quick); and the pause before a move of the AIs (or an automatic pass) ends a bout with
#: cards on the table, which is the people's moment to accuse.
ACCUSE_DELAY = {"slow": 1.6, "normal": 1.1, "fast": 0.5, "instant": 0.0}
ACCUSE_LEVEL_FACTOR = {"easy": 1.6, "normal": 1.0, "hard": 0.6}
CLOSING_PAUSE = {"slow": 2.6, "normal": 1.8, "fast": 1.0, "instant": 0.0}
LOG_KEEP = 30
#: The events the recent-plays list tells (draws and new rounds show on the table itself).
LOG_KINDS = frozenset({"attack", "defend", "transfer", "take", "pass", "exchange", "pickup", "discard", "out",
                       "caught", "wrong"})
#: Events that end a bout: its cards go to the discard or to a hand.
BOUT_ENDS = frozenset({"discard", "pickup"})
#: A peer may send BURST messages at once and RATE a second after that; the rest is dropped unread.
BURST = 20
RATE = 10.0
STAND_IN_LEVEL = "normal"  # plays an away friend's seat, and a seat whose turn timer ran out


class HostPort(Protocol):
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


@dataclass
class Seat:
    """One seat as the host knows it: who plays it, what they called themselves, how they are reached."""

    kind: str  # "human" (at the host's page), "friend" (remote) or an AI level
    name: str = ""  # typed by a friend; "" gives the default name in each page's language
    secret: str = ""  # a friend's proof of the seat, carried by the invite link
    stand_in: bool = False  # a friend's seat played by the AI while they are away (the host decides)

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "name": self.name, "secret": self.secret, "stand_in": self.stand_in}


@dataclass
class Peer:
    """One connection: where its messages go, which seat it proved, its flood allowance."""

    deliver: Callable[[dict[str, Any]], None]
    seat: int | None = None
    local: bool = False  # a seat client in the host's own page: trusted with the rate, not with the rules
    tokens: float = BURST
    refilled: float = 0.0
    warned: float = -1.0
    dropped: int = 0


class Host:
    """The table's authority: ``receive`` checks and applies what peers send; every change is sent on."""

    def __init__(self, port: HostPort, speed: str = "normal", bot_factory: Callable[[str, int], Any] = make_bot,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.port = port
        self.speed = speed
        self.bot_factory = bot_factory
        self.clock = clock
        self.settings = Settings()
        self.source = ""
        self.series: Series | None = None
        self.seats: list[Seat] = []
        self.peers: dict[str, Peer] = {}
        self.seq = 0
        self.log: list[tuple[Event, bool]] = []  # the recent plays: each event and whether it was a throw-in
        self.dealt: tuple[str, int | None] = ("S", None)  # the game's trump suit and first attacker
        self.thinking: int | None = None
        self.salt = b""
        self.commit = ""
        self.first_game = True
        self.bots: dict[tuple[int, str], Any] = {}
        # per friend seat: its invite's connection data (web/friends/netpage.py)
        self.net: dict[str, dict[str, str]] = {}
        self.generation = 0
        self.timer_seat: int | None = None
        self._driving = False
        self.closing = False  # cheat mode: a bout is about to end, the people's last moment to accuse
        self.accusing: set[tuple[int, str]] = set()  # (AI seat, action) accusations waiting for their delay
        self.stats: dict[str, float] = {"ai_moves": 0, "ai_ms": 0.0, "step_max_ms": 0.0}
        self.on_save: Callable[[], None] | None = None
        self.after_send: Callable[[], None] | None = None  # once the peers got this change (a redraw)

    # ------------------------------------------------------------------ state
    @property
    def game(self) -> Game:
        assert self.series is not None
        return self.series.game

    @property
    def online(self) -> bool:
        return any(seat.kind == "friend" for seat in self.seats)

    def plays_itself(self, seat: int) -> bool:
        """An AI seat, or a friend's seat the host handed to the AI."""
        info = self.seats[seat]
        return info.kind in LEVELS or (info.kind == "friend" and info.stand_in)

    def connected(self, seat: int) -> bool:
        return any(peer.seat == seat for peer in self.peers.values())

    def seat_status(self, seat: int) -> str:
        info = self.seats[seat]
        if info.kind in LEVELS or info.stand_in:
            return "ai"
        if info.kind == "human":
            return "connected"
        return "connected" if self.connected(seat) else "away"

    # ------------------------------------------------------------------ starting and saving
    def start(self, settings: Settings, source: str = "", lang: str = "en") -> str | None:
        """Deal a new series; returns a message (in ``lang``) if the rules are unplayable."""
        found = problems(settings)
        if found:
            key, values = found[0]
            return t(lang, key, **values)
        try:
            rules = Rules(**settings.rules_kwargs())
        except RulesError as error:
            return t(lang, "err_rules", reason=say(lang, error.message))
        seed = settings.seed if settings.seed is not None else random.SystemRandom().randrange(10**9)
        self.settings = settings
        self.source = source
        self.seats = [Seat(kind, secret=secrets.token_urlsafe(16) if kind == "friend" else "")
                      for kind in settings.seats]
        self.net = {}
        self.series = Series(rules, seed=seed)
        self.first_game = True
        self._new_game()
        return None

    def play_from(self, game: Game, source: str = "") -> None:
        """A new series around ``game`` (a position or record a link opened): a person at seat 0, the normal
        AI at the others."""
        rules = game.rules
        self.settings = normalise_seats(Settings(
            variant=rules.variant, players=rules.players, deck=rules.deck, throw_in=rules.throw_in,
            first_defence_limit=rules.first_defence_limit, exchange=rules.trump_six_exchange,
            first_attack=rules.first_attack, teams=rules.teams, cheating=rules.cheating, seats=("human",)))
        self.source = source
        self.seats = [Seat(kind) for kind in self.settings.seats]
        self.net = {}
        self.series = Series(rules)
        self.series.game = game
        self.first_game = True
        self._new_game()

    @property
    def driving(self) -> bool:
        return self._driving

    def _new_game(self) -> None:
        """The current game of the series begins: online, on a fresh 128-bit seed the host commits to."""
        self.generation += 1
        self.bots = {}
        self.thinking = None
        self.timer_seat = None
        if self.online:
            self.salt, seed = fairdeal.new_seed()
            old = self.game
            assert self.series is not None
            self.series.game = Game.new(old.rules, seed=seed, dealer=old.dealer, first_game=self.first_game)
            self.commit = fairdeal.commitment(self.salt, seed)
        else:
            self.salt, self.commit = b"", ""
        self.log = []
        self.dealt = (self.game.trump, self.game.to_act)
        self.seq += 1
        self.save()
        self._broadcast(reset=True)
        self._sent()

    def play_again(self) -> None:
        if self.series is None or self.game.result is None:
            return
        self.series.next_game()
        self.first_game = False
        self._new_game()
        self.kick()

    def snapshot(self) -> dict[str, Any]:
        assert self.series is not None
        return {"settings": self.settings.to_dict(), "source": self.source, "series": self.series.to_dict(),
                "log": [[event.to_dict(), throw] for event, throw in self.log[-LOG_KEEP:]],
                "deal": list(self.dealt), "seats": [seat.to_dict() for seat in self.seats], "seq": self.seq,
                "salt": self.salt.hex(), "first_game": self.first_game, "net": self.net}

    def save(self) -> None:
        if self.series is not None and self.on_save is not None:
            self.on_save()

    def restore(self, data: dict[str, Any]) -> None:
        """Continue from a save (raises on anything unusable; the caller sets the save aside)."""
        settings = Settings.from_dict(data["settings"])
        series = Series.from_dict(data["series"])
        if series.rules != Rules(**settings.rules_kwargs()):
            raise ValueError("the saved settings and game disagree")
        log = [entry for entry in data.get("log", []) if isinstance(entry, list)]  # older saves: no log
        events = [(event_from_dict(event), bool(throw)) for event, throw in log]
        trump, first = data.get("deal", [series.game.trump, None])
        if trump not in ("S", "H", "D", "C") or not (first is None or isinstance(first, int)):
            raise ValueError("bad deal")
        seats = [Seat(kind) for kind in settings.seats]
        saved_seats = data.get("seats")
        if saved_seats is not None:
            if not isinstance(saved_seats, list) or len(saved_seats) != len(seats):
                raise ValueError("bad seats")
            seats = [Seat(kind=str(s["kind"]), name=str(s["name"]), secret=str(s["secret"]),
                          stand_in=bool(s["stand_in"])) for s in saved_seats]
            if [s.kind for s in seats] != list(settings.seats):
                raise ValueError("the saved seats and settings disagree")
        salt = bytes.fromhex(str(data.get("salt", "")))
        net = data.get("net", {})
        if not isinstance(net, dict) or not all(isinstance(v, dict) for v in net.values()):
            raise ValueError("bad net")
        self.settings = settings
        self.source = str(data.get("source", ""))
        self.series = series
        self.seats = seats
        self.salt = salt
        self.net = {str(k): {str(a): str(b) for a, b in v.items()} for k, v in net.items()}
        game = series.game
        self.commit = fairdeal.commitment(salt, game.seed) if salt and game.seed is not None else ""
        self.first_game = bool(data.get("first_game", series.games_played == 0))
        self.seq = int(data.get("seq", 0)) + 1  # a restored table never reuses a sequence number
        self.generation += 1
        self.bots = {}
        self.log = events[-LOG_KEEP:]
        self.dealt = (trump, first)
        self.thinking = None
        self.timer_seat = None

    # ------------------------------------------------------------------ peers
    def open_peer(self, peer_id: str, deliver: Callable[[dict[str, Any]], None], seat: int | None = None) -> None:
        """A new connection. ``seat`` binds a local seat client at once; a remote peer proves its seat with
        a ``hello``. A peer with the same id is replaced."""
        peer = Peer(deliver, seat=seat, local=seat is not None, refilled=self.clock())
        self.peers[peer_id] = peer
        if seat is not None:
            self._welcome(peer)
            self._status()
            self._sent()

    def close_peer(self, peer_id: str) -> None:
        peer = self.peers.pop(peer_id, None)
        if peer is not None and peer.seat is not None:
            self._status()
            self._sent()

    def receive_text(self, peer_id: str, text: object) -> None:
        """A remote peer's message as it came off the wire: checked for flood, size, JSON and shape."""
        peer = self.peers.get(peer_id)
        if peer is None or not self._allow(peer):
            return
        try:
            data = decode_incoming(text)
        except ProtocolError as error:
            peer.deliver(refusal(error, self.seq))  # a remote peer's refusal changes nothing here: no redraw
            return
        self._handle(peer, data)

    def receive(self, peer_id: str, data: dict[str, Any]) -> None:
        """A local seat client's message (already a dict): the same checks but the JSON."""
        peer = self.peers.get(peer_id)
        if peer is None or not (peer.local or self._allow(peer)):
            return
        try:
            data = check_shape(dict(data))
        except ProtocolError as error:
            peer.deliver(refusal(error, self.seq))
            self._sent()
            return
        self._handle(peer, data)

    def _allow(self, peer: Peer) -> bool:
        """A token bucket per peer: a flood is dropped before it is even parsed, with one notice a second."""
        now = self.clock()
        peer.tokens = min(float(BURST), peer.tokens + (now - peer.refilled) * RATE)
        peer.refilled = now
        if peer.tokens >= 1:
            peer.tokens -= 1
            return True
        peer.dropped += 1
        if now - peer.warned >= 1.0:
            peer.warned = now
            peer.deliver(refusal(ProtocolError("rate_limited", per_second=int(RATE)), self.seq))
        return False

    def _handle(self, peer: Peer, data: dict[str, Any]) -> None:
        kind = data["t"]
        if kind == "ping":
            peer.deliver({"t": "pong", "id": data["id"]})
            return
        try:
            if kind == "hello":
                self._hello(peer, data)
            else:
                if peer.seat is None:
                    raise ProtocolError("not_joined")
                if data["seat"] != peer.seat:
                    raise ProtocolError("wrong_seat", seat=data["seat"])
                if kind == "act":
                    self._act(peer.seat, data["seq"], data["action"])
                else:
                    self._say(peer.seat, data["quick"])
        except ProtocolError as error:
            peer.deliver(refusal(error, self.seq))
            if not peer.local:
                return  # nothing changed, and this page shows nothing of a remote refusal: no redraw
        self._sent()

    def _hello(self, peer: Peer, data: dict[str, Any]) -> None:
        seat = data["seat"]
        if self.series is None or not 0 <= seat < len(self.seats) or self.seats[seat].kind != "friend":
            raise ProtocolError("wrong_seat", seat=seat)
        if not hmac.compare_digest(self.seats[seat].secret, data["secret"]):
            raise ProtocolError("bad_secret")
        for other_id, other in list(self.peers.items()):
            if other is not peer and other.seat == seat:  # the seat's older connection (a reload, a drop)
                other.deliver(refusal(ProtocolError("replaced"), self.seq))
                del self.peers[other_id]
        peer.seat = seat
        info = self.seats[seat]
        info.name = data["name"]
        info.stand_in = False
        self.save()
        self._welcome(peer)
        self._status()
        self.kick()

    def _welcome(self, peer: Peer) -> None:
        """A peer's full position: the state with the whole recent log, and the reveal if the game is over."""
        assert peer.seat is not None
        if self.series is None:
            return
        peer.deliver(self._state(peer.seat, self.log_for(self._you(peer)), reset=True))
        if self.game.result is not None and self.commit:
            peer.deliver(self._reveal())

    def hand_to_ai(self, seat: int, on: bool) -> None:
        """The host's choice for a friend's seat: the AI plays it (``on``), or it waits for the friend."""
        if not 0 <= seat < len(self.seats) or self.seats[seat].kind != "friend":
            return
        self.seats[seat].stand_in = on
        self.save()
        self._status()
        self._sent()
        self.kick()

    # ------------------------------------------------------------------ messages out
    def _state(self, seat: int, events: list[dict[str, Any]], reset: bool = False) -> dict[str, Any]:
        game = self.game
        assert self.series is not None
        message = {"t": "state", "seq": self.seq, "seat": seat, "view": game.view(seat),
                   "legal": [str(a) for a in game.legal_actions(seat)], "events": events, "reset": reset,
                   "commit": self.commit, "series": self.series.standings()}
        if game.rules.cheating:
            message["cheats"] = [str(a) for a in game.cheats(seat)]
            message["accusations"] = [str(a) for a in game.accusations(seat)]
        return message

    def _reveal(self) -> dict[str, Any]:
        assert self.series is not None
        return fairdeal.reveal_message(self.series.games_played, self.salt, self.game, self.first_game)

    def status_message(self) -> dict[str, Any]:
        timer = None
        if self.timer_seat is not None and self.settings.timer:
            timer = {"seat": self.timer_seat, "seconds": self.settings.timer}
        message = {"t": "status", "thinking": self.thinking, "timer": timer,
                   "seats": [{"kind": info.kind, "name": info.name, "status": self.seat_status(i)}
                             for i, info in enumerate(self.seats)]}
        if self.series is not None and self.game.rules.cheating:
            message["closing"] = self.closing
        return message

    def _status(self) -> None:
        message = self.status_message()
        for peer in list(self.peers.values()):
            if peer.seat is not None:
                peer.deliver(message)

    def _you(self, peer: Peer) -> int | None:
        """The seat that messages to this peer call "you": none in pass-and-play, where several people
        share the host's page."""
        if peer.local and sum(seat.kind == "human" for seat in self.seats) > 1:
            return None
        return peer.seat

    @staticmethod
    def _narrate(events: list[Event], me: int | None, throw_in: bool) -> list[dict[str, Any]]:
        """The recent-plays lines of these events as ``me`` may see them (durak/narrate.py), coded."""
        lines = []
        for event in events:
            if event.kind in LOG_KINDS:
                message = narrate(event, me, throw_in=throw_in)
                if message is not None:
                    lines.append(message.to_dict())
        return lines

    def log_for(self, me: int | None) -> list[dict[str, Any]]:
        """The whole recent-plays list as ``me`` may see it, from the deal on."""
        lines = [deal(self.dealt[0], self.dealt[1], me).to_dict()]
        for event, throw in self.log:
            lines += self._narrate([event], me, throw)
        return lines[-LOG_KEEP:]

    def _broadcast(self, events: list[Any] | None = None, reset: bool = False, had_table: bool = False) -> None:
        """Every bound peer gets its seat's state: its view, its legal actions, the events it may see."""
        for peer in list(self.peers.values()):
            seat = peer.seat
            if seat is None:
                continue
            me = self._you(peer)
            entries = self.log_for(me) if reset else self._narrate(events or [], me, had_table)
            message = self._state(seat, entries, reset=reset)
            outcome = accusation_outcome(events or [])
            if outcome is not None:
                message["accusation"] = outcome
            peer.deliver(message)
        self._status()
        if self.game.result is not None and self.commit:
            reveal = self._reveal()
            for peer in list(self.peers.values()):
                if peer.seat is not None:
                    peer.deliver(reveal)

    def _sent(self) -> None:
        if self.after_send is not None:
            self.after_send()

    def _say(self, seat: int, quick: str) -> None:
        for peer in list(self.peers.values()):
            if peer.seat is not None:
                peer.deliver({"t": "said", "seat": seat, "quick": quick})

    # ------------------------------------------------------------------ playing
    def _act(self, seat: int, seq: int, action: str) -> None:
        if self.series is None or self.game.result is not None:
            raise ProtocolError("game_over")
        accusation = action.split(maxsplit=1)[0].lower() == "accuse" if action.strip() else False
        if accusation:
            # out of turn and in arrival order: the engine decides whether the card may still be named
            if self.plays_itself(seat):
                raise ProtocolError("not_your_turn")
        elif seq != self.seq:
            raise ProtocolError("stale_seq", seq=seq, current=self.seq)
        elif self.game.to_act != seat or self.plays_itself(seat):
            raise ProtocolError("not_your_turn")
        try:
            self.apply(seat, action)
        except (IllegalAction, NotationError) as error:
            params: dict[str, Any] = {"reason": str(error)}
            code = getattr(error, "code", None)
            if isinstance(code, str):
                params.update(reason_code=code, reason_params=dict(getattr(error, "params", {}) or {}))
            raise ProtocolError("illegal", **params) from None
        self.kick()

    def _table_cards(self) -> set[str]:
        cards: set[str] = set()
        for attack, defence in self.game.table:
            cards.add(str(attack))
            if defence is not None:
                cards.add(str(defence))
        return cards

    def apply(self, seat: int, action: Any) -> None:
        """Play ``action`` for ``seat`` (raises the engine's refusal, changing nothing), log, save, send."""
        game = self.game
        had_table = bool(game.table)
        events = game.apply(seat, action)
        self.log = (self.log + [(event.seen_by(None), had_table) for event in events if event.kind in LOG_KINDS]
                    )[-LOG_KEEP:]
        self.seq += 1
        self.timer_seat = None
        self.save()
        self._broadcast(events, had_table=had_table)
        self._watch_for_cheats()

    def kick(self) -> None:
        """Let the AIs (and automatic passes) play until a person must act."""
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
                    break
                legal = game.legal_actions(seat)
                if not legal:  # an engine defect: nobody can move; say so rather than spin
                    print(f"durak host: seat {seat} is to act but has no legal action; the game cannot go on")
                    break
                if not self.plays_itself(seat):
                    if [str(a) for a in legal] != ["pass"] or (game.rules.cheating and game.cheats(seat)):
                        self._start_timer(seat)
                        break
                    pause = AUTO_PASS_PAUSE.get(self.speed, 0.0)  # nothing to add: answer for them
                    if pause:
                        await self.port.sleep(pause)
                        if generation != self.generation or game is not self.game or game.to_act != seat:
                            continue
                    if await self._hold_bout(seat, legal[0], generation):
                        continue
                    self.apply(seat, legal[0])
                    self._sent()
                    await self.port.sleep(0)
                    continue
                self.thinking = seat
                pause = AI_PAUSE.get(self.speed, 0.0)
                if pause:
                    self._status()
                    self._sent()
                seq = self.seq
                started = self.clock()
                action = await self.think(seat, legal, spare=pause)
                left = pause - (self.clock() - started)
                if left > 0:
                    await self.port.sleep(left)
                if generation != self.generation or game is not self.game:
                    break
                self.thinking = None
                if game.to_act != seat or not self.plays_itself(seat) or self.seq != seq:
                    self._status()  # the table changed meanwhile (an accusation): think again
                    self._sent()
                    continue
                if await self._hold_bout(seat, action, generation):
                    continue
                self.apply(seat, action)
                self._sent()
                await self.port.sleep(0)  # one AI move per main-thread task
        finally:
            self._driving = False
            if generation != self.generation:
                self.kick()

    # ------------------------------------------------------------------ cheat mode
    async def _hold_bout(self, seat: int, action: Any, generation: int) -> bool:
        """Cheat mode, before an automatic move that would end the bout with cards on the table: the AIs
        name what they noticed, then the people get a visible moment (``closing``) to accuse. True when the
        table changed meanwhile, so the caller looks again instead of playing ``action``."""
        game = self.game
        if not game.rules.cheating or not game.table:
            return False
        trial = game.copy()
        try:
            ends = any(event.kind in BOUT_ENDS for event in trial.apply(seat, action))
        except (IllegalAction, NotationError):
            return False
        if not ends:
            return False
        if self._accuse_now():
            return True
        seq = self.seq
        pause = CLOSING_PAUSE.get(self.speed, 0.0)
        people = [s for s in range(len(self.seats)) if not self.plays_itself(s)]
        if pause and any(game.accusations(s) for s in people):
            self.closing = True
            self._status()
            self._sent()
            await self.port.sleep(pause)
            self.closing = False
            self._status()
            self._sent()
        return generation != self.generation or self.seq != seq or self.game.to_act != seat

    def _accusers(self) -> list[tuple[int, Any]]:
        """The AI seats that name a table card now, each with its accusation (from its own view only)."""
        game = self.game
        if not game.rules.cheating or not game.table or game.result is not None:
            return []
        found = []
        for seat in range(len(self.seats)):
            if not self.plays_itself(seat):
                continue
            accusations = game.accusations(seat)
            if not accusations:
                continue
            bot = self._bot(seat, self.seats[seat].kind)
            choice = bot.accuse(game.view(seat), accusations) if hasattr(bot, "accuse") else None
            if choice is not None and choice in accusations:
                found.append((seat, choice))
        return found

    def _accuse_now(self) -> bool:
        """The first AI that noticed a cheat names it at once (the bout is about to end)."""
        for seat, choice in self._accusers():
            self.apply(seat, choice)
            self._sent()
            return True
        return False

    def _watch_for_cheats(self) -> None:
        """After a move: each AI that noticed a cheat names it after a delay of its level's speed."""
        for seat, choice in self._accusers():
            key = (seat, str(choice))
            if key in self.accusing:
                continue
            self.accusing.add(key)
            kind = self.seats[seat].kind
            delay = ACCUSE_DELAY.get(self.speed, 0.0) * ACCUSE_LEVEL_FACTOR.get(kind, 1.0)
            self.port.spawn(self._accuse_later(seat, str(choice), delay, self.generation))

    async def _accuse_later(self, seat: int, choice: str, delay: float, generation: int) -> None:
        await self.port.sleep(delay)
        self.accusing.discard((seat, choice))
        if generation != self.generation or self.game.result is not None or not self.plays_itself(seat):
            return
        if choice in [str(a) for a in self.game.accusations(seat)]:
            self.apply(seat, choice)
            self._sent()
            self.kick()

    def _start_timer(self, seat: int) -> None:
        """Online tables with a turn timer: when it runs out, the stand-in AI plays the seat's move."""
        if not self.settings.timer or not self.online or self.timer_seat == seat:
            return
        self.timer_seat = seat
        self._status()
        self._sent()
        self.port.spawn(self._expire(self.seq, seat, self.generation))

    async def _expire(self, seq: int, seat: int, generation: int) -> None:
        await self.port.sleep(self.settings.timer)
        if seq != self.seq or generation != self.generation or self.game.to_act != seat:
            return
        legal = self.game.legal_actions(seat)
        action = await self.think(seat, legal, level=STAND_IN_LEVEL)
        if seq == self.seq and generation == self.generation and self.game.to_act == seat:
            self.apply(seat, action)
            self._sent()
            self.kick()

    async def think(self, seat: int, legal: list[Any], level: str | None = None, spare: float = 0.0) -> Any:
        """The AI's choice, computed in slices of THINK_SLICE seconds so the page never freezes. An AI that
        searches (hard) thinks ``spare`` seconds more than its own budget: the time the table waits anyway.

        An AI that fails must not stop the table: the move falls back to the normal level (then to the
        first legal action) and a one-line warning goes to the console.
        """
        kind = level or self.seats[seat].kind
        bot = self._bot(seat, kind)
        view = self.game.view(seat)
        cheats = self.game.cheats(seat) if self.game.rules.cheating else []
        started = time.perf_counter()
        try:
            if hasattr(bot, "start"):
                budget = bot.time_budget + spare if spare > 0 else None
                thinker = bot.start(view, legal, cheats or None, time_budget=budget)
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
                action = bot.choose(view, legal, cheats) if cheats else bot.choose(view, legal)
            if action not in legal and action not in cheats:
                raise ValueError(f"the AI chose {action}, which is not legal")
        except Exception as error:
            print(f"durak host: the {kind} AI failed ({type(error).__name__}: {error}); "
                  "playing the normal level's move instead")
            try:
                action = self.bot_factory("normal", 0).choose(view, legal)
            except Exception:
                action = legal[0]
        self.stats["ai_moves"] += 1
        self.stats["ai_ms"] += (time.perf_counter() - started) * 1000
        return action

    def _bot(self, seat: int, kind: str) -> Any:
        """The seat's AI of ``kind`` (the stand-in level for a person's seat), made once per game."""
        if kind not in LEVELS:
            kind = STAND_IN_LEVEL
        bot = self.bots.get((seat, kind))
        if bot is None:
            seed = (self.series.seed if self.series else 0) * 7 + seat
            bot = self.bots[seat, kind] = self.bot_factory(kind, seed)
        return bot

    def set_speed(self, speed: str) -> None:
        self.speed = speed

    def settings_for_dialog(self) -> Settings:
        return replace(self.settings, seed=None)



def accusation_outcome(events: list[Event]) -> dict[str, Any] | None:
    """Cheat mode: what an accusation among ``events`` decided, for every seat to see (all of it was on
    the table): ``caught`` or ``wrong``, the accuser, the card, the seat that played it, and who took."""
    for index, event in enumerate(events):
        if event.kind in ("caught", "wrong"):
            taker = next((e.player for e in events[index + 1:] if e.kind == "pickup"), None)
            return {"outcome": event.kind, "accuser": event.player, "card": str(event.cards[0]),
                    "target": event.target, "taker": taker}
    return None


def event_from_dict(data: object) -> Event:
    """An event of a saved recent-plays list (``Event.to_dict`` read back; draws are never saved)."""
    if not isinstance(data, dict) or data.get("kind") not in LOG_KINDS:
        raise ValueError("bad log")
    player, target, count = data.get("player"), data.get("target"), data.get("count", 0)
    if not all(x is None or isinstance(x, int) for x in (player, target)) or not isinstance(count, int):
        raise ValueError("bad log")
    return Event(data["kind"], player, tuple(parse_card(c) for c in data.get("cards", [])), target, count)
