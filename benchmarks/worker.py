"""The engine worker's boot against today's table on loopback: cold and warm, interleaved (README, "Threads").

    .venv/bin/python benchmarks/worker.py [--runs 5] [--json artifacts/bench-worker.json]

Each run opens two new browser contexts, in turn, so both see the same machine load:

- the table (index.html?...&speed=instant, a dealt game: PyScript and Pyodide on the main thread) cold,
  then, once its service worker controls it and its memory snapshot is saved, reloaded (warm: files from
  the service worker, the snapshot used); its ready time is body[data-ready-ms], the first frame drawn;
- the engine worker's fixture (tests/browser/fixtures/engine-worker.html with the same game): the same
  two loads; `ready` is when the worker's ready message reached the page, `frame` when the link's first
  frame did (the counterpart of the table's ready, but for writing it), `worker` the worker's own boot
  (from its boot message to ready). Main-thread long tasks (over 50 ms) before ready are counted too.

The load average before and after is printed: another process on the machine moves these figures more
than anything measured here. The site is served as built (the browser tests' rebuild() runs first).
"""

from __future__ import annotations

import argparse
import json
import os
import runpy
import sys
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, sync_playwright

HERE = Path(__file__).resolve().parent
bench = runpy.run_path(str(HERE / "page.py"))  # its loads and helpers; run_name is not __main__
helpers, CONFIG, serve = bench["helpers"], bench["CONFIG"], bench["serve"]
load, settle, summary, median = bench["load"], bench["settle"], bench["summary"], bench["median"]

TABLE = bench["GAME"]
FIXTURE = "tests/browser/fixtures/engine-worker.html?" + TABLE.split("?", 1)[1]
LONG_TASKS_JS = """() => (window.__longtasks || [])
    .filter(([start, ms]) => ms > 50 && start < Number(document.body.dataset.readyMs)).length"""
ROWS = (
    ("table, cold", "table_cold"),
    ("worker fixture, cold: ready", "worker_cold"),
    ("worker fixture, cold: first frame", "worker_cold_frame"),
    ("worker fixture, cold: worker's own boot", "worker_cold_own"),
    ("table, warm (SW + snapshot)", "table_warm"),
    ("worker fixture, warm: ready", "worker_warm"),
    ("worker fixture, warm: first frame", "worker_warm_frame"),
    ("worker fixture, warm: worker's own boot", "worker_warm_own"),
)


def worker_times(page: Page, prefix: str, times: dict[str, float]) -> None:
    page.wait_for_function("() => !!document.body.dataset.frameMs", timeout=CONFIG.READY_TIMEOUT_MS)
    data = page.evaluate("() => ({...document.body.dataset})")
    times[f"{prefix}_frame"] = float(data["frameMs"])
    times[f"{prefix}_own"] = float(data["workerMs"])
    times[f"{prefix}_long_tasks"] = float(page.evaluate(LONG_TASKS_JS))


def one_run(browser: Browser, base_url: str) -> dict[str, float]:
    times: dict[str, float] = {}
    context = browser.new_context(viewport=CONFIG.VIEWPORT)
    try:
        page = context.new_page()
        times["table_cold"] = load(page, base_url + TABLE)
        settle(page)
        times["table_warm"] = load(page, base_url + TABLE)
        if page.evaluate("() => document.body.dataset.snapshot") != "used":
            raise RuntimeError("the table's warm load did not use the snapshot")
    finally:
        context.close()
    context = browser.new_context(viewport=CONFIG.VIEWPORT)
    try:
        page = context.new_page()
        times["worker_cold"] = load(page, base_url + FIXTURE)
        worker_times(page, "worker_cold", times)
        settle(page)
        times["worker_warm"] = load(page, base_url + FIXTURE)
        worker_times(page, "worker_warm", times)
        if page.evaluate("() => document.body.dataset.snapshot") != "used":
            raise RuntimeError("the worker's warm load did not use the snapshot")
    finally:
        context.close()
    return times


def load_average() -> str:
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The engine worker's ready time against the table's.")
    parser.add_argument("--runs", type=int, default=5, help="runs (default 5)")
    parser.add_argument("--json", type=Path, help="also write the raw numbers here")
    args = parser.parse_args(argv)
    helpers.rebuild()
    server, base_url = serve.start_in_background(port=0)
    results: dict[str, list[float]] = {}
    before = load_average()
    started = time.monotonic()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CONFIG.CHROMIUM_PATH, args=CONFIG.CHROMIUM_ARGS,
                                                 headless=True)
            print(f"Chromium {browser.version}; median (min-max) of {args.runs} runs, ms after navigation")
            print(f"load average before: {before}", flush=True)
            for run in range(args.runs):
                for key, value in one_run(browser, base_url).items():
                    results.setdefault(key, []).append(value)
                print(f"  run {run + 1}: load average {load_average()}", flush=True)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    for label, key in ROWS:
        print(f"{label:42} {summary(results[key]):>22}")
    for state in ("cold", "warm"):
        ratio = median(results[f"worker_{state}_frame"]) / median(results[f"table_{state}"])
        tasks = sum(results[f"worker_{state}_long_tasks"])
        print(f"{state}: worker's first frame / table's ready = {ratio:.2f}; main-thread tasks > 50 ms before "
              f"the worker's ready, all runs: {tasks:.0f}")
    print(f"load average after: {load_average()} ({time.monotonic() - started:.0f} s)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({"runs": args.runs, "load_before": before, "load_after": load_average(),
                                         "ms": results}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
