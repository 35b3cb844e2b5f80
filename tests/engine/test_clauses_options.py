"""RULES.md §5 — optional conventions: teams, trump-six exchange, decks, and rule-set validation."""

from __future__ import annotations

import json

import pytest

from durak import Game, IllegalAction, Rules, RulesError, SaveError, ScenarioError

from .positions import legal, play, position


@pytest.mark.parametrize(("teams", "players"), [("2v2", 4), ("3v3", 6), ("2v2v2", 6)])
def test_teams_partners_sit_alternately(teams, players):
    rules = Rules(players=players, teams=teams)
    count = 3 if teams == "2v2v2" else 2
    assert [rules.team_of(s) for s in range(players)] == [s % count for s in range(players)]


@pytest.mark.parametrize(("teams", "players"), [("2v2", 5), ("3v3", 4), ("2v2v2", 4)])
def test_teams_with_the_wrong_number_of_players_are_refused(teams, players):
    with pytest.raises(RulesError, match=f"teams {teams} need exactly"):
        Rules(players=players, teams=teams)


def test_teams_defender_is_next_active_opponent():
    game = position(["8S", "", "9S 10S", "JS QS"], trump="D", teams="2v2")  # seat 1 already out
    assert game.defender == 3  # seat 2 is the attacker's partner


def test_teams_only_the_defenders_opponents_throw_in():
    game = position(["8S 9C", "9S 10C 6H JD", "8C 7H", "8H 7S"], trump="D", teams="2v2", throw_in="everyone")
    assert game.throwers == [0, 2]  # seat 3 is the defender's partner


def test_teams_game_ends_when_one_team_holds_cards():
    game = position(["8S", "9S QS", "8C", "AH KH"], trump="D", teams="2v2")
    play(game, "attack 8S", "defend 8S 9S", "pass", "pass")  # seat 0 out
    assert game.active == [False, True, True, True] and game.defender == 2
    play(game, "attack QS", "take", "pass", "pass")  # seat 1 out: seat 2 (team 0) holds 8♣ Q♠, seat 3 (team 1) A♥ K♥
    assert game.result is None
    assert game.attacker == 3  # the taker's turn passed to the next player
    play(game, "attack KH", "take", "pass", "attack AH", "take", "pass")
    assert game.result is not None
    assert game.result.losers == [0, 2]  # team 1 emptied its hands first: team 0 loses
    assert game.result.out_order == [0, 1, 3] and game.result.durak == 2


def test_exchange_option_in_podkidnoy_on_own_turn_only():
    game = position(["6D 8S", "9S 10S"], trump_card="QD", talon="AH QD", trump_six_exchange=True)
    assert "exchange" in legal(game)
    game2 = position(["8S 9C", "6D 10S"], trump_card="QD", talon="AH QD", trump_six_exchange=True)
    assert game2.legal_actions(1) == []  # not seat 1's turn
    play(game2, "attack 8S")
    assert "exchange" in legal(game2)  # the defender's own turn


def test_exchange_not_possible_without_an_exposed_card():
    game = position(["6D 8S", "9S 10S"], trump="D", talon="AH", trump_six_exchange=True)
    assert "exchange" not in legal(game)
    with pytest.raises(IllegalAction, match="no trump card is exposed"):
        game.apply(0, "exchange")


def test_exchange_uses_the_decks_lowest_trump():
    game = position(["9D 10S", "JS QS"], trump_card="KD", talon="AH KD", deck=24, trump_six_exchange=True)
    assert "exchange" in legal(game)  # in a 24-card deck the lowest trump is the nine


@pytest.mark.parametrize(("deck", "most"), [(24, 4), (36, 6), (52, 6)])
def test_deck_player_limits(deck, most):
    Rules(deck=deck, players=most)
    if most < 6:
        with pytest.raises(RulesError):
            Rules(deck=deck, players=most + 1)


def test_unknown_options_and_bad_values_are_refused_with_reasons():
    with pytest.raises(RulesError, match="unknown variant"):
        Rules(variant="poker")
    with pytest.raises(RulesError, match="2 to 6"):
        Rules(players=7)
    with pytest.raises(RulesError, match="unknown rule option"):
        Rules.from_dict({"plyers": 2})


def test_scenario_with_duplicate_or_unknown_cards_is_refused():
    with pytest.raises(ScenarioError, match="appears twice"):
        position(["8S 9S", "8S 10S"])
    with pytest.raises(ScenarioError, match="not in a 24-card deck"):
        position(["6S 9S", "JS 10S"], deck=24)
    with pytest.raises(ScenarioError, match="not a card"):
        position(["XX 9S", "JS 10S"])


def test_save_that_does_not_parse_is_refused():
    game = Game.new(Rules(), seed=1)
    data = game.to_dict()
    broken = json.loads(json.dumps(data))
    broken["hands"][0][0] = broken["hands"][1][0]
    with pytest.raises(SaveError, match="two places"):
        Game.from_dict(broken)
    with pytest.raises(SaveError, match="version"):
        Game.from_dict({"format": "durak-game", "version": 99})
    with pytest.raises(SaveError):
        Game.from_dict("{not json")
    missing = dict(data)
    del missing["talon"]
    with pytest.raises(SaveError, match="missing field"):
        Game.from_dict(missing)
