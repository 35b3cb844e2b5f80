"""Every level answers with a legal action, in positions met in every variant and option."""

from __future__ import annotations

import pytest

from durak import Rules
from durak.ai import LEVELS, make_player

from .helpers import RULE_SETS, positions


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_every_level_plays_legally(options: dict[str, object]) -> None:
    rules = Rules(**options)  # type: ignore[arg-type]
    players = {level: make_player(level, seed=3, iterations=2) for level in LEVELS}
    checked = 0
    for game in positions(rules, seed=11, every=5):
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        view = game.view(seat)
        for level, player in players.items():
            action = player.choose(view, legal)
            assert action in legal, f"{level} chose {action} not in {legal}"
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("seed", range(4))
def test_whole_games_between_levels_finish(seed: int) -> None:
    """Bots of every level finish games against each other without an illegal move."""
    from durak import Game

    for options in RULE_SETS[seed::4]:
        rules = Rules(**options)  # type: ignore[arg-type]
        game = Game.new(rules, seed=seed)
        bots = [make_player(LEVELS[(seat + seed) % len(LEVELS)], seed=seat, iterations=1)
                for seat in range(rules.players)]
        for _ in range(3000):
            if game.result is not None:
                break
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions(seat)
            game.apply(seat, bots[seat].choose(game.view(seat), legal))
        assert game.result is not None
