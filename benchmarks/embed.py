"""Embeds on another site, in Debian's Chromium: how soon the examples show, with one embed and with three.

    .venv/bin/python benchmarks/embed.py [--runs 5] [--json artifacts/bench-embed.json]

A sibling of benchmarks/page.py (which measures the table). A host page on a second origin (another
loopback port) holds one or three worked-example embeds (web/embed.js, tests/browser/fixtures/
embed_host.html). Times are the host's performance.now() when each frame's message arrives:

- first visible: the first durak:ready (that example is drawn and steppable: no Python is needed);
- all ready: the last durak:ready, the figure the goal compares (three embeds <= 1.3x one).

Cold: a new browser context (empty HTTP cache, no service worker). Warm: the same context reloaded
once every embed's service worker holds the site (offline copy). Each run measures both page sizes,
alternating which goes first, so both see the same machine load. Medians over the runs, with the range.

The site is built (as `make setup` does) and served from a copy made for the run, with its own sw.js:
an edit to the working tree during the run cannot make the service worker refuse its files.
"""

from __future__ import annotations

import argparse
import json
import runpy
import statistics
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
helpers = SimpleNamespace(**runpy.run_path(str(ROOT / "tests" / "browser" / "helpers.py")))
CONFIG = helpers.CONFIG
serve = helpers.serve
HOST_TEMPLATE = ROOT / "tests" / "browser" / "fixtures" / "embed_host.html"
GOAL_RATIO = 1.3  # three embeds, all ready / one embed ready

READY_TIMES_JS = """() => window.received.filter((m) => m.data && m.data.type === 'durak:ready')
                                          .map((m) => m.at)"""
STORED_JS = """async () => (await navigator.serviceWorker.ready).active !== null &&
               !!(await caches.match(new URL('embed.html', location.href)))"""


def write_hosts(folder: Path, site: str) -> None:
    """three.html (the test fixture, three embeds) and one.html (only its first)."""
    three = HOST_TEMPLATE.read_text(encoding="utf-8").replace("__SITE__", site)
    # Each message's arrival time, for the figures (the fixture keeps the messages, not when they came).
    three = three.replace("received.push({ frame: index,", "received.push({ at: performance.now(), frame: index,")
    start, end = three.index('    <h2>A transfer</h2>'), three.index('    <p id="outro">')
    (folder / "three.html").write_text(three, encoding="utf-8")
    (folder / "one.html").write_text(three[:start] + three[end:], encoding="utf-8")


def wait_ready(page: Page, count: int) -> list[float]:
    page.wait_for_function(f"() => window.received.filter((m) => m.data && m.data.type === 'durak:ready')"
                           f".length >= {count}", timeout=CONFIG.READY_TIMEOUT_MS)
    times: list[float] = page.evaluate(READY_TIMES_JS)
    return times


def measure(browser: Browser, url: str, count: int) -> dict[str, float]:
    """Cold, then warm (reloaded once the service workers hold the site), in one new context."""
    context = browser.new_context(viewport=dict(CONFIG.VIEWPORT))
    try:
        page = context.new_page()
        page.goto(url)
        cold = wait_ready(page, count)
        for frame in page.frames[1:]:
            frame.wait_for_function(STORED_JS, timeout=CONFIG.READY_TIMEOUT_MS)
        page.reload()
        warm = wait_ready(page, count)
        return {"cold_first": min(cold), "cold_all": max(cold), "warm_first": min(warm), "warm_all": max(warm)}
    finally:
        context.close()


def median(values: list[float]) -> float:
    return statistics.median(values)


def row(label: str, values: list[float]) -> str:
    return f"  {label:<34} {median(values):7.0f} ms   ({min(values):.0f}-{max(values):.0f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Embed figures: one and three worked examples on a host page.")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    results: dict[str, dict[str, list[float]]] = {"one": {}, "three": {}}
    with tempfile.TemporaryDirectory(prefix="durak-embed-bench-") as folder:
        site, site_url = serve.start_in_background(port=0, root=helpers.frozen_site(Path(folder)))
        hosts = Path(folder) / "host"
        hosts.mkdir()
        write_hosts(hosts, site_url)
        host, host_url = serve.start_in_background(port=0, root=hosts)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CONFIG.CHROMIUM_PATH, headless=True,
                                                     args=list(CONFIG.CHROMIUM_ARGS))
                for run in range(args.runs):
                    order = [("one", 1), ("three", 3)] if run % 2 == 0 else [("three", 3), ("one", 1)]
                    for name, count in order:
                        figures = measure(browser, f"{host_url}{name}.html", count)
                        for key, value in figures.items():
                            results[name].setdefault(key, []).append(value)
                browser.close()
        finally:
            host.shutdown()
            site.shutdown()
    print(f"Embeds on a host page (second origin), {args.runs} runs, host time of each frame's durak:ready:")
    for name in ("one", "three"):
        print(f" {name} embed{'s' if name == 'three' else ''}:")
        for key, label in (("cold_first", "cold, first visible"), ("cold_all", "cold, all ready"),
                           ("warm_first", "warm, first visible"), ("warm_all", "warm, all ready")):
            print(row(label, results[name][key]))
    ratios: dict[str, float] = {}
    for state in ("cold", "warm"):
        ratio = median(results["three"][f"{state}_all"]) / median(results["one"][f"{state}_all"])
        ratios[state] = ratio
        verdict = "ok" if ratio <= GOAL_RATIO else "over the goal"
        print(f" three vs one, {state}, all ready: {ratio:.2f}x (goal <= {GOAL_RATIO}x: {verdict})")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        payload: dict[str, Any] = {"runs": args.runs, "results": results, "ratios": ratios}
        args.json.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
