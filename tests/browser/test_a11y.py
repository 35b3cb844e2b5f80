"""axe-core (node_modules/axe-core, pinned in package.json) finds no serious or critical violation on the
table, a hint, the new-game dialog and the game-over screen, in every language. The WCAG 2.5.3 "label in
name" rule (label-content-name-mismatch, experimental in axe, so off by default) is switched on: a card
button must be named by what it shows ("7♥, seven of hearts")."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from .helpers import ROOT, TURN_JS, click_a_move, rebuild

if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
from web.shared.i18n import LANGS

pytestmark = pytest.mark.warm  # the boot is not the subject: a returning visitor's loads

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
AXE_RUN_JS = """async () => {
  const result = await axe.run(document, {
    rules: { 'label-content-name-mismatch': { enabled: true } },
    resultTypes: ['violations'],
  });
  return result.violations.map(v => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 3).map(n => n.target.join(' ') + ': ' + n.failureSummary),
  }));
}"""


@pytest.fixture(scope="module", autouse=True)
def current_build() -> Iterator[None]:
    rebuild()
    yield


def serious(page: Page) -> list[dict[str, Any]]:
    """axe's serious and critical violations on the page as it is now."""
    if not page.evaluate("() => typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    violations: list[dict[str, Any]] = page.evaluate(AXE_RUN_JS)
    return [v for v in violations if v["impact"] in ("serious", "critical")]


def test_axe_core_is_pinned_at_4_10_or_later() -> None:
    import json

    version = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["devDependencies"]["axe-core"]
    major, minor, _ = (int(part) for part in version.split("."))
    assert (major, minor) >= (4, 10), version
    assert AXE.is_file()


def test_the_label_in_name_rule_catches_a_card_named_only_in_words(
        page: Page, wait_ready: Callable[..., float]) -> None:
    """The check can fail: a card button named "seven of hearts" while it shows 7 is reported."""
    page.goto("index.html?variant=podkidnoy&players=2&level=easy&seed=3&speed=instant&lang=en")
    wait_ready(page)
    page.wait_for_function(TURN_JS, timeout=60_000)
    page.evaluate("""() => {
      const card = document.querySelector('[data-testid=hand] [data-card]');
      card.setAttribute('aria-label', 'a card of the hand');
    }""")
    assert any(v["id"] == "label-content-name-mismatch" for v in serious(page) + [
        v for v in page.evaluate(AXE_RUN_JS) if v["id"] == "label-content-name-mismatch"])


@pytest.mark.parametrize("lang", LANGS)
def test_no_serious_violation_on_the_table_a_hint_the_dialog_and_game_over(
        page: Page, wait_ready: Callable[..., float], lang: str) -> None:
    page.goto(f"index.html?variant=podkidnoy&players=2&deck=24&level=easy&seed=8&speed=instant&lang={lang}")
    wait_ready(page)
    page.wait_for_function(TURN_JS, timeout=60_000)
    assert page.locator("h1").count() == 1
    assert serious(page) == [], "table"

    page.click("[data-action=hint]")
    expect(page.locator("#hint")).not_to_be_empty()
    assert serious(page) == [], "hint"

    page.click("[data-action=new-game]")
    expect(page.locator("dialog#new-game")).to_be_visible()
    assert serious(page) == [], "new-game dialog"
    page.click("[data-action=close-dialog]")

    for _ in range(300):
        if page.wait_for_function(TURN_JS, timeout=60_000).json_value() == "over":
            break
        assert click_a_move(page)
    expect(page.locator("[data-testid=game-over]")).to_be_visible()
    assert serious(page) == [], "game over"
