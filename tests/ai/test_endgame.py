"""Exact endgames: the solver finds known wins and the hard player never lets a won endgame go."""

from __future__ import annotations

import pytest

from durak import Game, Rules
from durak.ai import make_player
from durak.ai.endgame import DRAW, LOSS, WIN, Solver

from .helpers import act, position


def solve(game: Game) -> list[tuple[str, int]]:
    seat = game.to_act
    assert seat is not None
    solver = Solver(game.rules.team_of(seat))
    return [(str(a), v) for a, v in solver.solve(game, 1_000_000, every=True)]


def test_the_pair_the_defender_cannot_cover_wins() -> None:
    # Diamonds trump. Seat 1 can beat a six only with his one trump 7D, so the pair of sixes must be
    # taken, and AD, which nothing beats, then goes out.
    game = position(["6S 6C AD", "9H 7D"], trump="D")
    values = dict(solve(game))
    assert values["attack 6S 6C"] == WIN


def test_seed_000_example_the_defender_is_lost() -> None:
    # RULES §2 worked example: ♦ trump, talon empty, defender 9♥ J♦ 6♣ against 8♥ 9♠ J♥.
    game = position(["8H 9S JH", "9H JD 6C"], trump="D")
    values = dict(solve(game))
    assert values["attack 8H"] == WIN


def test_a_lost_position_is_lost_whatever_is_played() -> None:
    # The attacker holds two low plain cards of different ranks; the defender beats both and goes out first.
    game = position(["6S 7C", "AS AC"], trump="D")
    assert {v for _, v in solve(game)} == {LOSS}


def test_a_draw_is_found() -> None:
    # One card each: the defender beats the last card with his last card, both hands empty at once.
    game = position(["6S", "7S"], trump="D")
    assert solve(game) == [("attack 6S", DRAW)]


def test_prostoy_endgame_is_solved() -> None:
    # Prostoy: attack with the pair plus a free card the defender cannot beat in full.
    game = position(["7C 7D QH", "KC 8D 6C"], trump="S", variant="prostoy")
    values = dict(solve(game))
    assert max(values.values()) == WIN


def test_perevodnoy_transfer_wins_where_taking_loses() -> None:
    # Perevodnoy heads-up: seat 1 cannot beat 6S; transferring with 6H sends both sixes back to seat 0,
    # who cannot beat them either, and seat 1 then runs out first.
    game = position(["6S 9C 10C", "6H KC AC"], trump="D", variant="perevodnoy")
    act(game, "attack 6S")
    values = dict(solve(game))
    assert values["transfer 6H"] == WIN


def won_endgames(variant: str, count: int) -> list[Game]:
    """Heads-up positions just after the talon ran out, which the side to act wins with best play."""
    rules = Rules(variant=variant)
    normal = make_player("normal")
    found: list[Game] = []
    seed = 0
    while len(found) < count:
        game = Game.new(rules, seed=seed)
        seed += 1
        while game.result is None and (game.talon or game.attacks):
            seat = game.to_act
            assert seat is not None
            game.apply(seat, normal.choose(game.view(seat), game.legal_actions(seat)))
        me = game.to_act
        if me is not None and Solver(rules.team_of(me)).solve(game, 1_000_000)[0][1] == WIN:
            found.append(game)
    return found


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy", "prostoy"])
def test_hard_never_loses_a_won_endgame(variant: str) -> None:
    """From heads-up endgames the solver calls won, hard wins against every opponent."""
    for game in won_endgames(variant, 3):
        me = game.to_act
        assert me is not None
        hard = make_player("hard", seed=1, iterations=4)
        for opponent in ("random", "easy", "normal", "hard"):
            other = make_player(opponent, seed=2, iterations=4)
            trial = game.copy()
            while trial.result is None:
                seat = trial.to_act
                assert seat is not None
                bot = hard if seat == me else other
                trial.apply(seat, bot.choose(trial.view(seat), trial.legal_actions(seat)))
            assert me not in trial.result.losers and not trial.result.draw, opponent
