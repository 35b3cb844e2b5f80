"""The review of a cheat-mode game in CPython: cheats and accusations marked in the move list, in every
language; grading skips them and still judges the honest decisions; such records open from text and links."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest

from durak import Game, Rules, review
from durak.actions import ACCUSE
from durak.ai import make_player
from durak.record import url_safe
from tests.web.review.test_review_page import finished_table
from web.review import history
from web.review.model import Session
from web.shared.i18n import LANGS, t

#: The rules page's worked example: West beats 8♥ with 7♥ and East catches him; West then wrongly accuses
#: South's fair Q♦ and takes the table again.
EXAMPLE = Path("rules/examples/podkidnoy-cheat-caught.durak")


@cache
def cheat_game(seed: int) -> Game:
    """A three-player cheat-mode game played to its end by normal AIs, which cheat now and then and accuse
    what they notice after every move (the first accusation ends the bout)."""
    game = Game.new(Rules(players=3, cheating=True), seed=seed)
    bots = [make_player("normal", seed=seed * 10 + seat) for seat in range(3)]
    while game.result is None:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, bots[seat].choose(game.view(seat), game.legal_actions(seat), game.cheats(seat)))
        for other in (seat + 1, seat + 2, seat + 3):
            other %= 3
            accusations = game.accusations(other)
            choice = bots[other].accuse(game.view(other), accusations) if accusations else None
            if choice is not None:
                game.apply(other, choice)
                break
    return game


def played_cheat_game() -> Game:
    """The first seeded game, of a reasonable length, in which somebody accused (the AIs name only real
    cheats, so a caught one)."""
    for seed in range(1, 40):
        game = cheat_game(seed)
        kinds = {action.kind for _, action in game.history}
        if ACCUSE in kinds and len(game.history) < 90:
            return game
    raise AssertionError("no seeded cheat-mode game with an accusation")


@pytest.mark.parametrize("lang", LANGS)
def test_the_move_list_marks_the_cheat_and_each_accusation_s_outcome(lang: str) -> None:
    data = Session.from_text(EXAMPLE.read_text(), 0, worlds=4).data(lang)
    moves = data["moves"]
    assert [m.get("cheat", False) for m in moves] == [False, True, False, False, False, False]
    assert [m.get("accusation", {}).get("outcome") for m in moves] == [None, None, "caught", None, None, "wrong"]
    caught, wrong = moves[2]["accusation"], moves[5]["accusation"]
    assert (caught["target"], caught["taker"]) == (1, 1)  # West cheated and takes the table
    assert (wrong["target"], wrong["taker"]) == (0, 1)  # South played fair: West, the accuser, takes it
    names = data["names"]
    assert names[2] in caught["text"] and names[1] in caught["text"]
    assert caught["text"] != wrong["text"] and names[1] in wrong["text"]
    assert data["words"]["cheat"] == t(lang, "review.cheat")
    assert data["words"]["caught"] == t(lang, "review.caught") != data["words"]["wrong"] == t(lang, "review.wrong")
    if lang != "en":
        assert data["words"]["cheat"] != t("en", "review.cheat")
    # the step after an accusation says what happened, and the table is cleared into the taker's hand,
    # where everybody knows the cards are (the example is unfinished: South's knowledge only)
    after = data["seen"][3]
    assert after["table"] == [] and sorted(after["hands"][1]) == ["7H", "8H"] and after["hidden"][1] == 3
    assert caught["text"].rstrip(".") in after["said"]
    assert json.loads(json.dumps(data)) == data


def test_an_honest_game_s_move_list_has_no_cheat_marks() -> None:
    game = Game.new(Rules(), seed=4)
    normal = make_player("normal", seed=4)
    for _ in range(12):
        seat = game.to_act
        assert seat is not None
        game.apply(seat, normal.choose(game.view(seat), game.legal_actions(seat)))
    data = Session.from_text(game.record(), 0, worlds=4).data("en")
    assert all(set(move) == {"move", "seat", "text"} for move in data["moves"])


def test_cheats_and_accusations_are_not_graded_and_honest_decisions_are() -> None:
    game = played_cheat_game()
    steps = Session.from_text(game.record(), 0, worlds=4).games  # the game before each move
    cheats = [i for i, (seat, action) in enumerate(game.history) if action.kind != ACCUSE
              and action not in steps[i].legal_actions(seat)]
    accusations = [i for i, (_, action) in enumerate(game.history) if action.kind == ACCUSE]
    assert cheats and accusations
    for seat in range(3):
        session = Session.from_text(game.record(), seat, worlds=4)
        data = session.data("en")
        graded = set(data["graded"])
        own = {i for i, (who, _) in enumerate(game.history) if who == seat}
        assert not graded & (set(cheats) | set(accusations))
        assert graded and graded <= own
        marked = {m["move"] for m in data["moves"] if m.get("cheat")}
        assert marked == set(cheats)
        assert {m["move"] for m in data["moves"] if "accusation" in m} == set(accusations)
        result = review.grade(session.decisions, worlds=4)
        assert [v.move for v in result.verdicts] == sorted(graded)
        assert all(v.grade in review.GRADES for v in result.verdicts)


def test_a_cheat_mode_record_opens_from_its_text_and_its_link() -> None:
    _, _, reviews, screens, notices = finished_table()
    text = EXAMPLE.read_text()
    for given in (text, url_safe(text), f"https://example.org/index.html?record={url_safe(text)}&lang=fr"):
        reviews.open_text(given)
        shown = screens.reviews[-1]
        assert shown["steps"] == 7 and [m["move"] for m in shown["moves"] if m.get("cheat")] == [1]
    assert not notices
    reviews.boot(f"?record={url_safe(text)}")
    shown = screens.reviews[-1]
    assert shown["moves"][5]["accusation"]["outcome"] == "wrong"
    assert shown["words"]["wrong"] == t(reviews.lang, "review.wrong")


def test_a_finished_cheat_mode_game_joins_the_history_and_survives_export_and_import() -> None:
    game = played_cheat_game()
    entry = history.entry_of(game, 0, ["human", "normal", "normal"], "2026-12-05T10:00:00Z")
    assert entry.rules.endswith("/cheating") and entry.variant == "podkidnoy"
    mine = history.History([entry])
    again = history.History()
    merged = again.merge(history.export_text(mine, "2026-12-05T11:00:00Z"))
    assert (merged.added, merged.known) == (1, 0)
    assert again.to_dict() == mine.to_dict()
    record = again.games[0].record
    assert record is not None
    assert Game.from_record(record).record() == game.record()
