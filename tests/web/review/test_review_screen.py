"""The review screen's model in CPython: frames, move list, verdicts in words, grading in slices."""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

import pytest

from durak import Game, Rules, review
from durak.ai import make_player
from durak.cards import CARDS
from tests.web.running import run_coroutine
from web.review.model import Session, board_labels, verdict_data
from web.shared.i18n import LANGS, t


@cache
def played(seed: int, moves: int | None = None) -> Game:
    game = Game.new(Rules(), seed=seed)
    normal = make_player("normal", seed=seed)
    while game.result is None and (moves is None or len(game.history) < moves):
        seat = game.to_act
        assert seat is not None
        game.apply(seat, normal.choose(game.view(seat), game.legal_actions(seat)))
    return game


def session(seed: int, moves: int | None = None, seat: int = 0) -> Session:
    return Session.from_text(played(seed, moves).record(), seat, worlds=6)


def test_a_finished_game_has_open_frames_equal_to_the_game_at_every_step() -> None:
    game = played(1)
    data = session(1).data("en")
    assert data["finished"] and data["steps"] == len(game.history) + 1 == len(data["open"]) == len(data["seen"])
    replay = Game.new(Rules(), seed=1)
    for step, shown in enumerate(data["open"]):
        assert [sorted(h) for h in shown["hands"]] == [sorted(map(str, h)) for h in replay.hands]
        assert shown["table"] == [[str(a), None if d is None else str(d)] for a, d in replay.table]
        if step < len(game.history):
            replay.apply(*game.history[step])
    assert [m["move"] for m in data["moves"]] == list(range(len(game.history)))
    assert data["moves"][0]["text"].startswith(data["names"][game.history[0][0]] + ": ")
    assert json.loads(json.dumps(data)) == data


def test_an_unfinished_game_shows_only_what_the_reviewer_knew() -> None:
    game = played(2, moves=20)
    assert game.result is None
    data = session(2, moves=20).data("fr")
    assert "open" not in data and not data["finished"]
    text = json.dumps(data)
    assert "position" not in text and "[Seed" not in text
    replay = Game.new(Rules(), seed=2)
    for step, shown in enumerate(data["seen"]):
        view = replay.view(0)
        assert shown["hands"][0] == view["hand"]
        assert shown["hands"][1] == view["known"][1]
        assert shown["hidden"] == [0, view["hand_sizes"][1] - len(view["known"][1])]
        if step < len(game.history):
            replay.apply(*game.history[step])


def test_the_seen_frames_never_name_a_card_the_reviewer_could_not_know() -> None:
    game = played(3, moves=30)
    data = session(3, moves=30).data("en")
    replay = Game.new(Rules(), seed=3)
    for step, shown in enumerate(data["seen"]):
        view = replay.view(0)
        allowed = set(view["hand"]) | {c for cards in view["known"] for c in cards} | set(view["discard"])
        allowed |= {c for pair in view["table"] for c in pair if c} | {view["trump_card"]}
        named = set(re.findall(r"\b(?:[2-9]|10|[JQKA])[SHDC]\b", json.dumps(shown)))
        assert named <= allowed, (step, named - allowed)
        if step < len(game.history):
            replay.apply(*game.history[step])


def test_verdicts_come_in_slices_and_speak_the_page_language() -> None:
    reviewing = session(4)
    published: list[tuple[list[dict[str, Any]], dict[str, Any]]] = []

    async def no_wait(seconds: float) -> None:
        return None

    run_coroutine(reviewing.grade(no_wait, lambda v, p: published.append((v, p)), lambda: "fr", slice_seconds=0.005))
    verdicts = [v for batch, _ in published for v in batch]
    assert [v["move"] for v in verdicts] == [d.move for d in reviewing.decisions]
    percents = [p["percent"] for _, p in published]
    assert percents == sorted(percents) and published[-1][1]["complete"] and percents[-1] == 100
    for verdict in verdicts:
        assert verdict["grade"] in review.GRADES
        assert verdict["grade_text"] == t("fr", f"review.grade_{verdict['grade']}")
        assert "{" not in verdict["line"] and verdict["line"][0].isupper()
        assert re.search(r"\d+\u202f%", verdict["chances"])  # French: a narrow space before %
    english = reviewing.verdicts("en")
    assert [v["move"] for v in english] == [v["move"] for v in verdicts]
    assert [v["line"] for v in english] != [v["line"] for v in verdicts]


def test_each_sampled_decision_shows_a_first_estimate_before_its_verdict() -> None:
    reviewing = Session.from_text(played(4).record(), 0, worlds=2 * review.FIRST_ESTIMATE)
    published: list[tuple[list[dict[str, Any]], dict[str, Any]]] = []

    async def no_wait(seconds: float) -> None:
        return None

    run_coroutine(reviewing.grade(no_wait, lambda v, p: published.append((v, p)), lambda: "ru", slice_seconds=0.002))
    judged: set[int] = set()  # moves with a verdict so far
    estimated: list[int] = []  # moves in the order their first estimate was published
    for verdicts, progress in published:
        judged.update(v["move"] for v in verdicts)
        estimate = progress["estimate"]
        if estimate is None:
            continue
        assert estimate["move"] not in judged  # never an estimate of a move already judged
        assert estimate["estimate"] and estimate["grade"] in review.GRADES and estimate["line"]
        assert "{" not in estimate["note"] and f" {2 * review.FIRST_ESTIMATE}," in estimate["note"]  # "… 9 из 16, …"
        if not estimated or estimated[-1] != estimate["move"]:
            estimated.append(estimate["move"])
    sampled = [v.move for v in reviewing.grader.verdicts if not v.proven]
    assert estimated and estimated[0] == reviewing.decisions[0].move and set(estimated) <= set(sampled)
    assert published[-1][1]["complete"] and published[-1][1]["estimate"] is None


def test_stopping_keeps_the_verdicts_so_far_and_resuming_finishes() -> None:
    reviewing = session(5)
    seen: list[dict[str, Any]] = []

    async def stop_after_two(seconds: float) -> None:
        if len(reviewing.grader.verdicts) >= 2:
            reviewing.stop()

    run_coroutine(reviewing.grade(stop_after_two, lambda v, p: seen.extend(v), lambda: "en", slice_seconds=0.005))
    progress = reviewing.progress("en")
    assert progress["stopped"] and not progress["complete"] and progress["done"] == len(seen) >= 2

    async def no_wait(seconds: float) -> None:
        return None

    run_coroutine(reviewing.grade(no_wait, lambda v, p: seen.extend(v), lambda: "en", slice_seconds=0.05))
    assert reviewing.progress("en")["complete"] and [v["move"] for v in seen] == [d.move for d in reviewing.decisions]


def test_a_verdict_names_the_actions_in_words() -> None:
    start = Game.from_scenario({"rules": {"players": 2}, "trump": "D", "hands": [["8H", "9S", "JH"],
                                                                                 ["9H", "JD", "6C"]], "attacker": 0})
    result = review.grade([review.Decision(0, start.view(0), tuple(sorted(start.legal_actions(0))),
                                           review.parse_action("attack 9S"))])
    data = verdict_data(result.verdicts[0], "en", ["You", "Bot 1"])
    assert data["line"] == "Attack 9♠ throws away a won endgame: attack 8♥ wins for certain"
    assert data["chances"] == t("en", "review.chances", before="100%", after="0%")
    assert data["grade"] == "blunder" and data["proven"]


def test_play_on_starts_from_a_copy_of_the_shown_step() -> None:
    reviewing = session(6)
    game = reviewing.game_at(5)
    assert game.to_dict() == reviewing.games[5].to_dict() and game is not reviewing.games[5]
    with pytest.raises(ValueError, match="step"):
        reviewing.game_at(len(reviewing.games))
    with pytest.raises(ValueError, match="seat"):
        Session.from_text(played(6).record(), seat=2)


def test_the_board_labels_name_every_card_in_every_language() -> None:
    for lang in LANGS:
        labels = board_labels(lang)
        assert set(labels["cards"]["rank_words"]) == {str(c.rank) for c in CARDS}
        assert "{suit}" in labels["ui"]["trump"] and set(labels["counts"]) == {"cards", "talon", "discard"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_verdict_line_has_its_message_in_every_language(lang: str) -> None:
    for code, english in review.CODES.items():
        fields = set(re.findall(r"{(\w+)}", english))
        assert t("en", code, **dict.fromkeys(fields, "X")) == english.format(**dict.fromkeys(fields, "X"))
        text = t(lang, code, **dict.fromkeys(fields, "X"))
        assert text.count("X") == english.count("{") - english.count("{{")


def test_another_seat_is_reviewed_only_once_the_game_is_over() -> None:
    over = session(7)
    assert over.data("en")["seats"] == [0, 1]
    other = over.for_seat(1)
    assert other.seat == 1 and [d.seat for d in other.decisions] == [1] * len(other.decisions)
    unfinished = session(7, moves=12)
    assert unfinished.data("en")["seats"] == [0]
    with pytest.raises(ValueError, match="unfinished"):
        unfinished.for_seat(1)


def test_grading_freezes_the_heap_and_thaws_it_after() -> None:
    import gc

    from web.review.model import frozen_heap

    before = gc.get_freeze_count()
    with frozen_heap():
        assert gc.get_freeze_count() > before
    assert gc.get_freeze_count() == before
    with pytest.raises(RuntimeError), frozen_heap():
        raise RuntimeError("a review stopped by an error still thaws the heap")
    assert gc.get_freeze_count() == before
