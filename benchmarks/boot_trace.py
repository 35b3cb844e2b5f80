"""A first visit's boot under a Chromium trace: the main thread's longest task around the first paint.

    .venv/bin/python benchmarks/boot_trace.py [--runs 6] [--root DIR] [--against DIR]

The long-task check (tests/browser/table/test_table_worker.py) counts the tasks over 50 ms that
overlap the window from the first paint to ready, as PerformanceObserver sees them: wall time, which
on two shared cores mostly measures what else runs meanwhile. A trace tells both: for each load (a
new browser context, so a first visit: no cache, no save, the new-game dialog), the task of the
renderer main thread with the longest wall time that overlaps that window, its processor time, and
the processor time of its module evaluation, style and layout. `--against` loads a second built
checkout in the same rounds (alternating which goes first), for a before/after under one load.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser
from traced_rounds import CONFIG, add_site_arguments, measure_rounds

READY_LOG = "durak-boot-trace: ready"
READY_MARK = "durak-ready"  # a user-timing mark, in the trace: where the window ends
READY_INIT = f"""new MutationObserver(() => {{
  if (document.body && document.body.dataset.state === "ready" && !window.__durakReadySaid) {{
    window.__durakReadySaid = true;
    performance.mark("{READY_MARK}");
    console.log("{READY_LOG}");
  }}
}}).observe(document, {{ subtree: true, attributes: true, attributeFilter: ["data-state"] }});"""
CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"]
INSIDE = {"module": "v8.evaluateModule", "style": "UpdateLayoutTree", "layout": "Layout"}


def traced_boot(browser: Browser, url: str, trace: Path) -> dict[str, float]:
    """One first visit, traced until ready: the longest task of the page's main thread (the renderer that
    painted it; a service worker's or another page's renderer has a main thread too) overlapping first
    paint..ready."""
    context = browser.new_context(viewport=dict(CONFIG.VIEWPORT))
    try:
        context.add_init_script(READY_INIT)  # waited for by its console line: nothing of ours runs in the page
        page = context.new_page()
        browser.start_tracing(page=page, path=str(trace), categories=CATEGORIES)
        with page.expect_console_message(lambda message: message.text == READY_LOG,
                                         timeout=CONFIG.READY_TIMEOUT_MS):
            page.goto(url)
        browser.stop_tracing()
    finally:
        context.close()
    events: list[dict[str, Any]] = json.loads(trace.read_text(encoding="utf-8"))["traceEvents"]
    paint = min((e for e in events if e.get("name") == "firstPaint"), key=lambda e: e["ts"])
    first_paint = paint["ts"]
    page_main = next((e["pid"], e["tid"]) for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"
                     and e["pid"] == paint["pid"] and e["args"]["name"] == "CrRendererMain")
    main = [e for e in events if (e.get("pid"), e.get("tid")) == page_main and e.get("ph") == "X"]
    ready = min(e["ts"] for e in events if e.get("name") == READY_MARK)
    tasks = [e for e in main if e["name"] == "ThreadControllerImpl::RunTask"
             and e["ts"] < ready and e["ts"] + e["dur"] > first_paint]
    longest = max(tasks, key=lambda e: e["dur"])
    figures = {"wall": longest["dur"] / 1000, "cpu": longest.get("tdur", 0) / 1000}
    for key, name in INSIDE.items():
        figures[key] = sum(e.get("tdur", 0) for e in main if e["name"] == name and longest["ts"] <= e["ts"]
                           and e["ts"] + e["dur"] <= longest["ts"] + longest["dur"]) / 1000
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The main thread's longest task around a first visit's first paint.")
    add_site_arguments(parser)
    args = parser.parse_args(argv)
    results = measure_rounds(args, "index.html?lang=en", traced_boot)
    print(f"the longest main-thread task overlapping first paint..ready, traced first visits, {args.runs} runs; "
          "median (min-max) ms")
    print(f"{'':16} {'wall':>16} {'processor':>16} {'module eval':>16} {'style':>16} {'layout':>16}  over 50 ms")
    for name, runs in results.items():
        cells = []
        for key in ("wall", "cpu", "module", "style", "layout"):
            values = [figures[key] for figures in runs]
            cells.append(f"{statistics.median(values):5.1f} ({min(values):.0f}-{max(values):.0f})")
        over = sum(figures["wall"] > 50 for figures in runs)
        print(f"{name:16} " + " ".join(f"{cell:>16}" for cell in cells) + f"  {over} of {len(runs)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
