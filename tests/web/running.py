"""Running a coroutine to its end from a test, whatever else runs in this thread."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


def run_coroutine(coro: Coroutine[Any, Any, T]) -> T:
    """Run ``coro`` on a fresh event loop in its own thread and give back its result: once the browser
    tests have run, Playwright keeps an event loop running in the main thread, where ``asyncio.run``
    is refused (the whole suite runs in one session)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()
