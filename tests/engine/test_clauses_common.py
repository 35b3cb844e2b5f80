"""RULES.md §1 — common to all variants, one test per clause."""

from __future__ import annotations

import random

import pytest

from durak import Game, IllegalAction, Rules, RulesError
from durak.cards import beats, deck, parse_card
from durak.series import Series

from .positions import legal, play, position


@pytest.mark.parametrize(("size", "lowest"), [(24, "9"), (36, "6"), (52, "2")])
def test_deck_sizes_and_rank_order(size, lowest):
    cards = deck(size)
    assert len(cards) == size
    assert str(cards[0])[:-1] == lowest and str(cards[-1])[:-1] == "A"
    assert len({c.suit for c in cards}) == 4


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy", "prostoy"])
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_deal_hand_size_trump_under_talon(variant, players):
    rules = Rules(variant=variant, players=players)
    game = Game.new(rules, seed=7)
    size = 5 if variant == "prostoy" else 6
    assert [len(game.hands[s]) for s in range(players)] == [size] * players
    if players * size < 36:
        assert len(game.talon) == 36 - players * size
        assert game.talon[-1] == game.trump_card  # the turned card is drawn last
        assert game.trump == game.trump_card.suit
        assert game.trump_exposed


def test_deal_is_one_card_at_a_time_clockwise_from_dealer_left():
    game = Game.new(Rules(players=3), seed=11, dealer=2)
    again = Game.new(Rules(players=3), seed=11, dealer=2)
    assert game.to_dict() == again.to_dict()  # same seed, same deal
    other = Game.new(Rules(players=3), seed=11, dealer=0)
    # the same shuffled deck dealt from another seat rotates the hands
    assert [sorted(h) for h in other.hands] == [sorted(game.hands[(s + 2) % 3]) for s in range(3)]


def test_full_deal_shows_dealer_last_card_as_trump_and_keeps_it():
    game = Game.new(Rules(players=6), seed=3, dealer=4)
    assert game.talon == []
    assert game.trump_card in game.hands[4]
    assert not game.trump_exposed
    for seat in range(6):
        if seat != 4:
            assert str(game.trump_card) in game.view(seat)["known"][4]  # shown to everybody


def test_rules_needing_more_cards_than_the_deck_are_refused():
    with pytest.raises(RulesError, match=r"6 players need 36 cards.*24-card deck"):
        Rules(players=6, deck=24)
    Rules(players=4, deck=24)


@pytest.mark.parametrize(
    ("defence", "attack", "trump", "expected"),
    [
        ("9H", "8H", "D", True),  # higher of the same suit
        ("7H", "8H", "D", False),  # lower of the same suit
        ("AS", "8H", "D", False),  # another non-trump suit never beats
        ("6D", "AH", "D", True),  # any trump beats a non-trump
        ("7D", "8D", "D", False),  # a trump only by a higher trump
        ("AH", "6D", "D", False),
        ("9D", "8D", "D", True),
    ],
)
def test_beating(defence, attack, trump, expected):
    assert beats(parse_card(defence), parse_card(attack), "SHDC".index(trump)) is expected


def test_beating_may_trump_while_holding_the_attacked_suit():
    game = position(["8H KS", "9H 6D AC"], trump="D")
    play(game, "attack 8H")
    assert {"defend 8H 9H", "defend 8H 6D"} <= legal(game)


def test_drawing_refills_to_hand_size_and_larger_hands_are_kept():
    game = position(["8H 9H 10H 6S 7S 8S", "JH QS KS AS 6C 7C 8C 9C"], trump="D",
                    talon="6H 7H 10D JD QD KD AD", attacker=0)
    play(game, "attack 8H", "defend 8H JH", "pass")
    assert len(game.hands[0]) == 6  # refilled
    assert len(game.hands[1]) == 7  # started above six, keeps it
    assert len(game.talon) == 6


def test_drawing_each_player_draws_all_before_the_next():
    game = position(["8H 9H 6S", "JH QS", "KS AS 7C"], trump="D", talon="6H 7H 10D JD QD KD AD 8C 9C 10C JC QC")
    events = game.apply(0, "attack 8H")
    events = game.apply(1, "defend 8H JH") + game.apply(0, "pass") + game.apply(2, "pass")
    draws = [(e.player, len(e.cards)) for e in events if e.kind == "draw"]
    assert draws == [(0, 4), (2, 3), (1, 5)]  # attacker, others clockwise, defender last


def test_going_out_empty_hand_stays_while_talon_can_refill():
    game = position(["8H", "JH QS KS"], trump="D", talon="6H 7H 6S 7S 8S 9S 10S AD")
    play(game, "attack 8H", "defend 8H JH", "pass")
    assert game.active == [True, True]
    assert len(game.hands[0]) == 6


def test_going_out_once_talon_empty_and_seat_is_skipped():
    game = position(["8H", "JH QS KS", "9C 10C"], trump="D")
    play(game, "attack 8H", "defend 8H JH", "pass", "pass")
    assert game.active == [False, True, True]
    assert game.out_order == [0]
    assert game.attacker == 1 and game.defender == 2


def test_end_last_player_holding_cards_is_durak():
    game = position(["8H", "JH QS"], trump="D")
    play(game, "attack 8H", "defend 8H JH", "pass")
    assert game.result is not None
    assert game.result.durak == 1 and game.result.losers == [1] and not game.result.draw
    assert game.result.out_order == [0]
    assert game.to_act is None
    assert game.table == [] and Game.from_dict(game.to_dict()).result == game.result  # the table went to the pile


def test_end_draw_when_the_last_round_empties_every_hand():
    game = position(["8H", "JH"], trump="D")
    play(game, "attack 8H", "defend 8H JH", "pass")
    assert game.result is not None and game.result.draw
    assert game.result.durak is None and game.result.losers == []


def test_exit_order_is_recorded():
    game = position(["8H", "JH QS", "9C"], trump="D", attacker=0)
    play(game, "attack 8H", "defend 8H JH", "pass", "pass")  # seat 0 out first
    assert game.out_order == [0]
    assert game.attacker == 1 and game.defender == 2
    play(game, "attack QS", "take", "pass")  # seat 1 out
    assert game.result is not None
    assert game.result.out_order == [0, 1] and game.result.durak == 2


def test_series_counts_one_loss_for_the_durak_and_nothing_for_a_draw_and_loser_deals():
    series = Series(Rules(), seed=5)
    rng = random.Random(0)
    for _ in range(6):
        game = series.game
        while game.result is None:
            seat = game.to_act
            game.apply(seat, rng.choice(game.legal_actions(seat)))
        dealer, result = game.dealer, game.result
        losses = list(series.losses)
        nxt = series.next_game()
        if result.draw:
            assert nxt.dealer == dealer and series.losses == losses
        else:
            assert nxt.dealer == result.durak
            assert series.losses[result.durak] == losses[result.durak] + 1
    assert series.games_played == 6
    assert sum(series.losses) + series.draws == 6


def test_illegal_action_names_the_input_and_changes_nothing():
    game = position(["8H KS", "9C 6C"], trump="D")
    play(game, "attack 8H")
    before = game.to_dict()
    with pytest.raises(IllegalAction, match=r"cannot beat 8♥ with 6♣: a non-trump is beaten by a higher card"):
        game.apply(1, "defend 8H 6C")
    with pytest.raises(IllegalAction, match=r"seat 1 does not hold Q♥"):
        game.apply(1, "defend 8H QH")
    with pytest.raises(IllegalAction, match=r"seat 1's turn"):
        game.apply(0, "pass")
    with pytest.raises(ValueError, match="unknown rank"):
        game.apply(1, "defend 8H 1H")
    with pytest.raises(IllegalAction, match="no seat 7"):
        game.apply(7, "take")
    assert game.to_dict() == before
