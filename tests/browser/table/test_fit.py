"""The table fits the window: the fullest tables the engine reaches, at phone, tablet and laptop sizes, in
every language, with nothing to scroll and no word of a seat's marks cut short; a one-row top bar; a first visit dealt
in one tap.

The positions come from random play with a fixed seed (``full_tables``): six players with 52 cards and
the most cards on the table, heads-up with 52 cards and the largest hand, and a defence where one card
beats either of two attacks (so a tap selects it and lights both). Each is opened by its ``?position=``
link with the player to act, so nothing moves while it is measured. One page per test, reloaded at each
size; the sizes a person reaches by turning a phone or resizing a window are checked by resizing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from durak import Game
from durak.record import url_safe
from durak.rules import Rules
from tests.browser.conftest import PageErrors
from tests.browser.helpers import CONFIG, FramePage, rebuild
from tests.browser.table.test_table import shot
from tests.browser.test_a11y import serious
from web.shared.i18n import CATALOGUES, LANGS

pytestmark = pytest.mark.warm  # the boot is not the subject: a returning visitor's loads

#: The sizes a new user tried (phones upright and on their side, laptops), each opened afresh.
OPENED = ((360, 740), (390, 844), (844, 390), (1280, 800), (1366, 768))
#: The ends of the range, reached by resizing: the smallest phone and a desktop.
RESIZED = ((360, 640), (1920, 1080), (640, 360))
STRIP = 24  # CSS px of each hand card that stays in view and takes a tap
HEADER_MAX = 64

#: Where the page breaks the promise, as a list of readable faults (empty: it fits).
FIT_JS = """([strip, headerMax]) => {
  const faults = [];
  const vw = innerWidth, vh = innerHeight;
  const doc = document.scrollingElement;
  if (doc.scrollWidth > vw) faults.push(`scrolls sideways: ${doc.scrollWidth} > ${vw}`);
  if (doc.scrollHeight > vh) faults.push(`scrolls down: ${doc.scrollHeight} > ${vh}`);
  const inside = (e) => { const r = e.getBoundingClientRect();
    return r.width > 0 && r.left >= -0.5 && r.top >= -0.5 && r.right <= vw + 0.5 && r.bottom <= vh + 0.5; };
  const name = (e) => e.dataset.card || e.dataset.attack || e.dataset.defence || e.className || e.tagName;
  const must = ['#table .card', '#hand [data-card]', '#opponents .seat', '#opponents .seat-name',
    '#opponents .count-badge', '#opponents .mark', '.talon', '.talon .count-badge', '[data-trump-card]',
    '.trump-badge', '.discard-pile', '.actions .btn:not([hidden])', '#status'];
  for (const selector of [...must, 'header .btn, header select']) {
    for (const e of document.querySelectorAll(selector)) {
      if (!e.checkVisibility()) { if (must.includes(selector)) faults.push(`hidden: ${selector} ${name(e)}`); }
      else if (!inside(e)) faults.push(`outside the window: ${selector} ${name(e)}`);
    }
  }
  for (const card of document.querySelectorAll('#hand [data-card]')) {
    const r = card.getBoundingClientRect();
    const y = r.top + 8;
    for (const x of [r.left + 1, r.left + strip - 1]) {
      const hit = document.elementFromPoint(x, y);
      if (!hit || hit.closest('[data-card]') !== card) {
        const where = `${Math.round(x)},${Math.round(y)}`;
        faults.push(`hand card ${card.dataset.card}: no ${strip} px strip (${where} hits ${hit && name(hit)})`);
        break;
      }
    }
  }
  // a seat's mark (attacker, defender, taking...) says its whole word wherever the window is wider than 640 px
  // (an ordinary phone on its side and up); narrower, six players' seats may end one with an ellipsis, never
  // cut it short
  for (const mark of document.querySelectorAll('#opponents .mark')) {
    if (mark.scrollWidth <= mark.clientWidth + 1) continue;
    const style = getComputedStyle(mark);
    const ellipsis = style.textOverflow === 'ellipsis' && !style.display.includes('flex');
    if (vw > 640 || !ellipsis) faults.push(`a mark's word cut short: ${mark.textContent}`);
  }
  const buttons = [...document.querySelectorAll('.actions .btn:not([hidden]), header .btn')]
    .filter(e => e.checkVisibility());
  for (let i = 0; i < buttons.length; i++) for (let j = i + 1; j < buttons.length; j++) {
    const a = buttons[i].getBoundingClientRect(), b = buttons[j].getBoundingClientRect();
    if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
      faults.push(`buttons overlap: ${name(buttons[i])} and ${name(buttons[j])}`);
  }
  const header = document.querySelector('header');
  const tops = [...header.querySelectorAll('h1, .btn, select')].filter(e => e.checkVisibility())
    .map(e => Math.round(e.getBoundingClientRect().top + e.getBoundingClientRect().height / 2));
  if (Math.max(...tops) - Math.min(...tops) > 4) faults.push(`the top bar has more than one row: ${tops}`);
  const high = header.getBoundingClientRect().height;
  if (high > headerMax) faults.push(`the top bar is ${high} px high`);
  return faults;
}"""
HAND_JS = "() => [...document.querySelectorAll('#hand [data-card]')].map(e => e.dataset.card)"
LONG_NAME = "Maximiliana Konstantinovna Vorontsova-Dashkova"


def _played(rules: Rules, seeds: range, score: Callable[[Game], int], moves: int = 400) -> tuple[str, Game]:
    """Random games (a fixed seed for the choices too): the position where seat 0 is to act that scores
    highest, with its game."""
    rng = random.Random(2026)
    best: tuple[int, str, Game] | None = None
    for seed in seeds:
        game = Game.new(rules, seed=seed)
        for _ in range(moves):
            seat = game.to_act
            if seat is None or not game.legal_actions(seat):
                break
            if seat == 0:
                value = score(game)
                if best is None or value > best[0]:
                    best = (value, game.position(), Game.from_position(game.position()))
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    assert best is not None
    return best[1], best[2]


def _two_targets(game: Game) -> str | None:
    """A card of seat 0 that beats either of two attack cards (a tap selects it), if there is one."""
    beats: dict[str, int] = {}
    for action in map(str, game.legal_actions(0)):
        words = action.split()
        if words[0] == "defend":
            beats[words[2]] = beats.get(words[2], 0) + 1
    return next((card for card, n in beats.items() if n >= 2), None)


@pytest.fixture(scope="module")
def full_tables() -> dict[str, str]:
    """{name: URL-safe position}: six players with the fullest table (and a talon), heads-up with the largest
    hand, and a defence whose card has two targets (its card in ``choice_card``)."""
    def table_score(game: Game) -> int:
        view = game.view(0)
        pairs = view["table"]
        return -1 if not view["talon"] else 100 * len(pairs) + 10 * sum(1 for _, d in pairs if d) + len(view["hand"])

    six, six_game = _played(Rules(variant="podkidnoy", players=6, deck=52, throw_in="everyone"), range(60), table_score)
    hand, hand_game = _played(Rules(variant="podkidnoy", players=2, deck=52), range(80),
                              lambda game: 10 * len(game.view(0)["hand"]) + len(game.view(0)["table"]))
    choice, choice_game = _played(Rules(variant="podkidnoy", players=2, deck=36), range(10),
                                  lambda game: 1 if _two_targets(game) else 0)
    assert len(six_game.view(0)["table"]) == 6 and six_game.view(0)["talon"] > 0, six
    assert len(hand_game.view(0)["hand"]) >= 20, hand
    card = _two_targets(choice_game)
    assert card, choice
    return {"six": url_safe(six), "hand": url_safe(hand), "choice": url_safe(choice), "choice_card": card}


@pytest.fixture(scope="module", autouse=True)
def current_build() -> Iterator[None]:
    rebuild()
    yield


def open_position(page: Page, wait_ready: Callable[..., float], link: str, lang: str) -> None:
    page.goto(f"index.html?position={link}&lang={lang}&speed=instant")
    wait_ready(page)
    page.wait_for_function("() => document.querySelector('#hand .hand-cards[data-live=true]')", timeout=60_000)


def faults(page: Page) -> list[str]:
    found: list[str] = page.evaluate(FIT_JS, [STRIP, HEADER_MAX])
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_the_fullest_tables_fit_every_size_without_scrolling(
        page: Page, wait_ready: Callable[..., float], full_tables: dict[str, str], lang: str) -> None:
    for name in ("six", "hand"):
        for width, height in OPENED:
            page.set_viewport_size({"width": width, "height": height})
            open_position(page, wait_ready, full_tables[name], lang)
            assert faults(page) == [], f"{name} {lang} {width}x{height}"
            if width == 360:
                shot(page, f"fit-{name}-{lang}-{width}")
        for width, height in RESIZED:
            page.set_viewport_size({"width": width, "height": height})
            assert faults(page) == [], f"{name} {lang} resized to {width}x{height}"
    # a long name keeps to its seat (the layout is the page's CSS alone: the text is set in place)
    page.set_viewport_size({"width": 360, "height": 640})
    page.evaluate("name => document.querySelector('#opponents .seat-name').textContent = name", LONG_NAME)
    assert faults(page) == [], "a long name"


def test_below_the_smallest_phone_the_table_shrinks_instead_of_scrolling(
        page: Page, wait_ready: Callable[..., float], full_tables: dict[str, str]) -> None:
    page.set_viewport_size({"width": 320, "height": 480})
    open_position(page, wait_ready, full_tables["six"], "ru")
    found = faults(page)
    assert found == [], found
    shot(page, "fit-six-ru-320x480")


def test_the_header_is_one_row_at_360_px_in_every_language(
        page: Page, wait_ready: Callable[..., float]) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    page.goto("index.html?variant=perevodnoy&players=2&seed=3&speed=instant&lang=en")
    wait_ready(page)
    header = page.locator("header")
    for lang in [*(lang for lang in LANGS if lang != "en"), "en"]:  # each a switch (the page opened in English)
        page.click("[data-testid=more]")  # the language menu is in the bar's menu on a phone
        expect(page.locator("#lang-select")).to_be_visible()
        FramePage(page).select_option("#lang-select", lang)
        page.keyboard.press("Escape")
        expect(page.locator("html")).to_have_attribute("lang", lang)
        box = header.bounding_box()
        assert box is not None and box["height"] <= HEADER_MAX, (lang, box)
        words = CATALOGUES[lang]
        # the icons keep their names; what does not fit is in the menu, named too
        for name in (words["btn_new_game"], words["btn_more"]):
            expect(page.get_by_role("button", name=name, exact=True)).to_be_visible()
        page.click("[data-testid=more]")
        menu = page.locator("#tools-menu")
        expect(menu.get_by_role("link", name=words["rules_link"])).to_be_visible()
        expect(menu.get_by_role("button", name=words["history.btn_open"])).to_be_visible()
        page.keyboard.press("Escape")
        expect(menu).to_be_hidden()
        assert faults(page) == [], lang


def test_turning_the_phone_keeps_the_selected_card_and_fits_each_way(
        page: Page, wait_ready: Callable[..., float], full_tables: dict[str, str]) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    open_position(page, wait_ready, full_tables["choice"], "en")
    card = page.locator(f'#hand [data-card="{full_tables["choice_card"]}"]')
    FramePage(page).click(f'#hand [data-card="{full_tables["choice_card"]}"]')
    expect(card).to_have_attribute("data-selected", "true")
    lit = page.locator("#table [data-target=true]")
    expect(lit).to_have_count(2)
    frame = page.evaluate("() => document.body.dataset.frame")
    for width, height in ((844, 390), (390, 844), (844, 390)):
        page.set_viewport_size({"width": width, "height": height})
        expect(card).to_have_attribute("data-selected", "true")
        expect(lit).to_have_count(2)
        assert faults(page) == [], (width, height)
    assert page.evaluate("() => document.body.dataset.frame") == frame, "the turn redrew the table"
    shot(page, "fit-turned-selection")
    FramePage(page).click("#table [data-target=true] >> nth=0")  # the selection was live: it completes
    expect(card).to_have_count(0)


def test_a_first_visit_deals_in_one_tap_and_remembers_the_last_choice(
        browser: Browser, browser_context_args: dict[str, Any], page_errors: PageErrors,
        wait_ready: Callable[..., float]) -> None:
    context = browser.new_context(**{**browser_context_args, "viewport": {"width": 360, "height": 640}})
    context.set_default_timeout(CONFIG.DEFAULT_TIMEOUT_MS)
    try:
        page = context.new_page()
        page_errors.watch(page)
        page.goto("index.html?lang=fr&speed=instant")
        fr = CATALOGUES["fr"]
        play = page.get_by_role("button", name=fr["btn_play_now"], exact=True)
        expect(play).to_be_visible()
        expect(play).to_be_focused()
        expect(page.locator("dialog#new-game")).to_be_hidden()
        expect(page.locator("#welcome-game")).to_contain_text(fr["variant_podkidnoy"])
        assert faults(page) == []
        shot(page, "first-visit-fr-360")
        play.click()  # one tap, perhaps before the engine is ready: dealt when it is
        wait_ready(page)
        expect(page.locator("#hand [data-card]")).to_have_count(6)
        expect(page.locator("#opponents .seat")).to_have_count(1)
        expect(page.locator("#welcome")).to_be_hidden()
        save = page.evaluate("() => JSON.parse(localStorage.getItem('durak.save'))")
        assert save["settings"]["variant"] == "podkidnoy" and save["settings"]["seats"] == ["human", "normal"]

        # a returning visitor resumes; one who dealt another game from the dialog gets that one under "Play"
        hand = page.evaluate(HAND_JS)
        page.reload()
        wait_ready(page)
        expect(page.locator("#welcome")).to_be_hidden()
        assert page.evaluate(HAND_JS) == hand
        page.click("[data-action=new-game]")
        page.click("label.choice:has(input[value=perevodnoy])")
        page.select_option("select[name=players]", "3")
        FramePage(page).click("[data-action=start]")
        expect(page.locator("#opponents .seat")).to_have_count(2)
        page.evaluate("() => localStorage.removeItem('durak.save')")
        page.reload()
        expect(play).to_be_visible()
        expect(page.locator("#welcome-game")).to_contain_text(fr["variant_perevodnoy"])
        play.click()
        wait_ready(page)
        expect(page.locator("#opponents .seat")).to_have_count(2)
        expect(page.locator(".actions [data-action=transfer]")).to_be_visible()
    finally:
        context.close()


def test_a_malformed_position_is_refused_in_a_dialog_that_fits(
        page: Page, wait_ready: Callable[..., float]) -> None:
    page.set_viewport_size({"width": 360, "height": 640})
    page.goto("index.html?position=p1not-a-position&lang=en&speed=instant")
    wait_ready(page)
    dialog = page.locator("dialog#new-game")
    expect(dialog).to_be_visible()
    notice = dialog.locator("#ng-notice")
    expect(notice).to_contain_text("position")
    assert page.evaluate("() => document.scrollingElement.scrollHeight <= innerHeight"
                         " && document.scrollingElement.scrollWidth <= innerWidth")
    box = notice.bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 640
    expect(dialog.locator("[data-action=start]")).to_be_in_viewport()


@pytest.mark.parametrize("width,height", [(360, 740), (1280, 800)])
def test_axe_finds_nothing_serious_on_the_full_table_the_first_visit_and_the_menu(
        page: Page, wait_ready: Callable[..., float], full_tables: dict[str, str], width: int, height: int) -> None:
    page.set_viewport_size({"width": width, "height": height})
    page.goto("index.html?lang=ru&speed=instant")  # a first visit: "Play", the loading line
    expect(page.locator("#welcome")).to_be_visible()
    assert serious(page) == [], "first visit"
    open_position(page, wait_ready, full_tables["six"], "ru")
    assert serious(page) == [], "full table"
    if page.locator("[data-testid=more]").is_visible():
        page.click("[data-testid=more]")
        expect(page.locator("#tools-menu")).to_be_visible()
        assert serious(page) == [], "the top bar's menu"
