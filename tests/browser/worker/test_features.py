"""The table's boot leaves web/features.zip (play with friends, the review and history, the examples, the
embed), the review's screens (web/review/review.js and the board renderer it imports) and friends' links
(web/friends/net.js) for later: a first visit to a shared game is ready, dealt and played on without fetching
them; the history button fetches the features and screens and opens the history; a ?record= link, which
opens a review at once, has them at boot."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page, expect

from durak import Game, Rules
from durak.record import url_safe
from tests.browser.helpers import TURN_JS, click_a_move

GAME = "index.html?variant=podkidnoy&players=2&level=easy&seed=1&speed=instant"
FEATURES = "web/features.zip"
SCREENS = ("web/review/review.js", "web/examples/stepper.js")
FRIENDS = "web/friends/net.js"  # WebRTC and the tabs' channel: loaded when friends first need it


def requests_of(page: Page) -> list[str]:
    """Every URL the page and its engine worker ask for, from now on."""
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url))
    return asked


def test_a_first_visit_plays_without_the_features_and_the_history_loads_them(
    context: BrowserContext, page: Page, base_url: str, wait_ready: Callable[..., float]
) -> None:
    asked = requests_of(page)
    page.goto(base_url + GAME)
    wait_ready(page)
    page.wait_for_function(TURN_JS)
    click_a_move(page)
    page.wait_for_function(TURN_JS)
    assert any(url.endswith("web/modules.zip") for url in asked), asked
    early = [url for url in asked if url.endswith((FEATURES, *SCREENS, FRIENDS))]
    assert not early, f"the table's boot and a move fetched {early}"

    page.click(".tools [data-action=history]")
    expect(page.locator("[data-testid=history]")).to_be_visible()
    for later in (FEATURES, *SCREENS):
        assert [url for url in asked if url.endswith(later)], f"the history opened without {later}"


def test_a_record_link_loads_the_features_at_boot(
    page: Page, base_url: str, wait_ready: Callable[..., float]
) -> None:
    game = Game.new(Rules(variant="podkidnoy", players=2), seed=3)
    asked = requests_of(page)
    page.goto(base_url + "index.html?speed=instant&record=" + url_safe(game.record()))
    wait_ready(page)
    expect(page.locator("[data-testid=review]")).to_be_visible()
    for needed in (FEATURES, *SCREENS):
        assert [url for url in asked if url.endswith(needed)], needed
