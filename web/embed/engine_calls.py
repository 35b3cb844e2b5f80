"""The engine worker's ``engine`` calls: ``{t: "engine", id, method, args}`` in, one message out.

The page sends a call as a message (the page protocol); web/worker/bridge.py hands its JSON
text to ``answer`` and posts what comes back:

- ``{t: "answer", id, result}``: the method's JSON-safe result;
- ``{t: "error", id, text}``: the method raised (the engine refused its input, or a bug): the
  exception's type and message, so the page can show a readable failure;
- ``{t: "refused", id, code, params, text}``: the call itself is malformed (a bug in the caller):
  ``bad_json``, ``bad_shape`` (not exactly ``t``, ``id``, ``method``, ``args`` of the right types),
  ``unknown_method`` or ``bad_args``. ``id`` is null when the call had none to give back; ``text`` is for
  the developer's console, in English.

The methods, each a plain function of JSON values: ``deal(rules, seed)`` shuffles and deals a game
(``rules`` as ``Rules.from_dict`` reads them), ``legal(position)`` lists who is to act and what they may
do, ``play(position, action)`` applies one action. Each answers ``{position, to_act, legal, over}``.

The rules pages' "try it yourself" (web/examples/tryout.py; web/examples/stepper.js calls them):
``start(example, position, names, lang)`` begins a session for one worked example from a frame's position
(a new start replaces that example's session) and answers its frame; ``card(example, card)``, ``target(example,
target)``,
``press(example, action)`` and ``reply(example)`` play in it and answer ``{frame, waiting}``;
``odds(position, names, lang)`` weighs each legal move. ``odds`` is a coroutine (it searches in slices,
yielding between them): ``answer`` then returns an awaitable of the answer, and the caller
(web/worker/bridge.py) posts it when done while it answers other calls.

What embed.html adds (web/embed/embedding.py; web/embed/embed-frame.js calls them): ``embed_frames(kind, value, lang)``,
the frames of a URL-safe record or position link; ``embed_play(example, text)``, the host page's move in
notation (``durak:play``) for the reader's seat, answered ``{frame, waiting, moves}`` or ``{error, code}``
when the engine refuses it (said in the session's language, nothing changed). Every answer of a session
that may play lists the moves it played (``moves``: ``[{seat, action}]``), which an embed reports to its
host as ``durak:move``.
Pure Python (no ``pyscript``): it is imported into the memory snapshot.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import re
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, ClassVar

from durak import Game, Rules
from web.embed.embedding import KINDS, EmbedTryout, link_frames, moves_since
from web.examples.tryout import BUTTONS
from web.examples.tryout import odds as weigh
from web.table.seat import CARD, TARGET

#: Characters of a call's JSON text the worker reads at most (a position is under 400).
MAX_CALL = 16_384
REFUSALS = ("bad_json", "bad_shape", "unknown_method", "bad_args")
_FIELDS = {"t": str, "id": int, "method": str, "args": list}


def _state(game: Game) -> dict[str, Any]:
    seat = game.to_act
    return {
        "position": game.position(),
        "to_act": seat,
        "legal": [] if seat is None else [str(action) for action in game.legal_actions(seat)],
        "over": game.result is not None,
    }


def deal(rules: dict[str, Any], seed: int) -> dict[str, Any]:
    """A new game of these rules; the same seed deals the same cards."""
    return _state(Game.new(Rules.from_dict(rules), seed=seed))


def legal(position: str) -> dict[str, Any]:
    """The game at ``position`` (``Game.position()``'s text): who acts and what they may do."""
    return _state(Game.from_position(position))


def play(position: str, action: str) -> dict[str, Any]:
    """The game at ``position`` after the seat to act plays ``action`` (``attack 6H``, ``take``...)."""
    game = Game.from_position(position)
    if game.to_act is None:
        raise ValueError("the game is over: nobody is to act")
    game.apply(game.to_act, action)
    return _state(game)


#: The "try it" sessions, one a worked example (its id); the oldest goes when a page starts more. Each may
#: also take a move in notation (an embed's ``durak:play``).
SESSIONS: dict[str, EmbedTryout] = {}
MAX_SESSIONS = 32



class Strings(list[str]):
    """The JSON type ``a list of strings`` in ``METHODS``' argument types (a player's names)."""

    label = "list of str"


class Checked(str):
    """A string argument that must match ``pattern`` (what a page's control can send)."""

    pattern: ClassVar[re.Pattern[str]]
    label: ClassVar[str]


class CardText(Checked):
    pattern, label = CARD, "a card"


class TargetText(Checked):
    pattern, label = TARGET, "a target"


class Button(Checked):
    pattern, label = re.compile("|".join(BUTTONS)), "|".join(BUTTONS)


class LinkKind(Checked):
    pattern, label = re.compile("|".join(KINDS)), "|".join(KINDS)


class Notation(Checked):
    """A move as the host page names it (web/embed/embed-frame.js sends at most 120 characters, trimmed)."""

    pattern, label = re.compile(r"[^\n]{1,120}"), "a move in notation"


def _session(example: str) -> EmbedTryout:
    if example not in SESSIONS:
        raise KeyError(f"no try-it session for example {example!r}: start it first")
    return SESSIONS[example]


def _played(example: str, gesture: Callable[[EmbedTryout], dict[str, Any]]) -> dict[str, Any]:
    """A gesture's answer in ``example``'s session, with the moves it played."""
    session = _session(example)
    before = len(session.game.history)
    answered = gesture(session)
    return {**answered, "moves": moves_since(session.game, before)}


def start(example: str, position: str, names: list[str], lang: str) -> dict[str, Any]:
    """A try-it session for ``example`` from the frame at ``position``: its first frame."""
    session = EmbedTryout(position, names, lang)
    SESSIONS.pop(example, None)
    SESSIONS[example] = session
    while len(SESSIONS) > MAX_SESSIONS:
        del SESSIONS[next(iter(SESSIONS))]
    return session.frame()


def card(example: str, value: str) -> dict[str, Any]:
    """The reader clicked a card of their hand (legal or not: a refused one says why)."""
    return _played(example, lambda session: session.card(value))


def target(example: str, value: str) -> dict[str, Any]:
    """The reader chose where the picked card goes."""
    return _played(example, lambda session: session.target(value))


def press(example: str, action: str) -> dict[str, Any]:
    """The reader pressed one of the try-it buttons."""
    return _played(example, lambda session: session.press(action))


def reply(example: str) -> dict[str, Any]:
    """The next AI seat's move."""
    return _played(example, lambda session: session.reply())


def embed_play(example: str, text: str) -> dict[str, Any]:
    """The host page's move in notation for the reader's seat (its answer lists the moves, or says the
    engine's refusal with its code)."""
    return _session(example).play(text)


def embed_frames(kind: str, value: str, lang: str) -> dict[str, Any]:
    """{id, title, names, frames} of a URL-safe record or position (a link that does not read raises)."""
    return link_frames(kind, value, lang)


async def odds(position: str, names: list[str], lang: str) -> dict[str, Any]:
    """The chance of winning after each legal move at ``position``, searched in slices."""
    return await weigh(position, names, lang, asyncio.sleep)


#: Each method with the JSON types of its arguments, in order.
METHODS: dict[str, tuple[Callable[..., dict[str, Any] | Awaitable[dict[str, Any]]], tuple[type, ...]]] = {
    "deal": (deal, (dict, int)),
    "legal": (legal, (str,)),
    "play": (play, (str, str)),
    "start": (start, (str, str, Strings, str)),
    "card": (card, (str, CardText)),
    "target": (target, (str, TargetText)),
    "press": (press, (str, Button)),
    "reply": (reply, (str,)),
    "odds": (odds, (str, Strings, str)),
    "embed_frames": (embed_frames, (LinkKind, str, str)),
    "embed_play": (embed_play, (str, Notation)),
}


def _refused(call_id: object, code: str, text: str, **params: Any) -> dict[str, Any]:
    return {"t": "refused", "id": call_id, "code": code, "params": params, "text": text}


def _args_fit(args: list[Any], kinds: tuple[type, ...]) -> bool:
    """As many arguments as the method takes, each of its JSON type (a boolean is no integer)."""
    return len(args) == len(kinds) and all(_fits(value, kind) for value, kind in zip(args, kinds, strict=True))


def _fits(value: object, kind: type) -> bool:
    if kind is Strings:
        return type(value) is list and all(type(item) is str for item in value)
    if issubclass(kind, Checked):
        return type(value) is str and kind.pattern.fullmatch(value) is not None
    return type(value) is kind


def _error(call_id: object, error: Exception) -> dict[str, Any]:
    return {"t": "error", "id": call_id, "text": f"{type(error).__name__}: {error}"}


async def _answer_when_done(call_id: object, pending: Awaitable[dict[str, Any]]) -> dict[str, Any]:
    try:
        result = await pending
    except Exception as error:  # as for a plain method: the page shows it
        return _error(call_id, error)
    return {"t": "answer", "id": call_id, "result": result}


def answer(text: str) -> dict[str, Any] | Coroutine[Any, Any, dict[str, Any]]:
    """The message answering one call's JSON text; for an async method (``odds``), a coroutine of it."""
    if len(text) > MAX_CALL:
        return _refused(None, "bad_shape", f"a call may have {MAX_CALL} characters, this one {len(text)}")
    try:
        call = json.loads(text)
    except ValueError as error:
        return _refused(None, "bad_json", f"the call is not JSON: {error}")
    if not isinstance(call, dict):
        return _refused(None, "bad_shape", "a call is a JSON object")
    call_id = call.get("id") if type(call.get("id")) is int else None
    if set(call) != set(_FIELDS) or call["t"] != "engine" or any(
        type(call[key]) is not kind for key, kind in _FIELDS.items()
    ):
        return _refused(call_id, "bad_shape", "a call is exactly {t: 'engine', id: integer, method: text, args: list}")
    name = call["method"]
    if name not in METHODS:
        return _refused(call_id, "unknown_method", f"no engine method {name!r}: {', '.join(METHODS)}", method=name)
    method, kinds = METHODS[name]
    if not _args_fit(call["args"], kinds):
        wanted = ", ".join(str(getattr(kind, "label", kind.__name__)) for kind in kinds)
        return _refused(call_id, "bad_args", f"{name} takes ({wanted})", method=name)
    try:
        result = method(*call["args"])
    except Exception as error:  # the page shows it; the worker goes on answering
        return _error(call_id, error)
    if inspect.isawaitable(result):
        return _answer_when_done(call_id, result)
    return {"t": "answer", "id": call_id, "result": result}

