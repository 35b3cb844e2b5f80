"""What a cold load of the table costs the processor, as the browser tests make it: with the service worker
allowed (a first visit: it registers at ready and precaches the site) and with service workers blocked.

    python benchmarks/cold_load_cpu.py [--runs 3] [--loads 5] [--root DIR]

Each run opens ``--loads`` new browser contexts one after another in Chromium launched with the tests' flags
(playwright.config.py), loads `index.html?speed=instant&seed=1`, waits for ready and one second more (a test's
first steps), and closes the context. The two modes alternate in each round, in turn first. The machine's busy
time comes from /proc/stat; the same time by Chromium process kind from each process's /proc/PID/stat,
sampled every 0.2 s (a process that lives less than that is missed). Nothing else should run meanwhile. Prints
the processor seconds per load, the median over the runs, for each mode and process kind.
"""

from __future__ import annotations

import argparse
import os
import re
import runpy
import statistics
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path
from types import SimpleNamespace
from typing import Literal

from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import serve  # noqa: E402 - after the path set-up
from suite_cpu import busy_seconds  # noqa: E402 - this folder, as the script runs

CONFIG = SimpleNamespace(**runpy.run_path(str(ROOT / "playwright.config.py")))
TICKS = os.sysconf("SC_CLK_TCK")
Mode = Literal["allow", "block"]
MODES: tuple[Mode, Mode] = ("allow", "block")


class ChromiumSampler(threading.Thread):
    """Each Chromium process's processor time, read every 0.2 s until stopped, by kind ("renderer",
    "gpu-process", "utility:NetworkService", "browser", ...)."""

    def __init__(self) -> None:
        super().__init__(daemon=True)
        self.first: dict[tuple[str, str], float] = {}
        self.last: dict[tuple[str, str], float] = {}
        self.kind: dict[tuple[str, str], str] = {}
        self.initial = True
        self.stopping = threading.Event()

    def sample(self) -> None:
        for pid in filter(str.isdigit, os.listdir("/proc")):
            try:
                with open(f"/proc/{pid}/stat") as stat:
                    fields = stat.read()
                with open(f"/proc/{pid}/cmdline") as cmdline:
                    args = cmdline.read().replace("\0", " ")
            except OSError:
                continue
            if "(chromium)" not in fields:
                continue
            rest = fields.rsplit(")", 1)[1].split()
            seconds = (int(rest[11]) + int(rest[12])) / TICKS
            key = (pid, rest[19])  # the pid and its start time: a pid may be reused
            self.first.setdefault(key, seconds if self.initial else 0.0)
            self.last[key] = seconds
            if key not in self.kind and args:  # an exited process (a zombie) has no command line left
                kind = re.search(r"--type=([\w-]+)", args)
                sub = re.search(r"--utility-sub-type=([\w.]+)", args)
                self.kind[key] = ((kind.group(1) if kind else "browser")
                                  + (":" + sub.group(1).rsplit(".", 1)[-1] if sub else ""))

    def run(self) -> None:
        self.sample()
        self.initial = False
        while not self.stopping.wait(0.2):
            self.sample()
        self.sample()

    def stop(self) -> dict[str, float]:
        self.stopping.set()
        self.join()
        spent: defaultdict[str, float] = defaultdict(float)
        for key, seconds in self.last.items():
            spent[self.kind.get(key, "exited before seen")] += seconds - self.first[key]
        return dict(spent)


def run_loads(browser: Browser, base_url: str, mode: Mode, loads: int) -> tuple[float, dict[str, float]]:
    """The machine's processor seconds and Chromium's by kind, each per load, over ``loads`` cold loads."""
    sampler = ChromiumSampler()
    sampler.start()
    time.sleep(0.3)
    before = busy_seconds()
    for _ in range(loads):
        context = browser.new_context(base_url=base_url, service_workers=mode, viewport=CONFIG.VIEWPORT)
        page = context.new_page()
        page.goto("index.html?speed=instant&seed=1", timeout=CONFIG.NAVIGATION_TIMEOUT_MS)
        page.wait_for_function("document.body.dataset.state === 'ready'", timeout=CONFIG.READY_TIMEOUT_MS)
        page.wait_for_timeout(1000)
        context.close()
    time.sleep(0.5)
    machine = busy_seconds() - before
    by_kind = sampler.stop()
    return machine / loads, {kind: seconds / loads for kind, seconds in by_kind.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="rounds, each one run of every mode")
    parser.add_argument("--loads", type=int, default=5, help="cold loads in a run")
    parser.add_argument("--root", type=Path, default=ROOT, help="the built site to serve (default: this repo)")
    args = parser.parse_args(argv)
    server, base_url = serve.start_in_background(port=0, root=args.root)
    machine: dict[str, list[float]] = {mode: [] for mode in MODES}
    kinds: dict[str, list[dict[str, float]]] = {mode: [] for mode in MODES}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CONFIG.CHROMIUM_PATH, headless=True,
                                                 args=[*CONFIG.CHROMIUM_ARGS, *CONFIG.BEHAVIOUR_TEST_ARGS])
            for run in range(args.runs):
                for mode in (MODES if run % 2 == 0 else MODES[::-1]):
                    per_load, by_kind = run_loads(browser, base_url, mode, args.loads)
                    machine[mode].append(per_load)
                    kinds[mode].append(by_kind)
                    print(f"run {run + 1}, service workers {mode}: {per_load:.2f} s of processor time per load",
                          flush=True)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    every_kind = sorted({kind for mode in MODES for run in kinds[mode] for kind in run})
    print(f"\nprocessor seconds per cold load, median of {args.runs} runs of {args.loads} loads")
    print(f"{'':<32}" + "".join(f"{'service workers ' + mode:>24}" for mode in MODES))
    print(f"{'the whole machine':<32}" + "".join(f"{statistics.median(machine[mode]):>24.2f}" for mode in MODES))
    for kind in every_kind:
        print(f"{'  chromium ' + kind:<32}"
              + "".join(f"{statistics.median(run.get(kind, 0.0) for run in kinds[mode]):>24.2f}" for mode in MODES))
    saved = statistics.median(machine["allow"]) - statistics.median(machine["block"])
    print(f"\nthe service worker's share of a cold load: {saved:.2f} s "
          f"({saved / statistics.median(machine['allow']):.0%})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
