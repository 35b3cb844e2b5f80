"""Page-load timings in Debian's Chromium: ms until document.body.dataset.state == "ready".

    python benchmarks/pages.py [--runs 3] [--json artifacts/bench-pages.json] [PAGE ...]

PAGE is a path under the repo root, with any query string; by default benchmarks/bare.html
(bare Pyodide: the floor) and index.html?speed=instant when index.html exists. Each run opens
a new browser context (cold: empty cache, wasm compiled again), then reloads it (warm).
The time is the page's own data-ready-ms, else performance.now() when "ready" was seen.
`make bench` runs this after `make setup`.
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


def default_pages() -> list[str]:
    pages = ["benchmarks/bare.html"]
    if (ROOT / "index.html").is_file():
        pages.append("index.html?speed=instant")
    return pages


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


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):7.0f}  ({min(values):.0f}-{max(values):.0f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Page-load timings in Chromium.")
    parser.add_argument("pages", nargs="*", help="paths under the repo root (default: bare.html, index.html)")
    parser.add_argument("--runs", type=int, default=3, help="cold+warm loads per page (default 3)")
    parser.add_argument("--json", type=Path, help="also write the raw numbers here")
    args = parser.parse_args(argv)
    pages = args.pages or default_pages()

    server, base_url = serve.start_in_background(port=0)
    results: dict[str, Any] = {"runs": args.runs, "pages": {}}
    started = time.monotonic()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CONFIG["CHROMIUM_PATH"], args=CONFIG["CHROMIUM_ARGS"], headless=True
            )
            print(f"ms until ready, median (min-max) of {args.runs} runs; Chromium {browser.version}")
            print(f"{'page':40} {'cold':>22} {'warm reload':>22}")
            for path in pages:
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
