"""Try it yourself (web/examples/tryout.py) in CPython: the reader's clicks on any card or button, the engine's refusals
in the page's language, the AI's answers, the odds, all from the worked examples' positions."""

from __future__ import annotations

from pathlib import Path

import pytest

from durak import Game, IllegalAction, Rules
from durak.record import Record, load_examples
from tests.web.running import run_coroutine
from web.examples.tryout import Tryout, odds
from web.shared.i18n import LANGS, say

ROOT = Path(__file__).resolve().parents[3]
RECORDS: dict[str, Record] = load_examples(ROOT / "rules" / "examples")
NAMES = ["Seat 0", "Seat 1", "Seat 2", "Seat 3"]


def position_at(example: str, step: int) -> str:
    game = RECORDS[example].start(Game)
    for move in RECORDS[example].moves[:step]:
        game.apply(move.seat, move.action)
    return game.position()


def reason(position: str, seat: int, action: str, lang: str) -> str:
    with pytest.raises(IllegalAction) as refused:
        Game.from_position(position).apply(seat, action)
    return say(lang, refused.value.message, NAMES)


@pytest.mark.parametrize("lang", LANGS)
def test_an_illegal_card_is_refused_with_the_engines_reason_and_changes_nothing(lang: str) -> None:
    position = position_at("podkidnoy-limit-take", 6)  # seat 1 took; the limit of three is reached
    tryout = Tryout(position, NAMES[:2], lang)
    answer = tryout.card("8C")
    refusal = answer["frame"]["try"]["refusal"]
    assert refusal.lower().startswith(reason(position, 0, "attack 8C", lang).lower()[:20])
    assert tryout.game.position() == position  # nothing changed
    assert answer["waiting"] is False and answer["frame"]["try"]["live"] is True


def test_a_legal_move_is_played_and_the_ai_answers_until_the_readers_turn() -> None:
    tryout = Tryout(position_at("podkidnoy-limit-take", 0), NAMES[:2], "en")
    gathering = tryout.card("8H")  # two eights: 8♥ may lead alone or with 8♣, so it waits for "play"
    assert gathering["frame"]["try"]["buttons"]["play"]["legal"] is True and gathering["waiting"] is False
    answer = tryout.press("play")
    assert answer["frame"]["table"] == [["8H", None]]
    assert answer["frame"]["said"] == "Seat 0 attacks with 8♥."
    assert answer["waiting"] is True and answer["frame"]["try"]["live"] is False
    replies = 0
    while answer["waiting"]:
        answer = tryout.reply()
        replies += 1
        assert replies < 10
    assert tryout.game.to_act == 0 or tryout.game.result is not None
    assert answer["frame"]["comment"].startswith("You play for Seat 0.")


def test_a_card_with_several_targets_lights_them_and_a_target_completes_it() -> None:
    # the refused-transfer example's last step: seat 3 holds 9♠, a trump that beats any of the three nines
    tryout = Tryout(position_at("perevodnoy-transfer-refused", 3), NAMES, "en")
    answer = tryout.card("9S")
    info = answer["frame"]["try"]
    assert info["targets"] == ["attack:9C", "attack:9D", "attack:9H"]
    assert info["cards"]["9S"]["selected"] is True
    answer = tryout.target("attack:9D")
    assert ["9D", "9S"] in answer["frame"]["table"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_transfer_button_asks_the_engine_which_refuses_a_transfer_to_a_short_hand(lang: str) -> None:
    position = position_at("perevodnoy-transfer-refused", 3)
    tryout = Tryout(position, NAMES, lang)
    assert set(tryout.frame()["try"]["buttons"]) == {"take", "transfer"}
    assert tryout.frame()["try"]["buttons"]["transfer"]["legal"] is False
    tryout.card("9S")
    answer = tryout.press("transfer")
    assert answer["frame"]["try"]["refusal"].rstrip(".").lower() == reason(position, 3, "transfer 9S", lang).lower()
    assert tryout.game.position() == position


def test_after_the_transfer_button_the_next_card_is_tried_as_a_transfer() -> None:
    position = position_at("perevodnoy-transfer-refused", 3)
    tryout = Tryout(position, NAMES, "en")
    assert tryout.press("transfer")["frame"]["comment"].endswith("Choose the card to transfer with.")
    answer = tryout.card("10C")
    assert answer["frame"]["try"]["refusal"].startswith("Cannot transfer 10♣: a transfer must be of the attacking rank")


def test_a_prostoy_set_is_gathered_then_played_and_a_wrong_size_is_refused() -> None:
    tryout = Tryout(position_at("prostoy-partial-defence", 0), NAMES[:2], "en")
    tryout.card("7C")
    tryout.card("7D")
    answer = tryout.frame()
    assert answer["try"]["cards"]["7C"]["selected"] and answer["try"]["cards"]["7D"]["selected"]
    assert "play" in answer["try"]["buttons"] and answer["try"]["buttons"]["play"]["legal"] is False
    refused = tryout.press("play")  # two cards make no Prostoy set
    assert "2" in refused["frame"]["try"]["refusal"] and tryout.game.table == []
    tryout.card("7C")
    tryout.card("7D")
    tryout.card("QH")
    played = tryout.press("play")
    assert sorted(a for a, _ in played["frame"]["table"]) == ["7C", "7D", "QH"]


def test_the_odds_weigh_every_legal_move_in_slices() -> None:
    position = position_at("perevodnoy-transfer", 3)  # seat 0 defends against three sevens
    slices = 0

    async def sleep(_: float) -> None:
        nonlocal slices
        slices += 1

    found = run_coroutine(odds(position, NAMES[:3], "fr", sleep, seconds=0.2))
    legal = {str(a) for a in Game.from_position(position).legal_actions(0)}
    assert {move["action"] for move in found["moves"]} == legal
    assert all(0 <= move["chance"] <= 1 for move in found["moves"])
    assert [m["chance"] for m in found["moves"]] == sorted((m["chance"] for m in found["moves"]), reverse=True)
    assert found["name"] == "Seat 0" and any(m["label"].startswith("Ramasser") for m in found["moves"])


def test_try_it_starts_at_every_step_of_every_example_and_not_once_the_game_is_over() -> None:
    for example, record in RECORDS.items():
        for step in range(len(record.moves) + 1):
            assert Tryout(position_at(example, step), NAMES, "en").live, (example, step)
    with pytest.raises(ValueError, match="nobody is to act"):
        Tryout(_finished_position(), NAMES[:2], "en")


def _finished_position() -> str:
    """A game played to its end with the first legal move every time, as a position."""
    game = Game.new(Rules(players=2), seed=3)
    while game.result is None:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, game.legal_actions(seat)[0])
    return game.position()


@pytest.mark.parametrize("lang", LANGS)
def test_in_cheat_mode_a_card_that_does_not_beat_is_a_cheat_the_ai_may_catch(lang: str) -> None:
    """The cheat-mode example at West's defence: 7♥ on 8♥ is played (a cheat, not refused); the AI seats then
    name it with their level's chance of noticing, and a caught cheater takes the table. The AIs never
    accuse a fair card, and never cheat themselves here."""
    position = position_at("podkidnoy-cheat-caught", 1)
    outcomes = set()
    for seed in range(12):
        tryout = Tryout(position, NAMES[:3], lang, seed=seed)
        assert tryout.seat == 1
        answer = tryout.card("7H")
        assert answer["frame"]["try"]["refusal"] == ""
        if answer["frame"]["table"]:  # nobody noticed: the cheat stands on the table
            assert answer["frame"]["table"] == [["8H", "7H"]]
            outcomes.add("stands")
            continue
        outcomes.add("caught")
        assert {"8H", "7H"} <= {str(card) for card in tryout.game.hand(1)}
        accuser = next(seat for seat, action in tryout.game.history if action.kind == "accuse")
        expected = say(lang, {"code": "event.caught", "params": {"seat": accuser, "target": 1, "card": "7H"}}, NAMES)
        assert expected[1:] in answer["frame"]["said"]
    assert outcomes == {"stands", "caught"}
    fair = Tryout(position_at("podkidnoy-cheat-caught", 4), NAMES[:3], lang)  # South beats 9♦ with Q♦
    answer = fair.card("QD")
    assert answer["frame"]["table"] == [["9D", "QD"]]
    assert all(action.kind != "accuse" for _, action in fair.game.history)
    while answer["waiting"]:  # the AIs answer by the rules only
        seat = fair.game.to_act
        assert seat is not None
        legal = fair.game.legal_actions(seat)
        answer = fair.reply()
        assert fair.game.history[-1] == (seat, fair.game.history[-1][1]) and fair.game.history[-1][1] in legal
        assert all(action.kind != "accuse" for _, action in fair.game.history)
