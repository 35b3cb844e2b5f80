"""Invites and replies: a WebRTC offer or answer squeezed into a short link, and back into SDP.

A browser's SDP for one data channel is some 700 characters, but only a few fields differ from one
connection to the next: the ICE username fragment and password, the DTLS certificate's SHA-256
fingerprint, the DTLS role and the UDP candidates (address and port). Those are packed as bytes
(a UUID ``.local`` name as its 16 bytes, an IPv4 address as 4) and written in URL-safe base64; the
rest of the SDP is the fixed template below. An invite adds the seat and the seat's secret; a reply
adds the seat and the friend's name. Both travel in the fragment (``#join=``, ``#reply=``), which
browsers never send to the web server.

Wire form (version 1): ``[version|kind] [seat] ...`` then the SDP block: ``[setup] ufrag pwd
fingerprint(32) [count] candidates``, each candidate ``[type|address form] address port(2)``.
An invite link also carries the seat's 128-bit meeting key after ``&k=`` and, when the table uses its own
signalling relays, their list in the page's ``?relays=`` (``meeting_link``): a friend's page meets the
host through those relays with no reply at all (web/friends/relay.js), and the offer stays in the link
for when no relay answers. The relays' room is ``room_id``: a hash of the seat's secret, never of the key.

Pure Python; malformed input raises ``InviteError``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import re
import secrets
import uuid
from dataclasses import dataclass
from urllib.parse import parse_qsl, quote

from web.table.protocol import MAX_NAME, clean_name

VERSION = 1
INVITE, REPLY = 0, 1
SETUPS = ("actpass", "active", "passive")
TYPES = ("host", "srflx", "prflx", "relay")
PRIORITY = {"host": 2113937151, "srflx": 1686052607, "prflx": 1845501695, "relay": 41885439}
IPV4, IPV6, MDNS, NAME = 0, 1, 2, 3
MAX_CANDIDATES = 8
ICE_CHARS = re.compile(r"[A-Za-z0-9+/]{4,256}")
#: A signalling relay's address as web/friends/relay.js's parseRelays takes it.
RELAY_URL = re.compile(r"wss?://[^\s,]{1,200}")
MAX_RELAYS = 8
KEY_CHARS = 22  # base64url characters of a 128-bit key

TEMPLATE = ("v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\na=group:BUNDLE 0\r\na=msid-semantic: WMS\r\n"
            "m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\nc=IN IP4 0.0.0.0\r\n{candidates}"
            "a=ice-ufrag:{ufrag}\r\na=ice-pwd:{pwd}\r\na=ice-options:trickle\r\na=fingerprint:sha-256 {fingerprint}\r\n"
            "a=setup:{setup}\r\na=mid:0\r\na=sctp-port:5000\r\na=max-message-size:262144\r\n")


class InviteError(ValueError):
    """An invite or reply that cannot be read (cut short, altered, or from another version)."""


@dataclass(frozen=True)
class Invite:
    seat: int
    secret: str
    sdp: str


@dataclass(frozen=True)
class Reply:
    seat: int
    name: str
    sdp: str


# ---------------------------------------------------------------------------- base64
def b64encode(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


def b64decode(text: str) -> bytes:
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text):
        raise InviteError("not URL-safe base64")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise InviteError("not URL-safe base64") from None


class _Reader:
    def __init__(self, data: bytes) -> None:
        self.data = data
        self.at = 0

    def take(self, n: int) -> bytes:
        if self.at + n > len(self.data):
            raise InviteError("cut short")
        chunk = self.data[self.at:self.at + n]
        self.at += n
        return chunk

    def byte(self) -> int:
        return self.take(1)[0]

    def end(self) -> None:
        if self.at != len(self.data):
            raise InviteError("unexpected bytes at the end")


# ---------------------------------------------------------------------------- ICE strings
def _pack_ice(text: str) -> bytes:
    """An ICE ufrag or password: its base64 bytes when it is whole base64 (what browsers make), else ASCII."""
    if not ICE_CHARS.fullmatch(text):
        raise InviteError(f"not an ICE string: {text!r}")
    if len(text) % 4 == 0:
        raw = base64.b64decode(text)
        if base64.b64encode(raw).decode() == text and len(raw) < 128:
            return bytes([0x80 | len(raw)]) + raw
    return bytes([len(text)]) + text.encode("ascii")


def _unpack_ice(reader: _Reader) -> str:
    head = reader.byte()
    if head & 0x80:
        return base64.b64encode(reader.take(head & 0x7F)).decode("ascii")
    text = reader.take(head).decode("ascii", "replace")
    if not ICE_CHARS.fullmatch(text):
        raise InviteError("not an ICE string")
    return text


# ---------------------------------------------------------------------------- candidates
def _pack_address(address: str) -> tuple[int, bytes]:
    if address.endswith(".local"):
        try:
            return MDNS, uuid.UUID(address[:-6]).bytes
        except ValueError:
            pass
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        name = address.encode("ascii", "replace")[:255]
        return NAME, bytes([len(name)]) + name
    return (IPV4 if ip.version == 4 else IPV6), ip.packed


def _unpack_address(form: int, reader: _Reader) -> str:
    if form == IPV4:
        return str(ipaddress.IPv4Address(reader.take(4)))
    if form == IPV6:
        return str(ipaddress.IPv6Address(reader.take(16)))
    if form == MDNS:
        return f"{uuid.UUID(bytes=reader.take(16))}.local"
    name = reader.take(reader.byte()).decode("ascii", "replace")
    if not re.fullmatch(r"[A-Za-z0-9.:-]+", name):
        raise InviteError("not a host name")
    return name


def _candidates(sdp: str) -> list[tuple[str, str, int]]:
    """(type, address, port) of the SDP's UDP candidates, in order, without repeats."""
    found: list[tuple[str, str, int]] = []
    for match in re.finditer(r"^a=candidate:\S+ 1 (\S+) \d+ (\S+) (\d+) typ (\S+)", sdp, re.M):
        transport, address, port, kind = match.groups()
        entry = (kind, address, int(port))
        if transport.lower() == "udp" and kind in TYPES and entry not in found:
            found.append(entry)
    return found[:MAX_CANDIDATES]


# ---------------------------------------------------------------------------- SDP
def _field(sdp: str, name: str) -> str:
    match = re.search(rf"^a={name}:(\S+)", sdp, re.M)
    if match is None:
        raise InviteError(f"the SDP has no {name}")
    return match.group(1)


def pack_sdp(sdp: str) -> bytes:
    """The fields of an offer's or answer's SDP that the template does not hold, as bytes."""
    setup = _field(sdp, "setup")
    if setup not in SETUPS:
        raise InviteError(f"unknown DTLS role {setup!r}")
    match = re.search(r"^a=fingerprint:sha-256 ([0-9A-Fa-f:]{95})\s*$", sdp, re.M)
    if match is None:
        raise InviteError("the SDP has no SHA-256 fingerprint")
    out = bytearray([SETUPS.index(setup)])
    out += _pack_ice(_field(sdp, "ice-ufrag")) + _pack_ice(_field(sdp, "ice-pwd"))
    out += bytes.fromhex(match.group(1).replace(":", ""))
    candidates = _candidates(sdp)
    out.append(len(candidates))
    for kind, address, port in candidates:
        form, packed = _pack_address(address)
        out.append(TYPES.index(kind) << 4 | form)
        out += packed + port.to_bytes(2, "big")
    return bytes(out)


def unpack_sdp(reader: _Reader) -> str:
    setup = reader.byte()
    if setup >= len(SETUPS):
        raise InviteError("unknown DTLS role")
    ufrag = _unpack_ice(reader)
    pwd = _unpack_ice(reader)
    fingerprint = ":".join(f"{b:02X}" for b in reader.take(32))
    count = reader.byte()
    if count > MAX_CANDIDATES:
        raise InviteError("too many candidates")
    lines = []
    for index in range(count):
        head = reader.byte()
        kind_index, form = head >> 4, head & 0x0F
        if kind_index >= len(TYPES) or form > NAME:
            raise InviteError("unknown candidate")
        address = _unpack_address(form, reader)
        port = int.from_bytes(reader.take(2), "big")
        kind = TYPES[kind_index]
        lines.append(f"a=candidate:{index + 1} 1 udp {PRIORITY[kind] - index} {address} {port} typ {kind} "
                     f"generation 0\r\n")
    return TEMPLATE.format(candidates="".join(lines), ufrag=ufrag, pwd=pwd, fingerprint=fingerprint,
                           setup=SETUPS[setup])


# ---------------------------------------------------------------------------- invites and replies
def _head(kind: int, seat: int) -> bytes:
    if not 0 <= seat < 6:
        raise InviteError("no such seat")
    return bytes([VERSION << 4 | kind, seat])


def _open(code: str, kind: int, key: str) -> tuple[int, _Reader]:
    """The payload of a code, a link holding it (``#join=…`` / ``#reply=…``), or either with spaces."""
    text = "".join(code.split())
    marker = f"{key}="
    if marker in text:
        text = text.split(marker, 1)[1].split("&", 1)[0]
    reader = _Reader(b64decode(text))
    head = reader.byte()
    if head >> 4 != VERSION or head & 0x0F != kind:
        raise InviteError("not an invite of this version" if kind == INVITE else "not a reply of this version")
    seat = reader.byte()
    if seat >= 6:
        raise InviteError("no such seat")
    return seat, reader


def invite_code(seat: int, secret: str, offer_sdp: str) -> str:
    raw_secret = b64decode(secret)
    if len(raw_secret) != 16:
        raise InviteError("a seat secret is 16 bytes")
    return b64encode(_head(INVITE, seat) + raw_secret + pack_sdp(offer_sdp))


def parse_invite(code: str) -> Invite:
    seat, reader = _open(code, INVITE, "join")
    secret = b64encode(reader.take(16))
    sdp = unpack_sdp(reader)
    reader.end()
    return Invite(seat, secret, sdp)


def reply_code(seat: int, name: str, answer_sdp: str) -> str:
    raw_name = clean_name(name)[:MAX_NAME].encode("utf-8")
    return b64encode(_head(REPLY, seat) + bytes([len(raw_name)]) + raw_name + pack_sdp(answer_sdp))


def parse_reply(code: str) -> Reply:
    seat, reader = _open(code, REPLY, "reply")
    raw_name = reader.take(reader.byte())
    try:
        name = clean_name(raw_name.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        raise InviteError("a name that is not text") from None
    sdp = unpack_sdp(reader)
    reader.end()
    return Reply(seat, name, sdp)


def link(base: str, key: str, code: str) -> str:
    """``base`` (the page's address, without query or fragment) with ``#key=code``."""
    return f"{base.split('#', 1)[0].split('?', 1)[0]}#{key}={code}"


# ---------------------------------------------------------------------------- meeting through relays
def new_key() -> str:
    """A fresh 128-bit meeting key, base64url."""
    return b64encode(secrets.token_bytes(16))


def room_id(secret: str) -> str:
    """The relays' room of the seat whose secret is ``secret``: a hash of it (the key is not in it)."""
    return hashlib.sha256(f"durak room {secret}".encode()).hexdigest()[:40]


def meeting_key(fragment: str) -> str:
    """The ``k=`` meeting key of an invite link's fragment; "" when it has none or a damaged one."""
    for name, value in parse_qsl(fragment.lstrip("#"), keep_blank_values=True):
        if name == "k" and len(value) == KEY_CHARS and re.fullmatch(r"[A-Za-z0-9_-]+", value):
            return value if len(b64decode(value)) == 16 else ""
    return ""


def parse_relays(query: str) -> str:
    """A page's ``?relays=a,b`` (its query, with or without "?") as the comma-separated list of the
    addresses it may use; "" when it names none (the page then uses the default list)."""
    for name, value in parse_qsl(query.lstrip("?"), keep_blank_values=True):
        if name == "relays":
            urls = [url.strip() for url in value.split(",")]
            return ",".join([url for url in urls if RELAY_URL.fullmatch(url)][:MAX_RELAYS])
    return ""


def meeting_link(base: str, relays: str, code: str, key: str) -> str:
    """An invite link: ``base`` with the table's own relays (if any) in the query, and the invite's
    code and meeting key in the fragment, which browsers never send to a server."""
    query = f"?relays={quote(relays, safe=':/,')}" if relays else ""
    return f"{base.split('#', 1)[0].split('?', 1)[0]}{query}#join={code}&k={key}"
