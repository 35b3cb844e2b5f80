"""Players named as a card table names them, in Chromium, in English, French and Russian: "You" and the
compass points on the table (the names shown and the seats' accessible names) and in its new-game dialog,
in a rules page's worked example, and in the review of a record from elsewhere. No numbered seat anywhere."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from playwright.sync_api import Page, expect

from durak import Game, Rules
from durak.ai import make_player
from durak.record import url_safe

pytestmark = pytest.mark.warm  # the boot is not the subject: a returning visitor's loads

NAMES = {
    "en": {"you": "You", "table": ["West", "East"], "dialog": ["West", "North", "East"],
           "example": ["South", "West", "East"], "record": ["South", "North"]},
    "fr": {"you": "Vous", "table": ["Ouest", "Est"], "dialog": ["Ouest", "Nord", "Est"],
           "example": ["Sud", "Ouest", "Est"], "record": ["Sud", "Nord"]},
    "ru": {"you": "Вы", "table": ["Запад", "Восток"], "dialog": ["Запад", "Север", "Восток"],
           "example": ["Юг", "Запад", "Восток"], "record": ["Юг", "Север"]},
}
#: A seat named by a number, as the table, the examples and the review named them before.
NUMBERED = re.compile(r"\b(Seat|Bot|Player|Siège|Place|Robot|Joueur|Место|Бот|Игрок)\s*\d", re.IGNORECASE)
LANGS = pytest.mark.parametrize("lang", list(NAMES))


def no_numbered_seat(page: Page) -> None:
    text = page.evaluate("() => document.body.innerText + ' ' + [...document.querySelectorAll('[aria-label]')]"
                         ".map((e) => e.getAttribute('aria-label')).join(' ')")
    assert not NUMBERED.search(text), NUMBERED.search(text)


@LANGS
def test_the_table_and_its_dialog_name_you_and_the_others_by_compass_point(
        page: Page, wait_ready: Callable[..., float], lang: str) -> None:
    names = NAMES[lang]
    page.goto(f"index.html?variant=podkidnoy&players=3&level=easy&seed=3&speed=instant&lang={lang}")
    wait_ready(page)
    expect(page.locator(".me .seat-name")).to_have_text(names["you"])
    expect(page.locator("section.seat .seat-name")).to_have_text(names["table"])
    labels = page.locator("section.seat").evaluate_all("(seats) => seats.map((s) => s.getAttribute('aria-label'))")
    assert [label.split(":")[0].split(",")[0] for label in labels] == names["table"], labels
    no_numbered_seat(page)
    page.click("[data-action=new-game]")
    page.select_option("#new-game select[name=players]", "4")
    expect(page.locator("#ng-seats .seat-row > span")).to_have_text(names["dialog"])
    no_numbered_seat(page)


@LANGS
def test_a_worked_example_names_its_seats_by_compass_point(page: Page, lang: str) -> None:
    names = NAMES[lang]
    page.goto(f"rules/{lang}/perevodnoy.html")
    example = page.locator("[data-example='perevodnoy-transfer']")
    expect(example.locator(".ex-seat-name")).to_have_text(names["example"])
    expect(example.locator("[data-testid=comment]")).to_contain_text(names["example"][0])  # "South attacks West"
    no_numbered_seat(page)


@LANGS
def test_a_record_from_elsewhere_is_reviewed_with_compass_names(
        page: Page, wait_ready: Callable[..., float], lang: str) -> None:
    game = Game.new(Rules(), seed=5)
    easy = make_player("easy")
    for _ in range(4):
        seat = game.to_act
        assert seat is not None
        game.apply(seat, easy.choose(game.view(seat), game.legal_actions(seat)))
    page.goto(f"index.html?record={url_safe(game.record())}&lang={lang}&speed=instant")
    wait_ready(page)
    review = page.locator("[data-testid=review]")
    expect(review.locator(".ex-seat-name")).to_have_text(NAMES[lang]["record"])
    moves = review.locator("[data-testid=move-list] [data-move] .move-text")
    expect(moves.first).to_be_visible()
    for text in moves.all_inner_texts():
        assert re.split(r"\s*:", text)[0].split(" ", 1)[-1] in NAMES[lang]["record"], text
    no_numbered_seat(page)
