"""One link to play with friends: host and friend meet through a local signalling relay (`make relay`'s
WebTorrent tracker, started here on a free loopback port), with no reply code; the friend's reload and the
relay's death; a wrong key; no relay at all (the reply-code fallback); a second browser on a seat's link.
Two browser contexts of one Chromium, loopback WebRTC, no STUN or TURN."""

from __future__ import annotations

import re
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tests.browser.conftest import PageErrors
from tests.browser.friends.peers import RECORD_WIRE_JS, deal_online, hand, invite_link, paste_reply, wait_state
from tests.browser.helpers import TURN_JS, click_a_move

ROOT = Path(__file__).resolve().parents[3]
CONNECT_MS = 45_000  # a meeting takes a second or two here; CI machines can be very busy


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


class Relay:
    """`make relay`'s server (scripts/relay.mjs) on a loopback port, which a test may stop and start."""

    def __init__(self) -> None:
        self.port = free_port()
        self.url = f"ws://127.0.0.1:{self.port}/"
        self.process: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(["node", "scripts/relay.mjs", str(self.port)], cwd=ROOT, text=True,
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        assert line.startswith("relay: listening on"), line

    def stop(self) -> None:
        if self.process is not None:
            self.process.terminate()
            self.process.wait(timeout=10)
            self.process = None


@pytest.fixture(scope="session")
def relay_server() -> Iterator[Relay]:
    relay = Relay()
    relay.start()
    yield relay
    relay.stop()


@pytest.fixture
def relay(relay_server: Relay) -> Relay:
    if relay_server.process is None:  # a test stopped it
        relay_server.start()
    return relay_server


@pytest.fixture(autouse=True)
def _close_friends_contexts(browser: Browser, context: BrowserContext) -> Iterator[None]:
    yield
    for other in list(browser.contexts):
        if other is not context:
            other.close()


def table_with_relays(host: Page, base_url: str, relays: str, kinds: list[str]) -> None:
    deal_online(host, base_url, kinds, relays=relays)


def friend(browser: Browser, link: str, page_errors: PageErrors) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(RECORD_WIRE_JS)
    page = context.new_page()
    page_errors.watch(page)
    page.goto(link)
    wait_state(page)
    return page


def connected(page: Page) -> None:
    page.wait_for_function("document.body.dataset.connected === 'true'", timeout=CONNECT_MS)


def test_one_link_meets_through_the_relay_and_a_reload_reconnects(page: Page, browser: Browser, base_url: str,
                                                                 relay: Relay, page_errors: PageErrors) -> None:
    host = page
    table_with_relays(host, base_url, relay.url, ["friend"])
    link = invite_link(host, 1)
    assert re.search(r"#join=[A-Za-z0-9_-]+&k=[A-Za-z0-9_-]{22}$", link), link
    assert "relays=ws://127.0.0.1:" in link  # the table's own relay list travels with its invites
    ann = friend(browser, link, page_errors)
    connected(ann)
    connected(host)
    expect(ann.locator("[data-testid=reply-code]")).to_have_count(0)
    expect(host.locator('#opponents [data-seat="1"]')).to_have_attribute("data-seat-status", "connected")
    ann.wait_for_selector("#hand [data-card]", timeout=CONNECT_MS)
    # both play a few moves over the data channel
    for _ in range(4):
        for player in (host, ann):
            if player.evaluate(TURN_JS) == "turn":
                click_a_move(player)
        host.wait_for_timeout(100)
    before = hand(ann)
    assert before
    ann.reload()
    wait_state(ann)
    connected(ann)
    expect(ann.locator("[data-testid=reply-code]")).to_have_count(0)
    ann.wait_for_selector("#hand [data-card]", timeout=CONNECT_MS)
    expect(host.locator('#opponents [data-seat="1"]')).to_have_attribute("data-seat-status", "connected")
