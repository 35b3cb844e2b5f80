"""RULES.md §3 — Perevodnoy (transfer): one test per clause."""

from __future__ import annotations

import pytest

from durak import IllegalAction, NotationError, parse_action

from .positions import canon, legal, play, position


def test_transfer_before_any_beaten_card_moves_the_attack_to_the_next_player():
    game = position(["8S 6C AH", "8H 10C QS", "9C JC KC"], trump="D", variant="perevodnoy")
    play(game, "attack 8S")
    assert "transfer 8H" in legal(game)
    play(game, "transfer 8H")
    assert game.defender == 2 and game.attacker == 1  # the transferring player attacks this round
    assert [str(a) for a, _ in game.table] == ["8S", "8H"]
    assert game.to_act == 2


def test_transfer_not_after_a_card_is_beaten():
    game = position(["8S 8C AH", "8H 9S 10C QS", "9C JC KC QC"], trump="D", variant="perevodnoy")
    play(game, canon("attack 8S 8C"))
    play(game, "defend 8S 9S")
    assert not any(a.startswith("transfer") for a in legal(game))
    with pytest.raises(IllegalAction, match="already been beaten"):
        game.apply(1, "transfer 8H")


def test_transfer_needs_the_attacking_rank():
    game = position(["8S 6C", "9H 10C QS", "9C JC KC"], trump="D", variant="perevodnoy")
    play(game, "attack 8S")
    with pytest.raises(IllegalAction, match="attacking rank"):
        game.apply(1, "transfer 9H")


def test_transfer_allowed_when_new_defender_holds_as_many_cards_as_the_attack():
    game = position(["8S 8C AH", "8H 10C QS", "9C JC KC"], trump="D", variant="perevodnoy")
    play(game, canon("attack 8S 8C"))
    assert "transfer 8H" in legal(game)  # seat 2 holds 3 cards, the attack would have 3


def test_transfer_refused_when_new_defender_has_too_few_cards():
    game = position(["8S AH", "8H 10C QS", "9C"], trump="D", variant="perevodnoy")
    play(game, "attack 8S")
    assert "transfer 8H" not in legal(game)
    with pytest.raises(IllegalAction, match="fewer cards"):
        game.apply(1, "transfer 8H")


def test_transfer_in_a_first_round_under_first_defence_five_keeps_the_cap_of_five():
    game = position(["6S 6C 6H AS", "6D 7S 8S 9S 10S JS", "7H 8H 9H 10H JH QH"], trump="D", variant="perevodnoy",
                    first_round=True, first_defence_limit=5)
    assert game.limit == 5
    play(game, canon("attack 6S 6C 6H"), "transfer 6D")
    assert len(game.table) == 4 and game.limit == 5  # min(5, the new defender's 6 cards)


def test_transfer_limit_becomes_min_cap_and_new_defender_hand():
    game = position(["8S 9C", "8H 10C QS", "9H JC"], trump="D", variant="perevodnoy")
    assert game.limit == 3
    play(game, "attack 8S", "transfer 8H")
    assert game.limit == 2  # the new defender holds two cards
    assert game.throwers[0] == 1


def test_transfer_with_two_players_returns_to_the_opener_and_again():
    game = position(["8S 8D 6C AH", "8H 8C 10C QS"], trump="S", variant="perevodnoy")
    play(game, "attack 8S", "transfer 8H")
    assert game.defender == 0 and game.attacker == 1
    assert "transfer 8D" in legal(game)  # the new defender may transfer again
    play(game, "transfer 8D")
    assert game.defender == 1 and game.attacker == 0


def test_transfer_draw_order_opener_first_last_defender_last():
    talon = "6H 7H 9H 10H JH QH KH AH 6D 7D 9D 10D JD QD KD AD 7S 9S"
    game = position(["8S 6C", "8H 10C", "9C JC"], trump="D", talon=talon, variant="perevodnoy")
    play(game, "attack 8S", "transfer 8H", "take")
    events = []
    while game.attacks:
        seat = game.to_act
        events += game.apply(seat, "pass")
    assert [e.player for e in events if e.kind == "draw"] == [0, 1, 2]
    game = position(["8S 8D 6C", "8H 10C QS"], trump="S", talon=talon, variant="perevodnoy")
    game.apply(0, "attack 8S")
    game.apply(1, "transfer 8H")
    events = game.apply(0, "take") + game.apply(1, "pass")
    assert [e.player for e in events if e.kind == "draw"] == [1, 0]  # the opener is the last defender: draws last


def test_transfer_one_card_at_a_time():
    with pytest.raises(NotationError, match="transfer takes 1"):
        parse_action("transfer 8H 8D")


def test_transfer_with_teams_always_passes_to_an_opponent():
    game = position(["8S 9C", "8H 10C", "9H JC", "7H QC"], trump="D", variant="perevodnoy", teams="2v2")
    play(game, "attack 8S", "transfer 8H")
    assert game.defender == 2 and game.rules.team_of(2) != game.rules.team_of(1)
