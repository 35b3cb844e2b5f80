"""The host/seat protocol in CPython over an in-memory transport that goes through JSON both ways:
every message type, every refusal code, redaction, rejoin, the AI stand-in, the turn timer, the
commitment and its verification, a restored host."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any

import pytest

from durak import Game
from durak.messages import Message
from tests.hidden_cards import secret_cards
from tests.web.running import run_coroutine
from web.shared.i18n import say
from web.table import fairdeal
from web.table.host import BURST, RATE, Host
from web.table.params import Settings
from web.table.protocol import MAX_INCOMING, REFUSALS, encode, refusal_text
from web.table.seat import SeatClient

CARD_TOKEN = re.compile(r'"((?:[2-9]|10|[JQKA])[SHDC])"')


PORTS: list[Port] = []


@pytest.fixture(autouse=True)
def _close_unrun_coroutines() -> Any:
    yield
    for port in PORTS:
        for coro in port.tasks:
            coro.close()
    PORTS.clear()


class Port:
    """spawn and sleep for the host; sleeping takes no time (a turn timer runs out at once). Spawned
    coroutines run one after another when the test settles, inside its event loop."""

    def __init__(self) -> None:
        self.tasks: list[Coroutine[Any, Any, None]] = []
        PORTS.append(self)

    def spawn(self, coro: Any) -> None:
        self.tasks.append(coro)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)

    async def settle(self) -> None:
        while self.tasks:
            await self.tasks.pop(0)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class Guest:
    """A remote seat: a seat client whose messages go to the host as JSON text, and back."""

    def __init__(self, host: Host, peer: str, seat: int, watch: Callable[[int, str], None] | None = None) -> None:
        self.host = host
        self.peer = peer
        self.inbox: list[dict[str, Any]] = []
        self.client = SeatClient(seat, self.send)
        self.watch = watch
        host.open_peer(peer, self._deliver)

    def _deliver(self, message: dict[str, Any]) -> None:
        text = encode(message)
        if self.watch is not None:
            self.watch(self.client.seat, text)
        self.inbox.append(json.loads(text))
        assert self.client.receive_text(text) or message["t"] == "pong"

    def send(self, message: dict[str, Any]) -> None:
        if isinstance(self.host.clock, Clock):
            self.host.clock.now += 1 / RATE  # a seat that plays at a person's pace is never rate-limited
        self.host.receive_text(self.peer, encode(message))

    def raw(self, text: Any) -> dict[str, Any]:
        """Send ``text`` as it is; the host's answer (the last message received)."""
        before = len(self.inbox)
        self.host.receive_text(self.peer, text)
        assert len(self.inbox) > before, "no answer"
        return self.inbox[-1]

    def hello(self, name: str = "Ann", secret: str | None = None, seat: int | None = None) -> None:
        seat = self.client.seat if seat is None else seat
        self.send({"t": "hello", "seat": seat, "secret": self.host.seats[seat].secret if secret is None else secret,
                   "name": name, "lang": "fr"})


def online(seats: tuple[str, ...] = ("human", "friend", "friend"), timer: int = 0,
           clock: Clock | None = None) -> tuple[Host, Port]:
    port = Port()
    host = Host(port, speed="instant", clock=clock or Clock())
    settings = Settings(variant="podkidnoy", players=len(seats), seats=seats, seed=7, timer=timer)
    assert host.start(settings) is None
    return host, port


def run(coro: Coroutine[Any, Any, None]) -> None:
    run_coroutine(coro)


async def play_out(host: Host, port: Port, guests: dict[int, Guest], limit: int = 2000) -> None:
    """Every person's seat plays its first legal action, sent as a message, until the game ends."""
    host.kick()
    for _ in range(limit):
        await port.settle()
        game = host.game
        if game.result is not None:
            return
        seat = game.to_act
        assert seat is not None
        if seat in guests:
            client = guests[seat].client
            assert client.legal == [str(a) for a in game.legal_actions(seat)]
            client.act(client.legal[0])
        else:
            host.apply(seat, game.legal_actions(seat)[0])
    raise AssertionError("the game did not end")


# ---------------------------------------------------------------------------- joining
def test_a_hello_with_the_seat_secret_joins_and_gets_the_seats_own_position() -> None:
    host, _ = online()
    guest = Guest(host, "p1", 1)
    guest.hello(name="Ann")
    kinds = [m["t"] for m in guest.inbox]
    assert kinds[:2] == ["state", "status"]
    state = guest.inbox[0]
    assert state["view"] == host.game.view(1) and state["reset"] and state["seq"] == host.seq
    assert state["legal"] == [str(a) for a in host.game.legal_actions(1)]
    assert state["commit"] == host.commit and len(host.commit) == 64
    status = guest.client.seats
    assert [s["status"] for s in status] == ["connected", "connected", "away"]
    assert status[1]["name"] == "Ann"


def test_ping_is_answered_before_joining() -> None:
    host, _ = online()
    guest = Guest(host, "p1", 1)
    assert guest.raw(encode({"t": "ping", "id": 5})) == {"t": "pong", "id": 5}


def test_a_quick_message_reaches_every_seat() -> None:
    host, _ = online()
    ann, bob = Guest(host, "p1", 1), Guest(host, "p2", 2)
    ann.hello()
    bob.hello(name="Bob")
    ann.client.say("good_game")
    assert bob.inbox[-1] == {"t": "said", "seat": 1, "quick": "good_game"}
    assert bob.client.said == {1: "good_game"}


def test_names_are_data() -> None:
    host, _ = online()
    guest = Guest(host, "p1", 1)
    guest.hello(name="<img src=x onerror=f()>")
    assert host.seats[1].name == "<img src=x onerror=f()>"
    assert guest.client.seats[1]["name"] == "<img src=x onerror=f()>"
    guest.hello(name="a\u0000b\u202ec  d")
    assert host.seats[1].name == "abc d"


# ---------------------------------------------------------------------------- refusals
def refused(host: Host, guest: Guest, text: Any) -> dict[str, Any]:
    before = (host.seq, json.dumps(host.game.to_dict(), sort_keys=True))
    answer = guest.raw(text)
    assert answer["t"] == "refused", answer
    assert (host.seq, json.dumps(host.game.to_dict(), sort_keys=True)) == before
    assert answer["code"] in REFUSALS
    return answer


def joined_guest_to_act() -> tuple[Host, Port, Guest]:
    host, port = online(("human", "friend"))
    guest = Guest(host, "p1", 1)
    guest.hello()
    run(_settle(host, port))
    if host.game.to_act != 1:
        host.apply(0, host.game.legal_actions(0)[0])
    assert host.game.to_act == 1
    return host, port, guest


async def _settle(host: Host, port: Port) -> None:
    host.kick()
    await port.settle()


def act(guest: Guest, action: str, seq: int | None = None, seat: int | None = None) -> str:
    return encode({"t": "act", "seat": guest.client.seat if seat is None else seat,
                   "seq": guest.client.seq if seq is None else seq, "action": action})


@pytest.mark.parametrize(("code", "text"), [
    ("too_large", "x" * (MAX_INCOMING + 1)),
    ("too_large", json.dumps({"t": "ping", "id": 1, "pad": "é" * 1_000_000})),
    ("bad_json", "{not json"),
    ("bad_json", "[" * 100_0),
    ("bad_shape", "[1, 2]"),
    ("bad_shape", '{"t": "act", "seat": 1, "seq": 1}'),
    ("bad_shape", '{"t": "act", "seat": 1, "seq": 1, "action": "take", "extra": 1}'),
    ("bad_shape", '{"t": "act", "seat": true, "seq": 1, "action": "take"}'),
    ("bad_shape", '{"t": "act", "seat": 1, "seq": -1, "action": "take"}'),
    ("bad_shape", '{"t": "act", "seat": 1, "seq": 1, "action": "<b>take</b>"}'),
    ("unknown_type", '{"t": "deal"}'),
    ("unknown_type", '{"type": "act"}'),
    ("bad_secret", '{"t": "hello", "seat": 1, "secret": "not the secret..", "name": "x", "lang": "en"}'),
    ("bad_name", '{"t": "hello", "seat": 1, "secret": "AAAAAAAAAAAAAAAAAAAAAA", "name": "' + "n" * 25
     + '", "lang": "en"}'),
    ("bad_shape", '{"t": "hello", "seat": 1, "secret": "AAAAAAAAAAAAAAAAAAAAAA", "name": "x", "lang": "<>"}'),
    ("bad_quick", '{"t": "say", "seat": 1, "quick": "you cheat"}'),
])
def test_malformed_messages_are_refused_with_their_code(code: str, text: str) -> None:
    host, _port, guest = joined_guest_to_act()
    assert refused(host, guest, text)["code"] == code


def test_a_message_before_hello_is_not_joined() -> None:
    host, _ = online()
    guest = Guest(host, "p1", 1)
    assert refused(host, guest, encode({"t": "act", "seat": 1, "seq": host.seq, "action": "take"}))["code"] == \
        "not_joined"


def test_the_wrong_seat_is_refused() -> None:
    host, _port, guest = joined_guest_to_act()
    action = str(host.game.legal_actions(1)[0])
    assert refused(host, guest, act(guest, action, seat=0))["code"] == "wrong_seat"
    other = Guest(host, "p2", 0)
    assert refused(host, other, encode({"t": "hello", "seat": 0, "secret": "A" * 22, "name": "x",
                                        "lang": "en"}))["code"] == "wrong_seat"


def test_a_wrong_secret_for_a_friend_seat_is_refused() -> None:
    host, _ = online()
    thief = Guest(host, "p9", 2)
    answer = refused(host, thief, encode({"t": "hello", "seat": 2, "secret": host.seats[1].secret, "name": "x",
                                          "lang": "en"}))
    assert answer["code"] == "bad_secret"
    assert not host.connected(2)


def test_a_stale_seq_is_refused() -> None:
    host, _port, guest = joined_guest_to_act()
    action = str(host.game.legal_actions(1)[0])
    assert refused(host, guest, act(guest, action, seq=guest.client.seq - 1))["code"] == "stale_seq"


def test_out_of_turn_is_refused() -> None:
    host, _port, guest = joined_guest_to_act()
    while host.game.to_act == 1:
        host.apply(1, host.game.legal_actions(1)[0])
    assert refused(host, guest, act(guest, "take"))["code"] == "not_your_turn"


def test_an_illegal_action_is_refused_with_the_engines_reason_in_the_seats_language() -> None:
    host, _port, guest = joined_guest_to_act()
    hand = host.game.view(1)["hand"]
    legal = {str(a) for a in host.game.legal_actions(1)}
    wrong = next(f"attack {c}" for c in hand if f"attack {c}" not in legal) if host.game.table else "defend 6S 7S"
    answer = refused(host, guest, act(guest, wrong))
    assert answer["code"] == "illegal" and answer["params"]["reason"]
    engine = Message(answer["params"]["reason_code"], answer["params"]["reason_params"])
    assert refusal_text("fr", answer) == say("fr", engine) != say("en", engine)


def test_after_the_end_moves_are_refused() -> None:
    host, port = online(("human", "friend"))
    guest = Guest(host, "p1", 1)
    guest.hello()
    run(play_out(host, port, {1: guest}))
    assert refused(host, guest, act(guest, "take"))["code"] == "game_over"


def test_a_flood_is_dropped_unread_and_the_host_stays_usable() -> None:
    clock = Clock()
    host, _port = online(("human", "friend"), clock=clock)
    guest = Guest(host, "p1", 1)
    guest.hello()
    before = len(guest.inbox)
    for _ in range(1000):
        host.receive_text("p1", encode({"t": "ping", "id": 1}))
    answers = guest.inbox[before:]
    assert sum(m["t"] == "pong" for m in answers) == BURST - 1  # the hello used one token
    assert [m["code"] for m in answers if m["t"] == "refused"] == ["rate_limited"]
    assert host.peers["p1"].dropped == 1000 - (BURST - 1)
    clock.now += 1.0  # a second later the seat may speak again
    assert guest.raw(encode({"t": "ping", "id": 2})) == {"t": "pong", "id": 2}
    local = Guest(host, "p2", 0)
    assert local.raw(encode({"t": "ping", "id": 3}))["t"] == "pong"  # another peer is not slowed


def test_every_refusal_code_has_words_in_every_language() -> None:
    for code in REFUSALS:
        for lang in ("en", "fr"):
            text = refusal_text(lang, {"code": code, "params": {"size": 2, "most": 1}})
            assert text and code not in text


# ---------------------------------------------------------------------------- redaction
def test_no_message_names_a_card_its_seat_may_not_know() -> None:
    host, port = online(("human", "friend", "friend"))
    checked = []

    def watch(seat: int, text: str) -> None:
        if host.game.result is None:
            leaked = set(CARD_TOKEN.findall(text)) & secret_cards(host.game, seat)
            assert not leaked, f"seat {seat} was sent {leaked}"
            assert str(host.game.seed) not in text
            checked.append(text)

    guests = {1: Guest(host, "p1", 1, watch), 2: Guest(host, "p2", 2, watch)}
    for guest in guests.values():
        guest.hello()
    run(play_out(host, port, guests))
    assert len(checked) > 50


# ---------------------------------------------------------------------------- faults
def test_a_guest_who_drops_rejoins_the_same_position() -> None:
    host, _port, _guest = joined_guest_to_act()
    host.close_peer("p1")
    assert host.seat_status(1) == "away"
    again = Guest(host, "p1b", 1)
    again.hello()
    state = next(m for m in again.inbox if m["t"] == "state")
    assert state["reset"] and state["view"] == host.game.view(1)
    assert again.client.log == host.log_for(1) and again.client.log[0]["code"].startswith("event.deal")
    assert host.seat_status(1) == "connected"


def test_a_second_connection_replaces_the_first() -> None:
    host, _port, _guest = joined_guest_to_act()
    again = Guest(host, "p1b", 1)
    again.hello()
    assert "p1" not in host.peers and host.peers["p1b"].seat == 1


def test_an_away_seat_can_be_handed_to_the_ai_and_back() -> None:
    host, port, _guest = joined_guest_to_act()
    host.close_peer("p1")
    seq = host.seq
    host.hand_to_ai(1, True)
    assert host.seat_status(1) == "ai"
    run(port.settle())
    assert (host.seq > seq and host.game.to_act != 1) or host.game.result is not None
    host.hand_to_ai(1, False)
    assert host.seat_status(1) == "away"


def test_the_seat_comes_back_when_its_friend_rejoins() -> None:
    host, _port, _guest = joined_guest_to_act()
    host.hand_to_ai(1, True)
    again = Guest(host, "p1b", 1)
    again.hello()
    assert host.seat_status(1) == "connected" and not host.seats[1].stand_in


def test_the_turn_timer_lets_the_ai_play_for_a_slow_seat() -> None:
    host, port = online(("human", "friend"), timer=30)
    guest = Guest(host, "p1", 1)
    guest.hello()
    if host.game.to_act != 1:
        host.apply(0, host.game.legal_actions(0)[0])
    for coro in port.tasks:
        coro.close()
    port.tasks.clear()
    run(host.drive())
    played = len(host.game.history)
    assert guest.client.timer == {"seat": 1, "seconds": 30}
    assert len(port.tasks) == 1
    run(port.settle())  # sleeping takes no time: the 30 s run out at once
    assert host.game.history[played][0] == 1


def test_a_restored_host_resumes_and_its_guests_rejoin() -> None:
    host, _port, _guest = joined_guest_to_act()
    saved = json.loads(json.dumps(host.snapshot()))
    again = Host(Port(), speed="instant")
    again.restore(saved)
    assert again.game.to_dict() == host.game.to_dict() and again.commit == host.commit
    assert again.seq > host.seq
    back = Guest(again, "p1", 1)
    back.hello(secret=host.seats[1].secret)
    assert back.client.view == host.game.view(1) and back.client.seq == again.seq


# ---------------------------------------------------------------------------- fair deal
def test_the_commitment_hides_the_seed_and_binds_it() -> None:
    salt, seed = fairdeal.new_seed()
    commit = fairdeal.commitment(salt, seed)
    assert len(salt) == 16 and seed < 2**128 and len(commit) == 64
    assert commit == fairdeal.commitment(salt, seed) != fairdeal.commitment(salt, seed ^ 1)
    assert format(seed, "x") not in commit


def test_each_guest_verifies_the_deal_at_the_end() -> None:
    host, port = online(("human", "friend", "friend"))
    guests = {1: Guest(host, "p1", 1), 2: Guest(host, "p2", 2)}
    for guest in guests.values():
        guest.hello()
    run(play_out(host, port, guests))
    reveal = guests[1].inbox[-1]
    assert reveal["t"] == "reveal" and int(reveal["seed"], 16) == host.game.seed
    assert fairdeal.commitment(bytes.fromhex(reveal["salt"]), int(reveal["seed"], 16)) == host.commit
    assert guests[1].client.deal_check == guests[2].client.deal_check == "verified"
    client = guests[1].client
    assert client.view is not None
    forged = {**reveal, "seed": format(int(reveal["seed"], 16) ^ 1, "x")}
    assert not fairdeal.verify(client.commit, forged, 1, client.hands_seen, client.view)
    swapped = dict(client.hands_seen)
    first = min(swapped)
    outside = next(card for card in ("AS", "6S", "7S") if card not in swapped[first])
    swapped[first] = [*swapped[first][1:], outside]  # one card the guest never held in its place
    assert not fairdeal.verify(client.commit, reveal, 1, swapped, client.view)


def test_a_host_that_changes_the_deck_is_caught() -> None:
    host, port = online(("human", "friend"))
    guest = Guest(host, "p1", 1)
    guest.hello()
    assert host.series is not None
    honest = host.game
    host.series.game = Game.new(honest.rules, seed=12345, dealer=honest.dealer)  # a new deck, same commitment
    host.seq += 1
    host._broadcast(reset=True)
    run(play_out(host, port, {1: guest}))
    assert guest.client.deal_check == "mismatch"


def test_offline_tables_send_no_commitment() -> None:
    port = Port()
    host = Host(port, speed="instant")
    assert host.start(replace(Settings(), seed=3)) is None
    assert host.commit == "" and not host.online
