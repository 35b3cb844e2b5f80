"""Cheat mode in Chromium, clicked and typed as a person does: the new-game dialog's option, an accusation of
an opening attack made with the keyboard (a fair card: the accuser takes it), and a defence with a card
that does not beat, clickable though never marked playable."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import Page, expect

from tests.browser.helpers import IN_STRIP
from tests.browser.table.test_table import hand, open_table, shot, wait_turn

#: The opening attack the person must answer: one attack card on the table, nothing beaten yet.
OPENING_JS = """() => document.querySelectorAll('#table [data-attack]').length === 1
  && !document.querySelector('#table [data-defence]') && !!document.querySelector('#hand .hand-cards[data-live=true]')
  && !document.querySelector('.actions [data-action=take]').disabled"""
#: Hand cards only a cheat could play now: clickable (not aria-disabled) but not marked playable.
CHEAT_CARDS_JS = """() => [...document.querySelectorAll('#hand [data-card][data-playable=false]')]
  .filter(e => !e.hasAttribute('aria-disabled')).map(e => e.dataset.card)"""


def deal_cheat_mode(page: Page, wait_ready: Callable[..., float], seed: int) -> None:
    open_table(page, wait_ready, "?speed=instant&lang=en")
    if not page.locator("#new-game[open]").count():
        page.click("[data-action=new-game]")
    page.check("input[name=cheating]")
    page.fill("input[name=seed]", str(seed))
    page.click("[data-action=start]")
    expect(page.locator(".actions [data-action=accuse]")).to_be_visible()


def step(page: Page) -> None:
    """One honest move: the first playable card on its first target, else take or pass."""
    cards = page.evaluate("() => [...document.querySelectorAll('#hand [data-playable=true]')].map(e => e.dataset.card)")
    if cards:
        page.click(f'#hand [data-card="{cards[0]}"]', position=IN_STRIP)
        lit = page.locator('#table [data-target="true"]')
        if lit.count():
            lit.first.click()
        elif page.locator('.actions [data-action=play]:not([hidden])').count():
            page.click(".actions [data-action=play]")
        return
    for action in ("pass", "take"):
        button = page.locator(f".actions [data-action={action}]")
        if button.is_enabled():
            button.click()
            return


def test_a_fair_card_accused_by_keyboard_costs_the_accuser_the_table(
        page: Page, wait_ready: Callable[..., float]) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    deal_cheat_mode(page, wait_ready, seed=3)
    for _ in range(60):
        if wait_turn(page) == "over":
            raise AssertionError("the game ended before an opening attack came to the person")
        if page.evaluate(OPENING_JS):
            break
        step(page)
    else:
        raise AssertionError("no opening attack to answer")
    attack = page.locator("#table [data-attack]").first.get_attribute("data-attack")
    held = len(hand(page))
    accuse = page.locator(".actions [data-action=accuse]")
    expect(accuse).to_be_enabled()
    accuse.focus()
    page.keyboard.press("Enter")
    lit = page.locator(f'#table [data-accuse="{attack}"][data-target="true"]')
    expect(lit).to_have_count(1)
    expect(page.locator("#status")).to_contain_text("Accuse")
    lit.focus()
    page.keyboard.press("Enter")
    outcome = page.locator("[data-testid=accusation]")
    expect(outcome).to_have_attribute("data-outcome", "wrong")
    expect(outcome).to_have_attribute("data-card", str(attack))
    page.wait_for_function(f"() => document.querySelectorAll('#hand [data-card]').length >= {held + 1}")
    expect(page.locator(f'#hand [data-card="{attack}"]')).to_have_count(1)  # the accuser took the table
    shot(page, "cheat-wrong-accusation")


def test_a_card_that_does_not_beat_goes_down_by_a_click(page: Page, wait_ready: Callable[..., float]) -> None:
    deal_cheat_mode(page, wait_ready, seed=11)
    for _ in range(80):
        if wait_turn(page) == "over":
            raise AssertionError("no chance to cheat in a whole game")
        if page.evaluate(OPENING_JS) and page.evaluate(CHEAT_CARDS_JS):
            break
        step(page)
    else:
        raise AssertionError("no chance to cheat")
    card = page.evaluate(CHEAT_CARDS_JS)[0]
    page.click(f'#hand [data-card="{card}"]', position=IN_STRIP)  # one attack on the table: it goes down at once
    # the card lies on the table, unless the AI caught it at once and the cheater took the table back
    page.wait_for_function(f"""() => !!document.querySelector('#table [data-defence="{card}"]')
      || !!document.querySelector('[data-testid=accusation][data-outcome=caught][data-card="{card}"]')""")
    assert page.locator("#table [data-playable]").count() == 0  # the table never marks a cheat
    shot(page, "cheat-played")
