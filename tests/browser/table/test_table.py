"""The card table in Debian's Chromium, played by clicking (and keys, and drags) like a person.

One page load per test (the reload test reloads once); `speed=instant` turns animations and AI pauses
off. Screenshots of each stage go to artifacts/ (git-ignored). The shared conftest fails any test whose
page logged a console error or a Python traceback.
"""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable, Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Page, expect

from tests.browser.helpers import IN_STRIP, ROOT, FramePage, frame_page, rebuild

ARTIFACTS = ROOT / "artifacts"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from web.shared.i18n import CATALOGUES  # noqa: E402

EN, FR = CATALOGUES["en"], CATALOGUES["fr"]

pytestmark = pytest.mark.warm  # each test plays a game; the boot is tests/browser/worker's and offline/'s subject

STATE_JS = """() => {
  if (document.querySelector('[data-testid=game-over]')) return 'over';
  if (document.querySelector('[data-testid=cover]')) return 'cover';
  if (document.querySelector('#hand .hand-cards[data-live=true]')) return 'turn';
  return '';
}"""


@pytest.fixture(scope="module", autouse=True)
def current_build() -> Iterator[None]:
    """The page imports durak/ and web/ from web/modules.zip, and its service worker checks every file's
    hash: rebuild both (scripts/build_zip.py, build_sw.py) so the tests run the code as it is now."""
    rebuild()
    yield


# ---------------------------------------------------------------------------- helpers
def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def open_table(page: Page, wait_ready: Callable[..., float], query: str) -> None:
    page.goto("index.html" + query)
    wait_ready(page)


def wait_turn(page: Page | FramePage) -> str:
    state: str = page.wait_for_function(STATE_JS, timeout=60_000).json_value()
    return state


def enabled(page: Page | FramePage, action: str) -> bool:
    return bool(page.evaluate(
        "a => { const b = document.querySelector(`.actions [data-action=${a}]`);"
        " return !!b && !b.disabled && !b.hidden; }", action))


def playable(page: Page | FramePage) -> list[str]:
    cards: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#hand [data-card][data-playable=true]')].map(e => e.dataset.card)")
    return cards


def hand(page: Page | FramePage) -> list[str]:
    cards: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=hand] [data-card]')].map(e => e.dataset.card)")
    return cards


def targets(page: Page | FramePage) -> list[str]:
    found: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('#table [data-target=true], #hand [data-target=true]')].map(e =>"
        " e.dataset.attack ? 'attack:' + e.dataset.attack : e.dataset.drop ? 'zone:' + e.dataset.drop"
        " : 'hand:' + e.dataset.card)")
    return found


def click_target(page: Page | FramePage, key: str) -> None:
    kind, _, value = key.partition(":")
    if kind == "attack":
        page.click(f'[data-testid=table] [data-attack="{value}"]')
    elif kind == "zone":
        page.click(f'[data-testid=table] [data-drop="{value}"]')
    else:
        page.click(f'[data-testid=hand] [data-card="{value}"]', position=IN_STRIP)


class Player:
    """A clicking player: first playable card and first lit target, else pass or take.

    ``transfer``: transfer whenever the button allows it. ``sets``: in Prostoy, gather 3-card sets and
    defend partially (beat one card, then pick up the rest). Counts what it did so tests can check
    that the interesting moves happened.
    """

    def __init__(self, page: Page | FramePage, transfer: bool = False, sets: bool = False) -> None:
        self.page = frame_page(page)  # each click waits for its answer's frame (helpers.FramePage)
        self.transfer = transfer
        self.sets = sets
        self.done: dict[str, int] = {"transfer": 0, "set3": 0, "partial": 0, "card": 0, "target": 0,
                                     "pass": 0, "take": 0, "exchange": 0}

    def turn(self) -> None:
        page = self.page
        if self.transfer and enabled(page, "transfer"):
            page.click(".actions [data-action=transfer]")
            lit = targets(page)
            if lit:
                click_target(page, lit[0])
            self.done["transfer"] += 1
            return
        if self.sets and enabled(page, "take") and page.inner_text(".actions [data-action=take]") in (
                EN["btn_take_rest"], FR["btn_take_rest"]):
            page.click(".actions [data-action=take]")  # one card beaten: pick up the rest
            self.done["partial"] += 1
            return
        cards = playable(page)
        if cards:
            page.click(f'[data-testid=hand] [data-card="{cards[0]}"]', position=IN_STRIP)
            if self.sets:
                self._gather()
            if enabled(page, "play"):
                label = page.inner_text(".actions [data-action=play]")
                if re.search(r"\b3\b", label):
                    self.done["set3"] += 1
                page.click(".actions [data-action=play]")
                return
            lit = [key for key in targets(page) if not key.startswith("hand:")]
            if lit:
                click_target(page, lit[0])
                self.done["target"] += 1
                return
            self.done["card"] += 1
            return
        for action in ("pass", "take", "exchange"):
            if enabled(page, action):
                if action == "take" and page.inner_text(".actions [data-action=take]") in (
                        EN["btn_take_rest"], FR["btn_take_rest"]):
                    self.done["partial"] += 1
                page.click(f".actions [data-action={action}]")
                self.done[action] += 1
                return
        raise AssertionError("no move available:\n" + page.inner_text("body")[:800])

    def _gather(self) -> None:
        """Prostoy: add lit hand cards up to a set of 3, dropping cards until the set is legal."""
        page = self.page

        def selected() -> int:
            return int(page.locator("#hand [data-selected=true]").count())

        while selected() < 3:
            more = [key for key in targets(page) if key.startswith("hand:")]
            if not more:
                break
            click_target(page, more[0])
        while selected() > 1 and not enabled(page, "play"):
            page.click("#hand [data-selected=true] >> nth=-1", position=IN_STRIP)

    def game(self, max_turns: int = 400) -> None:
        for _ in range(max_turns):
            state = wait_turn(self.page)
            if state == "over":
                return
            if state == "cover":
                self.page.click("[data-action=reveal]")
                continue
            self.turn()
        raise AssertionError("the game did not end")


def game_over(page: Page) -> dict[str, Any]:
    panel = page.locator("[data-testid=game-over]")
    expect(panel).to_be_visible()
    return {"durak": panel.get_attribute("data-durak"), "draw": panel.get_attribute("data-draw"),
            "text": panel.inner_text()}


# ---------------------------------------------------------------------------- tests
def test_defaults_start_in_one_click_and_bad_rules_are_explained(
        page: Page, base_url: str, wait_ready: Callable[..., float]) -> None:
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    open_table(page, wait_ready, "?lang=en&speed=instant")
    dialog = page.locator("dialog#new-game")
    expect(page.locator("#welcome [data-action=quick-start]")).to_be_visible()  # a first visit: "Play"
    expect(dialog).to_be_hidden()
    page.click("#welcome [data-action=options]")  # and the whole dialog behind "Game options"
    expect(dialog).to_be_visible()
    expect(page.locator("#ng-summary")).to_contain_text("durak")
    page.select_option("select[name=players]", "6")
    page.select_option("select[name=deck]", "24")
    expect(page.locator("#ng-error")).to_contain_text("24-card deck allows at most 4 players")
    expect(page.locator("[data-action=start]")).to_be_disabled()
    shot(page, "new-game-invalid")
    page.select_option("select[name=deck]", "36")
    page.select_option("select[name=players]", "2")
    expect(page.locator("[data-action=start]")).to_be_enabled()
    shot(page, "new-game-dialog")
    page.click("[data-action=start]")
    expect(dialog).to_be_hidden()
    expect(page.locator("#welcome")).to_be_hidden()
    wait_turn(page)
    assert len(hand(page)) == 6
    assert page.locator("#opponents .seat").count() == 1
    assert page.locator("#opponents .seat-level").inner_text() == "normal"
    shot(page, "table-desktop")
    origin = "{0.scheme}://{0.netloc}".format(urlsplit(base_url))
    foreign = [url for url in requested if not url.startswith(("data:", "blob:")) and not url.startswith(origin)]
    assert not foreign


#: The pips' rack (web/shared/warm-pips.js): hidden from sight and from assistive technology, its suits,
#: and how many of its cards use their suit's two SVG pip images.
RACK_JS = r"""() => {
  const rack = document.querySelector('.pip-rack');
  if (!rack) return null;
  const style = getComputedStyle(rack);
  const masks = [...rack.querySelectorAll('.pips')].map((e) => getComputedStyle(e).maskImage);
  return { hidden: rack.getAttribute('aria-hidden'), visibility: style.visibility, width: rack.offsetWidth,
           suits: [...rack.querySelectorAll('.pips')].map((e) => e.dataset.suit).sort().join(''),
           svgMasks: masks.filter((m) => (m.match(/url\("data:image\/svg\+xml/g) || []).length === 2).length };
}"""


def test_the_pips_images_are_in_use_before_the_first_deal_in_a_rack_nobody_sees(
        page: Page, wait_ready: Callable[..., float]) -> None:
    open_table(page, wait_ready, "?lang=en&speed=instant")
    expect(page.locator("#hand [data-card]")).to_have_count(0)  # no card drawn yet
    page.wait_for_function("() => document.querySelectorAll('.pip-rack .pips').length === 4")
    rack = page.evaluate(RACK_JS)
    assert rack == {"hidden": "true", "visibility": "hidden", "width": 1, "suits": "CDHS", "svgMasks": 4}, rack
    expect(page.locator(".pip-rack")).not_to_be_visible()
    page.click("#welcome [data-action=quick-start]")
    expect(page.locator("#hand [data-card]").first).to_be_visible()
    assert page.evaluate("() => document.documentElement.scrollHeight <= innerHeight"), "the rack adds no scrolling"


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_full_podkidnoy_game_against_each_level(
        page: Page, wait_ready: Callable[..., float], level: str) -> None:
    open_table(page, wait_ready, f"?variant=podkidnoy&players=2&level={level}&seed=42&speed=instant")
    assert page.locator("#opponents .seat-level").inner_text() == level
    player = Player(page)
    player.game()
    over = game_over(page)
    assert over["durak"] in ("0", "1") or over["draw"] == "true"
    shot(page, f"game-over-{level}")
    if level == "easy":  # the series goes on: the loser deals, the score counts the game
        expect(page.locator("[data-testid=game-over] table.series")).to_contain_text("Games played: 1")
        page.click("[data-action=play-again]")
        expect(page.locator("[data-testid=game-over]")).to_have_count(0)
        wait_turn(page)
        assert len(hand(page)) == 6


def test_perevodnoy_game_with_a_transfer(page: Page, wait_ready: Callable[..., float]) -> None:
    open_table(page, wait_ready, "?variant=perevodnoy&players=2&level=normal&seed=4&speed=instant")
    expect(page.locator(".actions [data-action=transfer]")).to_be_visible()
    player = Player(page, transfer=True)
    for _ in range(3):  # the deal decides whether a transfer is possible; a series gives more deals
        player.game()
        if player.done["transfer"]:
            break
        page.click("[data-action=play-again]")
    assert player.done["transfer"] >= 1
    game_over(page)
    shot(page, "game-over-perevodnoy")


def test_prostoy_game_with_a_three_card_set_and_a_partial_defence(
        page: Page, wait_ready: Callable[..., float]) -> None:
    open_table(page, wait_ready, "?variant=prostoy&players=2&level=normal&seed=17&speed=instant")
    player = Player(page, sets=True)
    for _ in range(4):
        player.game()
        if player.done["set3"] and player.done["partial"]:
            break
        page.click("[data-action=play-again]")
    assert player.done["set3"] >= 1, player.done
    assert player.done["partial"] >= 1, player.done
    shot(page, "game-over-prostoy")


def test_four_players_everyone_throws_in(page: Page, wait_ready: Callable[..., float]) -> None:
    open_table(page, wait_ready, "?variant=podkidnoy&players=4&throw_in=everyone&level=easy&seed=9&speed=instant")
    assert page.locator("#opponents .seat").count() == 3
    wait_turn(page)
    shot(page, "table-four-players")
    Player(page).game()
    over = game_over(page)
    assert over["durak"] in ("0", "1", "2", "3") or over["draw"] == "true"
    assert page.locator("[data-testid=game-over] .exit-order li").count() >= 2 or over["draw"]
    shot(page, "game-over-four-players")


def test_two_versus_two_team_game(page: Page, wait_ready: Callable[..., float]) -> None:
    open_table(page, wait_ready, "?variant=podkidnoy&players=4&teams=2v2&level=easy&seed=5&speed=instant")
    badges = page.locator("#opponents .team-badge").all_inner_texts()
    assert badges == ["Team 2", "Team 1", "Team 2"]
    Player(page).game()
    over = game_over(page)
    assert "Team" in over["text"] or over["draw"] == "true"
    shot(page, "game-over-teams")


def test_pass_and_play_hides_the_other_hand(page: Page, wait_ready: Callable[..., float]) -> None:
    open_table(page, wait_ready, "?variant=podkidnoy&players=2&seats=human&seed=3&speed=instant")
    cover = page.locator("[data-testid=cover]")
    expect(cover).to_be_visible()
    assert hand(page) == []
    shot(page, "pass-and-play-cover")
    first_seat = cover.get_attribute("data-seat")
    FramePage(page).click("[data-action=reveal]")
    first = hand(page)
    assert len(first) == 6
    Player(page).turn()
    expect(cover).to_be_visible()
    assert cover.get_attribute("data-seat") != first_seat
    assert hand(page) == []
    FramePage(page).click("[data-action=reveal]")
    second = hand(page)
    assert len(second) >= 5 and not set(second) & set(first)


def test_hint_lights_a_legal_action_and_cards_can_be_dragged(
        page: Page, wait_ready: Callable[..., float]) -> None:
    open_table(page, wait_ready, "?variant=podkidnoy&players=2&level=easy&seed=5&speed=instant")
    wait_turn(page)
    page.click(".actions [data-action=hint]")
    lit = page.locator("[data-hint=true]")
    expect(lit.first).to_be_visible()
    expect(page.locator("#hint")).not_to_be_empty()
    cards = page.locator("#hand [data-hint=true]")
    if cards.count():
        assert cards.first.get_attribute("data-playable") == "true"
    else:
        assert page.locator(".actions [data-hint=true]").is_enabled()
    shot(page, "hint")
    # drag a playable card onto its place on the table
    wait_turn(page)
    card = playable(page)[0]
    before = page.locator("[data-testid=table] [data-attack]").count()
    zone = page.locator("[data-testid=table] [data-drop=table]")
    if zone.count() == 0:  # defending: drop on the attack card it beats
        zone = page.locator("[data-testid=table] [data-attack]:not([data-beaten-by])").first
    page.locator(f'[data-testid=hand] [data-card="{card}"]').drag_to(zone)
    expect(page.locator(f'[data-testid=hand] [data-card="{card}"]')).to_have_count(0)
    assert page.locator("[data-testid=table] [data-attack]").count() != before or page.locator(
        "#log li").count() > 1


def test_reload_resumes_the_same_position(page: Page, wait_ready: Callable[..., float]) -> None:
    open_table(page, wait_ready, "?variant=perevodnoy&players=3&level=normal&seed=12&speed=instant")
    player = Player(page)
    for _ in range(3):
        wait_turn(page)
        player.turn()
    wait_turn(page)
    position = page.evaluate("""() => ({
        hand: [...document.querySelectorAll('[data-testid=hand] [data-card]')].map(e => e.dataset.card),
        table: document.querySelector('[data-testid=table]').innerHTML.replace(/ fresh/g, ''),
        talon: document.querySelector('.talon').dataset.talon,
        seats: [...document.querySelectorAll('#opponents .seat-backs')].map(e => e.dataset.count)})""")
    page.reload()
    wait_ready(page)
    wait_turn(page)
    again = page.evaluate("""() => ({
        hand: [...document.querySelectorAll('[data-testid=hand] [data-card]')].map(e => e.dataset.card),
        table: document.querySelector('[data-testid=table]').innerHTML.replace(/ fresh/g, ''),
        talon: document.querySelector('.talon').dataset.talon,
        seats: [...document.querySelectorAll('#opponents .seat-backs')].map(e => e.dataset.count)})""")
    assert again == position
    expect(page.locator("[data-testid=notice]:visible")).to_have_count(0)  # a good save resumes silently
    # a game dealt from the dialog replaces the link's game: a reload resumes it, not the link's
    page.click("[data-action=new-game]")
    page.click("label.choice:has(input[value=prostoy])")
    FramePage(page).click("[data-action=start]")
    wait_turn(page)
    assert "variant=" not in page.url and "speed=instant" in page.url
    dealt = hand(page)
    page.reload()
    wait_ready(page)
    wait_turn(page)
    assert hand(page) == dealt and len(dealt) == 5


def test_a_corrupted_save_is_set_aside_with_a_notice(page: Page, wait_ready: Callable[..., float]) -> None:
    page.add_init_script("""
        if (!sessionStorage.getItem('seeded')) {
          sessionStorage.setItem('seeded', '1');
          localStorage.setItem('durak.save', '{"version": 1, "settings": {"variant": "podk');
        }""")
    open_table(page, wait_ready, "?lang=en&speed=instant")
    notice = page.locator("[data-testid=notice]:visible")
    expect(notice).to_contain_text("set aside")
    aside = page.evaluate("() => localStorage.getItem('durak.save.set-aside')")
    assert aside and aside.startswith('{"version": 1')
    shot(page, "corrupted-save")
    page.click("[data-action=start]")
    expect(page.locator("[data-testid=notice]:visible")).to_have_count(0)
    wait_turn(page)
    assert len(hand(page)) == 6


def test_language_switch_changes_every_visible_label(page: Page, wait_ready: Callable[..., float]) -> None:
    open_table(page, wait_ready, "?variant=perevodnoy&players=3&level=normal&seed=2&lang=en&speed=instant")
    wait_turn(page)
    labels_js = """() => [...document.querySelectorAll(
        '.bar .btn span, .actions .btn:not([hidden]), .status, .log-title, .seat-name, .seat-level, .mark,'
        + ' .trump-badge span, #log li, .zone span')]
        .filter(e => e.offsetParent !== null).map(e => e.textContent.trim()).filter(Boolean)"""
    english = page.evaluate(labels_js)
    aria_en = page.locator("[data-testid=hand] [data-card]").first.get_attribute("aria-label")
    FramePage(page).select_option("#lang-select", "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    french = page.evaluate(labels_js)
    assert len(french) == len(english)
    alike = {"normal"}  # the same word in both languages
    same = [(e, f) for e, f in zip(english, french, strict=True)
            if e == f and e not in alike and not re.fullmatch(r"[\d\W]*", e)]
    assert not same, same
    for key in ("btn_take", "btn_hint", "btn_transfer", "log"):
        assert FR[key] in french, key
    aria_fr = page.locator("[data-testid=hand] [data-card]").first.get_attribute("aria-label")
    assert aria_fr != aria_en and " de " in (aria_fr or "")
    assert json.loads(page.evaluate("() => localStorage.getItem('durak.prefs')"))["lang"] == "fr"
    shot(page, "language-fr")


def test_keyboard_only_play_of_a_round(page: Page, wait_ready: Callable[..., float]) -> None:
    open_table(page, wait_ready, "?variant=podkidnoy&players=2&level=easy&seed=21&speed=instant")

    def tab_to(selector: str, limit: int = 80) -> bool:
        for _ in range(limit):
            page.keyboard.press("Tab")
            if page.evaluate("s => !!document.activeElement && document.activeElement.matches(s)", selector):
                return True
        return False

    rounds = page.evaluate("() => document.querySelectorAll('#log li').length")
    assert rounds >= 1
    had_cards = False
    for _ in range(40):
        state = wait_turn(page)
        assert state == "turn"
        table_cards = page.locator("[data-testid=table] [data-attack]").count()
        if had_cards and table_cards == 0:
            break  # the round closed: all by keyboard
        had_cards = had_cards or table_cards > 0
        if playable(page):
            assert tab_to('#hand [data-playable="true"]')
            focused = page.evaluate("() => document.activeElement.dataset.card")
            page.keyboard.press("Enter")
            if page.locator('#table [data-target="true"]').count():
                assert page.evaluate("() => document.activeElement.dataset.target") == "true"
                page.keyboard.press("Enter")
            elif enabled(page, "play"):
                assert tab_to('.actions [data-action="play"]')
                page.keyboard.press("Enter")
            expect(page.locator(f'[data-testid=hand] [data-card="{focused}"]')).to_have_count(0)
            had_cards = True
        else:
            action = "pass" if enabled(page, "pass") else "take"
            assert tab_to(f'.actions [data-action="{action}"]')
            page.keyboard.press("Enter")
        page.wait_for_timeout(50)
    else:
        raise AssertionError("no round closed")
    shot(page, "keyboard-round")


def test_phone_portrait_has_no_horizontal_scroll_and_big_targets(
        page: Page, wait_ready: Callable[..., float]) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    open_table(page, wait_ready, "?variant=perevodnoy&players=4&level=easy&seed=9&speed=instant")
    wait_turn(page)
    no_scroll = "() => document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    assert page.evaluate(no_scroll)
    shot(page, "phone-table")
    small = page.evaluate("""() => [...document.querySelectorAll('button, select, [role=button]')]
        .filter(e => e.offsetParent !== null && !e.closest('dialog'))
        .map(e => [e.dataset.action || e.dataset.card || e.id, e.getBoundingClientRect()])
        .filter(([n, r]) => r.height < 40 || r.width < 40).map(([n]) => n)""")
    assert not small, small
    steps = page.evaluate("""() => { const r = [...document.querySelectorAll('#hand [data-card]')]
        .map(e => e.getBoundingClientRect()); const out = [];
        for (let i = 1; i < r.length; i++) if (Math.abs(r[i].top - r[i-1].top) < 2) out.push(r[i].left - r[i-1].left);
        return out; }""")
    assert all(step >= 39.5 for step in steps), steps
    Player(page).game()
    assert page.evaluate(no_scroll)
    shot(page, "phone-game-over")
    page.set_viewport_size({"width": 1280, "height": 800})  # the table follows its container
    assert page.evaluate(no_scroll)


def test_short_screens_show_the_whole_hand_without_scrolling(
        page: Page, wait_ready: Callable[..., float]) -> None:
    """A 1366x768 laptop leaves the page about 625 px: the cards shrink with the height so that the
    hand and the buttons are in view, and grow back on a taller screen. A phone on its side puts the
    hand beside the table."""
    page.set_viewport_size({"width": 1366, "height": 625})
    open_table(page, wait_ready, "?variant=podkidnoy&players=4&level=easy&seed=5&speed=instant")
    wait_turn(page)
    in_view = """() => [...document.querySelectorAll('#hand [data-card], .actions .btn:not([hidden])')]
        .map(e => e.getBoundingClientRect()).every(r => r.bottom <= innerHeight && r.top >= 0)"""
    card_width = "() => document.querySelector('#hand [data-card]').getBoundingClientRect().width"
    sizes = {}
    for width, height in ((1366, 625), (1280, 620), (1024, 600), (1440, 900), (844, 390), (667, 375)):
        page.set_viewport_size({"width": width, "height": height})
        assert page.evaluate("() => scrollY") == 0
        assert page.evaluate(in_view), (width, height)
        sizes[height] = page.evaluate(card_width)
    assert sizes[900] > sizes[625] >= 60, sizes  # big cards where there is room, still readable on laptops
    assert min(sizes.values()) >= 44, sizes
    beside = """() => document.querySelector('#hand').getBoundingClientRect().left
        >= document.querySelector('#felt').getBoundingClientRect().right"""
    assert page.evaluate(beside)
    expect(page.get_by_role("button", name="New game")).to_be_visible()  # icon only, still named
    shot(page, "phone-landscape")
    Player(page).game()  # played to the end on the phone's side
    assert page.evaluate("() => document.documentElement.scrollWidth <= document.documentElement.clientWidth")


def test_url_parameters_open_that_game(page: Page, wait_ready: Callable[..., float]) -> None:
    open_table(page, wait_ready,
               "?variant=perevodnoy&players=3&level=hard&seed=9&lang=fr&deck=52&exchange=on&speed=instant")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    assert page.locator("#opponents .seat").count() == 2
    assert page.locator("#opponents .seat-level").all_inner_texts() == ["difficile", "difficile"]
    expect(page.locator(".actions [data-action=transfer]")).to_be_visible()
    expect(page.locator(".actions [data-action=exchange]")).to_be_visible()
    wait_turn(page)
    talon = int(page.locator(".talon").get_attribute("data-talon") or 0)
    assert 52 - 18 - 10 <= talon <= 52 - 18
    expect(page.locator(".status")).not_to_be_empty()
    shot(page, "url-params-fr")
