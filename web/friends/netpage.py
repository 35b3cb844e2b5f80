"""Play with friends, the engine worker's side: the host's invites and the friend's reply.

``HostNet`` (the host's table) keeps one invite per friend seat: a WebRTC offer whose ICE credentials
and DTLS certificate stay the same for the whole series (saved with the game), so the link a friend got
once lets them rejoin after a drop, and the host's own reload; its panel shows the link, its QR code and
a box for the friend's reply, and each open data channel becomes a host peer. Each seat also waits in its
room on the signalling relays (``room<i>``: web/friends/relay.js), under the seat's meeting key that the link
carries after ``&k=``. ``GuestNet`` (a page opened from an invite link) first looks for the table in
another tab of this browser, else meets the host in the seat's room, with no reply at all; when no relay
answers (or the link has no key) it answers the offer and shows the reply to send back. Once connected
it plays the seat through the controller.

Neither touches the page: WebRTC lives on the main thread (web/friends/net.js; a worker has no
``RTCPeerConnection``), so both speak through a ``NetPort`` (web/friends/bridge_net.py: messages to the page and
back) and describe the panel as a ``Panel`` the page writes. The markup is built by pure functions
(``invite_html``, ``seat_row_html``, ``reply_html``).
"""

from __future__ import annotations

import base64
import secrets
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

from web.friends.invite import (
    Invite,
    InviteError,
    invite_code,
    link,
    meeting_link,
    new_key,
    parse_invite,
    parse_reply,
    reply_code,
    room_id,
)
from web.shared.i18n import t
from web.shared.markup import escape
from web.table.controller import Controller
from web.table.host import Host
from web.table.protocol import MAX_NAME, ProtocolError, encode, refusal
from web.table.seat import display_names

TAB_RETRIES = 20  # seconds a friend's tab waits for the host's tab to come back before asking for a reply
SEATS = 6  # the most seats a table has: the host's links are seat0 .. seat5


def seat_key(seat: int) -> str:
    return f"seat{seat}"


def room_key(seat: int) -> str:
    """The host's link to seat ``seat`` met through the signalling relays (web/friends/relay.js)."""
    return f"room{seat}"


GUEST_ROOM = "room"  # a friend's link to the host met through the relays
#: Seconds a friend looks for the table through the relays before being told why it may not be found (a
#: join through a relay takes a few seconds; the page goes on looking after the hint).
STILL_LOOKING_S = 10.0


class NetError(RuntimeError):
    """A call into web/friends/net.js failed on the page (no WebRTC, a bad STUN address, no such invite)."""


@dataclass(frozen=True)
class Panel:
    """The friends panel (``#net``) and the body's ``data-net`` / ``data-connected``, as the page writes
    them. ``html`` empty: the panel is emptied and hidden; ``show``: the page opens it (else it keeps the
    player's choice); ``seats``: the friend seats a tab of this browser may take (the host's); ``name``:
    the name the guest's reply was made with (the page hides the reply while a newer one is typed)."""

    html: str
    net: str
    connected: bool
    show: bool = False
    seats: tuple[int, ...] = ()
    name: str = ""
    words: dict[str, str] = field(default_factory=dict)


class NetPort(Protocol):
    """The page's web/friends/net.js, reached by messages."""

    def call(self, method: str, *args: str | int) -> Awaitable[str]:
        """A net.js call whose answer comes later; raises NetError when it failed."""

    def tell(self, method: str, *args: str | int) -> None:
        """A net.js call with no answer (close a link, say a forwarded reply was taken)."""

    def send(self, peer: str, text: str) -> None:
        """A protocol message for the friend (or host) on link ``peer``."""

    def panel(self, panel: Panel) -> None:
        """The friends panel as it is now."""

    def notice(self, code: str) -> None:
        """A message for the player, in the table's language."""


def page_words(lang: str) -> dict[str, str]:
    """What the page says itself about the panel's buttons: copied, the camera's scan and its failure."""
    return {key: t(lang, key) for key in ("copied", "btn_scan", "btn_scan_stop", "scan_unavailable")}


# ---------------------------------------------------------------------------- markup
def invite_html(lang: str, seat: int, name: str, link_text: str, message: str) -> str:
    """One friend seat's invite box: the link, its QR code (drawn by the page from ``data-qr``), the reply
    box, the connect button and the scan button (the page removes it where there is no camera)."""
    title = escape(t(lang, "invite_for", name=name))
    scan = (f'<button type="button" class="btn ghost" data-action="scan" data-seat="{seat}">'
            f'{escape(t(lang, "btn_scan"))}</button>')
    if link_text:
        shown = (f'<a data-testid="invite-link" href="{escape(link_text)}" target="_blank" rel="noopener" '
                 f'class="invite-link">{escape(link_text)}</a>'
                 f'<button type="button" class="btn ghost" data-action="copy" data-copy="{escape(link_text)}">'
                 f'{escape(t(lang, "btn_copy"))}</button>')
    else:
        shown = f'<p class="net-wait">{escape(t(lang, "connecting"))}</p>'
    return (
        f'<section class="invite" data-testid="invite" data-seat="{seat}" aria-labelledby="invite-title-{seat}">'
        f'<h3 id="invite-title-{seat}">{title}</h3>'
        f'<p class="net-text">{escape(t(lang, "invite_text"))}</p>'
        f'<div class="invite-row"><div class="qr" data-testid="invite-qr" role="img" '
        f'aria-label="{escape(t(lang, "invite_qr"))}" data-qr="{escape(link_text)}"></div>'
        f'<div class="invite-link-box">{shown}</div></div>'
        f'<label class="reply-label" for="reply-{seat}">{escape(t(lang, "reply_label"))}</label>'
        f'<textarea id="reply-{seat}" class="input reply-input" data-testid="reply-input" data-seat="{seat}" rows="3" '
        f'spellcheck="false" autocomplete="off"></textarea>'
        f'<div class="panel-buttons"><button type="button" class="btn primary" data-action="connect" '
        f'data-seat="{seat}">{escape(t(lang, "btn_connect"))}</button>{scan}</div>'
        f'<video class="scan-video" data-seat="{seat}" hidden muted playsinline></video>'
        f'<p class="form-error" role="alert" data-net-message="{seat}">{escape(message)}</p></section>'
    )


def seat_row_html(lang: str, seat: int, name: str, status: str, stand_in: bool) -> str:
    """A friend seat that is connected or handed to the AI: its status and the host's AI choice."""
    if stand_in:
        button = (f'<button type="button" class="btn ghost" data-action="wait-friend" data-seat="{seat}">'
                  f'{escape(t(lang, "btn_wait_friend"))}</button>')
    else:
        button = (f'<button type="button" class="btn ghost" data-action="hand-to-ai" data-seat="{seat}">'
                  f'{escape(t(lang, "btn_hand_to_ai"))}</button>')
    return (f'<div class="net-seat" data-net-seat="{seat}"><span class="seat-name">{escape(name)}</span>'
            f'<span class="net-status" data-status="{status}">{escape(t(lang, "status_" + status))}</span>'
            f"{button}</div>")


def reply_html(lang: str, code: str, link_text: str, name: str, note: str = "") -> str:
    """The friend's side: the reply as text, link and QR code (drawn by the page from ``data-qr``), and the
    name box; ``note`` says why a reply is needed (no signalling relay answered)."""
    why = f'<p class="net-text" data-testid="relay-note" role="status">{escape(note)}</p>' if note else ""
    return (
        f'<section class="reply" data-testid="reply" aria-labelledby="reply-title">'
        f'<h2 id="reply-title">{escape(t(lang, "join_title"))}</h2>{why}'
        f'<p class="net-text">{escape(t(lang, "join_text"))}</p>'
        f'<label class="reply-label" for="player-name">{escape(t(lang, "player_name"))}</label>'
        f'<input id="player-name" class="input" data-testid="player-name" maxlength="{MAX_NAME}" '
        f'value="{escape(name)}" autocomplete="nickname">'
        f'<div class="invite-row"><div class="qr" data-testid="reply-qr" role="img" '
        f'aria-label="{escape(t(lang, "reply_qr"))}" data-qr="{escape(link_text)}"></div>'
        f'<div class="invite-link-box"><span class="reply-label">{escape(t(lang, "reply_code"))}</span>'
        f'<code class="reply-code" data-testid="reply-code">{escape(code)}</code>'
        f'<button type="button" class="btn primary" data-action="copy" data-copy="{escape(code)}">'
        f'{escape(t(lang, "btn_copy"))}</button>'
        f'<a class="invite-link" data-testid="reply-link" href="{escape(link_text)}">'
        f'{escape(t(lang, "reply_link"))}</a></div></div>'
        f'<p class="net-wait" role="status">{escape(t(lang, "join_waiting"))}</p></section>'
    )


# ---------------------------------------------------------------------------- the host's side
class HostNet:
    """The host's invites and connections."""

    def __init__(self, controller: Controller, port: NetPort, base_url: str, spawn: Callable[[Any], None],
                 ice: Callable[[], str], relays: str = "") -> None:
        self.controller = controller
        self.port = port
        self.base_url = base_url
        self.spawn = spawn
        self.ice = ice
        self.relays = relays  # the page's ?relays= list ("" for the default), carried by its invite links
        self.messages: dict[int, str] = {}
        self.online = False  # the invites are up: this table's friend seats are being served
        self.preparing: set[int] = set()

    @property
    def host(self) -> Host:
        return self.controller.host

    def creds(self, seat: int) -> dict[str, str]:
        """The seat's ICE credentials, certificate name and meeting key, made once per series and saved
        with it (so the seat's link stays good after the host's reload)."""
        saved = self.host.net.setdefault(str(seat), {})
        if "key" not in saved:
            saved["key"] = new_key()
            saved.pop("link", None)
            self.host.save()
        if "ufrag" not in saved:
            # standard base64 is made of ICE characters; invite.py packs it back into its bytes
            saved.update(ufrag=base64.b64encode(secrets.token_bytes(3)).decode(),
                         pwd=base64.b64encode(secrets.token_bytes(18)).decode(),
                         cert=f"seat{seat}-{secrets.token_hex(4)}")
            self.host.save()
        return saved

    def start(self) -> None:
        """A new online series, or one resumed after a reload: an invite per friend seat."""
        self.online = True
        for seat in self.friend_seats():
            self.port.tell("close", seat_key(seat))
            self.spawn(self.prepare(seat))
            self.spawn(self.meet(seat))
        self.render()

    def stop(self) -> None:
        """The online series ends (a new game is dealt): its links close and the panel empties."""
        if not self.online:
            return
        self.online = False
        for seat in range(SEATS):
            self.port.tell("close", seat_key(seat))
            self.port.tell("close", room_key(seat))
        self.messages.clear()
        self.port.panel(Panel(html="", net="", connected=False))

    def friend_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.host.seats) if s.kind == "friend"]

    async def prepare(self, seat: int) -> None:
        """A fresh connection waiting for the seat's reply, answering the offer of the seat's link."""
        if seat in self.preparing:
            return
        self.preparing.add(seat)
        try:
            creds = self.creds(seat)
            sdp = await self.port.call("offer", seat_key(seat), creds["ufrag"], creds["pwd"], self.ice(),
                                       creds["cert"])
            if "link" not in creds:
                code = invite_code(seat, self.host.seats[seat].secret, sdp)
                creds["link"] = meeting_link(self.base_url, self.relays, code, creds["key"])
                self.host.save()
        except NetError as error:  # no WebRTC, a bad STUN address: say so in the seat's box
            self.messages[seat] = t(self.controller.lang, "connect_failed", reason=str(error))
        finally:
            self.preparing.discard(seat)
        self.render()

    async def meet(self, seat: int) -> None:
        """The seat's room on the signalling relays: its friend's page meets this one there by itself."""
        creds = self.creds(seat)
        try:
            await self.port.call("meet", room_key(seat), "host", room_id(self.host.seats[seat].secret),
                                 creds["key"], self.relays, self.ice())
        except NetError as error:
            self.messages[seat] = t(self.controller.lang, "connect_failed", reason=str(error))
            self.render()

    async def connect(self, seat: int, text: str) -> None:
        """The friend's reply, pasted or scanned into the seat's box: answer the seat's offer with it."""
        lang = self.controller.lang
        try:
            reply = parse_reply(text)
        except InviteError:
            self.messages[seat] = t(lang, "reply_bad")
            self.render()
            return
        if reply.seat != seat:
            self.messages[seat] = t(lang, "refused_wrong_seat")
            self.render()
            return
        self.messages[seat] = t(lang, "connecting")
        self.render()
        try:
            await self.port.call("accept", seat_key(seat), reply.sdp)
        except NetError as error:
            self.messages[seat] = t(lang, "connect_failed", reason=str(error))
            self.render()
            self.spawn(self.prepare(seat))

    def take_reply(self, code: str) -> bool:
        """A reply link opened in another tab of this browser: connect the seat it names."""
        try:
            reply = parse_reply(code)
        except InviteError:
            return False
        if not self.online or reply.seat not in self.friend_seats() or self.host.connected(reply.seat):
            return False
        self.spawn(self.connect(reply.seat, code))
        return True

    def hand_to_ai(self, seat: int, on: bool) -> bool:
        """The host's choice for a friend seat; False when ``seat`` is not one."""
        if seat not in self.friend_seats():
            return False
        self.host.hand_to_ai(seat, on)
        self.render()
        return True

    # -- links
    def on_state(self, key: str, state: str) -> None:
        if state == "unreachable":  # no relay answered: the friend's page shows a reply to paste here
            seat = int(key[4:])
            if not self.host.connected(seat):
                self.messages[seat] = t(self.controller.lang, "relay_unreachable_host")
        elif state == "taken":
            return
        elif state == "open":
            if key.startswith("room"):
                self.messages.pop(int(key[4:]), None)  # met after all: no word of a missing relay
            self.host.open_peer(key, self._sender(key))
        else:
            self.host.close_peer(key)
            if key.startswith("seat"):
                seat = int(key[4:])
                self.messages.pop(seat, None)
                if self.online and self.host.series is not None and seat in self.friend_seats():
                    self.spawn(self.prepare(seat))  # ready for the friend's new reply to the same link
        self.render()

    def on_message(self, key: str, text: str | None) -> None:
        if text is None:  # dropped by net.js as too large or not text
            peer = self.host.peers.get(key)
            if peer is not None:
                peer.deliver(refusal(ProtocolError("too_large"), self.host.seq))
            return
        self.host.receive_text(key, text)

    def _sender(self, key: str) -> Callable[[dict[str, Any]], None]:
        def send(message: dict[str, Any]) -> None:
            self.port.send(key, encode(message))
        return send

    # -- the panel
    def render(self) -> None:
        """The invites panel: an invite box per friend seat that no one holds, a row per friend seat."""
        host = self.host
        if host.series is None or not host.online or not self.online:
            return
        lang = self.controller.lang
        names = display_names([{"kind": s.kind, "name": s.name} for s in host.seats], lang, [0])
        seats = self.friend_seats()
        connected = all(host.connected(seat) or host.seats[seat].stand_in for seat in seats)
        boxes = []
        for seat in seats:
            info = host.seats[seat]
            row = seat_row_html(lang, seat, names[seat], host.seat_status(seat), info.stand_in)
            if not host.connected(seat):
                row = invite_html(lang, seat, names[seat], host.net.get(str(seat), {}).get("link", ""),
                                  self.messages.get(seat, "")) + row
            boxes.append(f'<div data-net-box="{seat}">{row}</div>')
        html = (f'<div class="net-head"><h2>{escape(t(lang, "invites_title"))}</h2>'
                f'<button type="button" class="btn ghost" data-action="close-net">'
                f'{escape(t(lang, "btn_close"))}</button></div><div id="net-seats">{"".join(boxes)}</div>')
        self.port.panel(Panel(html=html, net="host", connected=connected, show=not connected, seats=tuple(seats),
                              words=page_words(lang)))


# ---------------------------------------------------------------------------- a friend's side
class GuestNet:
    """A page opened from an invite link: the seat's connection to its host."""

    def __init__(self, controller: Controller, port: NetPort, base_url: str, invite: Invite,
                 spawn: Callable[[Any], None], sleep: Callable[[float], Awaitable[None]], ice: Callable[[], str],
                 name: str, save_name: Callable[[str], None], key: str = "", relays: str = "") -> None:
        self.controller = controller
        self.port = port
        self.base_url = base_url
        self.invite = invite
        self.spawn = spawn
        self.sleep = sleep
        self.ice = ice
        self.name = name[:MAX_NAME]
        self.save_name = save_name
        self.meeting_key = key  # the invite's k=: "" for a link without one (reply codes only)
        self.relays = relays
        self.key = ""
        self.answer_sdp = ""
        self.note = ""  # why the page shows a reply: no relay answered
        self.connected = False
        self.looking = False  # the page shows only "looking for the table" (and may add why it takes long)
        self.client = controller.join(invite.seat, self._send)

    @classmethod
    def from_fragment(cls, fragment: str) -> Invite | None:
        """The invite of a ``#join=…`` address, or None; raises InviteError when it is damaged."""
        if "join=" not in fragment:
            return None
        return parse_invite(fragment)

    def _send(self, message: dict[str, Any]) -> None:
        if self.key:
            self.port.send(self.key, encode(message))

    async def start(self) -> None:
        self.port.panel(Panel(html="", net="guest", connected=False))
        key = await self.port.call("knock", self.invite.seat)
        if key:
            self.key = key
            self.on_state(key, "open")
            return
        if not self.meeting_key:
            await self.answer()
            return
        self.show_text(t(self.controller.lang, "relay_looking"), alert=False)
        self.looking = True
        self.spawn(self.still_looking())
        try:
            await self.port.call("meet", GUEST_ROOM, "guest", room_id(self.invite.secret), self.meeting_key,
                                 self.relays, self.ice())
        except NetError:
            await self.fall_back()

    async def still_looking(self) -> None:
        """No table after STILL_LOOKING_S: say what it takes (the host's page open, the link whole), so a
        friend whose host has closed the table is not left looking at a wait line with no end."""
        await self.sleep(STILL_LOOKING_S)
        if self.looking:
            self.show_text(t(self.controller.lang, "relay_still_looking"), alert=False)

    async def fall_back(self) -> None:
        """No relay answered: the reply-code path, saying why (the room stays joined in case one comes)."""
        if self.connected or self.answer_sdp:
            return
        self.note = t(self.controller.lang, "relay_unreachable")
        await self.answer()

    async def answer(self) -> None:
        """A new answer to the invite's offer, and the reply that carries it on screen."""
        self.looking = False
        self.key = "host"
        try:
            self.answer_sdp = await self.port.call("answer", "host", self.invite.sdp, self.ice())
        except NetError as error:
            self.show_text(t(self.controller.lang, "connect_failed", reason=str(error)))
            return
        self.render()

    def reply(self) -> str:
        return reply_code(self.invite.seat, self.name, self.answer_sdp)

    def render(self) -> None:
        if not self.answer_sdp or self.connected:
            return
        lang = self.controller.lang
        code = self.reply()
        html = reply_html(lang, code, link(self.base_url, "reply", code), self.name, self.note)
        self.port.panel(Panel(html=html, net="guest", connected=False, show=True, name=self.name,
                              words=page_words(lang)))

    def show_text(self, text: str, alert: bool = True) -> None:
        shown = (f'<p class="form-error" role="alert">{escape(text)}</p>' if alert
                 else f'<p class="net-wait" data-testid="relay-wait" role="status">{escape(text)}</p>')
        self.port.panel(Panel(html=shown, net="guest", connected=False, show=True))

    def set_name(self, name: str) -> None:
        self.name = name[:MAX_NAME]
        self.save_name(self.name)
        self.render()

    # -- the link
    def on_state(self, key: str, state: str) -> None:
        if key == GUEST_ROOM:
            self.on_room(state)
            return
        if key != self.key:
            return
        if state == "open":
            self._opened()
        else:
            self.connected = False
            self.port.panel(Panel(html="", net="guest", connected=False))
            self.controller.set_current(False)
            self.spawn(self.reconnect(was_tab=key.startswith("tab:")))

    def _opened(self) -> None:
        self.connected = True
        self.looking = False
        self.port.panel(Panel(html="", net="guest", connected=True))
        self._send({"t": "hello", "seat": self.invite.seat, "secret": self.invite.secret, "name": self.name,
                    "lang": self.controller.lang})
        self.controller.set_current(True)

    def on_room(self, state: str) -> None:
        """The relays' link: it opens (again, after a reload of either side) by itself."""
        lang = self.controller.lang
        if state == "open":
            if not self.connected or self.key == GUEST_ROOM:
                self.key = GUEST_ROOM
                self._opened()
        elif state == "closed":
            if self.key == GUEST_ROOM and self.connected:
                self.connected = False
                self.controller.set_current(False)
                self.show_text(t(lang, "relay_reconnecting"), alert=False)
        elif state == "unreachable":
            self.spawn(self.fall_back())
        elif state == "taken" and not self.connected:
            self.looking = False
            self.show_text(t(lang, "seat_taken"))

    async def reconnect(self, was_tab: bool) -> None:
        """After a drop: a table in another tab comes back by itself (its reload takes a few seconds);
        over the network the same link gets a new reply for the host to paste."""
        if was_tab:
            for _ in range(TAB_RETRIES):
                await self.sleep(1.0)
                key = await self.port.call("knock", self.invite.seat)
                if key:
                    self.key = key
                    self.on_state(key, "open")
                    return
        await self.answer()

    def on_message(self, key: str, text: str | None) -> None:
        if key == self.key and text is not None:
            self.controller.receive_remote(text)
