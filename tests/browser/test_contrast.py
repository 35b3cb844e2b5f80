"""Contrast AA (WCAG 2: 4.5:1, large text 3:1) of every visible piece of text, in the states a player sees."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .helpers import FramePage, click_a_move

pytestmark = pytest.mark.warm  # the boot is not the subject: a returning visitor's loads

CONTRAST_JS = (Path(__file__).parent / "contrast.js").read_text(encoding="utf-8")
SETTLED_TURN_JS = """() => !!document.querySelector(
    '#hand .hand-cards[data-live=true], [data-testid=game-over], [data-testid=cover]:not([hidden])')"""


def low_contrast(page: Page, scope: str = "body") -> list[str]:
    failures: list[str] = page.evaluate(CONTRAST_JS, scope)
    return failures


def test_text_meets_contrast_aa_on_the_table_and_in_the_dialogs(page: Page, wait_ready: Callable[..., float]) -> None:
    page.goto("index.html?variant=perevodnoy&players=4&level=easy&seed=4&speed=instant&lang=fr")
    wait_ready(page)
    expect(page.locator("#hand [data-card]").first).to_be_visible()
    assert low_contrast(page) == []
    page.click("[data-action=hint]")
    expect(page.locator("#hint")).not_to_be_empty()
    assert low_contrast(page) == []
    for _ in range(6):  # a few moves later: marks, the log and the table change
        page.wait_for_function(SETTLED_TURN_JS)
        if page.locator("[data-testid=game-over]").count():
            break
        click_a_move(page)
    assert low_contrast(page) == []
    page.click("[data-action=new-game]")
    expect(page.locator("dialog#new-game")).to_have_attribute("open", "")
    assert low_contrast(page, "dialog#new-game") == []


def test_text_meets_contrast_aa_through_a_pass_and_play_game(page: Page, wait_ready: Callable[..., float]) -> None:
    """Seats going out, empty hands, the cover between players and the game-over panel, at every turn."""
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("index.html?variant=podkidnoy&players=3&seats=human,human,easy&seed=8&speed=instant")
    wait_ready(page)
    found: set[str] = set()
    for _ in range(400):
        page.wait_for_function(SETTLED_TURN_JS)
        found.update(low_contrast(page))
        if page.locator("[data-testid=game-over]").count():
            break
        cover = "[data-testid=cover]:visible button"
        if page.locator(cover).count():
            FramePage(page).click(cover + " >> nth=0")  # drawn before the next look
        else:
            click_a_move(page)
    expect(page.locator("[data-testid=game-over]")).to_be_visible()
    expect(page.locator("#opponents .seat[data-out=true]")).not_to_have_count(0)
    assert sorted(found) == []
