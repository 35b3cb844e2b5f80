"""The arena: honest intervals, seat swapping, runaway games reported as defects."""

from __future__ import annotations

import pytest

from durak import Rules
from durak.arena import main, tournament, wilson


def test_wilson_interval_matches_known_values() -> None:
    low, high = wilson(50, 100)
    assert low == pytest.approx(0.4038, abs=1e-4) and high == pytest.approx(0.5962, abs=1e-4)
    low, high = wilson(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)


def test_each_deal_is_played_from_both_seats() -> None:
    report = tournament(Rules(), ["easy", "random"], deals=3, seed=5)
    assert report.games == 6
    assert report.tallies[0].games == report.tallies[1].games == 6
    assert report.tallies[0].wins == report.tallies[1].losses
    assert not report.defects


def test_a_runaway_game_is_a_defect_not_a_result() -> None:
    report = tournament(Rules(), ["easy", "easy"], deals=1, seed=5, move_cap=10)
    assert report.games == 0 and len(report.defects) == 2
    assert "no result after 10 moves" in report.defects[0]


def test_command_line_heads_up(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--a", "normal", "--b", "random", "--deals", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "normal vs random:" in out and "95% CI" in out and "decision time normal: median" in out


def test_command_line_lineup_with_teams(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["--lineup", "hard,easy,hard,easy", "--teams", "2v2", "--deals", "1", "--iterations", "2"])
    assert code == 0
    out = capsys.readouterr().out
    assert "baseline (one side in 2): 50.0%" in out
    assert "hard: lost" in out and "easy: lost" in out
