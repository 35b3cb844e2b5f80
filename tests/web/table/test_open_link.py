"""The table opens a position or a record from its URL-safe link (embed.html's "open in the full game"),
and plays on from there in a new series, with the link's rules."""

from __future__ import annotations

from durak import Game, Rules
from durak.record import load_examples, url_safe
from tests.browser.helpers import ROOT
from tests.web.table.test_table_flow import FakePage
from web.shared import storage
from web.table.controller import Controller
from web.table.params import parse_query

RECORD = load_examples(ROOT / "rules" / "examples")["perevodnoy-transfer"]


def test_a_position_link_opens_that_position() -> None:
    game = RECORD.replay(Game)
    parsed = parse_query(f"?position={url_safe(game.position())}&lang=fr")
    assert parsed.opened is not None and parsed.settings is None and parsed.lang == "fr"
    assert parsed.opened.position() == game.position()
    assert parsed.source.startswith("position=p1")


def test_a_record_link_opens_the_game_at_its_end_with_its_history() -> None:
    parsed = parse_query(f"?record={url_safe(str(RECORD))}")
    assert parsed.opened is not None
    assert parsed.opened.to_dict()["history"] == RECORD.replay(Game).to_dict()["history"]


def test_a_link_that_does_not_read_is_ignored_and_named() -> None:
    parsed = parse_query("?position=p1garbage&variant=prostoy")
    assert parsed.opened is None and parsed.settings is None
    assert parsed.ignored == ["position=p1garbage…"]


def test_the_table_plays_on_from_the_opened_game_with_its_rules() -> None:
    game = RECORD.start(Game)
    store = storage.MemoryStore()
    controller = Controller(FakePage(), store, speed="instant")
    controller.play_from(game, source="position=p1x")
    assert controller.game is game
    assert Rules(**controller.settings.rules_kwargs()) == game.rules
    assert controller.settings.seats == ("human", "normal", "normal")
    restored = Controller(FakePage(), store, speed="instant")
    found, set_aside = storage.load(store, lambda data: restored.restore(data) or True)
    assert found and not set_aside, "the save of a game opened from a link restores"
    assert restored.game.position() == game.position() and restored.source == "position=p1x"
