"""The playouts of hard's search: normal's rules of thumb, some with the estimates normal makes at the table, some
with the opponents playing as beginners."""

from __future__ import annotations

from collections.abc import Generator
from random import Random

from durak import Game
from durak.ai.normal import choose_normal
from durak.ai.search import BEGINNER_SHARE, INFORMED_SHARE, informed, playout
from durak.ai.situation import Situation

from .helpers import act, position


def test_a_playout_opens_with_the_card_the_defender_cannot_beat() -> None:
    # Talon empty: seat 1 beats 6S with 7S but holds no club and no trump, so 7C goes out for good.
    game = position(["6S 7C", "7S 8H"], trump="D")
    legal = game.legal_actions(0)
    assert str(choose_normal(Situation.of_game(game, 0), legal)) == "attack 6S"  # blind: the cheapest card
    assert str(choose_normal(informed(game, 0, legal), legal)) == "attack 7C"


def test_a_playout_throws_in_what_the_defender_cannot_beat() -> None:
    # Seat 1 can beat 8C with KC but has no spade and no trump.
    game = position(["8H 8C 8S QC", "10H JH QH KC"], trump="D")
    act(game, "attack 8H", "defend 8H 10H")
    legal = game.legal_actions(0)
    assert str(choose_normal(Situation.of_game(game, 0), legal)) == "attack 8C"  # blind: either eight
    assert str(choose_normal(informed(game, 0, legal), legal)) == "attack 8S"


def test_the_defender_sees_nothing_more() -> None:
    game = position(["7H AS", "AD KD 9C"], trump="D")
    act(game, "attack 7H")
    legal = game.legal_actions(1)
    assert informed(game, 1, legal) == Situation.of_game(game, 1)


def test_the_estimate_leaves_out_the_seat_s_own_cards_and_the_exposed_trump() -> None:
    game = position(["6S 7C", "7S 8H"], talon="9C 10C JC", trump_card="JC")
    situation = informed(game, 0, game.legal_actions(0))
    assert situation.unseen is not None
    assert sorted(map(str, situation.unseen)) == sorted(["7S", "8H", "9C", "10C"])
    assert situation.defender_hidden == 2


def first_move(game: Game, seed: int, team: int = 0) -> str:
    """The first move of a noiseless playout of ``game`` for ``team``, with ``seed``."""
    drive(playout(game, team, Random(seed), 0.0))
    return str(game.history[0][1])


def drive(work: Generator[None, None, int]) -> int:
    """Run a sliced playout to its end; its value."""
    while True:
        try:
            next(work)
        except StopIteration as stop:
            return int(stop.value)


def test_the_seed_decides_whether_a_playout_makes_the_estimates() -> None:
    # As above, 7C is the informed opening and 6S the blind one: each playout is one or the other.
    openings = {}
    for seed in range(20):
        game = position(["6S 7C", "7S 8H"], trump="D")
        draws = Random(seed)
        draws.random()  # whether the opponents play as beginners: seat 0 is on the playout's own side
        informed_playout = draws.random() < INFORMED_SHARE
        openings[seed] = first_move(game, seed)
        assert openings[seed] == ("attack 7C" if informed_playout else "attack 6S")
    assert len(set(openings.values())) == 2


def test_the_seed_decides_whether_the_opponents_play_as_beginners() -> None:
    # Normal leads with the pair of sevens, informed or not; easy leads with its lowest card, 6H.
    openings = {}
    for seed in range(30):
        game = position(["7S 7C 6H", "10S 8H 9D"], trump="D")
        beginner_playout = Random(seed).random() < BEGINNER_SHARE
        openings[seed] = first_move(game, seed, team=1)  # seat 0 is the opponent
        assert openings[seed] == ("attack 6H" if beginner_playout else "attack 7S 7C")
        own_side = position(["7S 7C 6H", "10S 8H 9D"], trump="D")
        assert first_move(own_side, seed, team=0) == "attack 7S 7C"  # never a beginner on its own side
    assert len(set(openings.values())) == 2
