"""The engine worker (web/worker/engine-worker.mjs) boots Pyodide off the main thread:
cold, making the memory snapshot it restores on the next visit; offline after one visit; from a sub-path;
it runs the engine for `engine` calls, the table (web/worker/bridge.py) for a link's game, and refuses malformed
messages instead of hanging.

The page is tests/browser/fixtures/engine-worker.html: it starts the worker as the table will and does
nothing else on its main thread, so any long task there during the boot is the worker's cost to the page.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, Request

from tests.browser.helpers import CONTROLLED_JS, rebuild
from tests.browser.main_thread import MainThreadTrace

FIXTURE = "tests/browser/fixtures/engine-worker.html"
SNAPSHOT_STORED_JS = "() => ['saved', 'failed'].includes(document.body.dataset.snapshot)"
RULES = {"variant": "podkidnoy", "players": 2}
GAME = "variant=podkidnoy&players=2&level=easy&seed=1&speed=instant"  # the player leads
LONG_TASK_MS = 50


def call(page: Page, method: str, args: list[Any]) -> dict[str, Any]:
    reply: dict[str, Any] = page.evaluate("([m, a]) => engine.call(m, a)", [method, args])
    return reply


def send(page: Page, message: object) -> dict[str, Any]:
    """Post any message to the worker; the next reply that is not about the boot."""
    reply: dict[str, Any] = page.evaluate("(m) => { engine.send(m); return engine.next(); }", message)
    return reply


def assert_plays(page: Page) -> None:
    """A deal, its legal moves, one move: the engine answers through the worker."""
    dealt = call(page, "deal", [RULES, 7])
    assert dealt["t"] == "answer", dealt
    state = dealt["result"]
    assert state["to_act"] in (0, 1) and state["legal"] and not state["over"], state
    assert call(page, "deal", [RULES, 7])["result"] == state, "the same seed deals the same cards"
    assert call(page, "legal", [state["position"]])["result"] == state
    played = call(page, "play", [state["position"], state["legal"][0]])["result"]
    assert played["position"] != state["position"] and played["to_act"] is not None, played


def assert_deals_the_link_game(page: Page) -> dict[str, Any]:
    """web/worker/bridge.py in the worker: the link's game comes as frame 1 (its save as a store message), and a
    card's gesture on that frame is answered by the next frame."""
    posted = [page.evaluate("() => engine.next()") for _ in range(2)]
    frame = next(m for m in posted if m["t"] == "frame")
    assert frame["seq"] == 1 and 'data-live="true"' in frame["hand"], frame["status"]
    assert any(m["t"] == "store" and m["key"] == "durak.save" for m in posted), [m["t"] for m in posted]
    card = re.search(r'data-card="([^"]+)" data-playable="true"', frame["hand"])
    assert card, frame["hand"][:300]
    after = send(page, {"t": "gesture", "kind": "card", "card": card[1], "target": "", "action": "", "frame": 1})
    while after["t"] != "frame":
        after = page.evaluate("() => engine.next()")
    assert after["seq"] == 2 and after["hand"] != frame["hand"]
    first: dict[str, Any] = frame
    return first


def boot_with_the_main_thread_free(page: Page, wait_ready: Callable[..., float], url: str) -> None:
    """Open ``url`` and wait until ready, tracing the page's main thread: no task before ready did more
    than LONG_TASK_MS of work (its thread time, tests/browser/main_thread.py)."""
    browser = page.context.browser
    assert browser is not None
    trace = MainThreadTrace(browser, page).start()
    page.goto(url)
    wait_ready(page)
    ready_ms = float(page.evaluate("() => Number(document.body.dataset.readyMs)"))
    busy = [task for task in trace.stop() if task.start_ms < ready_ms and task.cpu_ms > LONG_TASK_MS]
    assert not busy, f"main-thread tasks over {LONG_TASK_MS} ms of work before ready: {', '.join(map(str, busy))}"


@pytest.mark.timing
def test_the_worker_boots_cold_makes_the_snapshot_then_boots_from_it(
    page: Page, wait_ready: Callable[..., float]
) -> None:
    boot_with_the_main_thread_free(page, wait_ready, FIXTURE)
    assert page.evaluate("document.body.dataset.snapshot") in ("missing", "saved")
    assert "snapshot=" in page.evaluate("document.body.dataset.boot"), "a cold boot makes the snapshot"
    assert_plays(page)  # the interpreter that made the snapshot goes on working
    page.wait_for_function(SNAPSHOT_STORED_JS, timeout=60_000)
    assert page.evaluate("document.body.dataset.snapshot") == "saved"

    # restored: no file of modules.zip, the catalogues in memory
    boot_with_the_main_thread_free(page, wait_ready, FIXTURE + "?" + GAME + "&lang=ru")
    assert page.evaluate("document.body.dataset.snapshot") == "used"
    assert_plays(page)
    assert re.search("[а-я]", assert_deals_the_link_game(page)["status"]), "said in Russian"


def test_malformed_messages_are_refused_and_python_errors_answered(
    page: Page, wait_ready: Callable[..., float]
) -> None:
    page.goto(FIXTURE)
    wait_ready(page)
    assert send(page, 42)["code"] == "bad_message"
    assert send(page, {"t": "nope"})["code"] == "unknown_type"
    assert send(page, {"t": "boot"})["code"] == "booted_twice"
    refusals = {
        "bad_shape": {"t": "engine", "id": 5, "method": "deal", "args": [RULES, 1], "extra": 1},
        "unknown_method": {"t": "engine", "id": 6, "method": "format_disk", "args": []},
        "bad_args": {"t": "engine", "id": 7, "method": "deal", "args": [RULES, True]},
    }
    for code, message in refusals.items():
        reply = send(page, message)
        assert (reply["t"], reply["code"], reply["id"]) == ("refused", code, message["id"]), reply
    assert send(page, {"t": "engine", "id": "8", "method": "deal", "args": []})["code"] == "bad_shape"

    error = send(page, {"t": "engine", "id": 9, "method": "legal", "args": ["not a position"]})
    assert (error["t"], error["id"]) == ("error", 9), error
    assert "Error" in error["text"], error
    illegal = send(page, {"t": "engine", "id": 10, "method": "deal", "args": [{"players": 9}, 1]})
    assert illegal["t"] == "error" and "players" in illegal["text"], illegal
    assert_plays(page)  # and the worker goes on answering


def test_a_worker_not_booted_refuses_calls_and_a_bad_boot(page: Page) -> None:
    """A second worker on the page, never booted: answered at once, no Pyodide needed."""
    page.goto(FIXTURE)
    replies = page.evaluate("""async () => {
      const worker = new Worker(new URL("../../../web/worker/engine-worker.mjs", location.href), {type: "module"});
      const next = () => new Promise((resolve) => { worker.onmessage = ({data}) => resolve(data); });
      const replies = [];
      for (const message of [
        {t: "engine", id: 1, method: "deal", args: []},
        {t: "boot", search: 1, langs: [], store: {}, embedded: false, viewport: {width: 1, height: 1},
         controlled: false},
        {t: "boot", search: "", langs: ["en"], store: {"durak.prefs": 3}, embedded: false,
         viewport: {width: 1, height: 1}, controlled: false},
        {t: "boot", search: "", langs: [], store: {}, embedded: false, viewport: {width: 1}, controlled: false},
      ]) {
        const reply = next();
        worker.postMessage(message);
        replies.push(await reply);
      }
      worker.terminate();
      return replies;
    }""")
    assert [(r["t"], r["code"]) for r in replies] == [
        ("refused", "not_booted"), ("refused", "bad_boot"), ("refused", "bad_boot"), ("refused", "bad_boot"),
    ], replies
    assert replies[0]["id"] == 1


def test_the_worker_boots_offline_after_one_visit(
    context: BrowserContext, page: Page, base_url: str, wait_ready: Callable[..., float]
) -> None:
    rebuild()  # sw.js for the files as they are now, or its install refuses them
    requests: list[Request] = []
    context.on("request", lambda request: requests.append(request))
    page.goto(FIXTURE)
    wait_ready(page)
    page.wait_for_function(CONTROLLED_JS, timeout=60_000)
    page.wait_for_function(SNAPSHOT_STORED_JS, timeout=60_000)
    # The fixture is no page of the site, so not in the precache: the test puts it there, as the
    # service worker does for the site's pages. Everything it loads must already be there.
    page.evaluate("""async () => {
      const name = (await caches.keys()).find((n) => n.startsWith("durak-v-"));
      await (await caches.open(name)).add(location.pathname);
    }""")

    context.set_offline(True)
    online = len(requests)
    page.reload()
    wait_ready(page)
    assert page.evaluate("document.body.dataset.snapshot") == "used"
    assert_plays(page)
    offline = [r for r in requests[online:] if not r.url.startswith(("data:", "blob:"))]
    assert any(r.url.endswith("/web/worker/engine-worker.mjs") for r in offline), [r.url for r in offline]
    not_from_cache = [r.url for r in offline if not getattr(r.response(), "from_service_worker", False)]
    assert not not_from_cache, not_from_cache


def test_the_worker_boots_from_a_sub_path_and_deals_the_link_game(
    context: BrowserContext, subpath_url: str, wait_ready: Callable[..., float]
) -> None:
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page = context.new_page()
    page.goto(subpath_url + FIXTURE + "?" + GAME)
    wait_ready(page)
    assert_plays(page)
    assert_deals_the_link_game(page)
    outside = [url for url in requests if not url.startswith((subpath_url, "data:", "blob:"))]
    assert not outside, f"requests outside {subpath_url}: {outside[:5]}"
