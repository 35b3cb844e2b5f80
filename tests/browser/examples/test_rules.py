"""The rules pages in Chromium: every worked example steps to its end in every language showing the engine's
state at each step, with Pyodide blocked too; "try it yourself" explains a refused card in the page's language
and the AI answers a legal one; the odds; no sideways scroll at 360 px; the language switch keeps the place;
axe-core and the contrast check find nothing serious.

Pages open with ?engine=on-demand (Pyodide boots only on "try it") except where a test says otherwise, so the
stepping tests never wait for Python. One Pyodide boot serves all the try-it checks.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Locator, Page, Route, expect

from durak import Game, IllegalAction
from durak.record import Record, load_examples
from tests.browser.conftest import PageErrors
from tests.browser.helpers import CONTROLLED_JS, ROOT, build_rules, rebuild
from web.examples.frames import seat_names
from web.examples.narration import refusal
from web.shared.i18n import LANGS, capitalised, say, translate_comment

RECORDS: dict[str, Record] = load_examples(ROOT / "rules" / "examples")
PAGES = {game: sorted(i for i, page in build_rules.EXAMPLE_PAGES.items() if page == game) for game in build_rules.GAMES}
CONTRAST_JS = (Path(__file__).parents[1] / "contrast.js").read_text(encoding="utf-8")
AXE_JS = ROOT / "node_modules" / "axe-core" / "axe.min.js"
TRY_TIMEOUT_MS = 90_000  # a cold Pyodide boot on two busy cores
#: Each running "pulse" animation as [the pseudo-element it animates, the properties its keyframes set].
PULSES_JS = """() => document.getAnimations().filter((a) => a.animationName === "pulse").map((a) => [
  a.effect.pseudoElement, [...new Set(a.effect.getKeyframes().flatMap((k) => Object.keys(k)))]
    .filter((name) => !["offset", "computedOffset", "easing", "composite"].includes(name))])"""

SHOWN_JS = """(root) => ({
  step: Number(root.dataset.step),
  steps: Number(root.dataset.steps),
  hands: [...root.querySelectorAll('[data-seat]')]
    .map(s => [...s.querySelectorAll('[data-card]')].map(c => c.dataset.card)),
  table: [...root.querySelectorAll('[data-attack]')].map(a => [a.dataset.attack, a.dataset.beatenBy || null]),
  comment: root.querySelector('[data-testid=comment]').textContent,
  cards: root.querySelectorAll('[data-card]').length,
})"""


def states(record: Record) -> list[Game]:
    """The engine's game at every step of the record, replayed here."""
    game = record.start(Game)
    out = [game.copy()]
    for move in record.moves:
        game.apply(move.seat, move.action)
        out.append(game.copy())
    return out


def check_step(example: Locator, game: Game, step: int, lang: str, record: Record) -> None:
    shown = example.evaluate(SHOWN_JS)
    where = f"{example.get_attribute('data-example')} step {step} ({lang})"
    assert shown["step"] == step, where
    assert shown["hands"] == [sorted_hand(game, seat) for seat in range(game.players)], where
    assert shown["table"] == [[str(a), None if d is None else str(d)] for a, d in game.table], where
    assert shown["cards"] == sum(len(h) for h in shown["hands"]), f"{where}: cards outside the seats"
    assert shown["comment"] == translate_comment(lang, record.comments[step]), where


def sorted_hand(game: Game, seat: int) -> list[str]:
    return game.open_view()["hands"][seat]


def open_rules(page: Page, lang: str, game: str, query: str = "?engine=on-demand") -> None:
    page.goto(f"rules/{lang}/{game}.html{query}")
    expect(page.locator("body")).to_have_attribute("data-state", "ready")


@pytest.mark.parametrize("lang", LANGS)
def test_every_example_steps_to_its_end_showing_the_engine_state(page: Page, lang: str) -> None:
    for game_name, ids in PAGES.items():
        open_rules(page, lang, game_name)
        for example_id in ids:
            record = RECORDS[example_id]
            games = states(record)
            example = page.locator(f'[data-example="{example_id}"]')
            expect(example).to_have_attribute("data-steps", str(len(games)))
            check_step(example, games[0], 0, lang, record)
            for step in range(1, len(games)):
                example.locator("[data-control=next]").click()
                check_step(example, games[step], step, lang, record)
            expect(example.locator("[data-control=next]")).to_be_disabled()
            example.locator("[data-control=first]").click()
            check_step(example, games[0], 0, lang, record)
            example.locator("[data-control=last]").click()
            check_step(example, games[-1], len(games) - 1, lang, record)
            example.locator("[data-control=prev]").click()
            check_step(example, games[-2], len(games) - 2, lang, record)


@pytest.fixture
def blocked_page(browser: Browser, base_url: str, page_errors: PageErrors) -> Iterator[Page]:
    """A page whose requests for Pyodide's files fail. Service workers are blocked in its context, so every
    request meets the route (a worker's cache would answer first)."""
    page_errors.allow(r"pyodide|Failed to load resource|net::ERR_FAILED|dynamically imported module|PythonError")

    def refuse(route: Route) -> None:
        route.abort()

    context = browser.new_context(base_url=base_url, service_workers="block", viewport={"width": 1280, "height": 800})
    context.route("**/web/vendor/pyodide/**", refuse)
    page = context.new_page()
    page_errors.watch(page)
    yield page
    context.close()


def test_every_example_steps_with_pyodide_blocked(blocked_page: Page) -> None:
    """The engine boots in idle time here (no ?engine=on-demand) and fails: stepping never notices."""
    page = blocked_page
    lang = LANGS[-1]
    for game_name, ids in PAGES.items():
        open_rules(page, lang, game_name, query="")
        for example_id in ids:
            record = RECORDS[example_id]
            games = states(record)
            example = page.locator(f'[data-example="{example_id}"]')
            example.locator("[data-control=next]").focus()
            for step in range(1, len(games)):
                page.keyboard.press("ArrowRight")
                check_step(example, games[step], step, lang, record)
            page.keyboard.press("Home")
            check_step(example, games[0], 0, lang, record)
    open_rules(page, lang, "podkidnoy", query="")
    expect(page.locator("body")).to_have_attribute("data-engine", "failed", timeout=TRY_TIMEOUT_MS)
    example = page.locator('[data-example="podkidnoy-limit-take"]')
    example.locator("[data-control=try]").click()
    expect(example).to_have_attribute("data-try", "failed")
    example.locator("[data-control=next]").click()
    check_step(example, states(RECORDS["podkidnoy-limit-take"])[1], 1, lang, RECORDS["podkidnoy-limit-take"])


def go_to(example: Locator, step: int) -> None:
    if example.get_attribute("data-step") != "0":
        example.locator("[data-control=first]").click()
    for _ in range(step):
        example.locator("[data-control=next]").click()
    expect(example).to_have_attribute("data-step", str(step))


def expected_refusal(lang: str, record: Record, step: int, seat: int, action: str) -> str:
    game = states(record)[step]
    with pytest.raises(IllegalAction) as refused:
        game.apply(seat, action)
    names = seat_names(dict(record.header), lang, game.players)
    return refusal(lang, refused.value, names)


def test_try_it_refuses_an_illegal_card_in_french_and_the_ai_answers_a_legal_one(page: Page) -> None:
    lang = "fr"
    open_rules(page, lang, "podkidnoy")
    record = RECORDS["podkidnoy-limit-take"]
    example = page.locator('[data-example="podkidnoy-limit-take"]')
    go_to(example, 6)  # seat 1 has taken; 8♣ matches an eight, but the limit of three is reached
    example.locator("[data-control=try]").click()
    expect(example).to_have_attribute("data-try", "ready", timeout=TRY_TIMEOUT_MS)
    expect(example.locator("[data-seat='0'] button[data-card]")).to_have_count(2)  # the player to act: clickable
    example.locator("[data-seat='0'] [data-card='8C']").click()
    refusal_box = example.locator("[data-testid=refusal]")
    expect(refusal_box).to_be_visible()
    wanted = expected_refusal(lang, record, 6, 0, "attack 8C")
    expect(refusal_box).to_contain_text(wanted)
    assert "limite" in wanted and "cannot" not in wanted  # French, from the refusal's code
    expect(example.locator("[data-seat='1'] [data-card]")).to_have_count(1)  # the refusal changed nothing
    expect(example.locator("[data-attack]")).to_have_count(3)

    # the odds of the moves seat 0 has here: passing is the only legal one
    example.locator("[data-control=odds]").click()
    expect(example).to_have_attribute("data-odds", "ready", timeout=30_000)
    expect(example.locator(".ex-odds-list li")).to_have_count(1)
    expect(example.locator(".ex-odds-list li[data-move='pass']")).to_contain_text("%")
    example.locator("[data-control=odds]").click()

    # a legal move: seat 0 passes, seat 1 picks up, and the play goes on with the reader's seat again
    example.locator(".ex-actions [data-action=pass]").click()
    expect(example.locator("[data-seat='1'] [data-card]")).to_have_count(6)
    expect(example.locator(".ex-said")).to_contain_text("ramasse")
    expect(example.locator("[data-seat='0'] button[data-card]")).to_have_count(2)  # seat 0 attacks again
    example.locator("[data-seat='0'] [data-card]").first.click()  # any card leads: the AI answers
    expect(example.locator(".ex-said")).not_to_have_text("")
    expect(example.locator("[data-seat='0'] button[data-card]").first).to_be_visible(timeout=15_000)

    example.locator("[data-control=back]").click()
    expect(example).not_to_have_attribute("data-try", "ready")
    check_step(example, states(record)[6], 6, lang, record)

    # another example on the page: the refused transfer of Perevodnoy's page, with the engine already up
    open_rules(page, lang, "perevodnoy")
    record = RECORDS["perevodnoy-transfer-refused"]
    example = page.locator('[data-example="perevodnoy-transfer-refused"]')
    example.locator("[data-control=last]").click()
    example.locator("[data-control=try]").click()
    expect(example).to_have_attribute("data-try", "ready", timeout=TRY_TIMEOUT_MS)
    example.locator("[data-seat='3'] [data-card='9S']").click()  # a trump: it may beat any of the nines
    expect(example.locator(".ex-table [data-target=true]")).to_have_count(3)
    # each lit target pulses by the opacity of its ring (::before), which the compositor runs: an animated
    # outline colour repainted the page at every frame while the reader chose
    assert page.evaluate(PULSES_JS) == [["::before", ["opacity"]]] * 3
    example.locator(".ex-actions [data-action=transfer]").click()  # ... but not be passed on to seat 0
    expect(example.locator("[data-testid=refusal]")).to_contain_text(
        expected_refusal(lang, record, len(record.moves), 3, "transfer 9S"))


def test_no_sideways_scroll_on_a_phone(page: Page) -> None:
    page.set_viewport_size({"width": 360, "height": 740})
    overflow = """() => [Math.max(0, document.documentElement.scrollWidth - document.documentElement.clientWidth),
      [...document.querySelectorAll('body *')].filter(e => e.getClientRects().length &&
        e.getBoundingClientRect().right > document.documentElement.clientWidth + 0.5)
        .map(e => e.tagName + '.' + e.className)]"""
    for lang in LANGS:
        for game_name in build_rules.GAMES:
            open_rules(page, lang, game_name)
            example = page.locator("[data-example]").first
            example.locator("[data-control=last]").click()  # the fullest table of the example
            assert page.evaluate(overflow) == [0, []], (lang, game_name)
    page.goto("rules/index.html")
    assert page.evaluate(overflow) == [0, []]


def test_a_card_size_is_computed_once_on_its_example_and_inherited_in_pixels(page: Page) -> None:
    # --cw and --ch are registered lengths on the rules pages: unregistered, each sized piece of every card
    # resolved the example's cqi again, most of the page's blocking time while the examples were drawn
    open_rules(page, "en", "podkidnoy")
    cw, ch, width = page.evaluate("""() => {
      const card = document.querySelector('[data-example] .card');
      const style = getComputedStyle(card);
      return [style.getPropertyValue('--cw'), style.getPropertyValue('--ch'), card.getBoundingClientRect().width];
    }""")
    assert re.fullmatch(r"\d+(\.\d+)?px", cw) and re.fullmatch(r"\d+(\.\d+)?px", ch), (cw, ch)
    assert abs(float(cw[:-2]) - width) < 0.5 and abs(float(ch[:-2]) / float(cw[:-2]) - 1.4) < 0.01, (cw, ch, width)


def test_the_language_switch_keeps_the_section_and_the_step(page: Page) -> None:
    open_rules(page, "en", "podkidnoy")
    example = page.locator('[data-example="podkidnoy-limit-take"]')
    go_to(example, 3)
    page.locator("#limit").scroll_into_view_if_needed()
    page.evaluate("() => window.scrollBy(0, 40)")
    other = LANGS[-1]
    page.locator(f'.rules-langs a[hreflang="{other}"]').click()
    page.wait_for_url(re.compile(rf"/rules/{other}/podkidnoy\.html\?step=podkidnoy-limit-take:3#limit$"))
    expect(page.locator("html")).to_have_attribute("lang", other)
    example = page.locator('[data-example="podkidnoy-limit-take"]')
    expect(example).to_have_attribute("data-step", "3")
    assert example.locator("[data-testid=comment]").text_content() == \
        translate_comment(other, RECORDS["podkidnoy-limit-take"].comments[3])
    top = page.evaluate("() => document.getElementById('limit').getBoundingClientRect().top")
    assert abs(top) < 120  # the reader is at the same section


def axe_violations(page: Page) -> list[str]:
    page.add_script_tag(path=str(AXE_JS))
    found: list[dict[str, object]] = page.evaluate(
        "async () => (await axe.run(document, {resultTypes: ['violations']})).violations"
        ".map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.map(n => n.target.join(' ')).slice(0, 3)}))")
    return [f"{v['id']} ({v['impact']}): {v['nodes']}" for v in found if v["impact"] in ("serious", "critical")]


def test_axe_and_contrast_find_nothing_serious(page: Page) -> None:
    for lang, game_name in (("en", "podkidnoy"), ("fr", "prostoy"), (LANGS[-1], "perevodnoy")):
        open_rules(page, lang, game_name)
        page.locator("[data-example] [data-control=next]").first.click()
        assert axe_violations(page) == [], (lang, game_name)
        assert page.evaluate(CONTRAST_JS, "body") == [], (lang, game_name)
    page.goto("rules/index.html")
    assert axe_violations(page) == []
    assert page.evaluate(CONTRAST_JS, "body") == []
    page.set_viewport_size({"width": 360, "height": 740})  # a phone: the bar shows the brand's suit alone
    open_rules(page, "en", "podkidnoy")
    page.wait_for_function("document.body.dataset.examplesDrawn === 'true'")  # the examples below drawn too
    assert axe_violations(page) == []


def test_each_step_is_announced_and_a_swipe_steps(page: Page) -> None:
    """The comment sits in a polite live region that also says the step, so a screen reader reads each step;
    a sideways swipe on the board steps too; a card is named by what it shows, then in words."""
    open_rules(page, "en", "prostoy")
    example = page.locator('[data-example="prostoy-partial-defence"]')
    live = example.locator("[aria-live=polite]").first
    expect(live.locator("[data-testid=comment]")).to_have_count(1)
    example.locator("[data-control=next]").click()
    expect(live).to_contain_text("Step 2 of 5")
    expect(live).to_contain_text(RECORDS["prostoy-partial-defence"].comments[1])
    swipe = """(board) => {
      const at = (type, x) => board.dispatchEvent(new PointerEvent(type,
        {bubbles: true, pointerType: 'touch', clientX: x, clientY: 100}));
      at('pointerdown', 300); at('pointerup', 200); }"""
    example.locator(".ex-board").evaluate(swipe)  # a swipe to the left: the next step
    expect(example).to_have_attribute("data-step", "2")
    name = example.locator("[data-seat='0'] [data-card]").first.get_attribute("aria-label") or ""
    assert re.fullmatch(r"(10|[2-9JQKA])[♠♥♦♣], \w+ of \w+", name), name  # the visible text, then the name


def test_a_rules_page_works_offline_after_one_visit_from_a_sub_path(context: BrowserContext, subpath_url: str) -> None:
    rebuild()  # the worker installs only if every file still has the hash sw.js names (others edit files too)
    page = context.new_page()
    requests: list[str] = []
    context.on("request", lambda request: requests.append(request.url))
    page.goto(subpath_url + "rules/fr/prostoy.html?engine=on-demand")
    expect(page.locator("body")).to_have_attribute("data-state", "ready")
    page.wait_for_function(CONTROLLED_JS, timeout=90_000)  # the service worker has precached the site
    assert [url for url in requests if not url.startswith(subpath_url)] == []
    context.set_offline(True)
    page.reload()
    expect(page.locator("body")).to_have_attribute("data-state", "ready")
    record = RECORDS["prostoy-partial-defence"]
    example = page.locator('[data-example="prostoy-partial-defence"]')
    example.locator("[data-control=last]").click()
    check_step(example, states(record)[-1], len(record.moves), "fr", record)
    page.goto(subpath_url + "rules/index.html")  # another page, never opened before
    expect(page.locator(".game-cards a")).to_have_count(3 * len(LANGS))


@pytest.mark.parametrize("lang", LANGS)
def test_the_cheat_mode_example_steps_to_its_end_and_says_each_accusation_s_outcome(page: Page, lang: str) -> None:
    """Podkidnoy's cheat-mode section: West's cheat is caught (he takes the table), then his wrong accusation
    of a fair card makes him take it again; each outcome is said in the page's language, the table cleared."""
    example_id = "podkidnoy-cheat-caught"
    record = RECORDS[example_id]
    games = states(record)
    names = seat_names(dict(record.header), lang, games[0].players)
    open_rules(page, lang, "podkidnoy")
    section = page.locator("section#cheat-mode")
    expect(section.locator("h2")).to_be_visible()
    example = section.locator(f'[data-example="{example_id}"]')
    expect(example).to_have_attribute("data-steps", str(len(games)))
    link = section.locator("a.play-option").first
    assert "cheating=on" in (link.get_attribute("href") or "")
    outcomes = {3: ("event.caught", {"seat": 2, "target": 1, "card": "7H"}),
                6: ("event.wrong", {"seat": 1, "target": 0, "card": "QD"})}
    for step in range(1, len(games)):
        example.locator("[data-control=next]").click()
        check_step(example, games[step], step, lang, record)
        said = example.locator(".ex-said")
        if step in outcomes:
            code, params = outcomes[step]
            expect(said).to_contain_text(capitalised(say(lang, {"code": code, "params": params}, names)))
            assert example.locator("[data-attack]").count() == 0
            assert len(games[step].hands[1]) == (5 if step == 3 else 7)  # West took the table
    expect(example.locator("[data-control=next]")).to_be_disabled()
    if lang == "en":
        section.scroll_into_view_if_needed()
        example.scroll_into_view_if_needed()
        page.screenshot(path=str(ROOT / "artifacts" / "rules-cheat-en.png"))
