"""Play with friends in the page: the host's invites and the friend's reply, over web/net.js.

``HostNet`` (the host's page) keeps one invite per friend seat: a WebRTC offer whose ICE credentials
and DTLS certificate stay the same for the whole series (saved with the game), so the link a friend got
once lets them rejoin after a drop, and the host's own reload; it shows the link, its QR code and a box
for the friend's reply, and turns each open data channel into a host peer. ``GuestNet`` (a page opened
from an invite link) first looks for the table in another tab of this browser, else answers the offer
and shows the reply to send back; once connected it plays the seat through the controller.

The browser objects (``document``, ``window.durakNet``) are handed in by web/app.py, the one module that
imports pyscript; the markup is built by pure functions (``invite_html``, ``reply_html``) that the tests
call under CPython.
"""

from __future__ import annotations

import base64
import secrets
from collections.abc import Awaitable, Callable
from html import escape
from typing import Any

from .controller import Controller
from .host import Host
from .i18n import t
from .invite import Invite, InviteError, invite_code, link, parse_invite, parse_reply, reply_code
from .protocol import MAX_NAME, ProtocolError, encode, refusal
from .seat import display_names

try:
    from pyodide.ffi import jsnull as _JSNULL  # type: ignore[import-not-found]
except ImportError:  # CPython (tests) or an older Pyodide that gave None
    _JSNULL = None


def _js(value: Any) -> Any:
    """JavaScript ``null`` as ``None``, so DOM look-ups read naturally."""
    return None if value is None or value is _JSNULL else value


def _proxy(function: Callable[..., Any]) -> Any:
    """A Python callable JavaScript may keep and call later (Pyodide); itself under CPython."""
    try:
        from pyodide.ffi import create_proxy
    except ImportError:
        return function
    return create_proxy(function)


TAB_RETRIES = 20  # seconds a friend's tab waits for the host's tab to come back before asking for a reply


def seat_key(seat: int) -> str:
    return f"seat{seat}"


# ---------------------------------------------------------------------------- markup
def invite_html(lang: str, seat: int, name: str, link_text: str, qr_svg: str, message: str, can_scan: bool,
                reply: str = "") -> str:
    """One friend seat's invite box: the link, its QR code, the reply box and the connect button."""
    title = escape(t(lang, "invite_for", name=name))
    scan = (f'<button type="button" class="btn ghost" data-action="scan" data-seat="{seat}">'
            f'{escape(t(lang, "btn_scan"))}</button>') if can_scan else ""
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
        f'aria-label="{escape(t(lang, "invite_qr"))}">{qr_svg}</div><div class="invite-link-box">{shown}</div></div>'
        f'<label class="reply-label" for="reply-{seat}">{escape(t(lang, "reply_label"))}</label>'
        f'<textarea id="reply-{seat}" class="input reply-input" data-testid="reply-input" data-seat="{seat}" rows="3" '
        f'spellcheck="false" autocomplete="off">{escape(reply)}</textarea>'
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


def reply_html(lang: str, code: str, link_text: str, qr_svg: str, name: str) -> str:
    """The friend's side: the reply as text, link and QR code, and the name box."""
    return (
        f'<section class="reply" data-testid="reply" aria-labelledby="reply-title">'
        f'<h2 id="reply-title">{escape(t(lang, "join_title"))}</h2>'
        f'<p class="net-text">{escape(t(lang, "join_text"))}</p>'
        f'<label class="reply-label" for="player-name">{escape(t(lang, "player_name"))}</label>'
        f'<input id="player-name" class="input" data-testid="player-name" maxlength="{MAX_NAME}" '
        f'value="{escape(name)}" autocomplete="nickname">'
        f'<div class="invite-row"><div class="qr" data-testid="reply-qr" role="img" '
        f'aria-label="{escape(t(lang, "reply_qr"))}">{qr_svg}</div>'
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

    def __init__(self, controller: Controller, net: Any, document: Any, base_url: str,
                 spawn: Callable[[Any], None], ice: Callable[[], str]) -> None:
        self.controller = controller
        self.net = net
        self.document = document
        self.base_url = base_url
        self.spawn = spawn
        self.ice = ice
        self.messages: dict[int, str] = {}
        self.written: dict[int, str] = {}
        self.listening = False
        self.preparing: set[int] = set()
        self.qr_cache: dict[str, str] = {}

    @property
    def host(self) -> Host:
        return self.controller.host

    def creds(self, seat: int) -> dict[str, str]:
        """The seat's ICE credentials and certificate name, made once per series and saved with it."""
        saved = self.host.net.setdefault(str(seat), {})
        if "ufrag" not in saved:
            # standard base64 is made of ICE characters; invite.py packs it back into its bytes
            saved.update(ufrag=base64.b64encode(secrets.token_bytes(3)).decode(),
                         pwd=base64.b64encode(secrets.token_bytes(18)).decode(),
                         cert=f"seat{seat}-{secrets.token_hex(4)}")
            self.host.save()
        return saved

    def start(self) -> None:
        """A new online series, or one resumed after a reload: listen, then an invite per friend seat."""
        if not self.listening:
            self.listening = True
            self.net.listen(_proxy(self.on_message), _proxy(self.on_state))
            self.net.serveTabs(_proxy(self.admit))
            self.net.takeReplies(_proxy(self.take_reply))
        self.document.body.dataset.net = "host"
        for seat in self.friend_seats():
            self.net.close(seat_key(seat))
            self.spawn(self.prepare(seat))
        self.render()

    def stop(self) -> None:
        for seat in range(6):
            self.net.close(seat_key(seat))
        self.document.body.dataset.net = ""
        self.document.body.dataset.connected = "false"
        panel = _js(self.document.getElementById("net"))
        panel.innerHTML = ""
        panel.hidden = True
        self.written = {}

    def friend_seats(self) -> list[int]:
        return [i for i, s in enumerate(self.host.seats) if s.kind == "friend"]

    def admit(self, seat: Any) -> bool:
        return isinstance(seat, int | float) and int(seat) in self.friend_seats()

    async def prepare(self, seat: int) -> None:
        """A fresh connection waiting for the seat's reply, answering the offer of the seat's link."""
        if seat in self.preparing:
            return
        self.preparing.add(seat)
        try:
            creds = self.creds(seat)
            sdp = str(await self.net.offer(seat_key(seat), creds["ufrag"], creds["pwd"], self.ice(), creds["cert"]))
            if "link" not in creds:
                creds["link"] = link(self.base_url, "join", invite_code(seat, self.host.seats[seat].secret, sdp))
                self.host.save()
        except Exception as error:  # no WebRTC, a bad STUN address: say so in the seat's box
            self.messages[seat] = t(self.controller.lang, "connect_failed", reason=str(error))
        finally:
            self.preparing.discard(seat)
        self.render()

    async def connect(self, seat: int, text: str) -> None:
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
            await self.net.accept(seat_key(seat), reply.sdp)
        except Exception as error:
            self.messages[seat] = t(lang, "connect_failed", reason=str(error))
            self.render()
            self.spawn(self.prepare(seat))

    def take_reply(self, code: Any) -> bool:
        """A reply link opened in another tab of this browser: connect the seat it names."""
        try:
            reply = parse_reply(str(code))
        except InviteError:
            return False
        if reply.seat not in self.friend_seats() or self.host.connected(reply.seat):
            return False
        self.spawn(self.connect(reply.seat, str(code)))
        return True

    # -- links
    def on_state(self, key: Any, state: Any) -> None:
        key, state = str(key), str(state)
        if state == "open":
            self.host.open_peer(key, self._sender(key))
        else:
            self.host.close_peer(key)
            if key.startswith("seat"):
                seat = int(key[4:])
                self.messages.pop(seat, None)
                if self.host.series is not None and seat in self.friend_seats():
                    self.spawn(self.prepare(seat))  # ready for the friend's new reply to the same link
        self.render()

    def on_message(self, key: Any, text: Any) -> None:
        key = str(key)
        if _js(text) is None:  # dropped by net.js as too large or not text
            peer = self.host.peers.get(key)
            if peer is not None:
                peer.deliver(refusal(ProtocolError("too_large"), self.host.seq))
            return
        self.host.receive_text(key, str(text))

    def _sender(self, key: str) -> Callable[[dict[str, Any]], None]:
        def send(message: dict[str, Any]) -> None:
            self.net.send(key, encode(message))
        return send

    # -- the panel
    def render(self) -> None:
        """The invites panel: an invite box per friend seat that no one holds, a row per other friend seat."""
        host = self.host
        panel = _js(self.document.getElementById("net"))
        if host.series is None or not host.online or not self.listening:
            return
        lang = self.controller.lang
        names = display_names([{"kind": s.kind, "name": s.name} for s in host.seats], lang, [0])
        connected = all(host.connected(seat) or host.seats[seat].stand_in for seat in self.friend_seats())
        self.document.body.dataset.connected = "true" if connected else "false"
        if _js(self.document.getElementById("net-seats")) is None:
            panel.innerHTML = (f'<div class="net-head"><h2>{escape(t(lang, "invites_title"))}</h2>'
                               f'<button type="button" class="btn ghost" data-action="close-net">'
                               f'{escape(t(lang, "btn_close"))}</button></div><div id="net-seats"></div>')
            self.written = {}
        box = _js(self.document.getElementById("net-seats"))
        for seat in self.friend_seats():
            info = host.seats[seat]
            status = host.seat_status(seat)
            creds = host.net.get(str(seat), {})
            if host.connected(seat):
                html = seat_row_html(lang, seat, names[seat], status, info.stand_in)
            else:
                svg = self.qr(creds["link"]) if creds.get("link") else ""
                html = invite_html(lang, seat, names[seat], creds.get("link", ""), svg, self.messages.get(seat, ""),
                                   bool(self.net.canScan())) + seat_row_html(lang, seat, names[seat], status,
                                                                             info.stand_in)
            if self.written.get(seat) == html:
                continue
            section = _js(self.document.querySelector(f'#net-seats [data-net-box="{seat}"]'))
            typed = _js(self.document.querySelector(f'#net-seats textarea[data-seat="{seat}"]'))
            kept = str(typed.value) if typed is not None else ""
            if section is None:
                section = self.document.createElement("div")
                section.dataset.netBox = str(seat)
                box.appendChild(section)
            section.innerHTML = html
            textarea = _js(self.document.querySelector(f'#net-seats textarea[data-seat="{seat}"]'))
            if textarea is not None and kept:
                textarea.value = kept
            self.written[seat] = html
        if not connected:
            panel.hidden = False

    def qr(self, text: str) -> str:
        if text not in self.qr_cache:
            self.qr_cache[text] = str(self.net.qr(text))
        return self.qr_cache[text]

    def reply_text(self, seat: int) -> str:
        element = _js(self.document.querySelector(f'#net-seats textarea[data-seat="{seat}"]'))
        return str(element.value) if element is not None else ""


# ---------------------------------------------------------------------------- a friend's side
class GuestNet:
    """A page opened from an invite link: the seat's connection to its host."""

    def __init__(self, controller: Controller, net: Any, document: Any, base_url: str, invite: Invite,
                 spawn: Callable[[Any], None], ice: Callable[[], str], name: str,
                 save_name: Callable[[str], None], sleep: Callable[[float], Awaitable[None]]) -> None:
        self.controller = controller
        self.net = net
        self.document = document
        self.base_url = base_url
        self.invite = invite
        self.spawn = spawn
        self.ice = ice
        self.name = name
        self.save_name = save_name
        self.sleep = sleep
        self.key = ""
        self.answer_sdp = ""
        self.client = controller.join(invite.seat, self._send)

    @classmethod
    def from_fragment(cls, fragment: str) -> Invite | None:
        """The invite of a ``#join=…`` address, or None; raises InviteError when it is damaged."""
        if "join=" not in fragment:
            return None
        return parse_invite(fragment)

    def _send(self, message: dict[str, Any]) -> None:
        if self.key:
            self.net.send(self.key, encode(message))

    async def start(self) -> None:
        self.document.body.dataset.net = "guest"
        self.document.body.dataset.connected = "false"
        self.net.listen(_proxy(self.on_message), _proxy(self.on_state))
        key = str(await self.net.knock(self.invite.seat) or "")
        if key:
            self.key = key
            self.on_state(key, "open")
            return
        await self.answer()

    async def answer(self) -> None:
        """A new answer to the invite's offer, and the reply that carries it on screen."""
        self.key = "host"
        try:
            self.answer_sdp = str(await self.net.answer("host", self.invite.sdp, self.ice()))
        except Exception as error:
            self.show_text(t(self.controller.lang, "connect_failed", reason=str(error)))
            return
        self.render()

    def reply(self) -> str:
        return reply_code(self.invite.seat, self.name, self.answer_sdp)

    def render(self) -> None:
        panel = _js(self.document.getElementById("net"))
        if not self.answer_sdp or self.document.body.dataset.connected == "true":
            return
        code = self.reply()
        reply_link = link(self.base_url, "reply", code)
        html = reply_html(self.controller.lang, code, reply_link, str(self.net.qr(reply_link)), self.name)
        focused = _js(self.document.activeElement)
        typing = focused is not None and getattr(focused, "id", "") == "player-name"
        if typing:  # keep the caret in the name box: change only the reply
            _js(self.document.querySelector('[data-testid="reply-code"]')).textContent = code
            _js(self.document.querySelector('[data-testid="reply-qr"]')).innerHTML = str(self.net.qr(reply_link))
            _js(self.document.querySelector('[data-testid="reply-link"]')).href = reply_link
            _js(self.document.querySelector('#net [data-action="copy"]')).dataset.copy = code
        else:
            panel.innerHTML = html
        panel.hidden = False

    def show_text(self, text: str) -> None:
        panel = _js(self.document.getElementById("net"))
        panel.innerHTML = f'<p class="form-error" role="alert">{escape(text)}</p>'
        panel.hidden = False

    def set_name(self, name: str) -> None:
        self.name = name[:MAX_NAME]
        self.save_name(self.name)
        self.render()

    # -- the link
    def on_state(self, key: Any, state: Any) -> None:
        if str(key) != self.key:
            return
        if str(state) == "open":
            self.document.body.dataset.connected = "true"
            panel = _js(self.document.getElementById("net"))
            panel.hidden = True
            panel.innerHTML = ""
            self._send({"t": "hello", "seat": self.invite.seat, "secret": self.invite.secret, "name": self.name,
                        "lang": self.controller.lang})
            self.controller.set_current(True)
        else:
            self.document.body.dataset.connected = "false"
            self.controller.set_current(False)
            self.spawn(self.reconnect(was_tab=self.key.startswith("tab:")))

    async def reconnect(self, was_tab: bool) -> None:
        """After a drop: a table in another tab comes back by itself (its reload takes a few seconds);
        over the network the same link gets a new reply for the host to paste."""
        if was_tab:
            for _ in range(TAB_RETRIES):
                await self.sleep(1.0)
                key = str(await self.net.knock(self.invite.seat) or "")
                if key:
                    self.key = key
                    self.on_state(key, "open")
                    return
        await self.answer()

    def on_message(self, key: Any, text: Any) -> None:
        if str(key) == self.key and _js(text) is not None:
            self.controller.receive_remote(str(text))

