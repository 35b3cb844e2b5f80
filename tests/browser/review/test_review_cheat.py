"""The review of a cheat-mode record in Chromium: opened from a ?record= link, its move list marks the cheat
and each accusation's outcome in the page's language, stepping to an accusation shows the table cleared into
the taker's hand, and grading judges only the honest decisions."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from durak.record import url_safe
from tests.browser.review.test_review import GRADING_TIMEOUT_MS, review_panel, shot, step_of
from tests.browser.test_a11y import serious
from web.review.model import Session
from web.shared.i18n import t

pytestmark = pytest.mark.warm  # the boot is not the subject: a returning visitor's loads

#: West beats 8♥ with 7♥ and East catches him; West then wrongly accuses South's fair Q♦ (rules/examples).
EXAMPLE = Path("rules/examples/podkidnoy-cheat-caught.durak")


def test_a_cheat_mode_record_shows_its_cheat_and_accusations_in_the_review(
        page: Page, wait_ready: Callable[..., float]) -> None:
    text = EXAMPLE.read_text()
    expected = Session.from_text(text, 0).data("fr")["moves"]
    page.goto(f"index.html?record={url_safe(text)}&lang=fr&speed=instant")
    wait_ready(page)
    panel = review_panel(page)
    items = panel.locator("[data-testid=move-list] [data-move]")
    expect(items).to_have_count(6)

    cheat = items.nth(1)
    expect(cheat).to_have_attribute("data-cheat", "true")
    expect(cheat.locator(".cheat-badge")).to_have_text(t("fr", "review.cheat"))
    expect(panel.locator("[data-cheat]")).to_have_count(1)

    caught, wrong = items.nth(2), items.nth(5)
    expect(caught).to_have_attribute("data-accusation", "caught")
    expect(caught).to_have_attribute("data-taker", "1")
    expect(caught.locator(".accusation-badge")).to_have_text(t("fr", "review.caught"))
    expect(caught.locator(".move-outcome")).to_have_text(expected[2]["accusation"]["text"])
    expect(wrong).to_have_attribute("data-accusation", "wrong")
    expect(wrong).to_have_attribute("data-taker", "1")
    expect(wrong.locator(".accusation-badge")).to_have_text(t("fr", "review.wrong"))
    expect(wrong.locator(".move-outcome")).to_have_text(expected[5]["accusation"]["text"])
    assert "Ouest" in expected[2]["accusation"]["text"] and "Est" in expected[2]["accusation"]["text"]

    # the position after the caught cheat: the table is empty, West holds the two cards it took
    caught.click()
    assert step_of(page) == 3
    expect(panel.locator("[data-attack]")).to_have_count(0)
    for card in ("8H", "7H"):
        expect(panel.locator(f"[data-seat='1'] [data-card='{card}']")).to_have_count(1)
    expect(panel).to_contain_text(expected[2]["accusation"]["text"])
    shot(page, "review-cheat-fr")

    # grading: South's two honest decisions get verdicts; the cheat and the accusations none
    expect(panel).to_have_attribute("data-graded", "true", timeout=GRADING_TIMEOUT_MS)
    for move in (0, 4):
        expect(items.nth(move)).to_have_attribute("data-verdict", re.compile(r"good|inaccuracy|mistake|blunder"))
    for move in (1, 2, 5):
        assert items.nth(move).get_attribute("data-verdict") is None
    assert serious(page) == []  # the badges and the outcome lines too (axe-core)
