"""The rules pages' figures in Debian's Chromium: first paint, "first example steppable", "try it" ready.

    .venv/bin/python benchmarks/rules.py [--runs 3] [--json artifacts/bench-rules.json]

Each run opens new browser contexts (an empty cache each) and measures, for rules/en/podkidnoy.html:

- cold: its first contentful paint and when its first example steps (body[data-steppable-ms], written by
  web/examples/rules.js once every example is live); warm: the same after a reload once the service worker controls
  the page (its files from the worker's cache);
- "try it" ready, cold, two ways of booting Pyodide: on first use (?engine=on-demand, "try it" pressed as
  soon as the page steps) and in idle time (the default: the engine starts 1.5 s after the page is shown,
  and "try it" is pressed after READ_SECONDS of reading); the time from the press until the example has
  data-try="ready" (the engine answered);
- the game in the same conditions, for comparison: index.html (a dealt table) cold, its first paint and its
  data-ready-ms (on a busy machine every figure grows; the game's own say by how much).

Goals: first paint <= 300 ms, steppable <= 500 ms cold, "try it" ready no slower than the game's
ready. Needs `make setup` (the built pages, web/vendor/); runs the site on a free port.
"""

from __future__ import annotations

import argparse
import json
import runpy
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
helpers = SimpleNamespace(**runpy.run_path(str(ROOT / "tests" / "browser" / "helpers.py")))
CONFIG = helpers.CONFIG

RULES = "rules/en/podkidnoy.html"
EXAMPLE = "podkidnoy-limit-take"
GAME = "index.html?variant=podkidnoy&players=2&level=normal&seed=1&speed=instant"
READ_SECONDS = 8.0  # a reader's time on the page before pressing "try it" (idle boot)
GOAL_PAINT_MS = 300
GOAL_STEPPABLE_MS = 500

FCP_JS = """() => { const e = performance.getEntriesByName('first-contentful-paint')[0];
                    return e ? e.startTime : null; }"""
STEPPABLE_JS = "() => Number(document.body.dataset.steppableMs)"
LONGTASKS_INIT = """
  window.__longtasks = [];
  new PerformanceObserver(list => {
    for (const e of list.getEntries()) window.__longtasks.push([e.startTime, e.duration]);
  }).observe({type: 'longtask', buffered: true});
"""
READY_JS = "() => document.body.dataset.state === 'ready'"


def loaded(page: Page, url: str) -> dict[str, float]:
    page.goto(url, timeout=CONFIG.NAVIGATION_TIMEOUT_MS)
    page.wait_for_function(READY_JS, timeout=CONFIG.READY_TIMEOUT_MS)
    page.wait_for_function("() => performance.getEntriesByName('first-contentful-paint').length > 0")
    return {"paint": float(page.evaluate(FCP_JS)), "steppable": float(page.evaluate(STEPPABLE_JS))}


def try_ready_ms(page: Page) -> float:
    """Press "try it" on the first example's second step; ms until the engine has answered."""
    example = page.locator(f'[data-example="{EXAMPLE}"]')
    example.locator("[data-control=next]").click()
    start = time.perf_counter()
    example.locator("[data-control=try]").click()
    page.wait_for_selector(f'[data-example="{EXAMPLE}"][data-try="ready"]', state="attached",
                           timeout=CONFIG.READY_TIMEOUT_MS * 2)
    return (time.perf_counter() - start) * 1000


def odds_times(page: Page) -> tuple[float, float]:
    """Press "show the odds" in try mode: (ms until they are shown, longest main-thread task meanwhile)."""
    example = page.locator(f'[data-example="{EXAMPLE}"]')
    start = page.evaluate("() => performance.now()")
    example.locator("[data-control=odds]").click()
    page.wait_for_selector(f'[data-example="{EXAMPLE}"][data-odds="ready"]', state="attached", timeout=60_000)
    end = page.evaluate("() => performance.now()")
    tasks: list[list[float]] = page.evaluate("() => window.__longtasks")
    during = [d for s, d in tasks if s < end and s + d > start]
    return end - start, max(during, default=0.0)


def one_run(browser: Browser, base: str) -> dict[str, float]:
    out: dict[str, float] = {}
    context = browser.new_context(viewport=CONFIG.VIEWPORT)
    try:  # cold, "try it" pressed at once
        page = context.new_page()
        cold = loaded(page, base + RULES + "?engine=on-demand")
        out.update(paint_cold=cold["paint"], steppable_cold=cold["steppable"])
        out["try_first_use"] = try_ready_ms(page)
    finally:
        context.close()
    context = browser.new_context(viewport=CONFIG.VIEWPORT)
    try:  # warm: once the service worker has precached the site and controls the page, a reload
        page = context.new_page()
        loaded(page, base + RULES + "?engine=on-demand")
        page.wait_for_function(helpers.CONTROLLED_JS, timeout=CONFIG.READY_TIMEOUT_MS)
        page.wait_for_timeout(1000)
        warm = loaded(page, base + RULES + "?engine=on-demand")
        out.update(paint_warm=warm["paint"], steppable_warm=warm["steppable"])
    finally:
        context.close()
    context = browser.new_context(viewport=CONFIG.VIEWPORT)
    context.add_init_script(LONGTASKS_INIT)
    try:  # cold, Pyodide started in idle time, "try it" pressed after a while of reading; then the odds
        page = context.new_page()
        loaded(page, base + RULES)
        page.wait_for_timeout(READ_SECONDS * 1000)
        out["try_after_reading"] = try_ready_ms(page)
        out["odds_ms"], out["odds_longest_task"] = odds_times(page)
    finally:
        context.close()
    context = browser.new_context(viewport=CONFIG.VIEWPORT)
    try:  # the game, cold, in the same conditions
        page = context.new_page()
        page.goto(base + GAME, timeout=CONFIG.NAVIGATION_TIMEOUT_MS)
        page.wait_for_function(READY_JS, timeout=CONFIG.READY_TIMEOUT_MS)
        out["game_paint_cold"] = float(page.evaluate(FCP_JS))
        out["game_ready_cold"] = float(page.evaluate("() => Number(document.body.dataset.readyMs)"))
    finally:
        context.close()
    return out


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):7.0f}  ({min(values):.0f}-{max(values):.0f})"


ROWS = (
    ("first paint, cold", "paint_cold"),
    ("first paint, warm", "paint_warm"),
    ("first example steppable, cold", "steppable_cold"),
    ("first example steppable, warm", "steppable_warm"),
    ("try it ready, pressed at once (boot on first use)", "try_first_use"),
    (f"try it ready, pressed after {READ_SECONDS:.0f} s (idle boot)", "try_after_reading"),
    ("show the odds in try mode: until shown", "odds_ms"),
    ("show the odds: longest main-thread task meanwhile (< 50: none)", "odds_longest_task"),
    ("the game's first paint, cold (for comparison)", "game_paint_cold"),
    ("the game's own ready, cold (for comparison)", "game_ready_cold"),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="First paint, steppable and try-it times of the rules pages.")
    parser.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    parser.add_argument("--json", type=Path, help="also write the raw numbers here")
    args = parser.parse_args(argv)
    server, base = helpers.serve.start_in_background(port=0)
    results: dict[str, list[float]] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CONFIG.CHROMIUM_PATH, args=CONFIG.CHROMIUM_ARGS,
                                                 headless=True)
            print(f"Chromium {browser.version}; {RULES}; median (min-max) of {args.runs} runs, ms")
            for _ in range(args.runs):
                for key, value in one_run(browser, base).items():
                    results.setdefault(key, []).append(value)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    for label, key in ROWS:
        print(f"{label:56} {summary(results[key]):>22}")
    med = {key: statistics.median(values) for key, values in results.items()}
    paint = max(med["paint_cold"], med["paint_warm"])
    print("goals (medians):")
    print(f"  first paint {paint:.0f} ms (goal <= {GOAL_PAINT_MS}: {'met' if paint <= GOAL_PAINT_MS else 'NOT met'}; "
          f"the game's, cold, {med['game_paint_cold']:.0f} ms)")
    steppable = med["steppable_cold"]
    print(f"  steppable, cold {steppable:.0f} ms (goal <= {GOAL_STEPPABLE_MS}: "
          f"{'met' if steppable <= GOAL_STEPPABLE_MS else 'NOT met'})")
    for key in ("try_first_use", "try_after_reading"):
        ratio = med[key] / med["game_ready_cold"]
        print(f"  {key}: {med[key]:.0f} ms = {ratio:.2f}x the game's cold ready "
              f"(goal <= 1: {'met' if ratio <= 1 else 'NOT met'})")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"runs": args.runs, **results}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
