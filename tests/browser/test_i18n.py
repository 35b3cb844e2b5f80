"""The page in Russian, in Debian's Chromium: a game, the new-game dialog, a hint, refusals, the game-over
screen and the update notice show no English word (checked against the English catalogue's words); the
cards are named in Russian; a Russian browser gets Russian on a first visit; switching the language keeps
the position and the open dialog; in every language the new-game dialog's selects show each option whole."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from .conftest import PageErrors
from .helpers import ROOT, TURN_JS, FramePage, build_sw, click_a_move, rebuild
from .test_a11y import serious

ARTIFACTS = ROOT / "artifacts"
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from web.shared.i18n import CATALOGUES, LANGUAGE_NAMES, t  # noqa: E402

#: Latin words a Russian page may show: the game's name, language names in their own language.
ALLOWED = {"Durak", "MIT", *(word for name in LANGUAGE_NAMES.values() for word in name.split())}
ENGLISH_WORDS = {word.lower() for text in CATALOGUES["en"].values() for word in re.findall(r"[A-Za-z]{2,}", text)}
GAME = "?variant=podkidnoy&players=2&level=easy&seed=11&speed=instant"

VISIBLE_TEXT_JS = """(root) => {
  const scope = root ? document.querySelector(root) : document.body;
  const out = [];
  const walker = document.createTreeWalker(scope, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!el || el.closest('script, style')) continue;
    const option = el.closest('option');
    if (option && !option.selected) continue;
    if (!el.checkVisibility()) continue;
    out.push(walker.currentNode.textContent);
  }
  for (const el of scope.querySelectorAll('[aria-label], [title]')) {
    if (el.checkVisibility()) out.push(el.getAttribute('aria-label') || '', el.getAttribute('title') || '');
  }
  return out.join(' ');
}"""


@pytest.fixture(scope="module", autouse=True)
def current_build() -> Iterator[None]:
    rebuild()
    yield


def english_in(page: Page, root: str | None = None, quoted: tuple[str, ...] = ()) -> list[str]:
    """The English words among the visible text (and accessible names) of ``root`` (the whole page), but
    for ``quoted`` text the page repeats from the player's own input (a link's parameters)."""
    text: str = page.evaluate(VISIBLE_TEXT_JS, root)
    for item in quoted:
        text = text.replace(item, " ")
    return [word for word in re.findall(r"[A-Za-z]{2,}", text)
            if word.lower() in ENGLISH_WORDS and word not in ALLOWED]


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def wait_turn(page: Page) -> str:
    state: str = page.wait_for_function(TURN_JS, timeout=60_000).json_value()
    return state


@pytest.mark.warm  # the boot is not the subject
def test_a_russian_game_dialog_hint_and_game_over_show_no_english(
        page: Page, wait_ready: Callable[..., float]) -> None:
    page.goto("index.html" + GAME + "&lang=ru")
    wait_ready(page)
    wait_turn(page)
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    assert english_in(page) == []
    names = page.eval_on_selector_all("[data-testid=hand] [data-card]", "els => els.map(e => e.ariaLabel)")
    assert names and all(re.fullmatch(r"(\d+|[ВДКТ])[♠♥♦♣], [а-яё]+ (пик|червей|бубен|треф)", n) for n in names), names
    expect(page.locator("#speed-select option:checked")).to_have_text("Скорость: мгновенно".replace("м", "М", 1))
    shot(page, "language-ru")

    page.click("[data-action=hint]")
    expect(page.locator("#hint")).to_contain_text("Подсказка: ")
    assert english_in(page) == [], page.inner_text("#hint")
    shot(page, "hint-ru")

    page.click("[data-action=new-game]")
    dialog = page.locator("dialog#new-game")
    expect(dialog).to_be_visible()
    page.locator("details.summary summary").click()
    assert english_in(page, "dialog#new-game") == []
    expect(page.locator("select[name=first_attack]")).to_be_visible()
    shot(page, "new-game-dialog-ru")
    page.click("[data-action=close-dialog]")

    for _ in range(300):
        if wait_turn(page) == "over":
            break
        assert click_a_move(page)
    panel = page.locator("[data-testid=game-over]")
    expect(panel).to_be_visible()
    assert english_in(page) == [], panel.inner_text()
    assert page.locator("#log li").count() > 0
    shot(page, "game-over-ru")


@pytest.mark.warm  # the boot is not the subject
def test_refusals_are_said_in_russian(page: Page, wait_ready: Callable[..., float]) -> None:
    page.goto("index.html?lang=ru&speed=instant&players=6&deck=24&colour=red&seed=x")
    wait_ready(page)
    notice = page.locator("[data-testid=notice]:visible")
    expect(notice).to_contain_text("колода из 24 карт позволяет не больше 4 игроков")
    expect(notice).to_contain_text("Часть настроек из ссылки пропущена: seed=x")
    assert english_in(page, quoted=("seed=x",)) == []
    dialog = page.locator("dialog#new-game")
    page.select_option("select[name=players]", "6")
    page.select_option("select[name=deck]", "24")
    expect(page.locator("#ng-error")).to_contain_text("не больше 4 игроков")
    assert english_in(page, "dialog#new-game", quoted=("seed=x",)) == []
    expect(dialog).to_be_visible()


def test_a_russian_browser_gets_russian_on_a_first_visit(
        browser: Browser, base_url: str, page_errors: PageErrors, wait_ready: Callable[..., float]) -> None:
    context = browser.new_context(locale="ru-RU", base_url=base_url)
    try:
        page = context.new_page()
        page_errors.watch(page)
        page.goto("index.html?speed=instant")
        wait_ready(page)
        expect(page.locator("html")).to_have_attribute("lang", "ru")
        expect(page.locator("#ng-title")).to_have_text("Новая игра")
        expect(page.locator("#lang-select")).to_have_value("ru")
        assert english_in(page) == []
    finally:
        context.close()


def test_the_page_speaks_russian_before_python_runs(browser: Browser, base_url: str) -> None:
    """The static table (buttons, menus, regions' names, the title) is in the reader's language from the
    first frame, and accessible: on a phone Python takes many seconds to start."""
    context = browser.new_context(locale="ru-RU", base_url=base_url)
    try:
        page = context.new_page()
        page.route("**/web/vendor/**", lambda route: None)  # Pyodide and PyScript never arrive
        page.goto("index.html", wait_until="commit")  # its module scripts never load: no DOMContentLoaded
        expect(page.locator("html")).to_have_attribute("lang", "ru")
        assert page.evaluate("document.body.dataset.state") == "loading"
        expect(page.locator("[data-action=new-game]")).to_have_text(t("ru", "btn_new_game"))
        expect(page.locator("#speed-select option:checked")).to_have_text(
            t("ru", "speed_option", speed=t("ru", "speed_normal")))
        expect(page.locator(".dock")).to_have_attribute("aria-label", t("ru", "actions"))
        assert page.title() == f"{t('ru', 'title')} — {t('ru', 'tagline')}"
        assert english_in(page) == []
        expect(page.get_by_role("progressbar", name=t("ru", "loading"))).to_be_visible()
        assert serious(page) == []  # the loading screen too: its progress bar is named
    finally:
        context.close()


def _position(page: Page) -> dict[str, object]:
    return page.evaluate("""() => ({
      hand: [...document.querySelectorAll('[data-testid=hand] [data-card]')].map(e => e.dataset.card),
      table: [...document.querySelectorAll('[data-testid=table] [data-attack]')]
        .map(e => [e.dataset.attack, e.dataset.beatenBy || null]),
      log: document.querySelectorAll('#log li').length,
      talon: document.querySelector('[data-talon]')?.dataset.talon,
    })""")


@pytest.mark.warm  # the boot is not the subject
def test_switching_the_language_mid_game_keeps_the_position_and_the_open_dialog(
        page: Page, wait_ready: Callable[..., float]) -> None:
    page.goto("index.html" + GAME + "&lang=en")
    wait_ready(page)
    wait_turn(page)
    assert click_a_move(page)
    wait_turn(page)
    before = _position(page)
    log_en = page.inner_text("#log")
    FramePage(page).select_option("#lang-select", "ru")  # the worker's frame in Russian drawn
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator("[data-action=take]")).to_have_text("Беру")
    assert _position(page) == before
    assert page.inner_text("#log") != log_en and english_in(page, "#log") == []
    page.click("[data-action=new-game]")
    dialog = page.locator("dialog#new-game")
    expect(dialog).to_be_visible()
    page.select_option("#ng-lang", "fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#ng-title")).to_have_text("Nouvelle partie")
    expect(dialog).to_be_visible()
    page.click("[data-action=close-dialog]")
    assert _position(page) == before
    expect(page.locator("#lang-select")).to_have_value("fr")


def test_the_update_notice_is_in_russian(
        page: Page, site_copy: tuple[Path, str], wait_ready: Callable[..., float]) -> None:
    site, url = site_copy
    page.goto(url + "index.html" + GAME + "&lang=ru")
    wait_ready(page)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
    with (site / "web" / "table" / "style.css").open("a", encoding="utf-8") as css:
        css.write("\n/* release 2 */\n")
    build_sw.build(site)
    page.reload()
    wait_ready(page)
    notice = page.locator("[data-testid=update]")
    expect(notice).to_be_visible(timeout=60_000)
    expect(notice).to_contain_text("Вышла новая версия.")
    expect(notice.locator("[data-action=reload-update]")).to_have_text("Обновить")
    assert english_in(page, "[data-testid=update]") == []
    assert english_in(page) == []


#: What a closed select needs beside its option's text: Chromium draws its arrow in about this much.
SELECT_ARROW_PX = 20
CUT_OPTIONS_JS = """(arrow) => {
  const context = document.createElement("canvas").getContext("2d");
  const cut = [];
  for (const select of document.querySelectorAll("#ng-form select")) {
    if (!select.checkVisibility()) continue;
    const style = getComputedStyle(select);
    context.font = style.font;
    const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - arrow;
    for (const option of select.options) {
      const width = context.measureText(option.text).width;
      const name = select.name || select.id;
      if (width > room) cut.push(`${name}: "${option.text}" needs ${Math.ceil(width)} px of ${room}`);
    }
  }
  return cut;
}"""


@pytest.mark.parametrize("lang", sorted(CATALOGUES))
def test_the_new_game_dialog_shows_every_option_whole_in_each_language(browser: Browser, base_url: str,
                                                                        lang: str) -> None:
    """A closed select shows one line: an option wider than its select is cut ("Voisins du déf…", "Сосед
    проигравше…"). The dialog's grid gives each select the room of its longest option, at a phone's width,
    a tablet's and a desktop's."""
    for width, height in ((360, 740), (600, 800), (1280, 800)):
        page = browser.new_page(viewport={"width": width, "height": height})
        try:
            page.goto(f"{base_url}index.html?lang={lang}")  # a first visit: "Play", the dialog behind "Game options"
            page.click("#welcome [data-action=options]")
            expect(page.locator("#ng-form select[name=throw_in]")).to_be_visible()
            assert page.evaluate(CUT_OPTIONS_JS, SELECT_ARROW_PX) == [], f"{lang} at {width} px"
        finally:
            page.close()
