"""The engine worker's ``engine`` calls: ``{t: "engine", id, method, args}`` in, one message out.

The page sends a call as a message (docs/worker-plan.md, decision 3); web/bridge.py hands its JSON
text to ``reply`` and posts what comes back:

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
Pure Python (no ``pyscript``): it is imported into the memory snapshot.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from durak import Game, Rules

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


#: Each method with the JSON types of its arguments, in order.
METHODS: dict[str, tuple[Callable[..., dict[str, Any]], tuple[type, ...]]] = {
    "deal": (deal, (dict, int)),
    "legal": (legal, (str,)),
    "play": (play, (str, str)),
}


def _refused(call_id: object, code: str, text: str, **params: Any) -> dict[str, Any]:
    return {"t": "refused", "id": call_id, "code": code, "params": params, "text": text}


def _args_fit(args: list[Any], kinds: tuple[type, ...]) -> bool:
    """As many arguments as the method takes, each of its JSON type (a boolean is no integer)."""
    return len(args) == len(kinds) and all(type(value) is kind for value, kind in zip(args, kinds, strict=True))


def reply(text: str) -> dict[str, Any]:
    """The message answering one call's JSON text."""
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
        wanted = ", ".join(kind.__name__ for kind in kinds)
        return _refused(call_id, "bad_args", f"{name} takes ({wanted})", method=name)
    try:
        result = method(*call["args"])
    except Exception as error:  # the page shows it; the worker goes on answering
        return {"t": "error", "id": call_id, "text": f"{type(error).__name__}: {error}"}
    return {"t": "answer", "id": call_id, "result": result}

