"""embed.html's Python side (web/embed/embedding.py) in CPython: records and positions from their URL-safe links
become the frames the rules pages' builder makes, and the host page's moves by notation are judged by the
engine (a refused one changes nothing and says why)."""

from __future__ import annotations

import json

import pytest

from durak import Game
from durak.record import RecordError, load_examples, parse_record, url_safe
from tests.browser.helpers import ROOT
from web.embed.embedding import EmbedTryout, link_frames, moves_since
from web.examples.frames import frame

EXAMPLES = load_examples(ROOT / "rules" / "examples")


def test_a_record_link_gives_one_frame_per_step_with_its_comments() -> None:
    record = EXAMPLES["podkidnoy-limit-take"]
    data = link_frames("record", url_safe(str(record)), "en")
    frames = data["frames"]
    assert len(frames) == record.steps
    game = record.start(Game)
    assert frames[0] == frame(game, comment=record.comments[0])
    for step, move in enumerate(record.moves, 1):
        game.apply(move.seat, move.action)
        shown = frames[step]
        assert shown["hands"] == [[str(c) for c in game.hand(s)] for s in range(game.players)]
        assert shown["position"] == game.position()
        assert shown["comment"] == record.comments[step]
        assert shown["said"], "each step says what the move did"
    assert data["title"] == record.title
    assert data["names"] == [record.header.get(f"Player{s}", name) for s, name in enumerate(["South", "North"])]


@pytest.mark.parametrize("lang", ["fr", "ru"])
def test_a_worked_examples_record_embedded_by_its_link_says_its_comments_in_the_pages_language(lang: str) -> None:
    """The same steps, words included, as the example embedded by its id (the builder's frames)."""
    built = json.loads((ROOT / "rules" / "frames" / lang / "throw-in-priority.json").read_text(encoding="utf-8"))
    data = link_frames("record", url_safe(str(EXAMPLES["throw-in-priority"])), lang)
    assert data["frames"] == built["example"]["frames"]
    assert data["title"] == built["example"]["title"] != EXAMPLES["throw-in-priority"].title


def test_a_records_own_comment_that_no_catalogue_knows_is_shown_as_written() -> None:
    record = parse_record(str(EXAMPLES["podkidnoy-limit-take"]).replace("South leads 8♥.", "Mon commentaire."))
    data = link_frames("record", url_safe(str(record)), "ru")
    assert data["frames"][1]["comment"] == "Mon commentaire."
    assert data["frames"][2]["comment"] != EXAMPLES["podkidnoy-limit-take"].comments[2]  # translated


def test_a_position_link_gives_its_one_frame_in_the_pages_language() -> None:
    game = EXAMPLES["perevodnoy-transfer"].start(Game)
    data = link_frames("position", url_safe(game.position()), "fr")
    assert [f["position"] for f in data["frames"]] == [game.position()]
    assert data["title"] == "Une position"
    assert data["names"] == ["Sud", "Ouest", "Est"]  # seat 0 in the South, the next on its left


@pytest.mark.parametrize("kind, value", [
    ("record", "p1AAAA"),  # a position where a record is expected
    ("position", "p1!!"),
    ("position", "x1abc"),
    ("record", "r1" + "A" * 40),
])
def test_a_link_that_does_not_read_is_refused_with_a_record_error(kind: str, value: str) -> None:
    with pytest.raises(RecordError):
        link_frames(kind, value, "en")


def start_of(example: str) -> EmbedTryout:
    record = parse_record(str(EXAMPLES[example]))
    return EmbedTryout(record.start(Game).position(), ["A", "B", "C", "D"][: record.start(Game).players], "en")


def test_a_legal_move_by_notation_is_played_and_reported() -> None:
    session = start_of("podkidnoy-limit-take")
    legal = session.game.legal_actions(session.seat)
    answer = session.play(str(legal[0]).upper())  # notation is case-insensitive in, canonical out
    assert answer["moves"][0] == {"seat": session.seat, "action": str(legal[0])}
    assert answer["frame"]["position"] == session.game.position()
    assert "waiting" in answer


@pytest.mark.parametrize("text", ["attack 2C", "fly away", "defend"])
def test_an_illegal_or_unreadable_move_is_refused_and_changes_nothing(text: str) -> None:
    session = start_of("podkidnoy-limit-take")
    before = session.game.to_dict()
    answer = session.play(text)
    assert set(answer) == {"error", "code"}
    assert answer["error"]
    assert session.game.to_dict() == before


def test_no_move_is_taken_while_another_seat_is_to_act() -> None:
    session = start_of("podkidnoy-limit-take")
    session.play(str(session.game.legal_actions(session.seat)[0]))
    while session.waiting:
        assert session.play("pass")["code"] == "embed.no_move_now"
        session.reply()


def test_moves_since_names_the_new_history() -> None:
    game = EXAMPLES["throw-in-priority"].replay(Game)
    assert moves_since(game, len(game.history)) == []
    assert moves_since(game, 0) == [{"seat": s, "action": str(a)} for s, a in game.history]


def test_embed_html_holds_the_tables_symbols_that_the_stepper_draws() -> None:
    """web/examples/stepper.js draws suits and role marks as <use href="#suit-H">, "#icon-sword"...: embed.html's inline
    copies of those symbols are the table's (index.html's sprite, which the rules pages' builder copies)."""
    import re

    def symbols(page: str) -> dict[str, str]:
        text = (ROOT / page).read_text(encoding="utf-8")
        return {m[1]: m[0] for m in re.finditer(r'<symbol id="([A-Za-z-]+)".*?</symbol>', text, re.S)}

    stepper = (ROOT / "web" / "examples" / "stepper.js").read_text(encoding="utf-8")
    used = set(re.findall(r'href="#([A-Za-z-]+)"', stepper))
    wanted = {name for name in used if not name.endswith("-")} | {f"suit-{suit}" for suit in "SHDC"}
    table, embed = symbols("index.html"), symbols("embed.html")
    assert {name: embed.get(name) for name in wanted} == {name: table[name] for name in wanted}


def test_the_pips_masks_of_cards_css_are_the_sprites_suits_upright_and_turned() -> None:
    """web/shared/cards.css draws a card's pips as mask layers of data: URL images (one element a card): each suit's
    two images must hold index.html's symbol of that suit, the second turned a half turn about its middle."""
    import re

    css = (ROOT / "web" / "shared" / "cards.css").read_text(encoding="utf-8")
    table = (ROOT / "index.html").read_text(encoding="utf-8")
    for suit in "SHDC":
        symbol = re.search(rf'<symbol id="suit-{suit}" viewBox="0 0 100 100">(.*?)</symbol>', table, re.S)
        assert symbol, suit
        shape = symbol[1].replace(' fill="currentColor"', "").replace('"', "'")
        rule = re.search(rf'\.card \.pips\[data-suit="{suit}"\] \{{(.*?)\}}', css, re.S)
        assert rule, f"no pips rule for {suit}"
        images = dict(re.findall(r"--pip-(up|down): url\(\"data:image/svg\+xml,(.*?)\"\);", rule[1]))
        svg = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 100 100'>{}</svg>"
        assert images == {"up": svg.format(shape), "down": svg.format(f"<g transform='rotate(180 50 50)'>{shape}</g>")}
