"""Helpers of the play-with-friends browser tests: a host page deals an online table, friends join from
their own browser contexts over real WebRTC data channels (loopback, no STUN), everybody plays by clicking.

benchmarks/net.py loads this file by path too (with the repo root on sys.path): keep it free of pytest
and of relative imports.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from playwright.sync_api import Browser, Page

from tests.browser.helpers import TURN_JS, click_a_move  # absolute: benchmarks/net.py runs this file by path

# Every message a friend's page receives on its data channel, in order: window.__wire.
RECORD_WIRE_JS = """(() => {
  window.__wire = [];
  const create = RTCPeerConnection.prototype.createDataChannel;
  RTCPeerConnection.prototype.createDataChannel = function (...args) {
    const channel = create.apply(this, args);
    channel.addEventListener('message', (event) => window.__wire.push(String(event.data)));
    return channel;
  };
})();"""

CARD_TOKEN = re.compile(r'"((?:[2-9]|10|[JQKA])[SHDC])"')


def wait_state(page: Page, ready_ms: float = 60_000) -> None:
    page.wait_for_function("document.body.dataset.state === 'ready'", timeout=ready_ms)


def deal_online(page: Page, base_url: str, kinds: list[str], variant: str = "podkidnoy", teams: str = "none",
                timer: str = "0", relays: str = "", query: str = "", deck: str = "36") -> None:
    """Open the table (with its own signalling relays when ``relays`` names them, and ``query``'s other
    parameters), switch the new-game dialog to play with friends, choose each seat and the deck, deal."""
    page.goto(base_url + "index.html?speed=instant" + (f"&relays={relays}" if relays else "") + query)
    wait_state(page)
    if not page.locator("#new-game[open]").count():
        page.click("[data-action=new-game]")
    page.check(f"input[name=variant][value={variant}]", force=True)
    page.click("[data-action=online]")
    page.select_option("select[name=players]", str(len(kinds) + 1))
    page.select_option("select[name=deck]", deck)
    if teams != "none":
        page.select_option("select[name=teams]", teams)
    page.select_option("select[name=timer]", timer)
    for seat, kind in enumerate(kinds, start=1):
        page.select_option(f'select[data-seat-kind="{seat}"]', kind)
    page.click("[data-action=start]")


def invite_link(host: Page, seat: int) -> str:
    locator = host.locator(f'[data-testid=invite][data-seat="{seat}"] a[data-testid=invite-link]')
    locator.wait_for(timeout=20_000)
    href = locator.get_attribute("href")
    assert href
    return href


def at_instant_speed(link: str) -> str:
    """The link with `speed=instant` added to its query (the fragment, an invite's secret, unchanged): the
    friend's page then plays without animations, as the host's does in these tests."""
    parts = urlsplit(link)
    query = "&".join(part for part in (parts.query, "speed=instant") if part)
    return urlunsplit(parts._replace(query=query))


def open_invite(browser: Browser, link: str, name: str, watch: Callable[[Page], None] | None = None,
                record: bool = True) -> Page:
    """A friend's own browser context opens the invite link (at instant speed) and types a name; returns
    their page."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    if record:
        context.add_init_script(RECORD_WIRE_JS)
    page = context.new_page()
    if watch is not None:
        watch(page)
    page.goto(at_instant_speed(link))
    wait_state(page)
    page.wait_for_selector("[data-testid=reply-code]", timeout=20_000)
    if name:
        page.fill("[data-testid=player-name]", name)
    return page


def paste_reply(host: Page, seat: int, guest: Page) -> None:
    """The host pastes the friend's reply into the seat's invite box and connects; waits for the channel."""
    guest.wait_for_selector("[data-testid=reply-code]", timeout=20_000)
    code = guest.text_content("[data-testid=reply-code]") or ""
    box = host.locator(f'textarea[data-testid=reply-input][data-seat="{seat}"]')
    box.wait_for(timeout=20_000)
    box.fill(code)
    host.click(f'[data-action=connect][data-seat="{seat}"]')
    # generous: a connection takes well under a second here, but CI machines can be very busy
    guest.wait_for_function("document.body.dataset.connected === 'true'", timeout=45_000)
    guest.wait_for_selector("#hand [data-card]", timeout=45_000)


def join(host: Page, browser: Browser, seat: int, name: str, watch: Callable[[Page], None] | None = None,
         record: bool = True) -> Page:
    guest = open_invite(browser, invite_link(host, seat), name, watch, record)
    paste_reply(host, seat, guest)
    return guest


def play_round_robin(pages: list[Page], until: Callable[[], bool], limit_s: float = 400.0) -> int:
    """Whoever's page has a live hand clicks a move, until ``until()``; returns the number of moves."""
    moves = 0
    deadline = time.monotonic() + limit_s
    while not until():
        assert time.monotonic() < deadline, "the game did not end in time"
        acted = False
        for page in pages:
            if page.evaluate(TURN_JS) == "turn" and click_a_move(page):
                moves += 1
                acted = True
        if not acted:
            pages[0].wait_for_timeout(30)
    return moves


def all_over(pages: list[Page]) -> Callable[[], bool]:
    return lambda: all(page.evaluate(TURN_JS) == "over" for page in pages)


def host_save(host: Page) -> dict[str, Any]:
    text = host.evaluate("() => localStorage.getItem('durak.save')")
    assert text
    data: dict[str, Any] = json.loads(text)
    return data


def hand(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all("#hand [data-card]", "els => els.map(e => e.dataset.card).sort()")
    return cards


def table_cards(page: Page) -> list[str]:
    cards: list[str] = page.eval_on_selector_all(
        "#table [data-attack]", "els => els.map(e => e.dataset.attack + '/' + (e.dataset.beatenBy || ''))")
    return cards


def wait_until_shown(host: Page, pages: dict[int, Page], limit_s: float = 30.0) -> None:
    """Wait until each seat's page shows the hand and table the host's save holds: a message still on
    the wire would otherwise make a snapshot of a page stale."""
    deadline = time.monotonic() + limit_s
    while True:
        game = host_save(host)["series"]["game"]
        if all(hand(page) == sorted(game["hands"][seat]) and len(table_cards(page)) == len(game["table"])
               for seat, page in pages.items()):
            return
        assert time.monotonic() < deadline, "a seat's page did not catch up with the host"
        host.wait_for_timeout(50)


def wire(page: Page) -> list[str]:
    messages: list[str] = page.evaluate("() => window.__wire || []")
    return messages
