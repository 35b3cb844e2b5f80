"""AI decision speed: decisions per second and decision-time percentiles per level.

    python benchmarks/ai.py [--variant podkidnoy] [--players 2] [--positions 120] [--iterations 100]

The positions are the ones met in seeded games between normal players (every 3rd decision), so
every level answers the same questions. Hard runs twice: with its default time budget (what a
player meets) and in iteration mode (what the arena's reproducible runs use).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak import Action, Game, Rules
from durak.ai import make_player


def positions(rules: Rules, count: int) -> list[tuple[dict[str, Any], list[Action]]]:
    """Views and legal actions met in seeded games of normal players (forced moves skipped)."""
    found: list[tuple[dict[str, Any], list[Action]]] = []
    normal = make_player("normal")
    rng = random.Random(0)
    seed = 0
    while len(found) < count:
        game = Game.new(rules, seed=seed)
        seed += 1
        while game.result is None and len(found) < count:
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions(seat)
            view = game.view(seat)
            if len(legal) > 1 and rng.random() < 1 / 3:
                found.append((view, legal))
            game.apply(seat, normal.choose(view, legal))
    return found


def percentile(times: list[float], share: float) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def slices(questions: list[tuple[dict[str, Any], list[Action]]], time_budget: float, slice_seconds: float) -> None:
    """Print how long hard's `start()` and each `step()` take when its thinking is cut into slices."""
    starts, steps = [], []
    for index, (view, legal) in enumerate(questions):
        begin = time.thread_time()
        thinker = make_player("hard", seed=index, time_budget=time_budget).start(view, legal)
        starts.append(time.thread_time() - begin)
        done = False
        while not done:
            begin = time.thread_time()
            done = thinker.step(slice_seconds)
            steps.append(time.thread_time() - begin)
    print(f"hard in {1000 * slice_seconds:.0f} ms slices: start() max {1000 * max(starts):.2f} ms; "
          f"{len(steps)} steps, p50 {1000 * statistics.median(steps):.1f} ms, "
          f"p99 {1000 * percentile(steps, 0.99):.1f} ms, max {1000 * max(steps):.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default="podkidnoy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=120)
    parser.add_argument("--iterations", type=int, default=100, help="hard's iteration mode setting")
    parser.add_argument("--time-budget", type=float, default=0.2, help="hard's time mode setting (seconds)")
    parser.add_argument("--slice", type=float, default=0.03, help="seconds per step in the sliced run (0: skip it)")
    args = parser.parse_args()
    rules = Rules(variant=args.variant, players=args.players)
    questions = positions(rules, args.positions)
    print(f"{rules.variant}, {rules.players} players: {len(questions)} positions (forced moves excluded)")
    print(f"{'level':<26} {'decisions/s':>11} {'p50 ms':>8} {'p90 ms':>8} {'p99 ms':>8} {'max ms':>8}")
    setups = [
        ("random", {}), ("easy", {}), ("normal", {}),
        (f"hard (time {args.time_budget} s)", {"time_budget": args.time_budget}),
        (f"hard (iterations {args.iterations})", {"iterations": args.iterations}),
    ]
    for name, options in setups:
        player = make_player(name.split()[0], seed=1, **options)
        times = []
        for view, legal in questions:
            start = time.perf_counter()
            player.choose(view, legal)
            times.append(time.perf_counter() - start)
        print(f"{name:<26} {len(times) / sum(times):>11.1f} {1000 * statistics.median(times):>8.2f} "
              f"{1000 * percentile(times, 0.9):>8.2f} {1000 * percentile(times, 0.99):>8.2f} "
              f"{1000 * max(times):>8.2f}")
    if args.slice > 0:
        slices(questions, args.time_budget, args.slice)


if __name__ == "__main__":
    main()
