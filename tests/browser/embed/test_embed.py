"""Embeds on another site: a host page on a second origin (another loopback port) puts three worked
examples on itself with web/embed.js and drives them through the message API (docs/embed.md).

The host page is tests/browser/fixtures/embed_host.html, served by its own server with the site's URL
written into its loader tag. Its script keeps every message it receives in `window.received`.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest
from playwright.sync_api import Frame, Page, expect

from durak import Game
from durak.record import from_url_safe, load_examples, url_safe
from tests.browser.helpers import ROOT, frozen_site, serve
from web.shared.i18n import translate_comment

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
EMBEDS = [("podkidnoy-limit-take", "fr"), ("perevodnoy-transfer", "en"), ("prostoy-partial-defence", "en")]
TIMEOUT_MS = 15_000


def write_host(folder: Path, site: str) -> None:
    """The host page, with the loader's src pointing at `site` (a URL ending in /), and reversed.html, the
    same with its embeds shown in reverse order (the last one written at the top)."""
    text = (FIXTURES / "embed_host.html").read_text(encoding="utf-8").replace("__SITE__", site)
    (folder / "index.html").write_text(text, encoding="utf-8")
    reverse = "main { display: flex; flex-direction: column-reverse; }\n    .durak {"
    (folder / "reversed.html").write_text(text.replace(".durak {", reverse, 1), encoding="utf-8")


@pytest.fixture(scope="module")
def host_url(tmp_path_factory: pytest.TempPathFactory, site_server: str) -> Iterator[str]:
    """The host page on a second origin; its embeds come from the site's server."""
    folder = tmp_path_factory.mktemp("host")
    write_host(folder, site_server)
    server, url = serve.start_in_background(port=0, root=folder)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def other_site_host_url(host_url: str) -> str:
    """The same host page on another site: `localhost` is not the site's 127.0.0.1. Its frames are
    third-party frames, which this Chromium (as Safari, Brave and private windows) refuses storage."""
    other = host_url.replace("//127.0.0.1:", "//localhost:")
    assert other != host_url, host_url
    return other


def frames_of(example: str, lang: str) -> list[dict[str, Any]]:
    """The built frames the embed draws (scripts/build_rules.py)."""
    data = json.loads((ROOT / "rules" / "frames" / lang / f"{example}.json").read_text(encoding="utf-8"))
    frames: list[dict[str, Any]] = data["example"]["frames"]
    return frames


def received(page: Page, frame: int | None = None, kind: str | None = None) -> list[dict[str, Any]]:
    """Messages the host got, optionally only one frame's and one type's (each: frame, origin, data)."""
    messages: list[dict[str, Any]] = page.evaluate("() => window.received")
    return [m for m in messages
            if (frame is None or m["frame"] == frame) and (kind is None or m["data"].get("type") == kind)]


def wait_for(page: Page, condition: Callable[[], bool], what: str, timeout_ms: float = TIMEOUT_MS) -> None:
    waited = 0.0
    while not condition():
        if waited >= timeout_ms:
            raise AssertionError(f"timed out waiting for {what}; got {received(page)[-8:]}")
        page.wait_for_timeout(50)
        waited += 50


def embed_frame(page: Page, index: int) -> Frame:
    handle = page.locator("iframe").nth(index).element_handle()
    assert handle is not None
    frame = handle.content_frame()
    assert frame is not None
    return frame


def send(page: Page, index: int, message: object) -> None:
    """The host posts `message` (a structured-clone value) to its index-th embed."""
    page.evaluate("([i, m]) => document.querySelectorAll('iframe')[i].contentWindow.postMessage(m, '*')",
                  [index, message])


def open_host(page: Page, host_url: str) -> None:
    page.goto(host_url)
    page.locator("iframe").first.wait_for()
    for index in range(len(EMBEDS)):
        page.locator("iframe").nth(index).scroll_into_view_if_needed()
        wait_for(page, lambda i=index: bool(received(page, i, "durak:ready")), f"embed {index} ready")


def test_each_embed_reports_its_height_once_with_its_content_even_below_the_fold(page: Page, host_url: str) -> None:
    # Nothing is scrolled: the third embed is below the fold, where the browser does not render a frame
    # of another origin. Each frame still sends one height, its content's, before durak:ready (no
    # height of the empty frame, no placeholder height of a not-yet-rendered example).
    page.set_viewport_size({"width": 1280, "height": 700})
    page.goto(host_url)
    for index in range(len(EMBEDS)):
        wait_for(page, lambda i=index: bool(received(page, i, "durak:ready")), f"embed {index} ready")
    assert page.evaluate("() => document.querySelectorAll('iframe')[2].getBoundingClientRect().top") > 700
    for index in range(len(EMBEDS)):
        kinds = [m["data"]["type"] for m in received(page, index)]
        assert kinds[:2] == ["durak:resize", "durak:ready"], kinds
        reported = received(page, index, "durak:resize")[0]["data"]["height"]
        page.locator("iframe").nth(index).scroll_into_view_if_needed()
        page.wait_for_timeout(300)
        drawn = embed_frame(page, index).evaluate(
            "() => Math.ceil(document.querySelector('.embed-page').getBoundingClientRect().height)")
        assert abs(reported - drawn) <= 1, (index, reported, drawn)
        assert [m["data"]["height"] for m in received(page, index, "durak:resize")] == [reported]


FIRST_MS = 150  # web/embed.js: the longest the other frames wait for the first one to draw
OBSERVER_LAG_MS = 10  # how late the host may note when a frame got its src (all at once: 0 ms apart)
#: When each iframe of the host page got its src, and when each of its messages came (host time, ms).
LOAD_ORDER_INIT = """
  window.frameTimes = { src: [], message: [] };
  const index = (frame) => Array.prototype.indexOf.call(document.querySelectorAll("iframe"), frame);
  const noted = (frame) => { if (frame.src) window.frameTimes.src.push([index(frame), performance.now()]); };
  new MutationObserver((records) => records.forEach((record) => {
    if (record.type === "attributes") noted(record.target);
    else record.addedNodes.forEach((node) => { if (node.tagName === "IFRAME") noted(node); });
  })).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["src"] });
  addEventListener("message", (event) => {
    const frames = Array.prototype.slice.call(document.querySelectorAll("iframe"));
    const frame = frames.find((f) => f.contentWindow === event.source);
    if (frame) window.frameTimes.message.push([index(frame), performance.now()]);
  });
"""


def load_order(page: Page, host: str) -> tuple[list[int], dict[int, float], dict[int, float]]:
    """Open `host` and wait for its three embeds: the frames in the order their loading began, when each
    began and when each first spoke."""
    page.add_init_script(LOAD_ORDER_INIT)
    page.goto(host)
    for index in range(len(EMBEDS)):
        wait_for(page, lambda i=index: bool(received(page, i, "durak:ready")), f"embed {index} ready")
    times = page.evaluate("() => window.frameTimes")
    began: dict[int, float] = {}
    for frame, at in times["src"]:
        began.setdefault(frame, at)
    spoke: dict[int, float] = {}
    for frame, at in times["message"]:
        spoke.setdefault(frame, at)
    return sorted(began, key=lambda frame: began[frame]), began, spoke


def assert_goes_first(first: int, began: dict[int, float], spoke: dict[int, float]) -> None:
    """The others began once `first` had drawn (its first message), or FIRST_MS after it began."""
    head_start = min(spoke[first] - began[first], FIRST_MS)
    for later in set(began) - {first}:
        # The host notes a src in a mutation observer, at the end of the task that set it: the first
        # frame's time can be a few ms late (the loader's script goes on), the others' are not.
        assert began[later] - began[first] >= head_start - OBSERVER_LAG_MS, (
            f"embed {later} began {began[later] - began[first]:.0f} ms after {first}, which drew "
            f"{spoke[first] - began[first]:.0f} ms after it began")


def test_the_embed_in_view_loads_first_and_the_others_once_it_has_drawn(page: Page, host_url: str) -> None:
    # All at once, the frames share the renderer's main thread and the one the reader sees waits for
    # every other one (docs/embed.md). The first embed is the one in view.
    order, began, spoke = load_order(page, host_url)
    assert order[0] == 0, order
    assert_goes_first(0, began, spoke)


def test_the_first_embed_to_load_is_the_one_in_view_not_the_first_on_the_page(page: Page, host_url: str) -> None:
    # The same host page with its embeds in reverse order on screen: the last one written is at the top.
    page.set_viewport_size({"width": 1280, "height": 700})
    order, began, spoke = load_order(page, host_url + "reversed.html")
    assert page.evaluate("() => document.querySelectorAll('iframe')[2].getBoundingClientRect().top") < 700
    assert page.evaluate("() => document.querySelectorAll('iframe')[0].getBoundingClientRect().top") > 700
    assert order[0] == 2, order
    assert_goes_first(2, began, spoke)


def test_three_embeds_load_size_themselves_and_step_by_messages(page: Page, host_url: str, site_server: str) -> None:
    open_host(page, host_url)
    origin = site_server.rstrip("/")
    for index, (example, lang) in enumerate(EMBEDS):
        frames = frames_of(example, lang)
        ready = received(page, index, "durak:ready")
        assert len(ready) == 1 and ready[0]["origin"] == origin
        assert ready[0]["data"]["steps"] == len(frames)
        assert ready[0]["data"]["step"] == 0

        # The iframe is as tall as the content it reported, and the content fits in it.
        iframe = page.locator("iframe").nth(index)
        wait_for(page, lambda i=index: bool(received(page, i, "durak:resize")), f"embed {index} resize")
        reported = received(page, index, "durak:resize")[-1]["data"]["height"]
        wait_for(page, lambda f=iframe, h=reported: abs(f.bounding_box()["height"] - h) < 1.5,  # type: ignore[index]
                 f"iframe {index} sized to {reported}px")
        inner = embed_frame(page, index)
        assert inner.evaluate("() => document.documentElement.scrollHeight <= innerHeight + 1")
        assert iframe.get_attribute("loading") == "lazy"
        assert iframe.get_attribute("title") == ready[0]["data"]["title"]
        assert inner.evaluate("() => document.documentElement.lang") == lang

        # Each command moves the example and is reported as a step with its comment.
        moves: list[tuple[object, int]] = [({"type": "durak:next"}, 1), ({"type": "durak:next"}, 2),
                                           ({"type": "durak:prev"}, 1), ({"type": "durak:goto", "step": 99},
                                                                         len(frames) - 1),
                                           ({"type": "durak:reset"}, 0)]
        for count, (message, step) in enumerate(moves, 1):
            send(page, index, message)
            wait_for(page, lambda i=index, c=count: len(received(page, i, "durak:step")) >= c, f"step {count}")
            event = received(page, index, "durak:step")[count - 1]["data"]
            assert event == {"type": "durak:step", "step": step, "steps": len(frames),
                             "comment": frames[step]["comment"]}
            assert inner.locator("[data-example]").get_attribute("data-step") == str(step)
        assert inner.locator(f'[data-example="{example}"] [data-testid=comment]').inner_text() == frames[0]["comment"]


def test_wrong_messages_and_other_windows_are_ignored(page: Page, host_url: str) -> None:
    open_host(page, host_url)
    wrong: list[object] = [
        json.dumps({"type": "durak:next"}),  # a JSON string, not an object
        None, 7, ["durak:next"], {"type": "durak:goto", "step": "2"}, {"type": "durak:goto", "step": -1},
        {"type": "durak:goto", "step": 1.5}, {"type": "durak:play"}, {"type": "durak:play", "action": 3},
        {"type": "durak:fly"}, {"kind": "durak:next"},
    ]
    for message in wrong:
        send(page, 0, message)
    # Another window (a frame of the host, with the host's origin) tries to step the first embed.
    page.evaluate("""() => new Promise((resolve) => {
        const other = document.createElement('iframe');
        other.srcdoc = "<script>parent.frames[0].postMessage({type: 'durak:next'}, '*');" +
                       "parent.frames[0].postMessage({type: 'durak:goto', step: 2}, '*');<\\/script>";
        other.onload = resolve;
        document.body.append(other);
    })""")
    send(page, 0, {"type": "durak:next"})  # the one valid command, from the parent, comes last
    wait_for(page, lambda: bool(received(page, 0, "durak:step")), "the parent's step")
    steps = [m["data"]["step"] for m in received(page, 0, "durak:step")]
    assert steps == [1], f"only the parent's valid command moves the embed, got steps {steps}"
    assert not received(page, 0, "durak:error")


def test_the_host_page_keeps_its_dom_storage_and_globals(page: Page, host_url: str) -> None:
    original = page.request.get(host_url).text()
    open_host(page, host_url)
    report = page.evaluate("""(original) => {
        const before = new DOMParser().parseFromString(original, 'text/html');
        const shape = (root) => [...root.querySelectorAll('*')].filter((e) => !e.closest('iframe'))
            .map((e) => e.tagName + ' ' + [...e.attributes].map((a) => a.name + '=' + a.value).join(' '));
        const divs = [...document.querySelectorAll('[data-durak-example]')];
        return {
            before: shape(before.body),
            after: shape(document.body).filter((line) => !line.startsWith('IFRAME')),
            children: divs.map((d) => [...d.children].map((c) => c.tagName)),
            storage: Object.keys(localStorage),
            // (window[0], window[1]... are the iframes themselves)
            globals: Object.keys(window)
                .filter((k) => ![...window.hostGlobals, 'hostGlobals'].includes(k) && !/^\\d+$/.test(k)),
            sheets: document.styleSheets.length,
        };
    }""", original)
    assert report["after"] == report["before"], "the host's own elements and attributes are unchanged"
    assert report["children"] == [["IFRAME"]] * len(EMBEDS), "each div holds its one iframe, nothing else"
    assert report["storage"] == ["host.note"]
    assert report["globals"] == [], f"the loader left globals on the host: {report['globals']}"
    assert report["sheets"] == 1, "the loader adds no style sheet to the host"


def test_play_by_notation_an_illegal_move_gets_an_error_a_legal_one_is_reported(page: Page, host_url: str) -> None:
    open_host(page, host_url)
    example, lang = EMBEDS[0]
    start = Game.from_position(frames_of(example, lang)[0]["position"])
    seat = start.to_act
    assert seat is not None
    legal = [str(action) for action in start.legal_actions(seat)]

    send(page, 0, {"type": "durak:play", "action": "defend 2C 3C"})  # boots the engine, which refuses it
    wait_for(page, lambda: bool(received(page, 0, "durak:error")), "durak:error", timeout_ms=60_000)
    error = received(page, 0, "durak:error")[0]["data"]
    assert isinstance(error["reason"], str) and error["reason"]
    assert error["code"] and not error["code"].startswith("embed."), f"the engine's refusal, not {error}"
    assert not received(page, 0, "durak:move")

    send(page, 0, {"type": "durak:play", "action": legal[0].upper()})
    wait_for(page, lambda: bool(received(page, 0, "durak:move")), "durak:move")
    assert received(page, 0, "durak:move")[0]["data"] == {"type": "durak:move", "seat": seat, "action": legal[0]}
    inner = embed_frame(page, 0)
    assert inner.locator("[data-example]").get_attribute("data-try") == "ready"
    # The other seats answer (durak:move each) until it is the reader's seat's turn again or the game ends.
    wait_for(page, lambda: len(received(page, 0, "durak:move")) >= 2, "the reply of the other seat")
    assert received(page, 0, "durak:move")[1]["data"]["seat"] != seat


GAME = "variant=podkidnoy&players=2&level=easy&seed=1&speed=instant"  # seat 0, the embed's player, attacks first


def test_a_game_embed_is_the_table_playing_by_messages(page: Page, host_url: str, site_server: str) -> None:
    open_host(page, host_url)
    # A div the host adds later gets its iframe too; data-durak-game takes the table's parameters.
    page.evaluate("(game) => { const d = document.createElement('div'); d.dataset.durakGame = game; "
                  "document.querySelector('main').append(d); }", GAME)
    index = len(EMBEDS)
    wait_for(page, lambda: bool(received(page, index, "durak:ready")), "the table embed ready", timeout_ms=60_000)
    table = embed_frame(page, index)
    assert table.url.startswith(site_server + "index.html?") and "embed=1" in table.url
    assert table.evaluate("() => document.body.dataset.embed") == "1"

    send(page, index, {"type": "durak:play", "action": "attack 2C"})
    wait_for(page, lambda: bool(received(page, index, "durak:error")), "durak:error")
    assert not received(page, index, "durak:move")
    send(page, index, {"type": "durak:next"})  # a live game has no steps: ignored
    send(page, index, {"type": "durak:play", "action": "attack 6S"})
    wait_for(page, lambda: len(received(page, index, "durak:move")) >= 2, "the move and the AI's answer")
    moves = [m["data"] for m in received(page, index, "durak:move")]
    assert moves[0] == {"type": "durak:move", "seat": 0, "action": "attack 6S"}
    assert moves[1]["seat"] == 1 and moves[1]["action"].split()[0] in ("defend", "take")
    assert not received(page, index, "durak:step")


def test_a_game_embed_keeps_its_save_apart_from_the_sites_game(page: Page, site_server: str,
                                                               wait_ready: Callable[..., float]) -> None:
    page.goto(site_server + "embed.html?example=podkidnoy-limit-take")
    page.evaluate("() => localStorage.setItem('durak.save', 'a game in progress on the site')")
    page.goto(site_server + "embed.html?" + GAME)
    wait_ready(page)
    page.locator('[data-testid=hand] [data-card="6S"]').click()
    page.locator('[data-testid=hand] [data-card="6S"]').wait_for(state="detached")  # played (the AI answers)
    saves = page.evaluate("() => [localStorage.getItem('durak.save'), localStorage.getItem('durak.embed.save')]")
    assert saves[0] == "a game in progress on the site"
    assert saves[1] and json.loads(saves[1])["series"], "the embed saved its own game under its own key"


PAINTED_JS = "() => new Promise((painted) => requestAnimationFrame(() => requestAnimationFrame(painted)))"
STORAGE_REFUSED_JS = """() => { try { return localStorage.length < 0; }
                                catch (error) { return error.name === "SecurityError"; } }"""


def test_on_another_site_with_storage_refused_examples_try_it_and_games_still_work(
        page: Page, other_site_host_url: str) -> None:
    """Nothing a frame may not store breaks it: no uncaught error (the engine's boot asked Cache Storage
    for its snapshot and its handover without catching a refusal; the page_errors fixture fails the
    test on one), the engine boots, the table plays and says once that it keeps nothing."""
    warnings: list[str] = []
    page.on("console", lambda message: warnings.append(message.text) if message.type == "warning" else None)
    open_host(page, other_site_host_url)
    inner = embed_frame(page, 0)
    assert inner.evaluate(STORAGE_REFUSED_JS), "this test needs a browser that refuses a third-party frame storage"

    # A third-party frame is its own renderer process, not drawn while out of view: open_host scrolled to
    # the last embed, and a click on the first before it has painted again went to the host page.
    page.locator("iframe").first.scroll_into_view_if_needed()
    inner.evaluate(PAINTED_JS)
    inner.locator("[data-control=try]").click()
    expect(inner.locator("[data-example]")).to_have_attribute("data-try", "ready", timeout=60_000)
    assert inner.evaluate("() => document.body.dataset.engine") == "ready"

    page.evaluate("(game) => { const d = document.createElement('div'); d.dataset.durakGame = game; "
                  "document.querySelector('main').append(d); }", GAME)
    index = len(EMBEDS)
    wait_for(page, lambda: bool(received(page, index, "durak:ready")), "the table embed ready", timeout_ms=60_000)
    send(page, index, {"type": "durak:play", "action": "attack 6S"})
    wait_for(page, lambda: len(received(page, index, "durak:move")) >= 2, "the move and the AI's answer")
    def refused() -> list[str]:
        return [text for text in warnings if "localStorage refused" in text]

    wait_for(page, lambda: bool(refused()), "the table's save, refused")  # the worker's store message comes last
    page.wait_for_timeout(300)  # the saves of both moves in
    assert len(refused()) == 1, f"a refused save is said once, not at every move: {refused()}"


@pytest.fixture
def own_site(tmp_path: Path) -> Iterator[tuple[Any, str, Callable[[], None]]]:
    """A server of this test's own, which the test may stop, for a frozen copy of the site: (server, base
    URL, stop)."""
    server, url = serve.start_in_background(port=0, root=frozen_site(tmp_path))
    stopped = False

    def stop() -> None:
        nonlocal stopped
        if not stopped:
            stopped = True
            server.shutdown()
            server.server_close()

    yield server, url, stop
    stop()


def test_embeds_work_offline_once_visited(page: Page, own_site: tuple[Any, str, Callable[[], None]],
                                          tmp_path: Path) -> None:
    _, site, stop_site = own_site
    hosts = tmp_path / "host"
    hosts.mkdir()
    write_host(hosts, site)
    host, host_url = serve.start_in_background(port=0, root=hosts)
    try:
        open_host(page, host_url)
        for index in range(len(EMBEDS)):  # each embed's copy of the site is stored (in the host's partition)
            embed_frame(page, index).wait_for_function(
                "async () => (await navigator.serviceWorker.ready).active !== null && "
                "!!(await caches.match(new URL('rules/frames/en/perevodnoy-transfer.json', location.href)))",
                timeout=60_000)
        stop_site()  # the Durak site is gone; the host page is still there
        page.evaluate("() => { window.received = []; }")
        page.reload()
        open_host(page, host_url)
        for index, (example, lang) in enumerate(EMBEDS):
            assert received(page, index, "durak:ready")[0]["data"]["steps"] == len(frames_of(example, lang))
        send(page, 1, {"type": "durak:next"})
        wait_for(page, lambda: bool(received(page, 1, "durak:step")), "a step, offline")
    finally:
        host.shutdown()
        host.server_close()


def test_embeds_come_from_a_sub_path_and_ask_for_nothing_outside_it(page: Page, subpath_url: str,
                                                                     tmp_path: Path) -> None:
    write_host(tmp_path, subpath_url)
    host, host_url = serve.start_in_background(port=0, root=tmp_path)
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    try:
        open_host(page, host_url)
    finally:
        host.shutdown()
        host.server_close()
    sources = page.evaluate("() => [...document.querySelectorAll('iframe')].map((f) => f.src)")
    assert all(src.startswith(subpath_url + "embed.html?example=") for src in sources), sources
    site_origin = subpath_url.split("/games/")[0]
    stray = [url for url in requested if url.startswith(site_origin) and not url.startswith(subpath_url)]
    assert not stray, f"requests outside the site's folder: {stray[:5]}"


AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"


def test_axe_finds_nothing_serious_on_a_host_page_with_embeds(page: Page, host_url: str) -> None:
    open_host(page, host_url)
    for frame in [page.main_frame, *(embed_frame(page, i) for i in range(len(EMBEDS)))]:
        frame.add_script_tag(path=str(AXE_JS))
    found: list[dict[str, Any]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))")
    serious = [f"{v['id']} ({v['impact']}): {v['nodes']}" for v in found if v["impact"] in ("serious", "critical")]
    assert serious == []


def test_open_in_the_full_game_opens_the_shown_position_on_the_table(page: Page, site_server: str,
                                                                    wait_ready: Callable[..., float]) -> None:
    example, step = "perevodnoy-transfer", 2
    page.goto(f"{site_server}embed.html?example={example}&step={step}&lang=en")
    link = page.locator("#open-full")
    expect(link).to_have_attribute("href", re.compile(r"index\.html\?.*position=p1"))
    assert link.get_attribute("target") == "_blank"
    href = link.get_attribute("href") or ""
    value = parse_qs(urlsplit(href).query)["position"][0]
    position = frames_of(example, "en")[step]["position"]
    assert from_url_safe(value, expect="position") == position  # the engine reads what the page wrote
    page.goto(href)
    wait_ready(page)
    game = Game.from_position(position)
    shown = page.evaluate("() => [...document.querySelectorAll('[data-testid=hand] [data-card]')]"
                          ".map((e) => e.dataset.card)")
    assert sorted(shown) == sorted(str(card) for card in game.hand(0))


def test_a_record_embed_is_replayed_by_the_engine_into_steppable_frames(page: Page, host_url: str) -> None:
    record = load_examples(ROOT / "rules" / "examples")["throw-in-priority"]
    open_host(page, host_url)
    page.evaluate("(link) => { const d = document.createElement('div'); d.dataset.durakRecord = link; "
                  "d.dataset.lang = 'ru'; document.querySelector('main').append(d); }", url_safe(str(record)))
    index = len(EMBEDS)
    wait_for(page, lambda: bool(received(page, index, "durak:ready")), "the record embed ready", timeout_ms=60_000)
    assert received(page, index, "durak:ready")[0]["data"]["steps"] == record.steps
    send(page, index, {"type": "durak:goto", "step": record.steps - 1})
    wait_for(page, lambda: bool(received(page, index, "durak:step")), "the last step")
    # the author's words, in the page's language where the catalogues know them (the site's own examples)
    comment = received(page, index, "durak:step")[0]["data"]["comment"]
    assert comment == translate_comment("ru", record.comments[-1]) != record.comments[-1]
    final = record.replay(Game)
    shown = embed_frame(page, index).evaluate(
        "() => [...document.querySelectorAll('[data-seat]')].map((s) => [...s.querySelectorAll('[data-card]')]"
        ".map((c) => c.dataset.card))")
    assert shown == [[str(card) for card in final.hand(seat)] for seat in range(final.players)]


#: What a frame's document fetched itself (a worker's fetches are in the worker's own timeline, not here).
FRAME_FETCHED_JS = "() => performance.getEntriesByType('resource').map(e => e.name)"


def test_record_and_position_embeds_share_one_engine_in_a_worker_never_on_the_frames_main_thread(
        page: Page, host_url: str) -> None:
    """Three embeds that need the engine on one host page: they connect to one shared engine worker
    (web/worker/engine-shared-worker.mjs), booted once, so no frame loads PyScript or runs Pyodide on the main
    thread the frames and the host share, and the page holds one Pyodide, not three; their saves stay
    the host's own."""
    records = load_examples(ROOT / "rules" / "examples")
    links = [("durakRecord", url_safe(str(records["throw-in-priority"])), "ru"),
             ("durakPosition", url_safe(records["perevodnoy-transfer"].start(Game).position()), "fr"),
             ("durakRecord", url_safe(str(records["podkidnoy-limit-take"])), "en")]
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    open_host(page, host_url)
    page.evaluate("(links) => { for (const [kind, value, lang] of links) { const d = document.createElement('div');"
                  "d.dataset[kind] = value; d.dataset.lang = lang; document.querySelector('main').append(d); } }",
                  links)
    engines = []
    for index in range(len(EMBEDS), len(EMBEDS) + len(links)):
        wait_for(page, lambda i=index: bool(received(page, i, "durak:ready")), f"engine embed {index} ready",
                 timeout_ms=90_000)
        frame = embed_frame(page, index)
        assert frame.evaluate("() => [document.body.dataset.engine, typeof window.durakEngine, typeof window.pyodide]"
                              ) == ["ready", "undefined", "undefined"]
        engines.append(frame.evaluate("() => [document.body.dataset.engineWorker, document.body.dataset.engineBoot]"))
        fetched = frame.evaluate(FRAME_FETCHED_JS)
        by_the_frame = [url for url in fetched if url.endswith(("/pyodide.asm.wasm", "/python_stdlib.zip",
                                                                "/modules.zip", "/pyodide.asm.mjs"))]
        assert not by_the_frame, f"fetched by the frame, not its worker: {by_the_frame}"
    assert received(page, len(EMBEDS) + 1, "durak:ready")[0]["data"]["steps"] == 1  # a position: one frame
    pyscript = [url for url in requested if "/web/vendor/pyscript/" in url or url.endswith("/pyscript.toml")]
    assert not pyscript, pyscript
    assert engines[0][0] == "shared" and engines[0][1], engines
    assert engines == [engines[0]] * len(links), f"one engine, booted once, for the three frames: {engines}"
    assert page.evaluate("() => Object.keys(localStorage)") == ["host.note"]


CONTRAST_JS = (Path(__file__).parents[1] / "contrast.js").read_text(encoding="utf-8")


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_an_embedded_example_meets_contrast_aa_in_both_themes(page: Page, site_server: str, theme: str) -> None:
    page.set_viewport_size({"width": 360, "height": 900})
    page.goto(f"{site_server}embed.html?example=podkidnoy-limit-stop&step=4&lang=fr&theme={theme}")
    expect(page.locator("body")).to_have_attribute("data-state", "ready")
    failures: list[str] = page.evaluate(CONTRAST_JS, "body")
    assert failures == []
    assert page.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), "no sideways scroll"


# Every computed style (custom properties aside) of an example's cards, marks, trump badge and buttons,
# by their place under the example's element.
DRAWN_STYLES_JS = """(selector) => {
  const root = document.querySelector(selector);
  const pieces = ".card, .card *, .mark, .mark *, .trump-badge, .trump-badge *, .btn, .btn *";
  const drawn = new Set(root.querySelectorAll(pieces));
  const out = {};
  const walk = (element, path) => [...element.children].forEach((child, i) => {
    const here = `${path}/${child.tagName.toLowerCase()}${i}`;
    if (drawn.has(child)) {
      const style = getComputedStyle(child);
      out[here] = Object.fromEntries([...style].filter((name) => !name.startsWith("--"))
        .map((name) => [name, style.getPropertyValue(name)]));
    }
    walk(child, here);
  });
  walk(root, "");
  return out;
}"""


TRANSITIONS_DONE_JS = "() => document.getAnimations().every((a) => a.playState !== 'running')"


def test_an_embedded_example_is_drawn_as_on_its_rules_page_without_the_tables_stylesheet(
        page: Page, site_server: str) -> None:
    """embed.html loads web/shared/cards.css, not web/table/style.css (the table page's chrome): its cards, marks,
    badge and buttons must still be styled exactly as on the rules page, which loads both. Both
    widths give the example its largest cards, so even the sizes agree."""
    example = "podkidnoy-limit-take"
    selector = f'[data-example="{example}"]'
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{site_server}rules/en/podkidnoy.html")
    expect(page.locator("body")).to_have_attribute("data-state", "ready")
    page.locator(selector).scroll_into_view_if_needed()
    page.wait_for_function(TRANSITIONS_DONE_JS)  # a button disabled as the stepper mounts fades for .15 s
    on_rules_page = page.evaluate(DRAWN_STYLES_JS, selector)
    page.set_viewport_size({"width": 760, "height": 800})
    page.goto(f"{site_server}embed.html?example={example}&lang=en")
    expect(page.locator("body")).to_have_attribute("data-state", "ready")
    sheets = page.evaluate("() => [...document.styleSheets].map((s) => new URL(s.href).pathname.split('/').pop())")
    assert "style.css" not in sheets and "cards.css" in sheets, sheets
    page.wait_for_function(TRANSITIONS_DONE_JS)
    in_embed = page.evaluate(DRAWN_STYLES_JS, selector)
    assert len(on_rules_page) > 100 and on_rules_page.keys() == in_embed.keys()
    differences = [(where, name, value, in_embed[where].get(name)) for where, styles in on_rules_page.items()
                   for name, value in styles.items() if in_embed[where].get(name) != value]
    assert differences == [], differences[:10]


def test_a_plain_iframe_sandboxed_to_scripts_and_its_own_origin_works(page: Page, host_url: str,
                                                                      site_server: str) -> None:
    """No loader: the iframe a host writes by hand, with the strictest sandbox an embed runs in."""
    open_host(page, host_url)
    page.evaluate("(src) => { const f = document.createElement('iframe'); f.src = src; f.title = 'Durak';"
                  "f.setAttribute('sandbox', 'allow-scripts allow-same-origin');"
                  "f.style.cssText = 'width:100%;height:440px;border:0'; document.querySelector('main').append(f); }",
                  f"{site_server}embed.html?example=first-defence-five&lang=en")
    index = len(EMBEDS)
    wait_for(page, lambda: bool(received(page, index, "durak:ready")), "the sandboxed embed ready")
    send(page, index, {"type": "durak:last"})  # unknown: ignored
    send(page, index, {"type": "durak:goto", "step": 2})
    wait_for(page, lambda: bool(received(page, index, "durak:step")), "its step")
    assert received(page, index, "durak:step")[0]["data"]["step"] == 2
    assert not received(page, index, "durak:error")


def test_url_options_step_controls_try_theme_and_autoplay(page: Page, site_server: str) -> None:
    example = "podkidnoy-limit-stop"
    steps = len(frames_of(example, "fr"))
    page.goto(f"{site_server}embed.html?example={example}&lang=fr&step=2&controls=0&try=0&theme=light&autoplay=300")
    widget = page.locator(f'[data-example="{example}"]')
    expect(widget).to_have_attribute("data-step", str(steps - 1), timeout=10_000)  # autoplay ran to the end
    page.wait_for_timeout(700)
    assert widget.get_attribute("data-step") == str(steps - 1), "autoplay stops at the last step"
    assert page.locator(".ex-controls").is_hidden()
    assert page.locator("[data-control=try]").is_hidden() and page.locator("[data-control=odds]").is_hidden()
    assert page.evaluate("() => [document.documentElement.lang, document.body.dataset.theme]") == ["fr", "light"]

    longer = "perevodnoy-transfer"
    page.goto(f"{site_server}embed.html?example={longer}&autoplay=800")
    page.locator(f'[data-example="{longer}"] .ex-board').click()  # the reader takes over: autoplay stops
    step = int(page.locator(f'[data-example="{longer}"]').get_attribute("data-step") or "0")
    page.wait_for_timeout(2000)
    assert page.locator(f'[data-example="{longer}"]').get_attribute("data-step") == str(step)
    assert step < len(frames_of(longer, "en")) - 1
    assert page.locator("[data-control=next]").is_visible() and page.locator("[data-control=try]").is_visible()


def test_an_embed_naming_no_known_example_says_so_in_its_language(page: Page, host_url: str,
                                                                 page_errors: Any) -> None:
    page_errors.allow(r"status of 404")  # the frames of an example that does not exist
    open_host(page, host_url)
    page.evaluate("() => { for (const [kind, value] of [['durakExample', 'no-such-example'], "
                  "['durakPosition', 'p1AAAA']]) { const d = document.createElement('div'); d.dataset[kind] = value; "
                  "d.dataset.lang = 'fr'; document.querySelector('main').append(d); } }")
    for index, code in ((len(EMBEDS), "embed.unknown_example"), (len(EMBEDS) + 1, "embed.bad_link")):
        wait_for(page, lambda i=index: bool(received(page, i, "durak:error")), f"embed {index}'s error",
                 timeout_ms=60_000)
        error = received(page, index, "durak:error")[0]["data"]
        assert error["code"] == code
        alert = embed_frame(page, index).locator("[role=alert]")
        assert alert.inner_text() == error["reason"] and error["reason"]
        assert not received(page, index, "durak:ready")


def test_the_content_security_policy_docs_embed_md_names_is_enough(page: Page, site_server: str,
                                                                  tmp_path: Path) -> None:
    """A host page allowing only the Durak site in script-src and frame-src (its own test script by hash,
    no inline style allowed): the loader runs, the frame loads, sizes itself and steps."""
    text = (FIXTURES / "embed_host_csp.html").read_text(encoding="utf-8")
    harness = re.search(r"<script>(.*?)</script>", text, re.S)
    assert harness
    digest = base64.b64encode(hashlib.sha256(harness[1].encode()).digest()).decode()
    origin = site_server.rstrip("/")
    text = (text.replace("__HARNESS_HASH__", f"'sha256-{digest}'").replace("__SITE_ORIGIN__", origin)
            .replace("__SITE__", site_server))
    (tmp_path / "index.html").write_text(text, encoding="utf-8")
    violations: list[str] = []
    page.on("console", lambda message: violations.append(message.text) if "Content Security Policy" in message.text
            else None)
    host, host_url = serve.start_in_background(port=0, root=tmp_path)
    try:
        page.goto(host_url)
        wait_for(page, lambda: bool(received(page, 0, "durak:ready")), "the embed ready under the CSP")
        wait_for(page, lambda: bool(received(page, 0, "durak:resize")), "its size")
        height = received(page, 0, "durak:resize")[-1]["data"]["height"]
        wait_for(page, lambda: abs(page.locator("iframe").bounding_box()["height"] - height) < 1.5,  # type: ignore[index]
                 "the iframe sized under the CSP")
        send(page, 0, {"type": "durak:next"})
        wait_for(page, lambda: bool(received(page, 0, "durak:step")), "a step")
    finally:
        host.shutdown()
        host.server_close()
    assert violations == []
