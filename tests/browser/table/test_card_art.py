"""The deck's art and its two styles in Chromium: a court card shows its picture once its face's file has
loaded, and reads as a letter and a suit while it has not (its request held back); an ace's picture lies on
the card's own paper; every face file draws what it drew before SVGO wrote it shorter; the four-colour deck,
chosen in the new-game dialog, is kept across a reload and draws diamonds blue and clubs green on the
table, in the review and on a rules page."""

from __future__ import annotations

import base64
import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from durak import Game
from durak.record import url_safe
from tests.browser.conftest import PageErrors
from tests.browser.helpers import ROOT, load_file

build_deck = load_file("durak_build_deck", ROOT / "scripts" / "build_deck.py")

pytestmark = pytest.mark.warm  # the boot is not the subject: a returning visitor's loads

#: The player's hand holds courts and aces of every suit, diamonds trumps.
POSITION_TEXT = ("podkidnoy/2p/36 trump=D talon=6H,7H,8S,9S,JS,QD hands=KH,QS,JD,AC,10D,7C,AS,KD|6S,8H,9D,KC,"
                 "QH,AD table=- discard=* dealer=1 attacker=0 defender=1 opener=0 turn=0 limit=6 round=1")
POSITION = url_safe(POSITION_TEXT)
TABLE = f"index.html?speed=instant&lang=en&position={POSITION}"
FACE_FILE = re.compile(r"/web/vendor/deck/[\w-]+/\w+\.svg$")
RED, BLACK = "rgb(195, 36, 47)", "rgb(25, 25, 25)"
BLUE, GREEN = "rgb(31, 95, 196)", "rgb(27, 122, 50)"
#: The picture laid over a court card or an ace: its ::after's background, url("…/deck/<style>/<card>.svg").
ART_JS = """(card) => getComputedStyle(card.querySelector('[data-face]'), '::after').backgroundImage"""
FACE_LOADED_JS = """(face) => performance.getEntriesByType('resource')
  .some((e) => e.name.endsWith(`/web/vendor/deck/classic/${face}.svg`) && e.responseEnd > 0)"""
#: How many pixels of a face's picture are the court figures' gold (#FC4): drawn from its face's file.
GOLD_JS = """async (url) => {
  const image = new Image(164, 260);
  image.src = url;
  await image.decode();
  const canvas = new OffscreenCanvas(164, 260);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0, 164, 260);
  const data = context.getImageData(0, 0, 164, 260).data;
  let gold = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] > 230 && data[i + 1] > 180 && data[i + 1] < 225 && data[i + 2] < 110) gold++;
  }
  return gold;
}"""


#: [share of colour channels more than 2 levels apart, largest difference] between two SVG texts drawn at
#: twice a phone's card.
PIXELS_APART_JS = """async ([first, second]) => {
  const draw = async (text) => {
    const image = new Image();
    image.src = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
    await image.decode();
    const canvas = new OffscreenCanvas(330, 522);
    const context = canvas.getContext('2d');
    context.drawImage(image, 0, 0, 330, 522);
    return context.getImageData(0, 0, 330, 522).data;
  };
  const [a, b] = [await draw(first), await draw(second)];
  let apart = 0, largest = 0;
  for (let i = 0; i < a.length; i++) {
    const difference = Math.abs(a[i] - b[i]);
    if (difference > 2) apart++;
    largest = Math.max(largest, difference);
  }
  return [apart / a.length, largest];
}"""


def hand_card(page: Page, card: str) -> Locator:
    return page.locator(f'[data-testid=hand] [data-card="{card}"]')


def colour(locator: Locator) -> str:
    return str(locator.evaluate("(e) => getComputedStyle(e).color"))


def art_layers(card: Locator) -> list[str]:
    """The pictures laid over a court card or an ace, top first (``none`` for an empty layer)."""
    layers = str(card.evaluate(ART_JS))
    found = re.findall(r'url\("([^"]+)"\)|(none)', layers)
    assert found, layers
    return [url or empty for url, empty in found]


def art_url(card: Locator) -> str:
    """The picture on top of a court card or an ace."""
    top = art_layers(card)[0]
    assert top != "none", card.evaluate(ART_JS)
    return top


@pytest.fixture
def page_without_sw(browser: Browser, browser_context_args: dict[str, Any], base_url: str,
                    page_errors: PageErrors) -> Iterator[Page]:
    """A page whose requests all reach page.route: no service worker answers them from its cache."""
    context = browser.new_context(**{**browser_context_args, "base_url": base_url, "service_workers": "block"})
    context.on("page", page_errors.watch)
    yield context.new_page()
    context.close()


def test_a_court_card_shows_its_picture_once_its_face_has_loaded(
        page: Page, wait_ready: Callable[..., float]) -> None:
    page.goto(TABLE)
    wait_ready(page)
    king = hand_card(page, "KH")
    expect(king).to_have_attribute("aria-label", "K♥, king of hearts")  # the name is the card's, as before
    page.wait_for_function(FACE_LOADED_JS, arg="KH")
    url = art_url(king)
    assert url.endswith("/web/vendor/deck/classic/KH.svg")
    assert page.evaluate(GOLD_JS, url) > 300, "the king's picture, gold and all"
    assert art_url(hand_card(page, "AS")).endswith("/classic/AS.svg")
    assert colour(king) == RED and colour(hand_card(page, "QS")) == BLACK


#: A screenshot's pixels (RGB) at points given as shares of its width and height, read by the page itself.
PIXELS_JS = """async ([png, points]) => {
  const image = new Image();
  image.src = 'data:image/png;base64,' + png;
  await image.decode();
  const canvas = new OffscreenCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return points.map(([x, y]) => Array.from(
    context.getImageData(Math.round(x * image.width), Math.round(y * image.height), 1, 1).data.slice(0, 3)));
}"""


def test_an_ace_s_picture_lies_on_the_card_s_own_paper_with_no_box_around_it(
        page: Page, wait_ready: Callable[..., float]) -> None:
    # The ace's picture covers the middle of the card (inset 11% 16%): just inside its edge and just
    # outside, the paper is the same colour (a white ground showed there as a box).
    page.goto(TABLE)
    wait_ready(page)
    for ace in ("AS", "AC"):
        page.wait_for_function(FACE_LOADED_JS, arg=ace)
    page.wait_for_timeout(300)  # the pictures decoded and painted
    pairs = [((0.14, 0.5), (0.18, 0.5)), ((0.5, 0.93), (0.5, 0.85)), ((0.5, 0.07), (0.5, 0.15)),
             ((0.86, 0.3), (0.82, 0.3))]  # outside, inside: left, bottom, top, right
    for ace in ("AS", "AC"):
        card = hand_card(page, ace)
        assert art_url(card).endswith(f"/classic/{ace}.svg")
        png = base64.b64encode(card.screenshot()).decode()
        pixels = page.evaluate(PIXELS_JS, [png, [point for pair in pairs for point in pair]])
        for (outside, inside), at in zip(zip(pixels[::2], pixels[1::2], strict=True), pairs, strict=True):
            assert max(abs(a - b) for a, b in zip(outside, inside, strict=True)) <= 3, (ace, at, outside, inside)


def test_every_face_file_draws_the_picture_it_was_made_from(page: Page) -> None:
    """The shipped faces (SVGO's shorter text) against scripts/build_deck.py's own markup: apart only in
    the antialiasing of a few edges (rounded coordinates: at most 0.01 % of the channels, by up to 25
    levels), never an outline, a tip or a colour (a lost tip: 0.2 %, 255 levels; a stroke's cap turned
    into a join: 62 levels)."""
    source = build_deck.SOURCE.read_text(encoding="utf-8")
    page.goto("about:blank")
    for style, four_colour in (("classic", False), ("four-colour", True)):
        for name, made in build_deck.face_files(build_deck.read_faces(source), four_colour).items():
            shipped = (build_deck.OUT / style / name).read_text(encoding="utf-8")
            assert len(shipped) < len(made), f"{style}/{name} was not optimised"
            apart, largest = page.evaluate(PIXELS_APART_JS, [made, shipped])
            assert apart < 0.0003 and largest < 48, (style, name, apart, largest)


def test_before_its_picture_arrives_a_court_card_reads_as_a_letter_and_a_suit(
        page_without_sw: Page, page_errors: PageErrors, wait_ready: Callable[..., float]) -> None:
    page = page_without_sw
    page_errors.allow(r"Failed to load resource|deck/classic/")
    page.route(FACE_FILE, lambda route: route.abort())
    page.emulate_media(reduced_motion="reduce")
    page.goto(TABLE)
    wait_ready(page)
    king = hand_card(page, "KH")
    expect(king).to_have_attribute("aria-label", "K♥, king of hearts")
    expect(king.locator(".corner.tl .rk")).to_have_text("K")
    letter = king.locator(".court-letter")
    expect(letter).to_be_visible()
    assert letter.evaluate("(e) => getComputedStyle(e, '::before').content") == '"K"'
    held_back = king.screenshot()
    page.add_style_tag(content=".card [data-face]::after { display: none; }")
    assert king.screenshot() == held_back, "without its picture, nothing is laid over the card"
    page.unroute(FACE_FILE)
    page.reload()
    wait_ready(page)
    page.wait_for_function(FACE_LOADED_JS, arg="KH")
    page.wait_for_timeout(300)  # the picture decoded and painted
    assert hand_card(page, "KH").screenshot() != held_back, "the picture now covers the letter"


def test_the_four_colour_deck_is_chosen_kept_across_a_reload_and_drawn_in_the_review_and_the_rules(
        page: Page, wait_ready: Callable[..., float]) -> None:
    page.goto(TABLE)
    wait_ready(page)
    jack, club, king = hand_card(page, "JD"), hand_card(page, "7C"), hand_card(page, "KH")
    assert (colour(jack), colour(club), colour(king)) == (RED, BLACK, RED)
    page.click("[data-action=new-game]")
    choice = page.locator("[data-testid=deck-style]")
    expect(choice).to_have_value("classic")
    choice.select_option("four-colour")
    page.click("#new-game [data-action=close-dialog]")
    assert (colour(jack), colour(club), colour(king)) == (BLUE, GREEN, RED)
    assert art_url(jack).endswith("/web/vendor/deck/four-colour/JD.svg")
    beneath = art_layers(jack)[1]  # offline, before the four-colour face was ever fetched
    assert beneath.endswith("/web/vendor/deck/classic/JD.svg"), beneath
    assert art_url(king).endswith("/web/vendor/deck/classic/KH.svg")  # hearts as in the classic deck
    expect(page.locator(".trump-badge")).to_have_css("color", BLUE)  # diamonds are trumps

    page.reload()
    wait_ready(page)
    assert (colour(hand_card(page, "JD")), colour(hand_card(page, "7C"))) == (BLUE, GREEN)
    page.click("[data-action=new-game]")
    expect(page.locator("[data-testid=deck-style]")).to_have_value("four-colour")

    page.goto(f"index.html?speed=instant&lang=en&record={url_safe(Game.from_position(POSITION_TEXT).record())}")
    wait_ready(page)
    suits_in_four_colours(page.locator("[data-testid=review]"))

    page.goto("rules/en/podkidnoy.html")
    suits_in_four_colours(page.locator("[data-example]").first)


def suits_in_four_colours(region: Locator) -> None:
    """Every diamond and club of ``region`` (the review's board, a worked example) blue or green."""
    cards = region.locator(".card.suit-d, .card.suit-c")
    expect(cards.first).to_be_visible()
    for index in range(cards.count()):
        card = cards.nth(index)
        expected = BLUE if "suit-d" in (card.get_attribute("class") or "") else GREEN
        assert colour(card) == expected, card.get_attribute("aria-label")
