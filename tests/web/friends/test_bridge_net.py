"""Play with friends through the engine worker's messages (web/friends/bridge_net.py, web/friends/netpage.py)
under CPython: a host's page and a friend's page, each a bridge driven by messages only, joined by a stand-in for
web/friends/net.js that answers the worker's calls and carries each link's strings; a whole game played by their
gesture messages; and the page messages of play with friends that are refused, with their code, changing
nothing."""

from __future__ import annotations

import asyncio
import html
import json
import re
from typing import Any

import pytest

from tests.web.friends.test_invite import ANSWER, OFFER
from tests.web.table.test_protocol import Clock
from tests.web.worker.test_bridge import Page, boot_message, in_loop, make_a_move, refused
from web.friends import netpage
from web.friends.invite import meeting_key, parse_invite, parse_reply, room_id
from web.shared import storage
from web.table.host import RATE
from web.table.params import Settings

BASE = "http://127.0.0.1:8000/index.html"
INVITE_LINK = re.compile(r'data-testid="invite-link" href="([^"]+)"')
REPLY_CODE = re.compile(r'data-testid="reply-code">([^<]+)<')


def online_settings(friends: int = 1, **changes: Any) -> dict[str, Any]:
    seats = ("human",) + ("friend",) * friends
    return Settings(players=len(seats), seats=seats, seed=None, **changes).to_dict()


class NetPage(Page):
    """A page with web/friends/net.js: the worker's calls are answered the way net.js answers them (an offer
    carries the ICE credentials it was given; a room on the signalling relays is joined, and no relay
    answers, as on a network with none), links are carried by ``Wire``, and the table's flood limit runs on
    the wire's clock."""

    def __init__(self, wire: Wire, knock: str = "", forwarded: str = "false", relays: bool = False) -> None:
        super().__init__()
        self.relays = relays  # a signalling relay answers: the test itself says when a room's link opens
        self.wire = wire
        self.knock = knock
        self.forwarded = forwarded
        self.calls: list[dict[str, Any]] = []
        self.told: list[tuple[str, list[Any]]] = []

    def boot(self, search: str = "?speed=instant", href: str = BASE + "?speed=instant",
             store: dict[str, str] | None = None) -> None:
        self.send(boot_message(search, store=store))
        if self.bridge.controller is not None:
            self.bridge.controller.host.clock = self.wire.clock
        self.send({"t": "address", "href": href})

    def work(self) -> bool:
        """Answer the calls posted since last time and carry the strings sent; True if there were any."""
        worked = False
        for message in [m for m in self.posted if m["t"] in ("call", "net") and not m.get("_done")]:
            message["_done"] = True
            worked = True
            if message["t"] == "net":
                self.wire.carry(self, message["peer"], message["text"])
            elif message["id"] == 0:
                self.told.append((message["method"], message["args"]))
                if message["method"] == "close":
                    self.wire.close(self, message["args"][0])
            else:
                self.calls.append(message)
                self.send({"t": "called", "id": message["id"], "ok": True, "value": self.answer(message)})
                if message["method"] == "meet" and not self.relays:
                    self.send({"t": "link", "peer": message["args"][0], "state": "unreachable"})
        return worked

    def answer(self, call: dict[str, Any]) -> str:
        method, args = call["method"], call["args"]
        if method == "offer":
            _key, ufrag, pwd, _ice, _cert = args
            return re.sub(r"a=ice-pwd:.*\r\n", f"a=ice-pwd:{pwd}\r\n",
                          re.sub(r"a=ice-ufrag:.*\r\n", f"a=ice-ufrag:{ufrag}\r\n", OFFER))
        if method == "answer":
            return ANSWER
        if method == "accept":
            self.wire.connect(self, args[0])
            return ""
        if method == "knock":
            return self.knock
        if method == "meet":
            return ""
        assert method == "forwardReply", method
        return self.forwarded

    @property
    def panel(self) -> dict[str, Any]:
        return self.of("panel")[-1]


class Wire:
    """The data channels between a host's page and its friends' pages: host key ``seat<i>``, guest key ``host``.
    Its clock moves on by 1/RATE with each friend's message: friends who play at a person's pace, whom the
    host's flood limit (web/table/host.py ``BURST``, ``RATE``) never drops, however fast the test runs."""

    def __init__(self) -> None:
        self.clock = Clock()
        self.host: NetPage | None = None
        self.guests: dict[int, NetPage] = {}
        self.open: set[int] = set()

    def connect(self, host: NetPage, key: str) -> None:
        seat = int(key[4:])
        self.open.add(seat)
        host.send({"t": "link", "peer": key, "state": "open"})
        self.guests[seat].send({"t": "link", "peer": "host", "state": "open"})

    def close(self, page: NetPage, key: str) -> None:
        if page is self.host and key.startswith("seat") and int(key[4:]) in self.open:
            self.open.discard(int(key[4:]))
            self.guests[int(key[4:])].send({"t": "link", "peer": "host", "state": "closed"})

    def carry(self, page: NetPage, key: str, text: str) -> None:
        if page is self.host:
            seat = int(key[4:])
            if seat in self.open:
                self.guests[seat].send({"t": "net", "peer": "host", "text": text})
        else:
            seat = next((s for s, guest in self.guests.items() if guest is page), -1)
            if seat in self.open:
                assert self.host is not None
                self.clock.now += 1 / RATE
                self.host.send({"t": "net", "peer": f"seat{seat}", "text": text})


async def pump(*pages: NetPage) -> None:
    """Run the pages until nothing is left to answer or carry and their workers' tasks are done."""
    idle = 0
    while idle < 2:
        if any([page.work() for page in pages]):
            idle = 0
            await asyncio.sleep(0)
            continue
        tasks = [task for page in pages for task in page.bridge.port.tasks]
        if tasks:
            done, _ = await asyncio.wait(tasks, timeout=0.2)
            idle = 0 if done else idle + 1
        else:
            idle += 1
            await asyncio.sleep(0)


def to_play(*pages: NetPage) -> NetPage | None:
    """The first page whose latest frame lets its seat act."""
    return next((page for page in pages if 'data-live="true"' in page.frame["hand"]), None)


def wire_refusals(host: NetPage) -> list[dict[str, Any]]:
    """The refusals the host sent its friends on the wire."""
    return [answer for answer in (json.loads(m["text"]) for m in host.of("net")) if answer["t"] == "refused"]


async def host_and_friend() -> tuple[NetPage, NetPage, Wire]:
    """A host deals a two-player online game; a friend opens the invite, replies, and the host connects."""
    wire = Wire()
    host = wire.host = NetPage(wire)
    host.boot()
    host.send({"t": "friends", "action": "ice", "seat": -1, "text": ""})
    host.send({"t": "start", "settings": online_settings()})
    await pump(host)
    assert host.panel["net"] == "host" and host.panel["connected"] is False and host.panel["show"] is True
    assert host.panel["seats"] == [1]
    shown = INVITE_LINK.findall(host.panel["html"])[0]
    assert f'data-qr="{shown}"' in host.panel["html"], "the page draws the invite's QR code from its link"
    link = html.unescape(shown)
    assert link.startswith(BASE + "#join=") and parse_invite(link).seat == 1
    key = meeting_key(link.split("#", 1)[1])
    assert key and key == json.loads(host.local[storage.SAVE_KEY])["net"]["1"]["key"]

    friend = wire.guests[1] = NetPage(wire)
    friend.boot(search="", href=link)
    await pump(host, friend)
    # no tab of this browser holds the table, and no signalling relay answers: the reply, saying why
    assert [c["method"] for c in friend.calls] == ["knock", "meet", "answer"]
    meet = next(c for c in friend.calls if c["method"] == "meet")
    secret = parse_invite(link).secret
    assert meet["args"] == ["room", "guest", room_id(secret), key, "", ""]
    assert key not in room_id(secret) and secret not in room_id(secret)
    assert ["room1", "host", room_id(secret), key, "", ""] in [c["args"] for c in host.calls if c["method"] == "meet"]
    assert friend.panel["net"] == "guest" and friend.panel["show"] is True
    assert 'data-testid="relay-note"' in friend.panel["html"]
    friend.send({"t": "friends", "action": "name", "seat": -1, "text": "Ann"})
    assert friend.panel["name"] == "Ann"
    code = REPLY_CODE.findall(friend.panel["html"])[0]
    assert parse_reply(code).name == "Ann"
    assert json.loads(friend.local[storage.PREFS_KEY])["name"] == "Ann"

    host.send({"t": "friends", "action": "connect", "seat": 1, "text": code})
    await pump(host, friend)
    return host, friend, wire


@in_loop
async def test_a_host_and_a_friend_play_a_whole_game_by_messages() -> None:
    host, friend, _ = await host_and_friend()
    assert host.panel["connected"] is True and 'data-testid="invite"' not in host.panel["html"]
    assert friend.panel == {**friend.panel, "html": "", "connected": True}
    assert 'data-seat-status="connected"' in host.frame["opponents"]
    assert "Ann" in host.frame["opponents"]
    controller = host.bridge.controller
    assert controller is not None
    table = controller.host
    moves = 0  # only moves the table took are counted: on a loaded machine a pump may return while a task runs
    while moves < 600 and not (host.frame["over"] and friend.frame["over"]):
        page = to_play(host, friend)
        assert page or host.bridge.port.tasks or friend.bridge.port.tasks, "nobody to play"
        if page is not None:
            seq, status = table.seq, page.frame["status"]
            make_a_move(page)
            await pump(host, friend)
            who = "the host" if page is host else "the friend"
            assert table.seq > seq, (f"{who}'s move was not taken (frame status {status!r}); refused on the page: "
                                     f"{page.of('refused')[-3:]}, on the wire: {wire_refusals(host)[-3:]}, "
                                     f"dropped unread: {sum(peer.dropped for peer in table.peers.values())}")
            moves += 1
        else:
            await pump(host, friend)
    assert host.frame["over"] and friend.frame["over"]
    assert 'data-testid="deal-check" data-result="verified"' in json.dumps(friend.frame).replace('\\"', '"'), \
        "the friend's page checked the deal"
    assert "deal-check" not in json.dumps(host.frame)
    save = json.loads(host.local[storage.SAVE_KEY])
    assert save["series"]["game"]["result"] is not None
    assert not host.of("refused") and not friend.of("refused") and not host.of("error") and not friend.of("error")


@in_loop
async def test_a_friend_who_drops_gets_a_new_reply_and_the_host_a_new_invite() -> None:
    host, friend, wire = await host_and_friend()
    offers = [c for c in host.calls if c["method"] == "offer"]
    host.send({"t": "link", "peer": "seat1", "state": "closed"})
    wire.open.discard(1)
    friend.send({"t": "link", "peer": "host", "state": "closed"})
    await pump(host, friend)
    again = [c for c in host.calls if c["method"] == "offer"]
    assert len(again) == len(offers) + 1 and again[-1]["args"][1:3] == offers[-1]["args"][1:3], \
        "the same ICE credentials: the old link still answers"
    assert 'data-testid="invite"' in host.panel["html"] and 'data-seat-status="away"' in host.frame["opponents"]
    assert friend.panel["connected"] is False and REPLY_CODE.findall(friend.panel["html"])
    host.send({"t": "friends", "action": "hand-to-ai", "seat": 1, "text": ""})
    await pump(host, friend)
    assert 'data-seat-status="ai"' in host.frame["opponents"] and host.panel["connected"] is True


@in_loop
async def test_a_friends_malformed_protocol_text_is_answered_by_the_host_on_the_wire() -> None:
    host, _, _ = await host_and_friend()
    game = json.loads(host.local[storage.SAVE_KEY])["series"]["game"]
    answered = len(host.of("net"))
    host.send({"t": "net", "peer": "seat1", "text": '{"t": "act", '})
    host.send({"t": "link", "peer": "seat1", "state": "dropped"})  # net.js dropped a message unread
    codes = [json.loads(m["text"]).get("code") for m in host.of("net")[answered:]]
    assert codes == ["bad_json", "too_large"]
    assert json.loads(host.local[storage.SAVE_KEY])["series"]["game"] == game


@in_loop
async def test_a_reply_link_opened_in_the_hosts_browser_is_taken_by_the_table() -> None:
    wire = Wire()
    host = wire.host = NetPage(wire)
    host.boot()
    host.send({"t": "start", "settings": online_settings()})
    await pump(host)
    friend = wire.guests[1] = NetPage(wire)
    friend.boot(search="", href=INVITE_LINK.findall(host.panel["html"])[0])
    await pump(host, friend)
    code = REPLY_CODE.findall(friend.panel["html"])[0]

    opened = NetPage(wire, forwarded="true")  # the reply link, in another tab of the host's browser
    opened.boot(search="", href=BASE + "#reply=" + code)
    await pump(opened)
    assert [c["method"] for c in opened.calls] == ["forwardReply"]
    assert opened.of("notice")[-1]["code"] == "reply_forwarded" and not opened.of("frame")
    host.send({"t": "friends", "action": "reply", "seat": -1, "text": code})  # net.js's takeReplies
    await pump(host, friend)
    assert ("replyTaken", []) in host.told and friend.panel["connected"] is True

    alone = NetPage(Wire())
    alone.boot(search="", href=BASE + "#reply=" + code)
    await pump(alone)
    assert alone.of("notice")[-1]["code"] == "reply_no_table"


@in_loop
async def test_a_friend_in_another_tab_joins_without_a_reply() -> None:
    wire = Wire()
    host = wire.host = NetPage(wire)
    host.boot()
    host.send({"t": "start", "settings": online_settings()})
    await pump(host)
    tab = NetPage(Wire(), knock="tab:0123456789abcdef")  # its strings are kept, not carried
    tab.boot(search="", href=INVITE_LINK.findall(host.panel["html"])[0])
    await pump(tab)
    assert [c["method"] for c in tab.calls] == ["knock"]
    assert tab.panel["connected"] is True
    hello = json.loads(tab.of("net")[0]["text"])
    assert tab.of("net")[0]["peer"] == "tab:0123456789abcdef" and hello["t"] == "hello" and hello["seat"] == 1


@in_loop
async def test_the_stun_field_is_checked_by_the_dialog_and_kept_by_an_online_deal() -> None:
    page = NetPage(Wire())
    page.boot()
    page.send({"t": "friends", "action": "ice", "seat": -1, "text": "stun:stun.example.org:3478, turn.example.org"})
    answer = page.send({"t": "dialog", "settings": online_settings()})[0]
    assert answer["problems"] == [["ice_servers_bad", {"text": "turn.example.org"}]]
    assert "turn.example.org" in answer["error"]
    page.send({"t": "friends", "action": "ice", "seat": -1, "text": " turn:ann:pw@turn.example.org:3478 "})
    assert page.send({"t": "dialog", "settings": online_settings()})[0]["problems"] == []
    page.send({"t": "start", "settings": online_settings()})
    await pump(page)
    assert json.loads(page.local[storage.PREFS_KEY])["ice"] == "turn:ann:pw@turn.example.org:3478"
    assert page.calls[0]["args"][3] == "turn:ann:pw@turn.example.org:3478", "the offer uses it"


@in_loop
async def test_a_new_deal_closes_the_online_series_links_and_empties_the_panel() -> None:
    host, _, _ = await host_and_friend()
    host.send({"t": "start", "settings": Settings(players=2, seats=("human", "easy"), seed=3).to_dict()})
    await pump(host)
    closed = [args[0] for method, args in host.told if method == "close"][-12:]
    assert closed == [key for i in range(6) for key in (f"seat{i}", f"room{i}")]
    assert host.panel == {**host.panel, "html": "", "net": ""}


HOSTILE: list[tuple[dict[str, Any], str]] = [
    ({"t": "net", "peer": "local:0", "text": '{"t": "ping", "id": 1}'}, "bad_peer"),  # the host's own seat
    ({"t": "net", "peer": "seat1"}, "bad_shape"),
    ({"t": "net", "peer": "seat1", "text": None}, "bad_shape"),
    ({"t": "link", "peer": "seat1", "state": "half-open"}, "bad_value"),
    ({"t": "link", "peer": "tab:XY", "state": "open"}, "bad_peer"),
    ({"t": "called", "id": 99, "ok": True, "value": ""}, "no_call"),
    ({"t": "called", "id": 1, "ok": "yes", "value": ""}, "bad_shape"),
    ({"t": "friends", "action": "resign", "seat": -1, "text": ""}, "bad_value"),
    ({"t": "friends", "action": "connect", "seat": 9, "text": "x"}, "bad_value"),
    ({"t": "friends", "action": "connect", "seat": 0, "text": "x"}, "bad_value"),  # the host's seat
    ({"t": "friends", "action": "hand-to-ai", "seat": 1, "text": "now"}, "bad_value"),
    ({"t": "friends", "action": "quick", "seat": -1, "text": "<b>hi</b>"}, "bad_value"),
    ({"t": "friends", "action": "quick", "seat": 1, "text": "oops"}, "bad_value"),
    ({"t": "friends", "action": "name", "seat": -1, "text": "Ann"}, "not_a_guest"),
    ({"t": "friends", "action": "ice", "seat": "-1", "text": ""}, "bad_shape"),
    ({"t": "address", "href": BASE}, "booted_twice"),
]


@pytest.mark.parametrize(("message", "code"), HOSTILE)
@in_loop
async def test_malformed_friends_messages_are_refused_and_change_nothing(message: dict[str, Any], code: str) -> None:
    wire = Wire()
    host = wire.host = NetPage(wire)
    host.boot()
    host.send({"t": "start", "settings": online_settings()})
    await pump(host)
    controller = host.bridge.controller
    assert controller is not None
    before = (len(host.posted), dict(host.local), dict(controller.host.peers))
    assert refused(host.send(message)) == code
    assert (len(host.posted) - 1, dict(host.local), controller.host.peers) == before


@pytest.mark.parametrize(("message", "code"), [
    ({"t": "net", "peer": "seat1", "text": "{}"}, "not_online"),
    ({"t": "link", "peer": "seat1", "state": "open"}, "not_online"),
    ({"t": "friends", "action": "connect", "seat": 1, "text": "x"}, "not_online"),
    ({"t": "friends", "action": "reply", "seat": -1, "text": "x"}, "not_online"),
])
@in_loop
async def test_friends_messages_to_a_table_without_friends_are_refused(message: dict[str, Any], code: str) -> None:
    page = NetPage(Wire())
    page.boot("?variant=podkidnoy&players=2&level=easy&seed=1&speed=instant",
              BASE + "?variant=podkidnoy&players=2&level=easy&seed=1&speed=instant")
    before = page.frame
    assert refused(page.send(message)) == code
    assert page.frame is before and "panel" not in {m["t"] for m in page.posted}


@pytest.mark.parametrize("href", ["index.html", "javascript:alert(1)", BASE + "#join=" + "x" * 5000])
@in_loop
async def test_a_page_address_that_is_none_is_refused(href: str) -> None:
    page = NetPage(Wire())
    page.send(boot_message("?speed=instant"))
    assert refused(page.send({"t": "address", "href": href})) == "bad_value"


@in_loop
async def test_a_damaged_invite_is_said_and_the_page_is_a_table() -> None:
    page = NetPage(Wire())
    page.boot(search="", href=BASE + "#join=AAAA")
    assert page.of("notice")[-1]["code"] == "join_bad"
    assert not page.of("call")
    page.send({"t": "start", "settings": Settings(players=2, seats=("human", "easy"), seed=2).to_dict()})
    assert page.of("frame")


async def relay_table(wire: Wire) -> tuple[NetPage, str]:
    """A host's table met through a relay (ws://127.0.0.1:9/), and its invite link for seat 1."""
    host = wire.host = NetPage(wire, relays=True)
    host.boot(href=BASE + "?speed=instant&relays=ws://127.0.0.1:9/")
    host.send({"t": "friends", "action": "ice", "seat": -1, "text": ""})
    host.send({"t": "start", "settings": online_settings()})
    await pump(host)
    return host, html.unescape(INVITE_LINK.findall(host.panel["html"])[0])


@in_loop
async def test_a_friend_met_through_a_relay_needs_no_reply_and_waits_for_the_table_after_a_drop() -> None:
    wire = Wire()
    host, link = await relay_table(wire)
    assert link.startswith(BASE + "?relays=ws://127.0.0.1:9/#join=")
    friend = wire.guests[1] = NetPage(wire, relays=True)
    friend.boot(search="?relays=ws://127.0.0.1:9/", href=link)
    await pump(host, friend)
    assert [c["method"] for c in friend.calls] == ["knock", "meet"]
    assert next(c for c in friend.calls if c["method"] == "meet")["args"][4] == "ws://127.0.0.1:9/"
    assert 'data-testid="relay-wait"' in friend.panel["html"] and "reply-code" not in friend.panel["html"]

    friend.send({"t": "link", "peer": "room", "state": "open"})
    await pump(host, friend)
    hello = json.loads(next(m for m in friend.of("net") if m["peer"] == "room")["text"])
    assert hello["t"] == "hello" and hello["seat"] == 1 and hello["secret"] == parse_invite(link).secret
    assert friend.panel["connected"] is True

    friend.send({"t": "link", "peer": "room", "state": "closed"})
    await pump(host, friend)
    assert friend.panel["connected"] is False
    assert "reconnecting" in friend.panel["html"] and "reply-code" not in friend.panel["html"]
    assert [c["method"] for c in friend.calls] == ["knock", "meet"], "no reply: the relay brings the table back"

    other = NetPage(wire, relays=True)
    other.boot(search="", href=link)
    await pump(other)
    other.send({"t": "link", "peer": "room", "state": "taken"})
    await pump(other)
    assert "seat is taken" in other.panel["html"] and other.panel["connected"] is False


@in_loop
async def test_a_friend_who_finds_no_table_is_told_why_but_not_over_a_refusal_or_a_link() -> None:
    wire = Wire()
    _host, link = await relay_table(wire)
    waiting, taken, met = (NetPage(wire, relays=True) for _ in range(3))
    looked_long_enough = asyncio.Event()

    async def sleep(seconds: float) -> None:
        """The friends' waits: STILL_LOOKING_S ends when the test says it has passed, others as they would."""
        await (looked_long_enough.wait() if seconds == netpage.STILL_LOOKING_S else asyncio.sleep(seconds))

    for page in (waiting, taken, met):
        page.bridge.port.sleep = sleep
    for page in (waiting, taken, met):
        page.boot(search="", href=link)
    await pump(waiting, taken, met)
    taken.send({"t": "link", "peer": "room", "state": "taken"})
    met.send({"t": "link", "peer": "room", "state": "open"})
    await pump(waiting, taken, met)
    assert "seat is taken" in taken.panel["html"] and "Still looking" not in waiting.panel["html"]
    looked_long_enough.set()
    await pump(waiting, taken, met)
    assert 'data-testid="relay-wait"' in waiting.panel["html"]
    assert "found only while its host has it open" in waiting.panel["html"]
    assert "seat is taken" in taken.panel["html"]
    assert met.panel["connected"] is True and met.panel["html"] == ""
