"""Embeds on another site: a host page on a second origin (another loopback port) puts three worked
examples on itself with web/embed.js and drives them through the message API (docs/embed.md).

The host page is tests/browser/fixtures/embed_host.html, served by its own server with the site's URL
written into its loader tag. Its script keeps every message it receives in `window.received`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Frame, Page

from durak import Game

from .helpers import ROOT, serve

FIXTURES = Path(__file__).resolve().parent / "fixtures"
EMBEDS = [("podkidnoy-limit-take", "fr"), ("perevodnoy-transfer", "en"), ("prostoy-partial-defence", "en")]
TIMEOUT_MS = 15_000


def write_host(folder: Path, site: str) -> None:
    """The host page, with the loader's src pointing at `site` (a URL ending in /)."""
    text = (FIXTURES / "embed_host.html").read_text(encoding="utf-8").replace("__SITE__", site)
    (folder / "index.html").write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def host_url(tmp_path_factory: pytest.TempPathFactory, site_server: str) -> Iterator[str]:
    """The host page on a second origin; its embeds come from the site's server."""
    folder = tmp_path_factory.mktemp("host")
    write_host(folder, site_server)
    server, url = serve.start_in_background(port=0, root=folder)
    yield url
    server.shutdown()
    server.server_close()


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
    assert not received(page, 0, "durak:move")

    send(page, 0, {"type": "durak:play", "action": legal[0].upper()})
    wait_for(page, lambda: bool(received(page, 0, "durak:move")), "durak:move")
    assert received(page, 0, "durak:move")[0]["data"] == {"type": "durak:move", "seat": seat, "action": legal[0]}
    inner = embed_frame(page, 0)
    assert inner.locator("[data-example]").get_attribute("data-try") == "ready"
    # The other seats answer (durak:move each) until it is the reader's seat's turn again or the game ends.
    wait_for(page, lambda: len(received(page, 0, "durak:move")) >= 2, "the reply of the other seat")
    assert received(page, 0, "durak:move")[1]["data"]["seat"] != seat
