"""The sliced API: a browser can think in steps of a few milliseconds and still get the full answer."""

from __future__ import annotations

import gc
import time
from typing import Any

import pytest

from durak import Action, Game, Rules
from durak.ai import make_player
from durak.ai.endgame import Solver
from durak.ai.hard import ENDGAME_PROOF_SHARE
from durak.ai.players import Cheating

from .helpers import positions

STEP = 0.01
#: Slack over the step for the last unit of work (a playout's few moves, 64 nodes of a proof).
SLACK = 0.01


def in_steps(level: str, view: dict[str, Any], legal: list[Action], **options: Any) -> tuple[Action, list[float]]:
    """Run a decision in steps; each step's processor time, not counting other jobs on a shared machine
    nor the interpreter's full garbage collections (tens of ms in a big test process, whoever allocates)."""
    thinker = make_player(level, seed=4, **options).start(view, legal)
    durations = []
    gc.disable()
    try:
        while True:
            start = time.thread_time()
            done = thinker.step(STEP)
            durations.append(time.thread_time() - start)
            if done:
                return thinker.best(), durations
    finally:
        gc.enable()


def whole_and_sliced(game: Game, seat: int, iterations: int) -> tuple[Action, Action, list[float]]:
    """Hard's choice for ``seat`` made in one call, then in steps (with each step's duration)."""
    view, legal = game.view(seat), game.legal_actions(seat)
    whole = make_player("hard", seed=4, iterations=iterations).choose(view, legal)
    sliced, durations = in_steps("hard", view, legal, iterations=iterations)
    return whole, sliced, durations


def endgame() -> Game:
    """A heads-up position just after the talon ran out, big enough to need many steps to prove."""
    normal = make_player("normal")
    for seed in range(100):
        game = Game.new(Rules(variant="perevodnoy"), seed=seed)
        while game.result is None and (game.talon or game.attacks):
            seat = game.to_act
            assert seat is not None
            game.apply(seat, normal.choose(game.view(seat), game.legal_actions(seat)))
        seat = game.to_act
        if seat is not None:
            solver = Solver(game.rules.team_of(seat))
            solver.solve(game, 1_000_000)
            if solver.nodes > 5_000:
                return game
    raise AssertionError("no large endgame found")


def test_quick_levels_finish_in_the_first_step() -> None:
    game = next(positions(Rules(), seed=1))
    seat = game.to_act
    assert seat is not None
    for level in ("random", "easy", "normal"):
        action, durations = in_steps(level, game.view(seat), game.legal_actions(seat))
        assert len(durations) == 1 and action in game.legal_actions(seat)


def test_hard_steps_stay_short_and_respect_the_budget() -> None:
    for game in list(positions(Rules(), seed=6, every=15))[:4]:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        action, durations = in_steps("hard", game.view(seat), legal, time_budget=0.1)
        assert action in legal
        assert max(durations) < STEP + SLACK
        assert sum(durations) < 0.1 * (1 + ENDGAME_PROOF_SHARE) + SLACK


def test_sliced_endgame_proof_gives_the_unsliced_answer() -> None:
    game = endgame()
    seat = game.to_act
    assert seat is not None
    whole, sliced, durations = whole_and_sliced(game, seat, iterations=5)
    assert sliced == whole
    assert len(durations) > 3 and max(durations) < STEP + SLACK


def test_sliced_search_gives_the_unsliced_answer() -> None:
    for game in list(positions(Rules(variant="prostoy"), seed=3, every=6))[:3]:
        seat = game.to_act
        assert seat is not None
        whole, sliced, _ = whole_and_sliced(game, seat, iterations=6)
        assert sliced == whole


def test_a_decisions_own_budget_replaces_the_players() -> None:
    game = next(g for g in positions(Rules(), seed=6, every=15) if len(g.legal_actions(g.to_act or 0)) > 2)
    seat = game.to_act
    assert seat is not None and game.talon, "a midgame decision: sampled search, no endgame proof"
    view, legal = game.view(seat), game.legal_actions(seat)
    player = make_player("hard", seed=4, time_budget=0.02)
    thinker = player.start(view, legal, time_budget=0.12)
    while not thinker.step(STEP):
        pass
    assert 0.12 <= thinker.elapsed() < 0.12 + STEP + SLACK  # type: ignore[attr-defined]
    assert thinker.best() in legal
    own = player.start(view, legal)
    while not own.step(STEP):
        pass
    # its own 0.02 s, not the last decision's 0.12 s (wall time: a busy machine may add a step or two)
    assert own.elapsed() < 0.12  # type: ignore[attr-defined]


def test_a_cheating_decision_keeps_its_budget_and_a_bad_budget_is_refused() -> None:
    game = next(g for g in positions(Rules(cheating=True), seed=6, every=15) if g.cheats(g.to_act or 0))
    seat = game.to_act
    assert seat is not None
    view, legal = game.view(seat), game.legal_actions(seat)
    player = make_player("hard", seed=4, time_budget=0.02)
    thinker = player.start(view, legal, game.cheats(seat), time_budget=0.07)
    assert isinstance(thinker, Cheating) and thinker.inner.budget == 0.07  # type: ignore[attr-defined]
    for bad in (0.0, -1.0, float("nan")):
        with pytest.raises(ValueError, match="time_budget"):
            player.start(view, legal, time_budget=bad)
