"""The review of a game just played in the table, as its player meets it: from the click on Review at the
game's end to the first estimate, the first verdict and the last, with the page's longest main-thread
task meanwhile by its wall time and by its processor time (a Chromium trace).

    python benchmarks/review_trace.py [--runs 5] [--seed 42] [--root <built checkout>] [--against <another>]

Each run is a new context (a first visit) that plays one seeded game against the easy AI by clicking
(the first playable card, the first target, else pass or take), then opens its review. The grading runs
in the engine worker; the main thread draws the screen and the verdicts as they come. docs/review.md has
the figures.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from playwright.sync_api import Browser
from traced_rounds import CONFIG, ROOT, add_site_arguments, measure_rounds, print_medians

sys.path.insert(0, str(ROOT))

from tests.browser.main_thread import MainThreadTrace
from tests.browser.review.test_review import play_to_the_end

READY_JS = "() => ['ready', 'error'].includes(document.body.dataset.state)"
ESTIMATE_JS = "() => !!document.querySelector('[data-testid=move-list] [data-verdict]')"  # an estimate or a verdict
FIRST_JS = "() => !!document.querySelector('[data-testid=move-list] [data-verdict]:not([data-estimate])')"
GRADED_JS = "() => !!document.querySelector('[data-testid=review][data-graded=true]')"
TIMEOUT_MS = 240_000


def reviewed_game(browser: Browser, url: str, _trace: Path) -> dict[str, float]:
    """One game played to its end in a new context, then its review opened and traced until every verdict."""
    context = browser.new_context(viewport=dict(CONFIG.VIEWPORT))
    try:
        page = context.new_page()
        page.goto(url)
        page.wait_for_function(READY_JS, timeout=CONFIG.READY_TIMEOUT_MS)
        play_to_the_end(page)
        trace = MainThreadTrace(browser, page).start()
        clicked = float(page.evaluate("() => performance.now()"))
        page.click("[data-testid=game-over] [data-action=review]")
        times = {}
        for name, script in (("estimate", ESTIMATE_JS), ("first", FIRST_JS), ("graded", GRADED_JS)):
            page.wait_for_function(script, timeout=TIMEOUT_MS, polling=10)
            times[name] = float(page.evaluate("() => performance.now()")) - clicked
        tasks = [task for task in trace.stop() if task.overlaps(clicked, clicked + times["graded"])]
        moves = float(page.locator("[data-testid=move-list] [data-move]").count())
    finally:
        context.close()
    return {"moves": moves, "estimate ms": times["estimate"], "first ms": times["first"], "graded ms": times["graded"],
            "task wall": max(task.wall_ms for task in tasks), "task cpu": max(task.cpu_ms for task in tasks)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="A game's review opened from the table, traced.")
    add_site_arguments(parser)
    parser.add_argument("--seed", type=int, default=42)
    args = parser.parse_args(argv)
    page = f"index.html?variant=podkidnoy&players=2&level=easy&seed={args.seed}&speed=instant&lang=en"
    results = measure_rounds(args, page, reviewed_game)
    print(f"a heads-up game against easy (seed {args.seed}) played by clicking, then reviewed, {args.runs} runs: "
          "from the click on Review; the main thread's longest task meanwhile; median (min-max)")
    print_medians(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
