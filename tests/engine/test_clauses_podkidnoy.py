"""RULES.md §2 — Podkidnoy (throw-in), the default game: one test per clause."""

from __future__ import annotations

import pytest

from durak import Game, IllegalAction, Rules

from .positions import canon, legal, play, position


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_first_attacker_holds_the_lowest_trump(players):
    for seed in range(30):
        game = Game.new(Rules(players=players), seed=seed)
        trumps = [(c, seat) for seat, hand in enumerate(game.hands) for c in hand if c.suit == game.trump]
        expected = min(trumps)[1] if trumps else (game.dealer + 1) % players
        assert game.attacker == expected, seed


def test_first_attacker_without_trumps_in_hands_is_dealer_left():
    game = Game.from_scenario({"rules": {"players": 3}, "trump": "D", "attacker": 1,
                               "hands": [["6S"], ["7S"], ["8S"]], "talon": []})
    assert game._first_attacker(True) == 1  # dealer 0 (seat before the attacker), no trump: seat 1


@pytest.mark.parametrize(("first_attack", "expected"), [("loser_left", 3), ("against_loser", 1)])
def test_later_games_loser_deals_and_first_attack_option(first_attack, expected):
    game = Game.new(Rules(players=4, first_attack=first_attack), seed=9, dealer=2, first_game=False)
    assert game.dealer == 2 and game.attacker == expected
    if first_attack == "against_loser":
        assert game.defender == 2  # the previous loser defends first


def test_defender_is_next_active_player_clockwise():
    game = position(["6S", "7S", "8S"], attacker=2)
    assert game.defender == 0


def test_opening_attack_one_card_or_several_of_one_rank_within_limit():
    game = position(["8H 8D 8C 9S", "6H 7H"])
    moves = legal(game)
    assert {"attack 8H", "attack 8D", "attack 8C", "attack 9S", canon("attack 8H 8D")} <= moves
    assert canon("attack 8H 8D 8C") not in moves  # the defender holds only two cards
    with pytest.raises(IllegalAction, match="one rank"):
        game.apply(0, "attack 8H 9S")


def test_limit_is_min_six_and_defender_hand_at_round_start():
    game = position(["6S", "6H 7H 8H 9H 10H JH QH KH"], trump="D")
    assert game.limit == 6
    game = position(["6S", "6H 7H 8H"], trump="D")
    assert game.limit == 3


def test_limit_first_defence_five_option_caps_the_first_round():
    game = position(["6S", "6H 7H 8H 9H 10H JH QH KH"], first_round=True, first_defence_limit=5)
    assert game.limit == 5
    game = position(["6S", "6H 7H 8H 9H 10H JH QH KH"], first_round=False, first_defence_limit=5)
    assert game.limit == 6
    game = position(["6S", "6H 7H 8H 9H 10H JH QH KH"], first_round=True)
    assert game.limit == 6


def test_limit_counts_attacks_not_defences_and_does_not_grow_on_take():
    game = position(["8S 8C 8H 9D", "9S 9C 6H"], trump="D")
    play(game, "attack 8S", "defend 8S 9S", "attack 8C", "defend 8C 9C", "attack 8H", "take")
    assert game.limit == 3
    assert legal(game) == {"pass"}  # the 9♦ rank is on the table but the limit is reached


def test_throw_ins_only_ranks_on_table_one_at_a_time_defender_first_while_unbeaten():
    game = position(["8S 9C 7H QD", "9S 10C 6H"], trump="D")
    play(game, "attack 8S")
    assert game.to_act == 1  # the defender acts first while an attack is unbeaten
    play(game, "defend 8S 9S")
    assert legal(game) == {"attack 9C", "pass"}  # eights and nines are on the table; 7♥ and Q♦ are not
    with pytest.raises(IllegalAction, match="no 7 is on the table"):
        game.apply(0, "attack 7H")


def test_throw_ins_old_discards_do_not_count():
    game = position(["8S 7C 9H", "9S 6H 8H"], trump="D", talon="")
    play(game, "attack 8S", "defend 8S 9S", "pass")  # 8♠ 9♠ discarded; the defender attacks next
    play(game, "attack 6H", "defend 6H 9H")
    assert legal(game) == {"pass"}  # 8♥: an eight lies only in the old discards


def test_throw_ins_neighbours_only_first_attacker_has_priority():
    # seat 0 attacks seat 1; seat 2 is the defender's other neighbour; seat 3 is not a neighbour
    game = position(["8S 6C", "9S 10C 6H JD", "8C 7H", "8H 7S"], trump="D")
    assert game.throwers == [0, 2]
    play(game, "attack 8S", "defend 8S 9S")
    assert game.to_act == 0  # priority to the first attacker
    play(game, "pass")
    assert game.to_act == 2 and legal(game) == {"attack 8C", "pass"}
    play(game, "attack 8C")  # the table changed
    play(game, "defend 8C 10C")
    assert game.to_act == 0  # the first attacker has priority again
    play(game, "pass", "pass")
    assert game.attacker == 1  # round closed: successful defender attacks next


def test_throw_ins_everyone_option_priority_clockwise_from_first_attacker():
    game = position(["8S 6C", "9S 10C 6H JD", "8C 7H", "8H 7S"], trump="D", throw_in="everyone")
    assert game.throwers == [0, 2, 3]
    play(game, "attack 8S", "defend 8S 9S", "pass", "pass")
    assert game.to_act == 3 and "attack 8H" in legal(game)


def test_attacker_with_nothing_to_add_still_answers_pass():
    game = position(["8S 6C", "9S 10C"], trump="D")
    play(game, "attack 8S", "defend 8S 9S")
    assert legal(game) == {"pass"}
    assert game.result is None and game.attacks  # the round does not close by itself


def test_defending_each_defence_on_the_attack_it_beats_and_take_even_when_able():
    game = position(["8S 8C", "9S 9C 6H"], trump="D")
    play(game, canon("attack 8S 8C"))
    assert {"defend 8S 9S", "defend 8C 9C", "take"} <= legal(game)
    play(game, "defend 8C 9C")
    assert [(str(a), None if d is None else str(d)) for a, d in game.table] == [("8S", None), ("8C", "9C")]
    assert "take" in legal(game)


def test_round_end_success_discards_table_and_defender_attacks_next():
    game = position(["8S 6C AH", "9S 10C 6H"], trump="D", talon="")
    play(game, "attack 8S", "defend 8S 9S", "pass")
    assert {str(c) for c in game.discard} >= {"8S", "9S"}
    assert game.attacker == 1 and game.defender == 0


def test_round_end_take_picks_up_everything_and_next_player_attacks():
    game = position(["8S 8C AH", "9S 6H 7H", "KS KC"], trump="D")
    play(game, "attack 8S", "defend 8S 9S", "attack 8C", "take", "pass", "pass")
    assert {str(c) for c in game.hands[1]} == {"8S", "9S", "8C", "6H", "7H"}
    assert game.attacker == 2  # the taker loses his turn to attack
    assert set(game.view(0)["known"][1]) == {"8S", "9S", "8C"}  # picked-up cards are public


def test_round_end_after_take_attackers_may_still_throw_in_within_limit():
    game = position(["8S 8C 9H", "9S 6H 7H"], trump="D")
    play(game, "attack 8S", "take")
    assert legal(game) == {"attack 8C", "pass"}
    play(game, "attack 8C")
    assert game.to_act == 0  # after a take the defender no longer answers
    play(game, "pass")
    assert len(game.hands[1]) == 5


def test_draw_order_first_attacker_others_clockwise_defender_last():
    game = position(["8S 6C", "9S 10C", "7H 7C"], trump="D", talon="6H 6D 7D 8D 9D 10D JD QD KD AD 7S JS QS KS",
                    attacker=1)
    game.apply(1, "attack 9S")
    events = game.apply(2, "take") + game.apply(1, "pass") + game.apply(0, "pass")
    assert [(e.player, e.size) for e in events if e.kind == "draw"] == [(1, 5), (0, 4), (2, 3)]
    assert game.attacker == 0  # the taker (seat 2) is skipped


def test_transfer_is_not_part_of_podkidnoy():
    game = position(["8S 6C", "8H 10C"], trump="D")
    play(game, "attack 8S")
    assert not any(a.startswith("transfer") for a in legal(game))
    with pytest.raises(IllegalAction, match="Perevodnoy"):
        game.apply(1, "transfer 8H")
