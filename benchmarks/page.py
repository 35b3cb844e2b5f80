"""The game page's own figures in Debian's Chromium: first paint, time to ready, longest task in play.

    .venv/bin/python benchmarks/page.py [--runs 3] [--turns 12] [--json artifacts/bench-page.json]

Per run, in new browser contexts:
- bare Pyodide (benchmarks/bare.html, the floor) cold, then reloaded (warm);
- the game (index.html?...&speed=instant) cold: first contentful paint (the table skeleton is plain
  HTML/CSS), then ms until body[data-state=ready]; then, once the page has settled (its memory
  snapshot made, see web/pyodide-boot.mjs), reloaded (warm).
Then one game at normal speed against three hard AIs, played by clicking: every main-thread task
of 50 ms or more (PerformanceObserver "longtask") that overlaps an AI turn is recorded, and the
longest is printed next to the table's own measure of its longest AI step (body[data-ai]).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import runpy
import statistics
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CONFIG = runpy.run_path(str(ROOT / "playwright.config.py"))
serve = SimpleNamespace(**runpy.run_path(str(ROOT / "scripts" / "serve.py")))

BARE = "benchmarks/bare.html"
GAME = "index.html?variant=podkidnoy&players=2&level=normal&seed=1&speed=instant"
PLAY = "index.html?variant=podkidnoy&players=4&level=hard&seed=3&speed=normal"
SETTLED_JS = "() => !!document.body && ['ready', 'error'].includes(document.body.dataset.state)"
READY_MS_JS = "() => Number(document.body.dataset.readyMs || performance.now())"
FCP_JS = """() => { const e = performance.getEntriesByName('first-contentful-paint')[0];
                    return e ? e.startTime : null; }"""
SNAPSHOT_SETTLED_JS = "() => !['missing', undefined].includes(document.body.dataset.snapshot)"
LONGTASKS_INIT = """
  window.__longtasks = [];
  try {
    new PerformanceObserver(list => { for (const e of list.getEntries())
      window.__longtasks.push([e.startTime, e.duration]); }).observe({type: 'longtask', buffered: true});
  } catch (e) {}
"""
TURN_JS = """() => {
  if (document.querySelector('[data-testid=game-over]')) return 'over';
  if (document.querySelector('#hand .hand-cards[data-live=true]')) return 'turn';
  return '';
}"""


def ready_ms(page: Page) -> float:
    page.wait_for_function(SETTLED_JS, timeout=CONFIG["READY_TIMEOUT_MS"])
    state = page.evaluate("() => document.body.dataset.state")
    if state != "ready":
        raise RuntimeError(f"{page.url}: data-state={state!r}")
    value: float = page.evaluate(READY_MS_JS)
    return value


def load_times(browser: Browser, base: str) -> dict[str, float]:
    times: dict[str, float] = {}
    context = browser.new_context(viewport=CONFIG["VIEWPORT"])
    try:
        page = context.new_page()
        page.goto(base + BARE, timeout=CONFIG["NAVIGATION_TIMEOUT_MS"])
        times["bare_cold"] = ready_ms(page)
        page.reload(timeout=CONFIG["NAVIGATION_TIMEOUT_MS"])
        times["bare_warm"] = ready_ms(page)
    finally:
        context.close()
    context = browser.new_context(viewport=CONFIG["VIEWPORT"])
    try:
        page = context.new_page()
        page.goto(base + GAME, timeout=CONFIG["NAVIGATION_TIMEOUT_MS"])
        times["game_cold"] = ready_ms(page)
        times["paint_cold"] = page.evaluate(FCP_JS) or float("nan")
        with contextlib.suppress(Exception):  # no snapshot machinery: a plain reload is still the warm case
            page.wait_for_function(SNAPSHOT_SETTLED_JS, timeout=90_000)
        page.reload(timeout=CONFIG["NAVIGATION_TIMEOUT_MS"])
        times["game_warm"] = ready_ms(page)
        times["paint_warm"] = page.evaluate(FCP_JS) or float("nan")
    finally:
        context.close()
    return times


def _click_turn(page: Page) -> None:
    """One human decision: first playable card (and its first target), else pass or take."""
    cards = page.evaluate(
        "() => [...document.querySelectorAll('#hand [data-playable=true]')].map(e => e.dataset.card)")
    if cards:
        page.click(f'#hand [data-card="{cards[0]}"]')
        play = page.locator(".actions [data-action=play]:not([hidden]):not([disabled])")
        if play.count():
            play.click()
            return
        target = page.locator("#table [data-target=true]")
        if target.count():
            target.first.click()
        return
    for action in ("pass", "take"):
        button = page.locator(f".actions [data-action={action}]:not([disabled])")
        if button.count():
            button.click()
            return


def longest_task_in_play(browser: Browser, base: str, turns: int) -> dict[str, Any]:
    context = browser.new_context(viewport=CONFIG["VIEWPORT"])
    context.add_init_script(LONGTASKS_INIT)
    try:
        page = context.new_page()
        page.goto(base + PLAY, timeout=CONFIG["NAVIGATION_TIMEOUT_MS"])
        ready_ms(page)
        with contextlib.suppress(Exception):  # let the page settle (snapshot worker): figures about play alone
            page.wait_for_function(SNAPSHOT_SETTLED_JS, timeout=90_000)
        windows: list[tuple[float, float]] = []
        for _ in range(turns):
            state = page.wait_for_function(TURN_JS, timeout=120_000).json_value()
            if state == "over":
                break
            _click_turn(page)
            start = page.evaluate("() => performance.now()")
            state = page.wait_for_function(TURN_JS, timeout=120_000).json_value()
            windows.append((start, page.evaluate("() => performance.now()")))
            if state == "over":
                break
        tasks: list[list[float]] = page.evaluate("() => window.__longtasks")
        in_ai = [d for s, d in tasks if any(s < b and s + d > a for a, b in windows)]
        ai = (page.evaluate("() => document.body.dataset.ai") or "0 0 0 0").split()
        return {"ai_turns": len(windows), "ai_seconds": sum(b - a for a, b in windows) / 1000,
                "longtasks_in_ai_turns": sorted(in_ai, reverse=True), "all_longtasks": len(tasks),
                "ai_moves": int(ai[0]), "ai_think_ms": float(ai[1]), "ai_step_max_ms": float(ai[2]),
                "frame_max_ms": float(ai[3])}
    finally:
        context.close()


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):7.0f}  ({min(values):.0f}-{max(values):.0f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="First paint, ready time and longest task of the game page.")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--turns", type=int, default=12, help="human turns in the long-task game")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    server, base = serve.start_in_background(port=0)
    results: dict[str, Any] = {}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CONFIG["CHROMIUM_PATH"],
                                                 args=CONFIG["CHROMIUM_ARGS"], headless=True)
            runs = [load_times(browser, base) for _ in range(args.runs)]
            results["loads"] = runs
            print(f"Chromium {browser.version}; median (min-max) of {args.runs} runs, ms")
            for label, key in (("first paint, game, cold", "paint_cold"), ("first paint, game, warm", "paint_warm"),
                               ("ready, bare Pyodide, cold", "bare_cold"), ("ready, game, cold", "game_cold"),
                               ("ready, bare Pyodide, warm", "bare_warm"), ("ready, game, warm", "game_warm")):
                print(f"  {label:32} {summary([r[key] for r in runs])}")
            med = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
            print(f"  game/bare ready: cold {med['game_cold'] / med['bare_cold']:.2f}x, "
                  f"warm {med['game_warm'] / med['bare_warm']:.2f}x")
            play = longest_task_in_play(browser, base, args.turns)
            results["play"] = play
            tasks = play["longtasks_in_ai_turns"]
            longest = f"{tasks[0]:.0f} ms" if tasks else "none of 50 ms or more"
            print(f"AI turns at normal speed vs three hard AIs: {play['ai_turns']} turns, "
                  f"{play['ai_seconds']:.1f} s, {play['ai_moves']} AI moves ({play['ai_think_ms']:.0f} ms thinking)")
            print(f"  longest main-thread task during AI turns: {longest} "
                  f"({len(tasks)} tasks >= 50 ms; {sum(t > 100 for t in tasks)} over 100 ms); "
                  f"longest AI step measured by the page: {play['ai_step_max_ms']:.0f} ms; "
                  f"longest frame (render + DOM writes): {play['frame_max_ms']:.0f} ms")
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
