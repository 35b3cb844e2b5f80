"""Hints name a legal move and a coded reason (``hint.<reason>``, cards as params, an English sentence);
analysis gives a chance per move. The reasons in every language: tests/engine/test_messages.py."""

from __future__ import annotations

import pytest

from durak import Rules
from durak.ai import evaluate, hint, reason

from .helpers import RULE_SETS, act, position, positions


def test_the_issue_example_reason() -> None:
    # ♦ trump, talon not empty: 8♥ is best beaten with 9♥, the lowest card that beats.
    game = position(["8H 6S 7C", "9H JD 6C QS"], trump="D", talon="AS 10C 7D")
    act(game, "attack 8H")
    view, legal = game.view(1), game.legal_actions(1)
    action = next(a for a in legal if str(a) == "defend 8H 9H")
    why = reason(view, legal, action)
    assert why.text == "beat 8♥ with 9♥: lowest card that beats"
    assert (why.code, why.params) == ("hint.beat_lowest", {"attack": "8H", "card": "9H"})


def test_reasons_for_a_trump_and_for_taking() -> None:
    game = position(["8H 6S 7C", "AD JD 6C QS"], trump="D", talon="AS 10C 7D 9S 9C 10S 6H 7H")
    act(game, "attack 8H")
    view, legal = game.view(1), game.legal_actions(1)
    trump = next(a for a in legal if str(a) == "defend 8H JD")
    take = next(a for a in legal if a.kind == "take")
    assert "nothing of its suit beats it" in reason(view, legal, trump).text
    assert reason(view, legal, trump).code == "hint.beat_trump"
    assert reason(view, legal, take).text.startswith("take")
    assert reason(view, legal, take).code.startswith("hint.take_")


@pytest.mark.parametrize("options", RULE_SETS[::3], ids=lambda o: "-".join(map(str, o.values())))
def test_hints_are_legal_and_explained(options: dict[str, object]) -> None:
    rules = Rules(**options)  # type: ignore[arg-type]
    for game in positions(rules, seed=8, every=13):
        seat = game.to_act
        assert seat is not None
        view, legal = game.view(seat), game.legal_actions(seat)
        suggestion = hint(view, legal, iterations=2)
        assert suggestion.action in legal
        assert suggestion.reason.code.startswith("hint.") and len(suggestion.reason.text) > 8


def test_evaluate_gives_exact_chances_in_a_known_endgame() -> None:
    # Every card known: the solver values each move exactly (1 win, 0.5 draw, 0 loss).
    game = position(["6S 6C AD", "9H 7D"], trump="D")
    chances = evaluate(game.view(0), game.legal_actions(0), iterations=4)
    assert set(chances) == set(game.legal_actions(0))
    assert all(value in (0.0, 0.5, 1.0) for value in chances.values())
    assert max(chances.values()) == 1.0


def test_evaluate_gives_a_chance_for_every_move_mid_game() -> None:
    for game in positions(Rules(), seed=3, every=17):
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        chances = evaluate(game.view(seat), legal, iterations=3)
        assert set(chances) == set(legal)
        assert all(0.0 <= value <= 1.0 for value in chances.values())


def test_a_proven_outcome_shows_the_proof_and_estimates_stay_estimates() -> None:
    game = position(["6S 6C AD", "9H 7D"], trump="D")
    suggestion = hint(game.view(0), game.legal_actions(0), iterations=4)
    assert str(suggestion.action) == "attack 6S 6C"
    assert suggestion.reason.text.endswith("(won: every defence loses)")
    assert suggestion.reason.params["proven"] == "win" and "percent" not in suggestion.reason.params
    view, legal = game.view(0), game.legal_actions(0)
    estimate = reason(view, legal, legal[0], 1.0)
    assert estimate.text.endswith("(win chance 99%)") and estimate.params["percent"] == 99
