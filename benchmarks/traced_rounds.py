"""The rounds of the traced benchmarks (boot_trace.py, play_trace.py): one built site, or two for a
before/after (`--against`), each served on a port of its own and measured in the same rounds, in
alternating order, by one Chromium, each run with a trace file to write."""

from __future__ import annotations

import argparse
import runpy
import statistics
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

from playwright.sync_api import Browser, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
helpers = SimpleNamespace(**runpy.run_path(str(ROOT / "tests" / "browser" / "helpers.py")))
CONFIG = helpers.CONFIG
Figures = dict[str, float]


def add_site_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--runs", type=int, default=6)
    parser.add_argument("--root", type=Path, default=ROOT, help="the built site to serve (default: this repo)")
    parser.add_argument("--against", type=Path, help="a second built checkout, measured in the same rounds")


def measure_rounds(args: argparse.Namespace, page: str,
                   measure: Callable[[Browser, str, Path], Figures]) -> dict[str, list[Figures]]:
    """`measure(browser, url of page on that site, trace path)` for each site, `args.runs` rounds."""
    roots = {"this checkout": args.root, **({"--against": args.against} if args.against else {})}
    results: dict[str, list[Figures]] = {name: [] for name in roots}
    servers = {name: helpers.serve.start_in_background(port=0, root=root) for name, root in roots.items()}
    try:
        with sync_playwright() as playwright, tempfile.TemporaryDirectory(prefix="durak-trace-") as folder:
            browser = playwright.chromium.launch(executable_path=CONFIG.CHROMIUM_PATH, headless=True,
                                                 args=list(CONFIG.CHROMIUM_ARGS))
            for run in range(args.runs):
                for name in (list(roots) if run % 2 == 0 else list(reversed(roots))):
                    results[name].append(measure(browser, servers[name][1] + page, Path(folder) / "trace.json"))
            browser.close()
    finally:
        for server, _ in servers.values():
            server.shutdown()
    return results


def print_medians(results: dict[str, list[Figures]]) -> None:
    """Each site's figures: the median of its runs, and their range."""
    for name, runs in results.items():
        print(name)
        for key in runs[0]:
            values = [run[key] for run in runs]
            print(f"  {key:14} {statistics.median(values):7.1f} ({min(values):.0f}-{max(values):.0f})")
