"""The terminal game (durak/cli.py), driven by --script and by standard input."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from durak import Game, Rules
from durak.cli import main

ROOT = Path(__file__).resolve().parents[2]
ALWAYS_FIRST = ";".join(["1"] * 600)


def run(*args: str, stdin: str = "") -> tuple[int, str]:
    out = io.StringIO()
    status = main(list(args), stdin=io.StringIO(stdin), stdout=out)
    return status, out.getvalue()


def replay_first_choices(rules: Rules, seed: int, me: int) -> Game:
    """The game the CLI plays when you type 1 every time and the opponents play their first action."""
    game = Game.new(rules, seed=seed)
    while game.to_act is not None:
        game.apply(game.to_act, game.legal_actions(game.to_act)[0])
    return game


@pytest.mark.parametrize(("args", "rules"), [
    (["--seed", "3"], Rules()),
    (["--seed", "8", "--variant", "perevodnoy", "--players", "3"], Rules(variant="perevodnoy", players=3)),
    (["--seed", "5", "--variant", "prostoy", "--players", "4"], Rules(variant="prostoy", players=4)),
    (["--seed", "2", "--players", "4", "--teams", "2v2", "--throw-in", "everyone"],
     Rules(players=4, teams="2v2", throw_in="everyone")),
])
def test_a_scripted_game_is_played_to_its_end(args: list[str], rules: Rules) -> None:
    status, out = run(*args, "--opponents", "first", "--script", ALWAYS_FIRST)
    assert status == 0, out[-2000:]
    expected = replay_first_choices(rules, int(args[1]), me=0)
    mine = [str(action) for seat, action in expected.history if seat == 0]
    played = [line.removeprefix("you: ").removesuffix(" (nothing to add)") for line in out.splitlines()
              if line.startswith("you: ")]
    assert played == mine
    result = expected.result
    assert result is not None
    last = out.splitlines()[-1]
    assert last.startswith("=== game over: ")
    if result.draw:
        assert "a draw" in last
    elif 0 in result.losers:
        assert "you lose" in last
    else:
        assert "you win" in last and (result.durak is None or f"seat {result.durak} is the durak" in last)
    assert "Traceback" not in out


def seed_where_seat_zero_attacks(rules: Rules) -> int:
    return next(seed for seed in range(100) if Game.new(rules, seed=seed).to_act == 0)


def test_moves_in_any_notation_and_reproducible_random_opponents() -> None:
    rules = Rules()
    seed = seed_where_seat_zero_attacks(rules)
    card = Game.new(rules, seed=seed).hand(0)[0]
    typed = f"ATTACK {str(card)[:-1].replace('10', 't')}{card.symbol[-1]}"  # e.g. "ATTACK t♥"
    first = run("--seed", str(seed), "--script", f"{typed};{ALWAYS_FIRST}")
    second = run("--seed", str(seed), "--script", f"{typed};{ALWAYS_FIRST}")
    assert first == second, "the same seed and moves give the same game"
    status, out = first
    assert status == 0
    assert f"> {typed}\nyou: attack {card}\n" in out
    assert "not accepted" not in out


def test_bad_input_gets_a_clear_message_and_the_game_goes_on() -> None:
    rules = Rules()
    seed = seed_where_seat_zero_attacks(rules)
    script = "hello; 99; 0; attack 2X; defend 6S 7S; transfer 6S; 1"
    status, out = run("--seed", str(seed), "--opponents", "first", "--script", script)
    assert "not accepted: not an action: 'hello' (unknown kind 'hello'" in out
    assert "not accepted: no action number 99: choose 1 to" in out
    assert "not accepted: no action number 0: choose 1 to" in out
    assert "not accepted: not an action: 'attack 2X': not a card: '2X' (unknown suit 'X'" in out
    assert "not accepted: cannot beat 6♠ with 7♠" in out
    assert "not accepted: cannot transfer 6♠" in out
    assert "you: " in out  # the "1" after the mistakes was played
    assert status == 1 and out.rstrip().endswith("game left before its end")  # the input ran out
    assert "Traceback" not in out


def test_standard_input_help_show_and_quit() -> None:
    status, out = run("--seed", "4", "--opponents", "first", stdin="help\nshow\n\nquit\n")
    assert status == 1
    assert "commands:" in out and "leave the game" in out
    assert out.count("your hand:") >= 2  # shown at the start and again on "show"
    assert out.rstrip().endswith("game left before its end")


def test_the_view_shows_only_your_cards() -> None:
    rules = Rules(players=3)
    seed = seed_where_seat_zero_attacks(rules)
    game = Game.new(rules, seed=seed)
    status, out = run("--seed", str(seed), "--players", "3", "--script", "quit")
    assert status == 1
    header = out.split("your move:")[0]
    for other in (1, 2):
        for card in game.hand(other):
            assert card.symbol not in header, f"seat {other}'s {card} is shown to seat 0"
    for card in game.hand(0):
        assert card.symbol in header
    assert "talon 18 card(s)" in header


@pytest.mark.parametrize(("args", "message"), [
    (["--players", "6", "--deck", "24"], "error: 6 players need 36 cards"),
    (["--variant", "prostoy", "--teams", "2v2", "--players", "4"], "error: Prostoy is every player for himself"),
    (["--seat", "2"], "error: --seat must be a seat from 0 to 1"),
])
def test_a_rule_set_that_cannot_be_played_is_refused(args: list[str], message: str) -> None:
    status, out = run(*args)
    assert status == 2
    assert out.startswith(message)


@settings(max_examples=25, deadline=None)
@given(script=st.text(alphabet=st.sampled_from(list("0123456789 ;attckdefnsprxhoquilwTJQKASHDC♠♥♦♣\n")),
                      max_size=60))
def test_no_input_crashes_the_game(script: str) -> None:
    status, out = run("--seed", "6", "--variant", "perevodnoy", "--script", script)
    assert status in (0, 1)
    assert "Traceback" not in out


def test_runs_as_a_module_in_a_subprocess() -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-m", "durak.cli", "--seed", "9", "--variant", "perevodnoy", "--players", "3",
         "--opponents", "first", "--script", ALWAYS_FIRST],
        cwd=ROOT, env=env, input="", capture_output=True, text=True, encoding="utf-8", timeout=60, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    assert done.stdout.splitlines()[-1].startswith("=== game over: ")
