"""Game review speed: the time to grade a whole two-player game, to the first estimate and to the first verdict.

    python benchmarks/review.py [--games 10] [--worlds 48] [--variant podkidnoy] [--slice 0.008]
    python benchmarks/review.py --page [--games 5] [--min-moves 100]   # reviewed in the page (Chromium)

The games are seeded: a normal player (standing in for the human, whose seat is graded) against the hard
player (30 worlds). In CPython, grading runs in slices of ``--slice`` seconds (the page's SLICE); the times
are processor time (other jobs on a shared machine do not count). ``--page`` serves the site (build it
first: ``make setup``), opens each game's ``?record=`` link in a new Chromium context and prints the wall
time from the review's appearance to the first estimate (a decision judged on its first worlds, shown
until its verdict), to the first verdict and to the last, with the longest main-thread task meanwhile by
its processor time and by the wall clock (a Chromium trace; goal: none over 50 ms of work). ``--min-moves``
keeps only the seeds whose game is at least that long. docs/review.md has the figures.
"""

from __future__ import annotations

import argparse
import runpy
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak import Action, Game, Rules, review
from durak.ai import make_player
from web.review.model import SLICE

ROOT = Path(__file__).resolve().parent.parent


def played_game(rules: Rules, seed: int) -> tuple[Game, list[tuple[int, Action]]]:
    """The start and the moves of one seeded game: normal at seat 0, hard at the others."""
    start = Game.new(rules, seed=seed)
    game = start.copy()
    players = [make_player("normal", seed=seed)]
    players += [make_player("hard", seed=seed + seat - 1, iterations=30) for seat in range(1, rules.players)]
    moves: list[tuple[int, Action]] = []
    while game.result is None:
        seat = game.to_act
        assert seat is not None
        action = players[seat].choose(game.view(seat), game.legal_actions(seat))
        moves.append((seat, action))
        game.apply(seat, action)
    return start, moves


SHOWN_JS = "() => !!document.querySelector('[data-testid=review]')"
ESTIMATE_JS = "() => !!document.querySelector('[data-testid=move-list] [data-verdict]')"  # an estimate or a verdict
FIRST_JS = "() => !!document.querySelector('[data-testid=move-list] [data-verdict]:not([data-estimate])')"
GRADED_JS = "() => !!document.querySelector('[data-testid=review][data-graded=true]')"


def seeds(rules: Rules, games: int, min_moves: int) -> list[int]:
    """The first ``games`` seeds whose game lasts at least ``min_moves`` moves."""
    found: list[int] = []
    seed = 0
    while len(found) < games:
        if len(played_game(rules, seed)[1]) >= min_moves:
            found.append(seed)
        seed += 1
    return found


def page_figures(rules: Rules, games: int, min_moves: int) -> None:
    """Each game's review in Chromium: time to the first verdict and to the last, and the longest task."""
    from playwright.sync_api import sync_playwright

    from durak.record import url_safe
    from tests.browser.main_thread import MainThreadTrace

    helpers = SimpleNamespace(**runpy.run_path(str(ROOT / "tests" / "browser" / "helpers.py")))
    server, base = helpers.serve.start_in_background(port=0)
    estimates, firsts, wholes, longest = [], [], [], []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=helpers.CONFIG.CHROMIUM_PATH, headless=True,
                                                 args=list(helpers.CONFIG.CHROMIUM_ARGS))
            for seed in seeds(rules, games, min_moves):
                start, moves = played_game(rules, seed)
                game = start.copy()
                for seat, action in moves:
                    game.apply(seat, action)
                context = browser.new_context(viewport={"width": 1280, "height": 900})
                page = context.new_page()
                trace = MainThreadTrace(browser, page).start()
                page.goto(f"{base}index.html?record={url_safe(game.record())}&lang=en&speed=instant")
                page.wait_for_function(SHOWN_JS, timeout=120_000, polling=10)
                shown = page.evaluate("() => performance.now()")
                page.wait_for_function(ESTIMATE_JS, timeout=120_000, polling=10)
                estimate = page.evaluate("() => performance.now()") - shown
                page.wait_for_function(FIRST_JS, timeout=120_000, polling=10)
                first = page.evaluate("() => performance.now()") - shown
                page.wait_for_function(GRADED_JS, timeout=600_000, polling=50)
                whole = page.evaluate("() => performance.now()") - shown
                tasks = [task for task in trace.stop() if task.overlaps(shown, shown + whole)]
                estimates.append(estimate)
                firsts.append(first)
                wholes.append(whole)
                busiest = max(tasks, key=lambda task: task.cpu_ms)
                longest.append(busiest)
                print(f"page game {seed}, {len(moves)} moves: first estimate {estimate:.0f} ms, "
                      f"first verdict {first:.0f} ms, every verdict {whole / 1000:.2f} s, "
                      f"the busiest task {busiest}, the longest {max(tasks, key=lambda task: task.wall_ms)}")
                context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"page, {games} games: whole game median {statistics.median(wholes) / 1000:.2f} s, "
          f"max {max(wholes) / 1000:.2f} s; first estimate median {statistics.median(estimates):.0f} ms, "
          f"max {max(estimates):.0f} ms; first verdict median {statistics.median(firsts):.0f} ms, "
          f"max {max(firsts):.0f} ms; the main thread's busiest task {max(longest, key=lambda task: task.cpu_ms)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--worlds", type=int, default=review.WORLDS)
    parser.add_argument("--variant", default="podkidnoy")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--slice", type=float, default=SLICE)
    parser.add_argument("--page", action="store_true", help="measure the review in the page (Chromium)")
    parser.add_argument("--min-moves", type=int, default=0, help="with --page: only games at least this long")
    args = parser.parse_args()
    rules = Rules(variant=args.variant, players=args.players)
    if args.page:
        page_figures(rules, args.games, args.min_moves)
        return
    totals, estimates, firsts, steps, counts = [], [], [], [], []
    grades: dict[str, int] = dict.fromkeys(review.GRADES, 0)
    for seed in range(args.games):
        start, moves = played_game(rules, seed)
        began = time.process_time()
        grader = review.start(review.decisions(start, moves, 0), worlds=args.worlds)
        first = estimate = None
        while True:
            begin = time.process_time()
            done = grader.step(args.slice)
            steps.append(time.process_time() - begin)
            if estimate is None and (grader.verdicts or grader.estimate()):
                estimate = time.process_time() - began
            if first is None and grader.verdicts:
                first = time.process_time() - began
            if done:
                break
        totals.append(time.process_time() - began)
        firsts.append(first or 0.0)
        estimates.append(estimate or 0.0)
        counts.append(len(grader.verdicts))
        for verdict in grader.verdicts:
            grades[verdict.grade] += 1
        print(f"game {seed}: {len(moves)} moves, {counts[-1]} decisions graded in {totals[-1]:.2f} s "
              f"(first estimate {estimates[-1] * 1000:.0f} ms, first verdict {firsts[-1] * 1000:.0f} ms)")
    steps.sort()
    print(f"{args.variant}, {args.worlds} worlds, {args.games} games: "
          f"whole game median {statistics.median(totals):.2f} s, "
          f"max {max(totals):.2f} s; first estimate median {statistics.median(estimates) * 1000:.0f} ms, "
          f"max {max(estimates) * 1000:.0f} ms; first verdict median {statistics.median(firsts) * 1000:.0f} ms, "
          f"max {max(firsts) * 1000:.0f} ms; decisions per game median {statistics.median(counts):.0f}; "
          f"step of {args.slice * 1000:.0f} ms: p99 {steps[int(0.99 * len(steps))] * 1000:.1f} ms, "
          f"max {steps[-1] * 1000:.1f} ms")
    print("grades: " + ", ".join(f"{grade} {count}" for grade, count in grades.items()))


if __name__ == "__main__":
    main()
