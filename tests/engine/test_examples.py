"""The worked examples of the rules pages (rules/examples/*.durak): each replays, and each step is the
position its comment describes. The pages and these tests read the same records; nothing is typed twice."""

from __future__ import annotations

from pathlib import Path

import pytest

from durak import Game, Record
from durak.record import load_examples

EXAMPLES = load_examples(Path(__file__).resolve().parents[2] / "rules" / "examples")
IDS = ["podkidnoy-limit-take", "podkidnoy-limit-stop", "prostoy-partial-defence", "perevodnoy-transfer",
       "perevodnoy-transfer-refused", "trump-six-exchange", "first-defence-five", "throw-in-priority"]
#: Examples beyond the design's list: cheat mode's (RULES.md §7), on Podkidnoy's page.
MORE_IDS = ["podkidnoy-cheat-caught"]


def frames(example: str) -> list[Game]:
    return list(EXAMPLES[example].frames(Game))


def hand(game: Game, seat: int) -> set[str]:
    return {str(c) for c in game.hand(seat)}


def legal(game: Game) -> set[str]:
    assert game.to_act is not None
    return {str(a) for a in game.legal_actions(game.to_act)}


def table(game: Game) -> list[tuple[str, str | None]]:
    return [(str(a), None if d is None else str(d)) for a, d in game.table]


def test_every_example_of_the_design_is_there_and_nothing_else() -> None:
    assert sorted(EXAMPLES) == sorted(IDS + MORE_IDS)


@pytest.mark.parametrize("example", IDS + MORE_IDS)
def test_each_example_is_a_short_commented_record_from_a_round_start(example: str) -> None:
    record: Record = EXAMPLES[example]
    assert record.example == example and record.title
    assert "Start" in record.header and "Seed" not in record.header
    assert 3 <= len(record.moves) <= 10
    assert all(comment.strip() for comment in record.comments), "every step has a comment"
    assert all(comment.endswith(".") and "  " not in comment for comment in record.comments)
    start = record.start(Game)
    assert start.table == [] and start.to_act == start.attacker and start.history == []
    assert all(len(start.hand(seat)) <= 6 for seat in range(start.players))
    path = Path(__file__).resolve().parents[2] / "rules" / "examples" / f"{example}.durak"
    assert path.read_text(encoding="utf-8") == str(record), "the file is in the canonical form"


def test_limit_take_the_defender_takes_all_five_and_loses_the_next_attack() -> None:
    steps = frames("podkidnoy-limit-take")
    start = steps[0]
    assert start.trump == "D" and start.talon == [] and hand(start, 1) == {"9H", "JD", "6C"}
    assert start.limit == 3
    assert "attack 9S" in legal(steps[2])  # a nine is on the table (the defence 9♥)
    assert "attack JH" in legal(steps[4])  # a jack is on the table (the defence J♦)
    assert legal(steps[5]) == {"take"}  # 6♣ cannot beat J♥
    after_take = steps[6]
    assert "8C" in hand(after_take, 0) and legal(after_take) == {"pass"}  # an eight matches, but the limit was 3
    end = steps[-1]
    assert hand(end, 1) == {"8H", "9H", "9S", "JD", "JH", "6C"} and len(end.hand(1)) == 6
    assert end.attacker == 0 and end.defender == 1 and end.to_act == 0  # the next attacker is not him
    assert end.discard == start.discard  # nothing was discarded


def test_limit_stop_four_cards_are_discarded_and_the_defender_attacks_with_his_six() -> None:
    steps = frames("podkidnoy-limit-stop")
    assert "attack JH" in legal(steps[4])  # J♥ could have been added: the attacker chose to stop
    end = steps[-1]
    assert {"8H", "9H", "9S", "JD"} <= {str(c) for c in end.discard}
    assert len(end.discard) == len(steps[0].discard) + 4
    assert hand(end, 1) == {"6C"}
    assert end.attacker == 1 and end.to_act == 1


def test_prostoy_partial_defence_picks_up_only_the_queen_and_loses_the_next_attack() -> None:
    steps = frames("prostoy-partial-defence")
    assert steps[0].rules.variant == "prostoy" and steps[0].trump == "S" and hand(steps[0], 1) == {"KC", "8D", "6C"}
    assert table(steps[1]) == [("7D", None), ("7C", None), ("QH", None)]  # a pair and a free card
    assert not any(a.startswith("defend QH") for a in legal(steps[3]))  # nothing beats Q♥
    end = steps[-1]
    assert {"7C", "KC", "7D", "8D"} <= {str(c) for c in end.discard}
    assert hand(end, 1) == {"QH", "6C"}
    assert end.attacker == 0 and end.to_act == 0


def test_perevodnoy_transfer_travels_round_the_table_back_to_the_opener() -> None:
    steps = frames("perevodnoy-transfer")
    assert steps[0].players == 3
    assert (steps[2].attacker, steps[2].defender) == (1, 2)  # the transferring player attacks
    assert (steps[3].attacker, steps[3].defender) == (2, 0)  # round the table: the opener defends
    assert [a for a, _ in table(steps[3])] == ["7H", "7D", "7C"]
    assert not any(a.startswith("transfer") for a in legal(steps[4]))  # a card is beaten: no more transfers
    assert steps[6].to_act == 2 and steps[7].to_act == 1  # the round's attacker first, then the other neighbour
    end = steps[-1]
    assert end.table == [] and {"7H", "9H", "7D", "10D", "7C", "8S"} <= {str(c) for c in end.discard}
    assert end.attacker == 0 and hand(end, 0) == {"6D"}


def test_perevodnoy_transfer_refused_when_the_next_defender_holds_too_few_cards() -> None:
    steps = frames("perevodnoy-transfer-refused")
    assert "transfer 9D" in legal(steps[1]) and "transfer 9H" in legal(steps[2])
    end = steps[-1]
    assert end.defender == 3 and "9S" in hand(end, 3)
    assert len(end.table) == 3 and len(end.hand(0)) == 3  # seat 0 would face four cards with three
    assert "transfer 9S" not in legal(end)
    assert {"take", "defend 9C 10C", "defend 9D JD"} <= legal(end)


def test_trump_six_exchange_swaps_the_six_for_the_exposed_card_which_is_then_drawn_last() -> None:
    steps = frames("trump-six-exchange")
    start = steps[0]
    assert start.rules.exchange and str(start.trump_card) == "QH" and "6H" in hand(start, 0)
    assert "exchange" in legal(start)
    after = steps[1]
    assert "QH" in hand(after, 0) and "6H" not in hand(after, 0)
    assert [str(c) for c in after.talon] == ["KD", "9C", "6H"] and str(after.trump_card) == "6H"
    assert "QH" in {str(c) for c in after.known[0]}  # everybody saw the exchange
    assert after.to_act == 0 and "exchange" not in legal(after)
    end = steps[-1]
    assert end.talon == [] and {"KD", "9C"} <= hand(end, 0) and "6H" in hand(end, 1)
    assert "6H" in {str(c) for c in end.known[1]} and not end.trump_exposed
    assert end.attacker == 1


def test_first_defence_five_stops_the_first_round_at_five_cards() -> None:
    steps = frames("first-defence-five")
    start = steps[0]
    assert start.first_round and start.rules.first_defence_limit == 5
    assert len(start.hand(1)) == 6 and start.limit == 5
    assert legal(steps[2]) >= {"take"} and not any(a.startswith("defend 7D") for a in legal(steps[2]))
    assert "attack 9D" in legal(steps[3])
    five = steps[5]
    assert len(five.table) == 5 and "9H" in hand(five, 0) and legal(five) == {"pass"}
    later = Game.from_position(five.position().replace(" first", "").replace("limit=5", "limit=6"))
    assert "attack 9H" in legal(later)  # the same table in a later round: the sixth card is allowed
    end = steps[-1]
    assert len(end.hand(1)) == 5 + 6 and len(end.hand(0)) == 6  # he picked up six; seat 0 refilled
    assert end.attacker == 0 and not end.first_round


def test_throw_in_priority_first_attacker_then_the_other_neighbour_never_the_far_seat() -> None:
    steps = frames("throw-in-priority")
    start = steps[0]
    assert start.players == 4 and start.defender == 1
    assert steps[2].to_act == 0 and steps[2].legal_actions(2) == []  # seat 2 holds 8♣ but waits for seat 0
    assert steps[5].to_act == 2  # seat 0 passed: now seat 2 may add
    for step in steps:
        assert step.to_act != 3 and step.legal_actions(3) == []  # not beside the defender: never throws in
    assert {"8D", "10D"} <= hand(start, 3)
    assert steps[7].to_act == 0  # the table changed: seat 0 has priority again
    end = steps[-1]
    assert end.table == [] and end.attacker == 1 and end.to_act == 1
    assert len(end.discard) == len(start.discard) + 6
