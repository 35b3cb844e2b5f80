"""web/engine_calls.py under CPython: the engine worker's calls answered, refused or reported as errors."""

from __future__ import annotations

import json
from typing import Any

import pytest

from durak import Game
from web.engine_calls import MAX_CALL, REFUSALS, reply

RULES = {"variant": "perevodnoy", "players": 3}


def call(method: str, *args: Any, call_id: int = 1) -> dict[str, Any]:
    return reply(json.dumps({"t": "engine", "id": call_id, "method": method, "args": list(args)}))


def test_deal_legal_and_play_answer_the_engine_s_state() -> None:
    dealt = call("deal", RULES, 5, call_id=12)
    assert (dealt["t"], dealt["id"]) == ("answer", 12)
    state = dealt["result"]
    game = Game.from_position(state["position"])
    seat = game.to_act
    assert game.rules.variant == "perevodnoy" and game.players == 3 and seat is not None
    assert state["to_act"] == seat and state["legal"] == [str(a) for a in game.legal_actions(seat)]
    assert call("legal", state["position"])["result"] == state
    played = call("play", state["position"], state["legal"][0])["result"]
    game.apply(seat, state["legal"][0])
    assert played["position"] == game.position()
    json.dumps(dealt)  # JSON-safe for postMessage


def test_what_the_engine_refuses_comes_back_as_an_error_with_the_call_s_id() -> None:
    position = call("deal", RULES, 5)["result"]["position"]
    answers = {"IllegalAction": call("play", position, "take", call_id=7),
               "RecordError": call("legal", "not a position", call_id=7),
               "RulesError": call("deal", {"players": 9}, 1, call_id=7)}
    for error, answer in answers.items():
        assert (answer["t"], answer["id"]) == ("error", 7), answer
        assert answer["text"].startswith(error + ": "), answer


@pytest.mark.parametrize(("text", "code", "call_id"), [
    ("{not json", "bad_json", None),
    ("[1]", "bad_shape", None),
    (json.dumps({"t": "engine", "id": 3, "method": "deal"}), "bad_shape", 3),
    (json.dumps({"t": "engine", "id": "3", "method": "deal", "args": []}), "bad_shape", None),
    (json.dumps({"t": "engine", "id": 3, "method": "deal", "args": {}}), "bad_shape", 3),
    (json.dumps({"t": "gesture", "id": 3, "method": "deal", "args": []}), "bad_shape", 3),
    (json.dumps({"t": "engine", "id": 4, "method": "__import__", "args": ["os"]}), "unknown_method", 4),
    (json.dumps({"t": "engine", "id": 5, "method": "deal", "args": [RULES]}), "bad_args", 5),
    (json.dumps({"t": "engine", "id": 5, "method": "deal", "args": [RULES, True]}), "bad_args", 5),
    (json.dumps({"t": "engine", "id": 5, "method": "legal", "args": [3]}), "bad_args", 5),
    (" " * (MAX_CALL + 1), "bad_shape", None),
])
def test_malformed_calls_are_refused(text: str, code: str, call_id: int | None) -> None:
    answer = reply(text)
    assert (answer["t"], answer["code"], answer["id"]) == ("refused", code, call_id), answer
    assert code in REFUSALS and answer["text"]
