"""The game served from a sub-path (as on a rules site: https://example.org/games/durak/) boots, plays,
and asks for nothing outside its own folder."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import BrowserContext, Request

from .helpers import ROOT, click_a_move, serve

PREFIX = "games/durak/"


@pytest.fixture(scope="module")
def subpath_url(tmp_path_factory: pytest.TempPathFactory, site_server: str) -> Iterator[str]:
    """A second server whose root holds the site only under games/durak/ (a link to the repo root)."""
    top = tmp_path_factory.mktemp("host")
    (top / "games").mkdir()
    (top / "games" / "durak").symlink_to(Path(ROOT), target_is_directory=True)
    server, url = serve.start_in_background(port=0, root=top)
    yield url + PREFIX
    server.shutdown()
    server.server_close()


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
