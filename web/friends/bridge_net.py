"""Play with friends across the engine worker's boundary (README, "Threads").

WebRTC and BroadcastChannel live on the page's main thread (web/friends/net.js: a worker has no
``RTCPeerConnection``); the host, its seats and the friend's seat client live here. So web/friends/table-net.js
relays each link's strings and state changes to the worker, and carries out the worker's calls into
net.js. web/worker/bridge.py checks each message's keys and types (``FIELDS``); ``Friends`` checks the values
before anything reads them, and refuses with a code (``REFUSALS``) and changes nothing otherwise. A
friend's own protocol text is still checked by web/table/protocol.py (``Host.receive_text``,
``SeatClient.receive_text``): these messages only carry it.

Page -> worker:
  ``address`` {href}   once, right after ``boot``: the page's address. Invite links are made from it; a
               ``#join=`` fragment makes this page a friend's seat, a ``#reply=`` one hands the reply to
               the table's tab. (The page boots such a page without its saved game, so it neither resumes
               nor deals one.) A host whose saved series is online shows its invites again from here.
  ``net``      {peer, text}    a string off link ``peer`` (``seat<i>``, ``tab:<nonce>`` or ``host``)
  ``link``     {peer, state}   ``open``, ``closed``, or ``dropped``: a message net.js dropped unread
               (too large, or not text), which the host answers ``too_large``; for a link met through
               the signalling relays also ``unreachable`` (no relay answered) and ``taken`` (the seat's
               player is connected from another browser)
  ``called``   {id, ok, value} the answer to the worker's ``call`` ``id``: its result, or its error's text
  ``friends``  {action, seat, text}   the panel's and table's buttons: ``connect`` (seat, text: the reply),
               ``hand-to-ai`` / ``wait-friend`` (seat), ``quick`` (text), ``reply`` (text: a reply link's
               code forwarded by another tab), ``name`` (text: the friend's name), ``ice`` (text: the
               dialog's STUN/TURN field, "" when the dialog is not for friends; sent before each ``dialog``,
               which answers its problem, and kept in the preferences when an online game is dealt);
               the fields an action does not use are -1 / ""
Worker -> page:
  ``net``      {peer, text}    a protocol string to send on link ``peer``
  ``call``     {id, method, args}   web/friends/net.js's ``method(...args)``: ``offer``, ``accept``,
               ``answer``, ``meet``, ``knock``, ``forwardReply`` (answered by ``called``), ``close`` and
               ``replyTaken`` (id 0: no answer)
  ``panel``    {html, net, connected, show, seats, name, words}   web/friends/netpage.py's ``Panel``
"""

from __future__ import annotations

import asyncio
import itertools
import re
from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from web.friends.invite import InviteError, meeting_key, parse_relays
from web.friends.netpage import GuestNet, HostNet, NetError, Panel
from web.shared import storage
from web.shared.i18n import t
from web.table.controller import Controller
from web.table.protocol import QUICK_MESSAGES

FIELDS: dict[str, dict[str, type]] = {
    "address": {"href": str},
    "net": {"peer": str, "text": str},
    "link": {"peer": str, "state": str},
    "called": {"id": int, "ok": bool, "value": str},
    "friends": {"action": str, "seat": int, "text": str},
}
REFUSALS = ("bad_peer", "no_call", "not_online", "not_a_guest")
LINK_STATES = ("open", "closed", "dropped", "unreachable", "taken")
#: A link's key as web/friends/net.js makes them: the host's per seat (by reply code, or met through the relays),
#: a tab's (a nonce), a friend's to its host (likewise).
PEER = re.compile(r"seat[0-5]|room[0-5]?|tab:[a-z0-9]{8,32}|host")
#: What each ``friends`` action uses: (seat, text).
ACTIONS = {"connect": (True, True), "hand-to-ai": (True, False), "wait-friend": (True, False),
           "quick": (False, True), "reply": (False, True), "name": (False, True), "ice": (False, True)}
MAX_HREF = 4096
MAX_ICE = 1000  # characters of the STUN/TURN field kept in the preferences
MAX_CODE = 2000  # characters of a reply code (net.js forwards at most this many)
#: One STUN/TURN server as web/friends/net.js's parseIce reads it: "stun:host:port" or "turn:user:password@host:port".
ICE_SERVER = re.compile(r"(stuns?|turns?):(?:([^:@]+):([^@]+)@)?(.+)")


def ice_problem(text: str) -> str:
    """The first server of a STUN/TURN field (several, separated by spaces or commas) net.js cannot read."""
    return next((item for item in re.split(r"[\s,]+", text) if item and not ICE_SERVER.fullmatch(item)), "")


class Refused(ValueError):
    """A friends message that is not obeyed: web/worker/bridge.py answers it ``refused`` with its code."""

    def __init__(self, code: str, text: str, **params: Any) -> None:
        super().__init__(text)
        self.code = code
        self.params = params


class PagePort:
    """``NetPort`` by messages: each call gets an id and a future that the page's ``called`` settles."""

    def __init__(self, post: Callable[[dict[str, Any]], None], lang: Callable[[], str]) -> None:
        self.post = post
        self.lang = lang
        self.ids = itertools.count(1)
        self.waiting: dict[int, asyncio.Future[str]] = {}
        self.shown: dict[str, Any] | None = None

    async def call(self, method: str, *args: str | int) -> str:
        call_id = next(self.ids)
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.waiting[call_id] = future
        self.post({"t": "call", "id": call_id, "method": method, "args": list(args)})
        return await future

    def called(self, call_id: int, ok: bool, value: str) -> None:
        future = self.waiting.pop(call_id, None)
        if future is None:
            raise Refused("no_call", f"no call {call_id} is waiting for an answer", id=call_id)
        if not future.done():
            if ok:
                future.set_result(value)
            else:
                future.set_exception(NetError(value))

    def tell(self, method: str, *args: str | int) -> None:
        self.post({"t": "call", "id": 0, "method": method, "args": list(args)})

    def send(self, peer: str, text: str) -> None:
        self.post({"t": "net", "peer": peer, "text": text})

    def panel(self, panel: Panel) -> None:
        message = {"t": "panel", **asdict(panel), "seats": list(panel.seats)}
        if message != self.shown:  # the host's panel is rebuilt after every frame: sent when it changed
            self.shown = message
            self.post(message)

    def notice(self, code: str) -> None:
        self.post({"t": "notice", "code": code, "params": {}, "text": t(self.lang(), code)})


class Friends:
    """One page's play with friends in the worker: the host's invites, or the friend's seat."""

    def __init__(self, post: Callable[[dict[str, Any]], None], controller: Controller,
                 spawn: Callable[[Any], None], sleep: Callable[[float], Any], store: storage.Store,
                 prefs: dict[str, Any]) -> None:
        self.controller = controller
        self.spawn = spawn
        self.sleep = sleep
        self.store = store
        self.prefs = prefs
        self.port = PagePort(post, lambda: controller.lang)
        self.base_url = ""
        self.typed_ice = ""  # the dialog's STUN/TURN field
        self.host_net: HostNet | None = None
        self.guest_net: GuestNet | None = None

    def ice(self) -> str:
        """The STUN/TURN setting the player typed (empty: none, for one local network)."""
        value = self.prefs.get("ice", "")
        return value if isinstance(value, str) else ""

    def _save_pref(self, key: str, value: str) -> None:
        self.prefs[key] = value
        storage.save_prefs(self.store, self.prefs)

    # ------------------------------------------------------------------ the table's deals
    def stop(self) -> None:
        """Before a new deal: the online series' links close."""
        if self.host_net is not None:
            self.host_net.stop()

    def dialog_problems(self) -> list[tuple[str, dict[str, Any]]]:
        """The dialog's STUN/TURN field's problem, as web/table/params.py's ``problems`` says a setting's."""
        bad = ice_problem(self.typed_ice)
        return [("ice_servers_bad", {"text": bad})] if bad else []

    def started(self) -> None:
        """A deal from the dialog: an online one keeps the STUN/TURN field for the next time, and invites."""
        if self.controller.host.online:
            self._save_pref("ice", self.typed_ice)
        self.resume()

    def resume(self) -> None:
        """After a deal or a restore: an online series shows its invites (once the page's address is known)."""
        if self.host_net is not None and self.controller.host.online:
            self.host_net.start()

    def render(self) -> None:
        """After each frame: who is connected changes with the host's messages, the language with the menu."""
        if self.guest_net is not None:
            self.guest_net.render()
        elif self.host_net is not None:
            self.host_net.render()

    # ------------------------------------------------------------------ the page's messages
    def receive(self, message: dict[str, Any]) -> None:
        """One of ``FIELDS``' messages, its keys and types checked by web/worker/bridge.py."""
        getattr(self, "on_" + message["t"])(message)

    def on_address(self, message: dict[str, Any]) -> None:
        href = message["href"]
        if self.base_url:
            raise Refused("booted_twice", "the page's address comes once")
        if not re.fullmatch(r"https?://[^\s#?]+(?:\?[^\s#]*)?(?:#\S*)?", href) or len(href) > MAX_HREF:
            raise Refused("bad_value", f"not a page's address: {href[:60]!r}", key="href")
        self.base_url = base = href.split("#", 1)[0].split("?", 1)[0]
        fragment = href.split("#", 1)[1] if "#" in href else ""
        relays = parse_relays(href.split("#", 1)[0].split("?", 1)[1] if "?" in href.split("#", 1)[0] else "")
        if "reply=" in fragment:
            self.spawn(self._forward_reply(href))
            return
        try:
            invite = GuestNet.from_fragment("#" + fragment)
        except InviteError:
            self.port.notice("join_bad")
            invite = None
        if invite is None:
            self.host_net = HostNet(self.controller, self.port, base, self.spawn, self.ice, relays)
            self.resume()
            return
        name = self.prefs.get("name", "")
        self.guest_net = GuestNet(self.controller, self.port, base, invite, self.spawn, self.sleep, self.ice,
                                  name if isinstance(name, str) else "", lambda value: self._save_pref("name", value),
                                  meeting_key(fragment), relays)
        self.spawn(self.guest_net.start())

    async def _forward_reply(self, href: str) -> None:
        """A reply link opened here: the table's tab of this browser takes it, or there is none."""
        try:
            taken = await self.port.call("forwardReply", "#" + href.split("#", 1)[1])
        except NetError:
            taken = "false"
        self.port.notice("reply_forwarded" if taken == "true" else "reply_no_table")

    def _peer(self, message: dict[str, Any]) -> str:
        peer: str = message["peer"]
        if not PEER.fullmatch(peer):
            raise Refused("bad_peer", f"no link {peer[:40]!r}", key="peer")
        return peer

    def on_net(self, message: dict[str, Any]) -> None:
        peer = self._peer(message)
        if self.guest_net is not None:
            self.guest_net.on_message(peer, message["text"])
        elif self.host_net is not None and self.host_net.online:
            self.host_net.on_message(peer, message["text"])
        else:
            raise Refused("not_online", "no friend plays at this table")

    def on_link(self, message: dict[str, Any]) -> None:
        peer = self._peer(message)
        state = message["state"]
        if state not in LINK_STATES:
            raise Refused("bad_value", f"a link's state is one of {', '.join(LINK_STATES)}", key="state")
        if self.guest_net is not None:
            if state != "dropped":
                self.guest_net.on_state(peer, state)
        elif self.host_net is not None and self.host_net.online:
            if state == "dropped":
                self.host_net.on_message(peer, None)
            else:
                self.host_net.on_state(peer, state)
        else:
            raise Refused("not_online", "no friend plays at this table")

    def on_called(self, message: dict[str, Any]) -> None:
        self.port.called(message["id"], message["ok"], message["value"])

    def on_friends(self, message: dict[str, Any]) -> None:
        action, seat, text = message["action"], message["seat"], message["text"]
        uses = ACTIONS.get(action)
        if uses is None:
            raise Refused("bad_value", f"a friends action is one of {', '.join(ACTIONS)}", key="action")
        if (uses[0] and not 0 <= seat < 6) or (not uses[0] and seat != -1):
            raise Refused("bad_value", f"{action}: seat {seat}", key="seat")
        if not uses[1] and text:
            raise Refused("bad_value", f"{action} takes no text", key="text")
        if action == "ice":
            self.typed_ice = text.strip()[:MAX_ICE]
        elif action == "name":
            if self.guest_net is None:
                raise Refused("not_a_guest", "only a friend's page has a name to send")
            self.guest_net.set_name(text)
        elif action == "quick":
            if text not in QUICK_MESSAGES:
                raise Refused("bad_value", f"a quick message is one of {', '.join(QUICK_MESSAGES)}", key="text")
            self.controller.say(text)
        else:
            self._host_action(action, seat, text)

    def _host_action(self, action: str, seat: int, text: str) -> None:
        host_net = self.host_net
        if host_net is None or not host_net.online:
            raise Refused("not_online", "no friend plays at this table")
        if action == "reply":
            if host_net.take_reply(text[:MAX_CODE]):
                self.port.tell("replyTaken")
        elif seat not in host_net.friend_seats():
            raise Refused("bad_value", f"seat {seat} is not a friend's", key="seat")
        elif action == "connect":
            self.spawn(host_net.connect(seat, text[:MAX_CODE]))
        else:
            host_net.hand_to_ai(seat, action == "hand-to-ai")
