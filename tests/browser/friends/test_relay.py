"""One link to play with friends: host and friend meet through a local signalling relay (`make relay`'s
WebTorrent tracker, started here on a free loopback port), with no reply code; the friend's reload and the
relay's death; a wrong key; no relay at all (the reply-code fallback); a second browser on a seat's link.
Two browser contexts of one Chromium, loopback WebRTC, no STUN or TURN."""

from __future__ import annotations

import re
import socket
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, WebSocket, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.browser.conftest import PageErrors
from tests.browser.friends.peers import (
    CARD_TOKEN,
    RECORD_WIRE_JS,
    at_instant_speed,
    deal_online,
    hand,
    host_save,
    invite_link,
    paste_reply,
    wait_state,
)
from tests.browser.helpers import TURN_JS, click_a_move
from web.friends.invite import parse_invite
from web.friends.netpage import STILL_LOOKING_S
from web.shared.i18n import t

ROOT = Path(__file__).resolve().parents[3]
CONNECT_MS = 45_000  # a meeting takes a second or two here; CI machines can be very busy
# Trystero says so on the console when the other side of a data channel closes it (a reload, a tab closed)
PEER_CLOSED = r"Trystero peer error: OperationError: User-Initiated Abort"
# Chromium's own console line for a relay that refuses connections (Trystero tries again later)
RELAY_REFUSED = r"WebSocket connection to 'ws://127\.0\.0\.1:\d+/' failed"
# How often a friend's page alone in its room joins it again (web/friends/relay.js)
REJOIN_MS = int(re.search(r"const REJOIN_MS = (\d+);", (ROOT / "web/friends/relay.js").read_text())[1])
# A friend's page that applies each answer it gets this much later (`%d`: ms): a handshake as slow as on a
# slow phone or network
SLOW_ANSWERS_JS = """(() => {
  const apply = RTCPeerConnection.prototype.setRemoteDescription;
  RTCPeerConnection.prototype.setRemoteDescription = function (...args) {
    return new Promise((resolve) => setTimeout(resolve, %d)).then(() => apply.apply(this, args));
  };
})();"""


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
        """Kill the relay: its sockets drop as a crashed server's would."""
        if self.process is not None:
            self.process.kill()
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


def table_with_relays(host: Page, base_url: str, relays: str, kinds: list[str], query: str = "") -> None:
    deal_online(host, base_url, kinds, relays=relays, query=query)


def friend(browser: Browser, link: str, page_errors: PageErrors) -> Page:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(RECORD_WIRE_JS)
    page = context.new_page()
    page_errors.watch(page)
    page.goto(at_instant_speed(link))
    wait_state(page)
    return page


def connected(page: Page) -> None:
    try:
        page.wait_for_function("document.body.dataset.connected === 'true'", timeout=CONNECT_MS)
    except PlaywrightTimeoutError:
        said = page.evaluate("() => [document.body.dataset.net, document.getElementById('net').innerText]")
        raise AssertionError(f"not connected after {CONNECT_MS} ms; the page's side and panel: {said}") from None


def test_one_link_meets_through_the_relay_and_a_reload_reconnects(page: Page, browser: Browser, base_url: str,
                                                                 relay: Relay, page_errors: PageErrors) -> None:
    host = page
    page_errors.allow(PEER_CLOSED)
    page_errors.allow(RELAY_REFUSED)
    dead = f"ws://127.0.0.1:{free_port()}/"  # a dead relay in the list costs nothing: both are used at once
    table_with_relays(host, base_url, f"{dead},{relay.url}", ["friend"])
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


def test_a_handshake_slower_than_the_rejoin_interval_still_connects(page: Page, browser: Browser, base_url: str,
                                                                   relay: Relay, page_errors: PageErrors) -> None:
    """The friend's page joins its room again every REJOIN_MS while it has no table; a connection whose
    answer came but is not open yet must not be closed by that, or a slow one never opens."""
    host = page
    page_errors.allow(PEER_CLOSED)
    table_with_relays(host, base_url, relay.url, ["friend"])
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    context.add_init_script(SLOW_ANSWERS_JS % (REJOIN_MS + 2000))
    ann = context.new_page()
    page_errors.watch(ann)
    ann.goto(at_instant_speed(invite_link(host, 1)))
    wait_state(ann)
    connected(ann)
    ann.wait_for_selector("#hand [data-card]", timeout=CONNECT_MS)
    expect(host.locator('#opponents [data-seat="1"]')).to_have_attribute("data-seat-status", "connected")


def relay_frames(page: Page, frames: list[str]) -> None:
    """Every text frame the page sends to or gets from a signalling relay, into ``frames``."""
    def on_socket(socket: WebSocket) -> None:
        socket.on("framesent", lambda payload: frames.append(str(payload)))
        socket.on("framereceived", lambda payload: frames.append(str(payload)))
    page.on("websocket", on_socket)


def test_the_relay_sees_no_secret_and_a_wrong_key_joins_nothing(page: Page, browser: Browser, base_url: str,
                                                               relay: Relay, page_errors: PageErrors) -> None:
    host = page
    page_errors.allow(PEER_CLOSED)
    frames: list[str] = []
    relay_frames(host, frames)
    table_with_relays(host, base_url, relay.url, ["friend"])
    link = invite_link(host, 1)
    key = link.rsplit("&k=", 1)[1]
    wrong = ("A" if key[0] != "A" else "B") + key[1:]
    intruder = friend(browser, link.replace(f"&k={key}", f"&k={wrong}"), page_errors)
    relay_frames(intruder, frames)
    expect(intruder.locator("[data-testid=relay-wait]")).to_be_visible()
    # after STILL_LOOKING_S (beyond a rejoin and several announces) it still looks, and says why it may not find
    expect(intruder.locator("[data-testid=relay-wait]")).to_have_text(t("en", "relay_still_looking"),
                                                                      timeout=(STILL_LOOKING_S + 10) * 1000)
    assert intruder.evaluate("document.body.dataset.connected") == "false"
    expect(intruder.locator("#hand [data-card]")).to_have_count(0)
    expect(host.locator('#opponents [data-seat="1"]')).not_to_have_attribute("data-seat-status", "connected")
    expect(host.locator('[data-testid=invite][data-seat="1"]')).to_be_visible()
    assert frames, "the pages spoke to the relay"
    ann = friend(browser, link, page_errors)
    relay_frames(ann, frames)
    connected(ann)
    ann.wait_for_selector("#hand [data-card]", timeout=CONNECT_MS)
    secret = parse_invite(link).secret
    cards = set(hand(ann))
    for frame in frames:
        for clear in ("v=0", "a=fingerprint", "ice-ufrag", "candidate", key, secret, '"t":'):
            assert clear not in frame, (clear, frame[:300])
        assert not cards & set(CARD_TOKEN.findall(frame)), frame[:300]
    assert intruder.evaluate("document.body.dataset.connected") == "false"


def test_the_game_goes_on_when_the_relay_dies(page: Page, browser: Browser, base_url: str, relay: Relay,
                                              page_errors: PageErrors) -> None:
    host = page
    page_errors.allow(PEER_CLOSED)
    table_with_relays(host, base_url, relay.url, ["friend"])
    ann = friend(browser, invite_link(host, 1), page_errors)
    connected(ann)
    ann.wait_for_selector("#hand [data-card]", timeout=CONNECT_MS)
    page_errors.allow(RELAY_REFUSED)
    relay.stop()
    before = len(host_save(host)["series"]["game"]["history"])
    moved = {host: 0, ann: 0}
    deadline = time.monotonic() + 60
    while min(moved.values()) < 2:
        assert time.monotonic() < deadline, moved
        for player in (host, ann):
            if player.evaluate(TURN_JS) == "turn" and click_a_move(player):
                moved[player] += 1
        host.wait_for_timeout(50)
    history = "JSON.parse(localStorage.getItem('durak.save')).series.game.history.length"
    host.wait_for_function(f"() => {history} >= {before + 4}")
    assert ann.evaluate("document.body.dataset.connected") == "true"


def test_a_second_browser_on_a_seated_link_is_told_the_seat_is_taken(page: Page, browser: Browser, base_url: str,
                                                                     relay: Relay, page_errors: PageErrors) -> None:
    host = page
    page_errors.allow(PEER_CLOSED)
    table_with_relays(host, base_url, relay.url, ["friend", "friend"])
    link = invite_link(host, 1)
    ann = friend(browser, link, page_errors)
    connected(ann)
    other = friend(browser, link, page_errors)
    expect(other.locator("#net")).to_contain_text("taken", timeout=CONNECT_MS)
    assert other.evaluate("document.body.dataset.connected") == "false"
    assert ann.evaluate("document.body.dataset.connected") == "true"
    expect(host.locator('#opponents [data-seat="1"]')).to_have_attribute("data-seat-status", "connected")
    # seat 2's link is its own: it takes seat 2, never seat 1
    bob = friend(browser, invite_link(host, 2), page_errors)
    connected(bob)
    connected(host)
    expect(bob.locator('#opponents [data-seat="1"]')).to_have_attribute("data-seat-status", "connected")


def test_with_no_relay_the_page_falls_back_to_reply_codes(page: Page, browser: Browser, base_url: str,
                                                          page_errors: PageErrors) -> None:
    host = page
    page_errors.allow(RELAY_REFUSED)
    dead = f"ws://127.0.0.1:{free_port()}/"  # nothing listens there
    table_with_relays(host, base_url, dead, ["friend"])
    ann = friend(browser, invite_link(host, 1), page_errors)
    # the page waits for the relay (perhaps too briefly to see: the refusal may come first), then, the only
    # relay having refused, says so at once, not after the 5 s it gives relays that stay silent
    expect(ann.locator("[data-testid=relay-wait], [data-testid=relay-note]").first).to_be_visible()
    expect(ann.locator("[data-testid=relay-note]")).to_be_visible(timeout=4_000)
    expect(ann.locator("[data-testid=reply-code]")).to_be_visible()
    expect(host.locator('[data-testid=invite][data-seat="1"] [data-net-message="1"]')).not_to_be_empty()
    paste_reply(host, 1, ann)
    connected(host)


def test_after_the_hosts_reload_the_friend_reconnects_by_itself(page: Page, browser: Browser, base_url: str,
                                                                relay: Relay, page_errors: PageErrors) -> None:
    host = page
    page_errors.allow(PEER_CLOSED)
    # the host's link named a game too: dealing another drops the link's game from the address, not its relays
    table_with_relays(host, base_url, relay.url, ["friend"], query="&variant=perevodnoy&players=3")
    ann = friend(browser, invite_link(host, 1), page_errors)
    connected(ann)
    ann.wait_for_selector("#hand [data-card]", timeout=CONNECT_MS)
    before = hand(ann)
    assert "variant=" not in host.url and "relays=" in host.url, host.url
    host.reload()
    wait_state(host)
    connected(host)
    connected(ann)
    expect(ann.locator("[data-testid=reply-code]")).to_have_count(0)
    expect(host.locator('#opponents [data-seat="1"]')).to_have_attribute("data-seat-status", "connected")
    ann.wait_for_function(f"() => [...document.querySelectorAll('#hand [data-card]')].length === {len(before)}")
    assert hand(ann) == before


def test_a_hostile_relay_beside_a_good_one_changes_nothing(page: Page, browser: Browser, base_url: str,
                                                           relay: Relay, page_errors: PageErrors) -> None:
    """Junk, wrong shapes, a 300 kB frame, foreign and forged offers, 200 frames a second: all dropped
    unread, no page error, and the friends still meet through the good relay and play."""
    host = page
    page_errors.allow(PEER_CLOSED)
    port = free_port()
    hostile = subprocess.Popen(["node", "tests/browser/friends/hostile_relay.mjs", str(port)], cwd=ROOT, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        assert hostile.stdout is not None and hostile.stdout.readline().startswith("hostile: listening")
        table_with_relays(host, base_url, f"ws://127.0.0.1:{port}/,{relay.url}", ["friend"])
        ann = friend(browser, invite_link(host, 1), page_errors)
        connected(ann)
        connected(host)
        ann.wait_for_selector("#hand [data-card]", timeout=CONNECT_MS)
        host.wait_for_timeout(3_000)  # some 300 frames of junk more
        page_errors.check()
        assert host.evaluate("document.body.dataset.connected") == "true"
    finally:
        hostile.kill()
        hostile.wait(timeout=10)


def test_the_relay_code_loads_only_when_someone_plays_with_friends(page: Page, base_url: str, relay: Relay,
                                                                   wait_ready: Callable[..., float]) -> None:
    """A first visit's page asks for neither the relay module nor the library (the service worker may
    precache them); a table dealt for friends loads both."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    page.goto(base_url + "index.html?speed=instant")
    wait_ready(page)
    page.wait_for_timeout(500)
    assert not [url for url in asked if "trystero" in url or "friends/relay" in url or "envelope" in url]
    deal_online(page, base_url, ["friend"], relays=relay.url)
    invite_link(page, 1)
    assert any("web/vendor/trystero/torrent.mjs" in url for url in asked)
    assert any("web/friends/relay.js" in url for url in asked)
