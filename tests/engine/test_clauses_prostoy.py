"""RULES.md §4 — Prostoy Durak: one test per clause."""

from __future__ import annotations

import pytest

from durak import Game, IllegalAction, Rules, RulesError

from .positions import canon, legal, play, position


def test_no_teams_and_no_throw_in_options():
    with pytest.raises(RulesError, match="no teams"):
        Rules(variant="prostoy", players=4, teams="2v2")
    with pytest.raises(RulesError, match="throw-in"):
        Rules(variant="prostoy", throw_in="everyone")
    with pytest.raises(RulesError, match="first-defence"):
        Rules(variant="prostoy", first_defence_limit=5)
    with pytest.raises(RulesError, match="first-attack option does not apply"):
        Rules(variant="prostoy", first_attack="against_loser")


def test_hand_size_five_and_dealer_left_attacks_first():
    for seed in range(10):
        game = Game.new(Rules(variant="prostoy", players=4), seed=seed)
        assert all(len(h) == 5 for h in game.hands)
        assert game.attacker == (game.dealer + 1) % 4


def test_trump_six_exchange_on_by_default():
    assert Rules(variant="prostoy").exchange is True
    assert Rules(variant="prostoy", trump_six_exchange=False).exchange is False
    assert Rules().exchange is False


def test_attack_sets_of_one_three_or_five():
    game = position(["7C 7D QH 9S 9H AC", "6S 6H 6D 6C 10S"], trump="S", variant="prostoy")
    moves = legal(game)
    assert canon("attack 7C 7D QH") in moves  # a pair + a free card
    assert canon("attack 7C 7D 9S 9H QH") in moves  # two pairs of distinct ranks + a free card
    assert canon("attack 7C 7D 9S") in moves  # the free card may be of any rank
    assert canon("attack 7C QH AC") not in moves  # no pair
    assert not any(len(m.split()) in (3, 5) for m in moves)  # never 2 or 4 cards
    with pytest.raises(IllegalAction, match="1, 3 or 5 cards"):
        game.apply(0, "attack 7C 7D")


def test_attack_four_of_a_kind_plus_a_free_card():
    game = position(["7C 7D 7H 7S AC", "6S 6H 6D 6C 10S"], trump="S", variant="prostoy")
    assert canon("attack 7C 7D 7H 7S AC") in legal(game)
    assert canon("attack 7C 7D 7H") in legal(game)  # a pair and a free seven


def test_attack_never_more_cards_than_the_defender_holds():
    game = position(["7C 7D QH 9S 9H", "6S 6H 6D 10S"], trump="S", variant="prostoy")
    assert max(len(m.split()) - 1 for m in legal(game)) == 3  # against 4 cards only 1 or 3


def test_attacker_refills_to_five_right_after_attacking():
    game = position(["7C 7D QH 9S 9H", "6S 6H 6D 10S KS"], trump="S", variant="prostoy",
                    talon="AH AD AC KH KD")
    events = game.apply(0, canon("attack 7C 7D QH"))
    assert len(game.hands[0]) == 5
    assert [e.kind for e in events] == ["attack", "draw"]


def test_defence_is_partial_and_only_unbeaten_cards_are_picked_up():
    game = position(["7C 7D QH 9S 9H", "KC 8D 6C 6H 10H"], trump="S", variant="prostoy")
    play(game, canon("attack 7C 7D QH"), "defend 7D 8D", "take")
    assert {str(c) for c in game.hands[1]} == {"KC", "6C", "6H", "10H", "7C", "QH"}
    assert {"7D", "8D"} <= {str(c) for c in game.discard}


def test_all_beaten_defender_attacks_next():
    game = position(["7C 7D QH 9S 9H", "KC 8D KH 6H 10H"], trump="S", variant="prostoy")
    play(game, canon("attack 7C 7D QH"), "defend 7C KC", "defend 7D 8D", "defend QH KH")
    assert game.attacker == 1 and game.to_act == 1


def test_nothing_is_ever_added_to_an_attack():
    game = position(["7C 7D QH 9S 9H", "KC 8D KH 6H 10H"], trump="S", variant="prostoy")
    play(game, "attack 9S")
    assert not any(m.startswith("attack") for m in legal(game))
    assert "pass" not in legal(game)


def test_picked_up_defender_is_skipped():
    game = position(["7C AS", "6H KC", "8C 9C"], trump="S", variant="prostoy")
    play(game, "attack AS", "take")
    assert game.attacker == 2


def test_victorious_defender_going_out_next_active_attacks():
    game = position(["7C AS", "KC", "8H 9H"], trump="S", variant="prostoy")
    play(game, "attack 7C", "defend 7C KC")
    assert game.active == [True, False, True]
    assert game.attacker == 2


def test_last_two_with_no_cards_is_a_draw():
    game = position(["7C", "KC"], trump="S", variant="prostoy")
    play(game, "attack 7C", "defend 7C KC")
    assert game.result is not None and game.result.draw


def test_exchange_trump_six_on_own_turn_while_talon_lasts():
    game = position(["6S 7C", "KC 8D"], trump_card="JS", talon="AH AD JS", variant="prostoy")
    assert "exchange" in legal(game)
    events = game.apply(0, "exchange")
    assert [e.kind for e in events] == ["exchange"]
    assert "JS" in {str(c) for c in game.hands[0]} and str(game.talon[-1]) == "6S"
    assert game.to_act == 0 and "exchange" not in legal(game)
    assert "JS" in game.view(1)["known"][0]
