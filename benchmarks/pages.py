"""Page-load timings in Debian's Chromium: ms until document.body.dataset.state == "ready".

    python benchmarks/pages.py [--runs 3] [--json artifacts/bench-pages.json] [PAGE ...]

Without PAGE, one run measures in two new browser contexts (interleaved, so both pages see the
same machine load):

- the bare Pyodide page (benchmarks/bare.html, the floor): cold (empty cache, wasm compiled
  again), then reloaded (warm: the HTTP cache);
- the game (index.html?speed=instant): cold; then, once its service worker controls the page
  and the memory snapshot is saved, warm without the snapshot (`snapshot=off`: files from the
  service worker's cache only) and warm with it; then the bare page again in that context
  ("warm, SW cache": the same Pyodide files, served by the game's service worker).

With PAGE arguments (paths under the repo root, with any query string), each run opens a new
context per page and measures cold, then a reload. The time is the page's own data-ready-ms,
else performance.now() when "ready" was seen. `make bench` runs this after `make setup`.
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
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CONFIG = runpy.run_path(str(ROOT / "playwright.config.py"))
serve = SimpleNamespace(**runpy.run_path(str(ROOT / "scripts" / "serve.py")))

SETTLED_JS = "() => !!document.body && ['ready', 'error'].includes(document.body.dataset.state)"
READY_MS_JS = "() => Number(document.body.dataset.readyMs || performance.now())"


BARE = "benchmarks/bare.html"
GAME = "index.html?speed=instant"
CONTROLLED_JS = "() => navigator.serviceWorker.controller !== null"
SNAPSHOT_DONE_JS = "() => ['saved', 'failed', 'unsupported'].includes(document.body.dataset.snapshot)"

# (row label, page) in the order of the printed table
SUITE = (
    ("bare Pyodide, cold", "bare_cold"),
    ("bare Pyodide, warm (HTTP cache)", "bare_warm_http"),
    ("bare Pyodide, warm (SW cache)", "bare_warm_sw"),
    ("game, cold", "game_cold"),
    ("game, warm (SW cache, no snapshot)", "game_warm_sw"),
    ("game, warm (SW cache + snapshot)", "game_warm_snapshot"),
)


def ready_ms(page: Page) -> float:
    page.wait_for_function(SETTLED_JS, timeout=CONFIG["READY_TIMEOUT_MS"])
    state = page.evaluate("() => document.body.dataset.state")
    if state != "ready":
        raise RuntimeError(f"{page.url}: data-state={state!r}")
    value: float = page.evaluate(READY_MS_JS)
    return value


def measure(browser: Browser, url: str, runs: int) -> dict[str, list[float]]:
    cold: list[float] = []
    warm: list[float] = []
    for _ in range(runs):
        context = browser.new_context(viewport=CONFIG["VIEWPORT"])
        try:
            page = context.new_page()
            page.goto(url, timeout=CONFIG["NAVIGATION_TIMEOUT_MS"])
            cold.append(ready_ms(page))
            page.reload(timeout=CONFIG["NAVIGATION_TIMEOUT_MS"])
            warm.append(ready_ms(page))
        finally:
            context.close()
    return {"cold": cold, "warm": warm}


def load(page: Page, url: str) -> float:
    page.goto(url, timeout=CONFIG["NAVIGATION_TIMEOUT_MS"])
    return ready_ms(page)


def suite_run(browser: Browser, base_url: str) -> dict[str, float]:
    """One run of the default suite: {key of SUITE: ms}."""
    times: dict[str, float] = {}
    context = browser.new_context(viewport=CONFIG["VIEWPORT"])
    try:
        page = context.new_page()
        times["bare_cold"] = load(page, base_url + BARE)
        page.reload(timeout=CONFIG["NAVIGATION_TIMEOUT_MS"])
        times["bare_warm_http"] = ready_ms(page)
    finally:
        context.close()
    context = browser.new_context(viewport=CONFIG["VIEWPORT"])
    try:
        page = context.new_page()
        times["game_cold"] = load(page, base_url + GAME)
        page.wait_for_function(CONTROLLED_JS, timeout=CONFIG["READY_TIMEOUT_MS"])
        page.wait_for_function(SNAPSHOT_DONE_JS, timeout=CONFIG["READY_TIMEOUT_MS"])
        times["game_warm_sw"] = load(page, base_url + GAME + "&snapshot=off")
        times["game_warm_snapshot"] = load(page, base_url + GAME)
        state = page.evaluate("() => document.body.dataset.snapshot")
        if state != "used":
            raise RuntimeError(f"the warm game load did not use the snapshot (data-snapshot={state!r})")
        times["bare_warm_sw"] = load(page, base_url + BARE)
    finally:
        context.close()
    return times


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):7.0f}  ({min(values):.0f}-{max(values):.0f})"


def run_suite(browser: Browser, base_url: str, runs: int) -> dict[str, list[float]]:
    results: dict[str, list[float]] = {key: [] for _, key in SUITE}
    for _ in range(runs):
        for key, value in suite_run(browser, base_url).items():
            results[key].append(value)
    print(f"{'load':40} {'ms until ready':>22}")
    for label, key in SUITE:
        print(f"{label:40} {summary(results[key]):>22}")
    median = {key: statistics.median(values) for key, values in results.items()}
    print(f"game cold / bare cold: {median['game_cold'] / median['bare_cold']:.2f}x;  "
          f"game warm (snapshot) / bare warm (HTTP cache): "
          f"{median['game_warm_snapshot'] / median['bare_warm_http']:.2f}x, "
          f"/ bare warm (SW cache): {median['game_warm_snapshot'] / median['bare_warm_sw']:.2f}x")
    return results


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Page-load timings in Chromium.")
    parser.add_argument("pages", nargs="*", help="paths under the repo root (default: the suite above)")
    parser.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    parser.add_argument("--json", type=Path, help="also write the raw numbers here")
    args = parser.parse_args(argv)

    server, base_url = serve.start_in_background(port=0)
    results: dict[str, Any] = {"runs": args.runs, "pages": {}}
    started = time.monotonic()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CONFIG["CHROMIUM_PATH"], args=CONFIG["CHROMIUM_ARGS"], headless=True
            )
            print(f"ms until ready, median (min-max) of {args.runs} runs; Chromium {browser.version}")
            if not args.pages:
                results["suite"] = run_suite(browser, base_url, args.runs)
            else:
                print(f"{'page':40} {'cold':>22} {'warm reload':>22}")
            for path in args.pages:
                times = measure(browser, base_url + path, args.runs)
                results["pages"][path] = times
                print(f"{path:40} {summary(times['cold']):>22} {summary(times['warm']):>22}", flush=True)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    print(f"({time.monotonic() - started:.0f} s)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
