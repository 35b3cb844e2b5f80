"""The worked examples of the rule pages, played exactly as written (RULES.md §2 and §4)."""

from __future__ import annotations

import pytest

from durak import IllegalAction

from .positions import canon, legal, play, position


def seed000_position():
    """Talon empty, ♦ trump; the defender (seat 1) starts with 9♥ J♦ 6♣, so the limit is 3."""
    return position(["8H 9S JH 8C KS", "9H JD 6C"], trump="D", attacker=0)


def test_seed000_limit_in_practice_defender_takes_all_five_and_fourth_attack_refused():
    game = seed000_position()
    assert game.limit == 3
    play(game, "attack 8H", "defend 8H 9H")
    assert "attack 9S" in legal(game)  # a nine is on the table (the defence)
    play(game, "attack 9S", "defend 9S JD")
    assert "attack JH" in legal(game)  # a jack is on the table now
    play(game, "attack JH")
    assert legal(game) == {"take"}  # 6♣ cannot beat J♥
    play(game, "take")
    assert game.to_act == 0
    with pytest.raises(IllegalAction, match="limit of 3"):
        game.apply(0, "attack 8C")  # an eight is on the table, but the initial limit was three
    assert legal(game) == {"pass"}
    play(game, "pass")
    assert sorted(map(str, game.hand(1))) == sorted(["8H", "9H", "9S", "JD", "JH", "6C"])
    assert set(map(str, game.discard)).isdisjoint({"8H", "9H", "9S", "JD", "JH"})  # nothing was discarded
    assert game.attacker == 0 and game.defender == 1  # the taker loses his turn to attack


def test_seed000_had_the_attackers_stopped_four_cards_are_discarded_and_defender_attacks():
    game = seed000_position()
    play(game, "attack 8H", "defend 8H 9H", "attack 9S", "defend 9S JD", "pass")
    assert {"8H", "9H", "9S", "JD"} <= set(map(str, game.discard))
    assert [str(c) for c in game.hand(1)] == ["6C"]
    assert game.attacker == 1 and game.to_act == 1


def test_seed002_partial_defence_discards_beaten_pairs_and_picks_up_only_the_queen():
    game = position(["7C 7D QH AS AH", "KC 8D 6C"], trump="S", attacker=0, variant="prostoy")
    assert canon("attack 7C 7D QH") in legal(game)  # a pair and a free card
    play(game, "attack 7C 7D QH")
    assert "defend QH 6C" not in legal(game)
    play(game, "defend 7C KC", "defend 7D 8D")
    assert "take" in legal(game)
    assert not any(a.startswith("defend QH") for a in legal(game))
    play(game, "take")
    assert set(map(str, game.discard)) >= {"7C", "KC", "7D", "8D"}
    assert sorted(map(str, game.hand(1))) == ["6C", "QH"]
    assert game.attacker == 0  # he picked up a card: he is skipped and loses the next attack
