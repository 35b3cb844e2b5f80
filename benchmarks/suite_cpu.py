"""What the test suite costs the processor: each test run alone, its wall time and the machine's busy time.

    python benchmarks/suite_cpu.py [--top 20] [pytest arguments, default: -m "not timing" tests]

Runs pytest in this process with one worker (no xdist), so that at any moment one test is running, and reads
the whole machine's busy time from /proc/stat (Linux) before and after each test: a browser test's Chromium
runs in processes pytest does not wait for, which a process's own clock would miss. Nothing else should run
meanwhile. The sum bounds the parallel run from below: n cores cannot finish in less than the processor time
divided by n. Prints the totals by folder of tests and the tests that cost most.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def busy_seconds() -> float:
    """The machine's processor time so far, all cores, idle and I/O wait left out."""
    with open("/proc/stat") as stat:
        user, nice, system, _idle, _iowait, irq, softirq, steal = (int(x) for x in stat.readline().split()[1:9])
    return (user + nice + system + irq + softirq + steal) / os.sysconf("SC_CLK_TCK")


class Recorder:
    """A pytest plugin: each test's wall time and the machine's busy time over it."""

    def __init__(self) -> None:
        self.costs: dict[str, tuple[float, float]] = {}
        self._started: dict[str, tuple[float, float]] = {}

    def pytest_runtest_logstart(self, nodeid: str) -> None:
        self._started[nodeid] = (time.monotonic(), busy_seconds())

    def pytest_runtest_logfinish(self, nodeid: str) -> None:
        wall, busy = self._started.pop(nodeid)
        self.costs[nodeid] = (time.monotonic() - wall, busy_seconds() - busy)


def group_of(nodeid: str) -> str:
    """The folder a test belongs to, one level below tests/ (tests/browser for every browser test)."""
    parts = nodeid.split("::")[0].split("/")
    return "/".join(parts[:2]) if len(parts) > 2 else parts[0]


def report(costs: dict[str, tuple[float, float]], top: int) -> None:
    wall = sum(w for w, _ in costs.values())
    busy = sum(b for _, b in costs.values())
    print(f"\n{len(costs)} tests: {wall:,.0f} s of wall time, {busy:,.0f} s of processor time "
          f"({busy / max(wall, 1e-9):.2f} cores on average)")
    print(f"two cores cannot finish them in less than {busy / 2:,.0f} s")
    groups: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0])
    for nodeid, (w, b) in costs.items():
        groups[group_of(nodeid)][0] += w
        groups[group_of(nodeid)][1] += b
    print(f"\n{'folder':<40} {'wall s':>8} {'processor s':>12}")
    for name, (w, b) in sorted(groups.items(), key=lambda item: -item[1][1]):
        print(f"{name:<40} {w:>8,.0f} {b:>12,.0f}")
    print(f"\nthe {top} tests that cost most (processor s, wall s):")
    for nodeid, (w, b) in sorted(costs.items(), key=lambda item: -item[1][1])[:top]:
        print(f"{b:>7.1f} {w:>7.1f}  {nodeid}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--top", type=int, default=20, help="how many of the costliest tests to list")
    known, pytest_args = parser.parse_known_args(argv)
    recorder = Recorder()
    os.chdir(ROOT)
    status = pytest.main(["-p", "no:xdist", "-q", *(pytest_args or ["-m", "not timing", "tests"])],
                         plugins=[recorder])
    report(recorder.costs, known.top)
    return int(status)


if __name__ == "__main__":
    sys.exit(main())
