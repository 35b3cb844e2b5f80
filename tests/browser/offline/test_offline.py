"""After one visit the game loads and plays with the network off; nothing leaves the origin.

The service worker (sw.js, scripts/build_sw.py) precaches the files; web/worker/engine-boot.mjs keeps a
memory snapshot of the started interpreter in Cache Storage. Both are checked here through the
page only: body[data-sw], body[data-snapshot], the request log and clicks on the table.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from playwright.sync_api import BrowserContext, Page, Request, expect

from tests.browser.helpers import CONTROLLED_JS, ROOT, TURN_JS, build_sw, click_a_move, rebuild

GAME = "index.html?variant=podkidnoy&players=2&level=easy&seed=42&speed=instant&lang=en"
TABLE_CARDS_JS = "() => document.querySelectorAll('[data-testid=table] [data-attack]').length"


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
        if not click_a_move(page):
            raise AssertionError("no move available:\n" + page.inner_text("body")[:800])
        seen_cards = seen_cards or page.evaluate(TABLE_CARDS_JS) > 0
    raise AssertionError("the round did not end")


def first_visit(context: BrowserContext, page: Page, wait_ready: Callable[..., float]) -> RequestLog:
    """Load the game once, as now built, and wait until the service worker controls the page (it has
    precached everything) and the memory snapshot is saved; the log holds every request so far."""
    rebuild()
    log = RequestLog(context)
    page.goto(GAME)
    wait_ready(page)
    page.wait_for_function(CONTROLLED_JS, timeout=60_000)
    page.wait_for_function("() => ['saved', 'failed'].includes(document.body.dataset.snapshot)", timeout=60_000)
    assert page.evaluate("document.body.dataset.snapshot") == "saved"
    return log


def test_game_reloads_and_plays_offline_after_one_visit(
    context: BrowserContext, page: Page, base_url: str, wait_ready: Callable[..., float]
) -> None:
    log = first_visit(context, page, wait_ready)

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
    log = first_visit(context, page, wait_ready)

    files = set(build_sw.precache_files(ROOT))
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
