"""The messages between the host of a table and its seats, and the checks every incoming one passes.

One protocol for every seat: the local player's seat client in the host's own page (in-memory), a
friend in another tab (BroadcastChannel) or on another device (a WebRTC data channel). The host sends a
seat only what ``view(seat)`` and events ``seen_by(seat)`` hold; a seat sends back ``{seq, action}``.

Host -> seat (``t`` names the type):
  ``state``    {seq, seat, view, legal, events, reset, commit}   after every change of the game
  ``status``   {seats, thinking, timer}                           who is connected, who thinks, the clock
  ``refused``  {code, params, text, seq}                          an incoming message was not accepted
  ``said``     {seat, quick}                                      a quick message from a seat
  ``reveal``   {game, salt, seed, dealer, first_game}             the deal's secret, once the game is over
  ``pong``     {id}                                               answers ``ping`` (round-trip figures)
Seat -> host:
  ``hello``    {seat, secret, name, lang}                         join or rejoin a seat (remote seats only)
  ``act``      {seat, seq, action}                                play ``action`` on state ``seq``
  ``say``      {seat, quick}                                      one of QUICK_MESSAGES
  ``ping``     {id}

A seat's message is checked before anything reads it: size, JSON, shape (exact keys, types, lengths),
then by the host: the seat it claims, the state it answers, the action's legality. A refusal is a code
plus JSON-safe parameters, rendered by the seat in its own language (``refusal_message``). Pure Python.
"""

from __future__ import annotations

import json
import re
import unicodedata
from typing import Any

from durak.messages import Message
from web.shared.i18n import DEFAULT_LANG, say

PROTOCOL = 1
#: Bytes (UTF-8) a seat's message may have; a hello with a 24-character name is about 150.
MAX_INCOMING = 1024
MAX_NAME = 24
MAX_ACTION = 40
QUICK_MESSAGES = ("good_game", "your_turn", "oops")
SECRET = re.compile(r"[A-Za-z0-9_-]{16,44}")
LANG = re.compile(r"[a-z]{2,3}")
ACTION_TEXT = re.compile(r"[A-Za-z0-9 ♠♥♦♣]{1,40}")

#: Every refusal code the host sends for a seat's message (the engine's own codes come on top, under
#: ``illegal``'s params, see Host._act).
REFUSALS = ("too_large", "bad_json", "bad_shape", "unknown_type", "wrong_seat", "bad_secret", "not_joined",
            "stale_seq", "not_your_turn", "illegal", "rate_limited", "game_over", "bad_name", "bad_quick",
            "replaced")

_FIELDS: dict[str, dict[str, type | tuple[type, ...]]] = {
    "hello": {"seat": int, "secret": str, "name": str, "lang": str},
    "act": {"seat": int, "seq": int, "action": str},
    "say": {"seat": int, "quick": str},
    "ping": {"id": int},
}


class ProtocolError(ValueError):
    """A message refused: ``code`` (one of REFUSALS) and JSON-safe ``params``."""

    def __init__(self, code: str, **params: Any) -> None:
        super().__init__(f"{code} {params}" if params else code)
        self.code = code
        self.params = params


def encode(message: dict[str, Any]) -> str:
    """The wire form: compact JSON (ASCII only, so its length in characters is its length in bytes)."""
    return json.dumps(message, separators=(",", ":"))


def clean_name(value: object) -> str:
    """A player's name as data: NFC, control and format characters removed, spaces collapsed, at most
    MAX_NAME characters; raises ``ProtocolError("bad_name")`` for a non-string or a longer name."""
    if not isinstance(value, str):
        raise ProtocolError("bad_name")
    text = unicodedata.normalize("NFC", value)
    text = "".join(ch for ch in text if unicodedata.category(ch)[0] != "C")
    text = " ".join(text.split())
    if len(text) > MAX_NAME:
        raise ProtocolError("bad_name", most=MAX_NAME)
    return text


def decode_incoming(text: object) -> dict[str, Any]:
    """A seat's message checked for size, JSON and shape, or ``ProtocolError``; nothing else is read."""
    if isinstance(text, bytes | bytearray):
        size = len(text)
    elif isinstance(text, str):
        size = len(text) if text.isascii() else len(text.encode("utf-8", "replace"))
    else:
        raise ProtocolError("bad_shape")
    if size > MAX_INCOMING:
        raise ProtocolError("too_large", size=size, most=MAX_INCOMING)
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise ProtocolError("bad_json") from None
    return check_shape(data)


def check_shape(data: object) -> dict[str, Any]:
    """The exact keys and types of one of the seat's message types (``t`` included)."""
    if not isinstance(data, dict):
        raise ProtocolError("bad_shape")
    kind = data.get("t")
    if not isinstance(kind, str) or kind not in _FIELDS:
        raise ProtocolError("unknown_type")
    fields = _FIELDS[kind]
    if set(data) != {"t", *fields}:
        raise ProtocolError("bad_shape", type=kind)
    for key, wanted in fields.items():
        value = data[key]
        if not isinstance(value, wanted) or isinstance(value, bool):
            raise ProtocolError("bad_shape", type=kind, field=key)
        if isinstance(value, int) and not 0 <= value < 2**53:
            raise ProtocolError("bad_shape", type=kind, field=key)
    if kind == "hello":
        if not SECRET.fullmatch(data["secret"]):
            raise ProtocolError("bad_secret")
        if not LANG.fullmatch(data["lang"]):
            raise ProtocolError("bad_shape", type=kind, field="lang")
        data["name"] = clean_name(data["name"])
    elif kind == "act" and not ACTION_TEXT.fullmatch(data["action"]):
        raise ProtocolError("bad_shape", type=kind, field="action")
    elif kind == "say" and data["quick"] not in QUICK_MESSAGES:
        raise ProtocolError("bad_quick")
    return data


def refusal(error: ProtocolError, seq: int) -> dict[str, Any]:
    return {"t": "refused", "code": error.code, "params": error.params, "text": str(error), "seq": seq}


def refusal_message(message: dict[str, Any]) -> Message:
    """A ``refused`` message as a coded ``Message`` the seat says in its own language: the engine's own
    refusal for an illegal action, else the protocol code's sentence. A code or parameters this page
    cannot say (another version's host) become "Refused (code)" rather than an error."""
    code = str(message.get("code", ""))
    params = message.get("params") if isinstance(message.get("params"), dict) else {}
    assert isinstance(params, dict)
    found = Message(f"refused_{code}", {k: v for k, v in params.items() if isinstance(v, str | int)})
    if code == "illegal":
        reason = params.get("reason_code")
        reason_params = params.get("reason_params")
        if isinstance(reason, str) and isinstance(reason_params, dict):
            found = Message(reason, reason_params, str(params.get("reason", "")))
        else:
            found = Message("illegal", {"reason": str(params.get("reason", ""))})
    try:
        say(DEFAULT_LANG, found)
    except (KeyError, ValueError, TypeError, IndexError, AttributeError):
        return Message("refused_other", {"code": code[:40]})
    return found


def refusal_text(lang: str, message: dict[str, Any], names: list[str] | None = None) -> str:
    return say(lang, refusal_message(message), names)
