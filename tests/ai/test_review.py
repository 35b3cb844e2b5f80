"""Game review: verdicts on known positions, forced games, views only, slices and determinism."""

from __future__ import annotations

import gc
import json
import random
import re
import time

import pytest

from durak import Action, Game, Rules, parse_action, review
from durak.ai import make_player
from durak.ai.seen import Seen
from durak.messages import Message
from durak.review import BLUNDER, GOOD, INACCURACY, MISTAKE, Decision, Verdict, grade_of, turning_point

from .helpers import position

Moves = list[tuple[int, Action]]


def play_out(game: Game, moves: Moves, *, until: int | None = None, seed: int = 0, level: str = "normal") -> Moves:
    """Continue ``game`` (changed in place) with ``level`` players, recording the moves in ``moves``."""
    player = make_player(level, seed=seed, iterations=8)
    while game.result is None and (until is None or len(moves) < until):
        seat = game.to_act
        assert seat is not None
        action = player.choose(game.view(seat), game.legal_actions(seat))
        moves.append((seat, action))
        game.apply(seat, action)
    return moves


def scripted(start: Game, *texts: str) -> tuple[Game, Moves]:
    """``start`` with ``texts`` played by whoever is to act, then played out perfectly (hard players solve
    an endgame exactly); the moves from the start."""
    game = start.copy()
    moves: Moves = []
    for text in texts:
        seat = game.to_act
        assert seat is not None
        moves.append((seat, parse_action(text)))
        game.apply(seat, text)
    return game, play_out(game, moves, level="hard")


def seeded_game(seed: int, rules: Rules | None = None, until: int | None = None) -> tuple[Game, Moves]:
    start = Game.new(rules or Rules(), seed=seed)
    return start, play_out(start.copy(), [], until=until, seed=seed)


def test_throwing_away_a_won_endgame_is_a_blunder_and_the_turning_point() -> None:
    # RULES §2 worked example, talon empty: 8H wins for certain (test_endgame), 9S loses for certain.
    start = position(["8H 9S JH", "9H JD 6C"], trump="D")
    game, moves = scripted(start, "attack 9S")
    assert game.result is not None and game.result.durak == 0
    result = review.grade(review.decisions(start, moves, 0))
    first = result.verdicts[0]
    assert (first.move, first.played, first.best) == (0, parse_action("attack 9S"), parse_action("attack 8H"))
    assert first.proven and (first.before, first.after) == (1.0, 0.0)
    assert first.grade == BLUNDER
    assert first.message.code == "review.throws_win"
    assert first.message.params == {"played": "attack 9S", "best": "attack 8H"}
    assert result.turning == 0
    assert all(v.grade == GOOD and v.message.code == "review.already_lost" for v in result.verdicts[1:])


def test_keeping_the_won_endgame_is_good_and_leaves_no_turning_point() -> None:
    start = position(["8H 9S JH", "9H JD 6C"], trump="D")
    game, moves = scripted(start, "attack 8H")
    assert game.result is not None and game.result.durak == 1
    result = review.grade(review.decisions(start, moves, 0))
    first = result.verdicts[0]
    assert first.grade == GOOD and first.proven and first.after == 1.0
    assert first.message.code == "review.keeps_win"
    assert first.best == first.played  # no other move wins
    assert result.turning is None


def test_a_lost_endgame_has_no_mistake_whatever_is_played() -> None:
    # Two low plain cards against two aces: lost for certain (test_endgame), so no move can be a mistake.
    start = position(["6S 7C", "AS AC"], trump="D")
    for first in ("attack 6S", "attack 7C"):
        _, moves = scripted(start, first)
        result = review.grade(review.decisions(start, moves, 0))
        assert result.verdicts
        assert {v.grade for v in result.verdicts} == {GOOD}
        assert {v.message.code for v in result.verdicts} == {"review.already_lost"}
        assert result.turning is None


def test_a_game_of_forced_moves_has_no_decision_and_no_mistake() -> None:
    # Seat 1 holds one card that cannot beat anything: every move of his is forced (take, then out of moves).
    start = position(["6S 7S 8S", "9C"], trump="D")
    _, moves = scripted(start, "attack 6S")
    assert all(len(g) == 1 for g in legal_counts(start, moves, 1))
    assert review.decisions(start, moves, 1) == []
    grader = review.start([])
    assert grader.step() and grader.progress == 1.0
    assert grader.review().verdicts == () and grader.review().turning is None


def legal_counts(start: Game, moves: Moves, seat: int) -> list[list[Action]]:
    game = start.copy()
    found = []
    for who, action in moves:
        if who == seat:
            found.append(game.legal_actions(seat))
        game.apply(who, action)
    return found


def test_decisions_skip_forced_moves_and_keep_the_start_unchanged() -> None:
    start, moves = seeded_game(5)
    before = json.dumps(start.to_dict(), sort_keys=True)
    found = review.decisions(start, moves, 0)
    assert json.dumps(start.to_dict(), sort_keys=True) == before
    game = start.copy()
    expected = []
    for index, (seat, action) in enumerate(moves):
        if seat == 0 and len(game.legal_actions(0)) > 1:
            expected.append((index, game.view(0), action))
        game.apply(seat, action)
    assert [(d.move, d.view, d.played) for d in found] == expected
    assert all(d.seat == 0 and d.played in d.legal and len(d.legal) > 1 for d in found)


def redealt(start: Game, moves: Moves, seat: int, rng: random.Random) -> Game:
    """``start`` with the cards ``seat`` never saw during ``moves`` shuffled among their places.

    ``seat`` sees exactly the same game (its views are equal at every step); only the hidden cards differ.
    """
    game = start.copy()
    for who, action in moves:
        game.apply(who, action)
    unseen = sorted(str(c) for c in Seen.read(game.view(seat)).unseen)
    shuffled = unseen[:]
    rng.shuffle(shuffled)
    swap = dict(zip(unseen, shuffled, strict=True))
    data = start.to_dict()
    data["hands"] = [[swap.get(c, c) for c in hand] for hand in data["hands"]]
    data["talon"] = [swap.get(c, c) for c in data["talon"]]
    return Game.from_dict(data)


def test_grading_reads_only_what_the_seat_knew() -> None:
    """An unfinished game graded twice, the hidden cards dealt differently: the same verdicts."""
    rng = random.Random(3)
    for seed in (11, 12):
        start, moves = seeded_game(seed, until=24)
        other = redealt(start, moves, 0, rng)
        here, there = start.copy(), other.copy()
        for who, action in moves:
            here.apply(who, action)
            there.apply(who, action)
        assert here.result is None and here.talon  # unfinished, with hidden cards left
        assert here.hands[1] != there.hands[1] or here.talon != there.talon
        assert here.view(0) == there.view(0)
        mine = review.grade(review.decisions(start, moves, 0), worlds=12)
        theirs = review.grade(review.decisions(other, moves, 0), worlds=12)
        assert mine.verdicts and mine == theirs


def test_grading_in_short_steps_gives_the_whole_answer_with_growing_progress() -> None:
    start, moves = seeded_game(7)
    choices = review.decisions(start, moves, 1)
    whole = review.grade(choices, worlds=16)
    grader = review.start(choices, worlds=16)
    progress, durations = [grader.progress], []
    gc.disable()  # a full collection in a big test process is nobody's step
    try:
        while True:
            begin = time.thread_time()
            done = grader.step(0.01)
            durations.append(time.thread_time() - begin)
            progress.append(grader.progress)
            if done:
                break
    finally:
        gc.enable()
    assert grader.review() == whole and whole.complete
    assert len(whole.verdicts) == len(choices)
    assert progress == sorted(progress) and progress[0] == 0.0 and progress[-1] == 1.0
    assert len(durations) > 5 and max(durations) < 0.02


def test_cancelling_keeps_the_verdicts_so_far() -> None:
    start, moves = seeded_game(8)
    choices = review.decisions(start, moves, 0)
    whole = review.grade(choices, worlds=8)
    grader = review.start(choices, worlds=8)
    while len(grader.verdicts) < 3:
        grader.step(0.005)
    part = grader.review()
    assert not part.complete and 3 <= len(part.verdicts) < len(choices)
    assert part.verdicts == whole.verdicts[: len(part.verdicts)]


def test_a_sampled_decision_has_a_first_estimate_that_its_verdict_replaces() -> None:
    start, moves = seeded_game(8)
    choices = review.decisions(start, moves, 0)
    grader = review.start(choices, worlds=24)
    seen: list[tuple[int, int, int]] = []  # (verdicts so far, the estimate's move, its worlds)
    while not grader.step(0.002):
        estimate = grader.estimate()
        if estimate is not None:
            seen.append((len(grader.verdicts), estimate[0].move, estimate[1]))
    assert grader.estimate() is None  # done: nothing left to estimate
    finals = grader.verdicts
    assert seen and {worlds for _, _, worlds in seen} <= set(range(review.FIRST_ESTIMATE, 25))
    for done, move, _ in seen:
        assert move == choices[done].move  # always the decision being graded, never one already judged
    assert seen[0][0] == 0 and seen[0][2] < 24  # the first decision shows an estimate before its verdict
    assert [v.move for v in finals] == [d.move for d in choices]
    # the estimate only looks: grading with it read all along gives the same verdicts as without
    assert review.grade(choices, worlds=24).verdicts == tuple(finals)


def test_the_verdicts_never_depend_on_how_the_grading_is_sliced() -> None:
    """A slow machine (or a busy tab) grades in smaller slices: its proofs must still fit and agree."""
    start, moves = seeded_game(8)
    choices = review.decisions(start, moves, 0)
    grader = review.start(choices, worlds=12)
    while not grader.step(0.0):  # one piece of work per step: the thinnest slicing there is
        pass
    whole = review.grade(choices, worlds=12)
    assert any(v.proven for v in whole.verdicts)  # the game has endgame proofs to slice
    assert tuple(grader.verdicts) == whole.verdicts


def test_an_estimate_waits_for_its_worlds_and_never_outlives_its_decision() -> None:
    start, moves = seeded_game(8)
    choices = review.decisions(start, moves, 0)
    few = review.start(choices, worlds=3)  # fewer worlds than a first estimate: it comes with the last
    while not few.step(0.001):
        estimate = few.estimate()
        assert estimate is None or estimate[1] == 3
    assert few.estimate() is None


def test_the_same_seed_grades_the_same_and_another_seed_may_differ_only_by_sampling() -> None:
    start, moves = seeded_game(9)
    choices = review.decisions(start, moves, 0)
    assert review.grade(choices, seed=1, worlds=8) == review.grade(choices, seed=1, worlds=8)
    other = review.grade(choices, seed=2, worlds=8)
    assert [v.move for v in other.verdicts] == [d.move for d in choices]


@pytest.mark.parametrize("options", [{"variant": "perevodnoy"}, {"variant": "prostoy"},
                                     {"variant": "podkidnoy", "players": 3},
                                     {"variant": "podkidnoy", "players": 4, "teams": "2v2"}],
                         ids=lambda o: "-".join(map(str, o.values())))
def test_every_variant_grades_with_consistent_verdicts(options: dict[str, object]) -> None:
    start, moves = seeded_game(4, Rules(**options))  # type: ignore[arg-type]
    result = review.grade(review.decisions(start, moves, 0), worlds=6)
    assert result.verdicts
    for verdict in result.verdicts:
        check_verdict(verdict)


def check_verdict(verdict: Verdict) -> None:
    assert 0.0 <= verdict.after <= verdict.before <= 1.0
    assert (verdict.best == verdict.played) == (verdict.loss == 0.0)
    assert verdict.grade == grade_of(verdict.loss, verdict.spread)
    data = verdict.to_dict()
    assert json.loads(json.dumps(data)) == data
    assert data["message"]["code"].startswith("review.")
    text = verdict.message.text
    assert text and not re.search(r"[{}]", text)
    if verdict.proven:
        assert verdict.before in (0.0, 0.5, 1.0) and verdict.after in (0.0, 0.5, 1.0) and verdict.spread == 0.0


def test_grades_follow_the_thresholds_beyond_one_standard_error() -> None:
    assert grade_of(0.0) == GOOD
    assert grade_of(0.049) == GOOD
    assert grade_of(0.05) == INACCURACY
    assert grade_of(0.10) == MISTAKE
    assert grade_of(0.20) == BLUNDER
    assert grade_of(0.5) == BLUNDER
    assert grade_of(0.25, spread=0.1) == MISTAKE  # only 0.15 is sure
    assert grade_of(0.12, spread=0.1) == GOOD


def verdict(move: int, before: float, after: float, proven: bool = False) -> Verdict:
    loss = before - after
    return Verdict(move, 0, parse_action("take"), parse_action("pass"), before, after, 0.0, proven,
                   grade_of(loss), Message("review.test"))


def test_the_turning_point_is_the_first_proven_drop_else_the_largest_graded_loss() -> None:
    assert turning_point([verdict(0, 0.6, 0.58), verdict(2, 0.5, 0.5)]) is None
    assert turning_point([verdict(0, 0.6, 0.5), verdict(2, 0.7, 0.4), verdict(4, 0.5, 0.3)]) == 2
    assert turning_point([verdict(0, 0.9, 0.3), verdict(2, 1.0, 1.0, True), verdict(4, 1.0, 0.5, True),
                          verdict(6, 0.5, 0.0, True)]) == 4


def test_a_decision_is_judged_from_its_view_alone() -> None:
    # The grader takes views: a Decision is all it gets, and it names no game.
    start = position(["8H 9S JH", "9H JD 6C"], trump="D")
    view = start.view(0)
    legal = tuple(sorted(start.legal_actions(0)))
    alone = review.grade([Decision(0, view, legal, parse_action("attack JH"))])
    assert alone.verdicts[0].grade == BLUNDER and alone.turning == 0


def test_a_bad_world_count_is_refused() -> None:
    with pytest.raises(ValueError, match="worlds"):
        review.start([], worlds=0)
