"""web/embed/engine_calls.py under CPython: the engine worker's calls answered, refused or reported as errors; the
rules pages' "try it" played by calls, and an odds call answered later while other calls are answered; embed.html's
records and positions as frames and its host's moves in notation, every move played listed for durak:move."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from durak import Game
from durak.record import Record, load_examples, url_safe
from tests.web.running import run_coroutine
from web.embed import engine_calls
from web.embed.engine_calls import MAX_CALL, REFUSALS, SESSIONS
from web.worker.bridge import Bridge

RULES = {"variant": "perevodnoy", "players": 3}
ROOT = Path(__file__).resolve().parents[3]
RECORDS: dict[str, Record] = load_examples(ROOT / "rules" / "examples")
NAMES = ["Anna", "Boris", "Chloé", "Dmitri"]


def text_of(method: str, *args: Any, call_id: int = 1) -> str:
    return json.dumps({"t": "engine", "id": call_id, "method": method, "args": list(args)})


def call(method: str, *args: Any, call_id: int = 1) -> dict[str, Any]:
    answered = engine_calls.answer(text_of(method, *args, call_id=call_id))
    assert isinstance(answered, dict), f"{method} answers at once"
    json.dumps(answered)  # JSON-safe for postMessage
    return answered


def result(method: str, *args: Any) -> Any:
    answered = call(method, *args)
    assert answered["t"] == "answer", answered
    return answered["result"]


def position_at(example: str, step: int) -> str:
    game = RECORDS[example].start(Game)
    for move in RECORDS[example].moves[:step]:
        game.apply(move.seat, move.action)
    return game.position()


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
    (text_of("start", "ex", "position", '["Anna", "Boris"]', "en", call_id=6), "bad_args", 6),
    (text_of("start", "ex", "position", ["Anna", 2], "en", call_id=6), "bad_args", 6),
    (text_of("card", "ex", call_id=6), "bad_args", 6),
    (text_of("reply", "ex", "8H", call_id=6), "bad_args", 6),
    (text_of("card", "ex", "8h", call_id=6), "bad_args", 6),
    (text_of("target", "ex", "attack:8X", call_id=6), "bad_args", 6),
    (text_of("press", "ex", "hint", call_id=6), "bad_args", 6),
    (text_of("odds", "position", ["Anna"], None, call_id=6), "bad_args", 6),
    (text_of("embed_frames", "example", "r1AAAA", "en", call_id=6), "bad_args", 6),
    (text_of("embed_frames", "record", "r1AAAA", call_id=6), "bad_args", 6),
    (text_of("embed_play", "ex", "", call_id=6), "bad_args", 6),
    (text_of("embed_play", "ex", "attack 6S\ntake", call_id=6), "bad_args", 6),
    (text_of("embed_play", "ex", "a" * 121, call_id=6), "bad_args", 6),
    (" " * (MAX_CALL + 1), "bad_shape", None),
])
def test_malformed_calls_are_refused(text: str, code: str, call_id: int | None) -> None:
    answer = engine_calls.answer(text)
    assert isinstance(answer, dict)
    assert (answer["t"], answer["code"], answer["id"]) == ("refused", code, call_id), answer
    assert code in REFUSALS and answer["text"]


def test_try_it_is_played_by_calls_in_a_session_per_example() -> None:
    position = position_at("podkidnoy-limit-take", 0)
    first = result("start", "limit", position, NAMES[:2], "en")
    assert first["try"]["live"] is True and first["position"] == position
    other = position_at("perevodnoy-transfer-refused", 3)
    assert result("start", "transfer", other, NAMES, "fr")["try"]["live"] is True
    gathering = result("card", "limit", "8H")  # two eights: 8♥ waits for "play"
    assert gathering["waiting"] is False and gathering["frame"]["try"]["buttons"]["play"]["legal"] is True
    played = result("press", "limit", "play")
    assert played["frame"]["table"] == [["8H", None]] and played["waiting"] is True
    replies = 0
    while played["waiting"]:
        played = result("reply", "limit")
        replies += 1
        assert replies < 10
    assert played["frame"]["comment"].startswith("You play for Anna.")
    lit = result("card", "transfer", "9S")  # the other session kept its own game
    assert lit["frame"]["try"]["targets"] == ["attack:9C", "attack:9D", "attack:9H"]
    assert ["9D", "9S"] in result("target", "transfer", "attack:9D")["frame"]["table"]
    restarted = result("start", "limit", position, NAMES[:2], "en")  # a new start begins again
    assert restarted["position"] == position and restarted["table"] == []


def test_what_try_it_refuses_is_said_or_reported_and_changes_nothing() -> None:
    position = position_at("podkidnoy-limit-take", 6)  # the limit of three is reached
    result("start", "refused", position, NAMES[:2], "ru")
    refused = result("card", "refused", "8C")
    assert refused["frame"]["try"]["refusal"] and refused["frame"]["position"] == position
    assert result("target", "refused", "attack:9S")["frame"]["position"] == position  # nothing lit: no move
    for answered in (call("card", "never-started", "8C", call_id=9),
                     call("start", "x", "not a position", NAMES, "en", call_id=9)):
        assert (answered["t"], answered["id"]) == ("error", 9), answered
    assert result("card", "refused", "8C")["frame"]["position"] == position


def test_a_page_s_sessions_are_bounded() -> None:
    position = position_at("podkidnoy-limit-take", 0)
    for number in range(engine_calls.MAX_SESSIONS + 3):
        result("start", f"many-{number}", position, NAMES[:2], "en")
    assert len(SESSIONS) == engine_calls.MAX_SESSIONS
    assert "many-0" not in SESSIONS and f"many-{engine_calls.MAX_SESSIONS + 2}" in SESSIONS


def test_odds_are_answered_when_done_and_other_calls_meanwhile() -> None:
    """Through web/worker/bridge.py, as in the worker: the odds call is answered after the calls that came later."""
    position = position_at("perevodnoy-transfer", 3)  # seat 0 defends against three sevens

    async def scene() -> list[dict[str, Any]]:
        posted: list[dict[str, Any]] = []
        bridge = Bridge(posted.append)
        bridge.receive(json.dumps({"t": "boot", "search": "", "langs": ["fr"], "store": {}, "embedded": False,
                                   "viewport": {"width": 360, "height": 640}, "controlled": False}))
        assert posted == []  # no store, no link: nothing dealt
        bridge.receive(text_of("odds", position, NAMES[:3], "fr", call_id=1))
        assert posted == []  # searching
        await asyncio.sleep(0.05)
        bridge.receive(text_of("start", "odds", position, NAMES[:3], "fr", call_id=2))
        assert [m["id"] for m in posted] == [2]  # answered at once, the odds still searching
        bridge.receive(text_of("odds", "not a position", NAMES, "fr", call_id=3))
        while len(posted) < 3:
            await asyncio.sleep(0.05)
        return posted

    posted = run_coroutine(scene())
    assert [(m["t"], m["id"]) for m in posted] == [("answer", 2), ("error", 3), ("answer", 1)]
    found = posted[2]["result"]
    legal = {str(a) for a in Game.from_position(position).legal_actions(0)}
    assert found["name"] == "Anna" and {move["action"] for move in found["moves"]} == legal
    assert any(move["label"].startswith("Ramasser") for move in found["moves"])
    assert posted[1]["text"].startswith("RecordError: ")


def test_a_record_and_a_position_link_come_back_as_frames_and_a_bad_link_as_an_error() -> None:
    record = RECORDS["throw-in-priority"]
    replayed = result("embed_frames", "record", url_safe(str(record)), "ru")
    assert replayed["id"] == "record" and len(replayed["frames"]) == record.steps
    assert replayed["frames"][-1]["position"] == record.replay(Game).position()
    assert [c for c in replayed["frames"][1:] if c["said"]], "the steps say what each move did"
    position = position_at("perevodnoy-transfer", 2)
    shown = result("embed_frames", "position", url_safe(position), "fr")
    assert [f["position"] for f in shown["frames"]] == [position] and shown["title"] == "Une position"
    for kind, value in (("record", url_safe(position)), ("position", "p1!!")):
        answered = call("embed_frames", kind, value, "en", call_id=4)
        assert (answered["t"], answered["id"]) == ("error", 4), answered
        assert answered["text"].startswith("RecordError: "), answered


def test_an_embeds_moves_in_notation_are_judged_and_every_move_played_is_listed() -> None:
    position = position_at("podkidnoy-limit-take", 0)
    game = Game.from_position(position)
    seat = game.to_act
    assert seat is not None
    result("start", "embed", position, NAMES[:2], "fr")
    refused = result("embed_play", "embed", "defend 2C 3C")
    assert set(refused) == {"error", "code"} and refused["error"] and not refused["code"].startswith("embed.")
    legal = str(game.legal_actions(seat)[0])
    played = result("embed_play", "embed", legal.upper())
    assert played["moves"] == [{"seat": seat, "action": legal}]
    game.apply(seat, legal)
    assert played["frame"]["position"] == game.position()
    replies: list[dict[str, Any]] = []
    while played["waiting"]:
        assert result("embed_play", "embed", "take")["code"] == "embed.no_move_now"  # not the reader's turn
        played = result("reply", "embed")
        replies += played["moves"]
        assert len(replies) < 10
    assert replies and all(move["seat"] != seat for move in replies)
    for move in replies:
        game.apply(move["seat"], move["action"])
    assert played["frame"]["position"] == game.position(), "the moves listed are all the moves played"
    if game.to_act == seat:  # a card clicked: played at once, or it waits for a target or "play"
        clicked = result("card", "embed", str(game.hand(seat)[0]))
        assert [move["seat"] for move in clicked["moves"]] in ([], [seat])
    assert call("embed_play", "never-started", "take", call_id=8)["t"] == "error"
