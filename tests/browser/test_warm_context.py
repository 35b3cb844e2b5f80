"""The `warm` mark's context (tests/browser/conftest.py): a returning visitor's loads, and nothing a test
saved reaches the next one. The two tests run in this order in one test process (one file, `--dist loadfile`)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import Page

pytestmark = pytest.mark.warm

TABLE = "index.html?speed=instant&lang=en&variant=podkidnoy&players=2&seed=4"
LEFT_BEHIND_JS = """async () => ({
  saved: Object.keys(localStorage).filter((key) => key !== 'durak.prefs' && key !== 'durak.save').length,
  mark: localStorage.getItem('left-behind'),
  session: sessionStorage.length,
  databases: (await indexedDB.databases()).map((db) => db.name).filter((name) => name === 'left-behind'),
})"""
LEAVE_JS = """async () => {
  localStorage.setItem('left-behind', 'yes');
  sessionStorage.setItem('left-behind', 'yes');
  await new Promise((done) => {
    indexedDB.open('left-behind').onsuccess = (event) => { event.target.result.close(); done(); };
  });
}"""


def open_table(page: Page, wait_ready: Callable[..., float]) -> None:
    page.goto(TABLE)
    wait_ready(page)
    assert page.evaluate("() => navigator.serviceWorker.controller !== null"), "the service worker answers"
    assert page.locator("body").get_attribute("data-snapshot") == "used", "the engine starts from its snapshot"


def test_a_warm_page_loads_from_the_snapshot_and_leaves_storage_behind(
        page: Page, wait_ready: Callable[..., float]) -> None:
    open_table(page, wait_ready)
    page.evaluate(LEAVE_JS)
    assert page.evaluate(LEFT_BEHIND_JS)["mark"] == "yes"


def test_the_next_warm_test_finds_none_of_it(page: Page, wait_ready: Callable[..., float]) -> None:
    open_table(page, wait_ready)
    left = page.evaluate(LEFT_BEHIND_JS)
    assert left == {"saved": 0, "mark": None, "session": 0, "databases": []}, left
