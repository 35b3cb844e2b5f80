"""Game review speed: the time to grade a whole two-player game, and to the first verdict.

    python benchmarks/review.py [--games 10] [--worlds 48] [--variant podkidnoy] [--slice 0.02]

The games are seeded: a normal player (standing in for the human, whose seat is graded) against the hard
player (30 worlds). Grading runs in slices of ``--slice`` seconds as the page runs it; the times are
CPython's processor time (other jobs on a shared machine do not count). The page's own figure (Pyodide, about 1.8x slower) is printed by tests/browser/test_review.py's
measurement, see docs/review.md.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak import Action, Game, Rules, review
from durak.ai import make_player


def played_game(rules: Rules, seed: int) -> tuple[Game, list[tuple[int, Action]]]:
    """The start and the moves of one seeded game: normal at seat 0, hard at seat 1."""
    start = Game.new(rules, seed=seed)
    game = start.copy()
    players = [make_player("normal", seed=seed), make_player("hard", seed=seed, iterations=30)]
    moves: list[tuple[int, Action]] = []
    while game.result is None:
        seat = game.to_act
        assert seat is not None
        action = players[seat].choose(game.view(seat), game.legal_actions(seat))
        moves.append((seat, action))
        game.apply(seat, action)
    return start, moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--worlds", type=int, default=review.WORLDS)
    parser.add_argument("--variant", default="podkidnoy")
    parser.add_argument("--slice", type=float, default=0.02)
    args = parser.parse_args()
    rules = Rules(variant=args.variant)
    totals, firsts, steps, counts = [], [], [], []
    grades: dict[str, int] = dict.fromkeys(review.GRADES, 0)
    for seed in range(args.games):
        start, moves = played_game(rules, seed)
        began = time.process_time()
        grader = review.start(review.decisions(start, moves, 0), worlds=args.worlds)
        first = None
        while True:
            begin = time.process_time()
            done = grader.step(args.slice)
            steps.append(time.process_time() - begin)
            if first is None and grader.verdicts:
                first = time.process_time() - began
            if done:
                break
        totals.append(time.process_time() - began)
        firsts.append(first or 0.0)
        counts.append(len(grader.verdicts))
        for verdict in grader.verdicts:
            grades[verdict.grade] += 1
        print(f"game {seed}: {len(moves)} moves, {counts[-1]} decisions graded in {totals[-1]:.2f} s "
              f"(first verdict {firsts[-1] * 1000:.0f} ms)")
    steps.sort()
    print(f"{args.variant}, {args.worlds} worlds, {args.games} games: "
          f"whole game median {statistics.median(totals):.2f} s, "
          f"max {max(totals):.2f} s; first verdict median {statistics.median(firsts) * 1000:.0f} ms, "
          f"max {max(firsts) * 1000:.0f} ms; decisions per game median {statistics.median(counts):.0f}; "
          f"step of {args.slice * 1000:.0f} ms: p99 {steps[int(0.99 * len(steps))] * 1000:.1f} ms, "
          f"max {steps[-1] * 1000:.1f} ms")
    print("grades: " + ", ".join(f"{grade} {count}" for grade, count in grades.items()))


if __name__ == "__main__":
    main()
