"""What the page costs while a person chooses where to play: processor time with a lit target, and without.

    .venv/bin/python benchmarks/lit_target.py [--runs 6] [--root DIR] [--against DIR]

A lit target (a card or the table zone a selected card may go to: `data-target`) pulses for as long as
the player thinks. This opens a seeded two-player game at speed=normal, lets it settle, and measures
for SECONDS with nothing lit, then for SECONDS with one of the hand's cards lit (the attribute set
by script, as the table sets it after a click). Two figures a second: the processor time of every
Chromium process on the machine (run it on a quiet one), which includes this machine's software raster
and compositing (a phone's GPU work), and the page's main-thread task time (DevTools' Performance
metrics), which a phone pays on its CPU. `--against` measures a second built checkout in the same rounds.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

from playwright.sync_api import Browser, CDPSession, Page
from traced_rounds import add_site_arguments, measure_rounds, print_medians

SECONDS = 4.0
SETTLE_MS = 1500  # the deal's animations over
GAME = "index.html?variant=podkidnoy&players=2&level=easy&seed=5&speed=normal&lang=en"
LIGHT_A_CARD_JS = "() => { document.querySelector('#hand [data-card]').dataset.target = 'true'; }"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def chromium_seconds() -> float:
    """Processor time so far of every process named chrom*, in seconds (/proc)."""
    total = 0
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if b"chrom" not in Path(f"/proc/{pid}/comm").read_bytes():
                continue
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:  # the process ended meanwhile
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / CLOCK_TICKS


def per_second(page: Page, metrics: CDPSession) -> tuple[float, float]:
    """(all Chromium, the page's main thread) in ms of processor time a second, over SECONDS."""
    def task_seconds() -> float:
        values = metrics.send("Performance.getMetrics")["metrics"]
        return float(next(m["value"] for m in values if m["name"] == "TaskDuration"))

    chromium, main, start = chromium_seconds(), task_seconds(), time.monotonic()
    page.wait_for_timeout(SECONDS * 1000)
    elapsed = time.monotonic() - start
    return 1000 * (chromium_seconds() - chromium) / elapsed, 1000 * (task_seconds() - main) / elapsed


def measure(browser: Browser, url: str, _trace: Path) -> dict[str, float]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    try:
        page = context.new_page()
        metrics = context.new_cdp_session(page)
        metrics.send("Performance.enable")
        page.goto(url)
        page.wait_for_function("() => document.body.dataset.state === 'ready'", timeout=60_000)
        page.wait_for_selector("#hand [data-card]")
        page.wait_for_timeout(SETTLE_MS)
        idle_all, idle_main = per_second(page, metrics)
        page.evaluate(LIGHT_A_CARD_JS)
        page.wait_for_timeout(300)
        lit_all, lit_main = per_second(page, metrics)
        return {"idle chromium": idle_all, "idle main": idle_main, "lit chromium": lit_all, "lit main": lit_main}
    finally:
        context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Processor time while a target is lit, and while nothing is.")
    add_site_arguments(parser)
    args = parser.parse_args(argv)
    results = measure_rounds(args, GAME, measure)
    print(f"a seeded game at rest, {SECONDS:.0f} s with nothing lit, then {SECONDS:.0f} s with a hand card lit, "
          f"{args.runs} runs; ms of processor time a second, median (min-max)")
    print_medians(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
