"""Fixtures shared by the friends' browser tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext


@pytest.fixture(autouse=True)
def _close_friends_contexts(browser: Browser, context: BrowserContext) -> Iterator[None]:
    """The friends' browser contexts end with their test: their pages (each with its own Pyodide) must not
    keep the shared browser busy during the next test. The host's context (`context`, made first, so a
    warm one made during the test's setup is kept too) and those before it are left open."""
    before = set(browser.contexts)
    yield
    for other in list(browser.contexts):
        if other not in before:
            other.close()
