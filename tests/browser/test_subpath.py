"""The game served from a sub-path (as on a rules site: https://example.org/games/durak/) boots, plays,
and asks for nothing outside its own folder."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import BrowserContext, Request

from .helpers import click_a_move


def test_the_game_plays_from_a_sub_path(context: BrowserContext, subpath_url: str,
                                         wait_ready: Callable[..., float]) -> None:
    requests: list[str] = []

    def on_request(request: Request) -> None:
        requests.append(request.url)

    context.on("request", on_request)
    page = context.new_page()
    page.goto(subpath_url + "index.html?variant=podkidnoy&players=2&level=easy&seed=7&speed=instant")
    wait_ready(page)
    page.wait_for_selector("#hand .hand-cards[data-live=true]")  # the player's turn (the AI may lead)
    assert click_a_move(page), "no move could be made by clicking"
    scope = page.evaluate("() => navigator.serviceWorker.ready.then(r => r.scope)")
    assert scope == subpath_url, "the service worker controls only the game's own folder"
    outside = [url for url in requests if not url.startswith(subpath_url)]
    assert not outside, f"requests outside {subpath_url}: {outside[:5]}"
