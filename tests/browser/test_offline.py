"""After one visit the game loads and plays with the network off; nothing leaves the origin.

The service worker (sw.js, scripts/build_sw.py) precaches the files; web/pyodide-boot.mjs keeps a
memory snapshot of the started interpreter in Cache Storage. Both are checked here through the
page only: body[data-sw], body[data-snapshot], the request log and clicks on the table.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Page, Request, expect

ROOT = Path(__file__).resolve().parents[2]
GAME = "index.html?variant=podkidnoy&players=2&level=easy&seed=42&speed=instant&lang=en"
CONTROLLED_JS = "() => navigator.serviceWorker.controller !== null"
TURN_JS = """() => {
  if (document.querySelector('[data-testid=game-over]')) return 'over';
  if (document.querySelector('#hand .hand-cards[data-live=true]')) return 'turn';
  return '';
}"""
TABLE_CARDS_JS = "() => document.querySelectorAll('[data-testid=table] [data-attack]').length"


def rebuild() -> None:
    """Rebuild web/modules.zip and sw.js from the files as they are now: the worker refuses to
    install when a file no longer matches its hash (an edit since the session's build)."""
    _load("durak_build_zip_test", ROOT / "scripts" / "build_zip.py").build(ROOT)
    _build_sw().build(ROOT)  # type: ignore[attr-defined]


def _load(name: str, path: Path) -> Any:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _build_sw() -> object:
    spec = importlib.util.spec_from_file_location("durak_build_sw_test", ROOT / "scripts" / "build_sw.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class RequestLog:
    """Every request of a context (pages, workers, the service worker) and the failed ones."""

    def __init__(self, context: BrowserContext) -> None:
        self.requests: list[Request] = []
        self.failed: list[str] = []
        context.on("request", lambda request: self.requests.append(request))
        context.on("requestfailed", lambda r: self.failed.append(f"{r.failure} {r.url}"))

    def foreign(self, base_url: str) -> list[str]:
        origin = "{0.scheme}://{0.netloc}".format(urlsplit(base_url))
        urls = [r.url for r in self.requests if not r.url.startswith(("data:", "blob:"))]
        return [url for url in urls if "{0.scheme}://{0.netloc}".format(urlsplit(url)) != origin]


def _act(page: Page) -> None:
    """One move by clicking: a playable card (and its first lit target), else pass or take."""
    cards: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=hand] [data-card][data-playable=true]')]"
        ".map(e => e.dataset.card)"
    )
    if cards:
        page.click(f'[data-testid=hand] [data-card="{cards[0]}"]')
        lit = page.locator("[data-testid=table] [data-target=true]")
        if lit.count():
            lit.first.click()
        return
    for action in ("pass", "take"):
        button = page.locator(f".actions [data-action={action}]")
        if button.is_visible() and button.is_enabled():
            button.click()
            return
    raise AssertionError("no move available:\n" + page.inner_text("body")[:800])


def play_a_round(page: Page) -> None:
    """Click moves until cards went to the table and the table was cleared again."""
    seen_cards = False
    for _ in range(80):
        state = page.wait_for_function(TURN_JS, timeout=30_000).json_value()
        if state == "over":
            return
        on_table = page.evaluate(TABLE_CARDS_JS)
        if seen_cards and on_table == 0:
            return
        seen_cards = seen_cards or on_table > 0
        _act(page)
        seen_cards = seen_cards or page.evaluate(TABLE_CARDS_JS) > 0
    raise AssertionError("the round did not end")


def test_game_reloads_and_plays_offline_after_one_visit(
    context: BrowserContext, page: Page, base_url: str, wait_ready: Callable[..., float]
) -> None:
    rebuild()
    log = RequestLog(context)
    page.goto(GAME)
    wait_ready(page)
    page.wait_for_function(CONTROLLED_JS, timeout=60_000)  # the worker has precached everything
    page.wait_for_function("() => document.body.dataset.snapshot === 'saved'", timeout=60_000)

    context.set_offline(True)
    online_requests = len(log.requests)
    page.reload()
    wait_ready(page)
    assert page.evaluate("document.body.dataset.snapshot") == "used"
    expect(page.locator("[data-testid=hand] [data-card]")).to_have_count(6)
    play_a_round(page)

    page.locator("[data-action=new-game]").first.click()
    page.click("dialog#new-game [data-action=start]")
    expect(page.locator("dialog#new-game")).to_be_hidden()
    page.wait_for_function(TURN_JS, timeout=30_000)
    expect(page.locator("[data-testid=hand] [data-card]")).to_have_count(6)

    offline = log.requests[online_requests:]
    assert offline, "the reload made no request at all?"
    not_from_cache = [
        r.url for r in offline if not r.url.startswith(("data:", "blob:")) and not _served_by_worker(r)
    ]
    assert not not_from_cache, not_from_cache
    assert not log.failed, log.failed
    assert not log.foreign(base_url), log.foreign(base_url)


def _served_by_worker(request: Request) -> bool:
    response = request.response()
    return response is not None and response.from_service_worker


def test_precache_holds_every_file_a_cold_load_asks_for(
    context: BrowserContext, page: Page, base_url: str, wait_ready: Callable[..., float]
) -> None:
    rebuild()
    log = RequestLog(context)
    page.goto(GAME)
    wait_ready(page)
    page.wait_for_function(CONTROLLED_JS, timeout=60_000)
    page.wait_for_function("() => ['saved', 'failed'].includes(document.body.dataset.snapshot)", timeout=60_000)
    assert page.evaluate("document.body.dataset.snapshot") == "saved"

    files = set(_build_sw().precache_files(ROOT))  # type: ignore[attr-defined]
    asked = {
        urlsplit(r.url).path.removeprefix(urlsplit(base_url).path)
        for r in log.requests
        if r.url.startswith(base_url)
    }
    asked.discard("sw.js")  # the browser fetches and checks the worker script itself
    assert asked <= files, sorted(asked - files)
    assert {"index.html", "web/modules.zip", "web/vendor/pyodide/pyodide.asm.wasm"} <= asked
    assert not log.failed, log.failed
    assert not log.foreign(base_url), log.foreign(base_url)
