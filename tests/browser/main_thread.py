"""The page's main-thread tasks from a Chromium trace, each with its wall time and its processor time.

The Long Tasks API measures wall time. On two cores shared by the engine worker (Pyodide's compile,
the AI's search) and the browser's own processes, the scheduler now and then holds the page's thread
off the processor in the middle of a task of a few milliseconds' work, and that task reads as long
though the page did little. A trace also records each task's thread time (`tdur`): the processor time
the page's thread spent in it, which is what the page's scripts, style, layout and paint cost. A task
whose thread time is over the budget is the page's own work, on any machine.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from playwright.sync_api import Browser, Page

#: Cheap enough to leave the tasks' timings as they are: the scheduler's task events and the page's marks.
CATEGORIES = ["toplevel", "blink.user_timing"]
TASK = "ThreadControllerImpl::RunTask"
MAIN_THREAD = "CrRendererMain"
#: A mark the page's clock and the trace's both see, to put the trace's tasks in page time.
CLOCK_MARK = "durak-test-clock"


@dataclass(frozen=True)
class Task:
    """One main-thread task: when it started (page time, ms), its wall time and its thread time (ms)."""
    start_ms: float
    wall_ms: float
    cpu_ms: float

    def overlaps(self, start_ms: float, end_ms: float) -> bool:
        return self.start_ms < end_ms and self.start_ms + self.wall_ms > start_ms

    def __str__(self) -> str:
        return f"({self.start_ms:.0f}: {self.wall_ms:.0f} ms, {self.cpu_ms:.0f} ms on the processor)"


class MainThreadTrace:
    """Traces the browser from `start` to `stop`, then gives the tasks of `page`'s main thread."""

    def __init__(self, browser: Browser, page: Page) -> None:
        self.browser = browser
        self.page = page

    def start(self) -> MainThreadTrace:
        self.browser.start_tracing(page=self.page, categories=CATEGORIES)
        return self

    def stop(self) -> list[Task]:
        mark_ms = float(self.page.evaluate(f"() => performance.mark({CLOCK_MARK!r}).startTime"))
        return tasks_of(json.loads(self.browser.stop_tracing()), mark_ms)


def tasks_of(trace: dict[str, Any] | list[dict[str, Any]], mark_ms: float) -> list[Task]:
    """The outermost tasks of the main thread of the renderer that made CLOCK_MARK at `mark_ms`."""
    events = trace["traceEvents"] if isinstance(trace, dict) else trace
    mark = next((event for event in events if event.get("name") == CLOCK_MARK), None)
    if mark is None:
        raise AssertionError(f"the trace has no {CLOCK_MARK} mark: it did not record the page")
    pid, offset_us = mark["pid"], mark["ts"] - mark_ms * 1000
    main = {event["tid"] for event in events if event.get("ph") == "M" and event.get("pid") == pid
            and event.get("name") == "thread_name" and event["args"]["name"] == MAIN_THREAD}
    runs = sorted((event for event in events if event.get("name") == TASK and event.get("ph") == "X"
                   and event.get("pid") == pid and event.get("tid") in main), key=lambda event: event["ts"])
    tasks: list[Task] = []
    ends_at = float("-inf")
    for run in runs:
        if run["ts"] < ends_at:
            continue  # a task run inside another (a nested run loop): counted in the outer one
        ends_at = run["ts"] + run["dur"]
        tasks.append(Task((run["ts"] - offset_us) / 1000, run["dur"] / 1000, run.get("tdur", run["dur"]) / 1000))
    return tasks
