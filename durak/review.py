"""Game review: the engine's verdict on every real decision of one seat.

Each decision is judged from the seat's own view at that moment, never from the game: an unfinished game's
hidden cards stay hidden, and the same views give the same verdicts however the hidden cards really lay.
The judge is the hard AI's own machinery. Once every card is known in a two-player position (talon empty),
the exact endgame solver values every move: won, drawn or lost for certain. Otherwise sampled worlds
(PIMC) play every move to the end, the move played being the baseline, so each alternative is compared
with it on the same worlds with the same dice and the paired difference has a standard error.

A verdict grades the loss in win chance (draws count half) from the best alternative to the move played:

    good < 0.05 <= inaccuracy < 0.10 <= mistake < 0.20 <= blunder

An estimated loss counts only beyond one standard error of the paired difference, so sampling noise alone
is never called a mistake; a proven loss counts in full (a won endgame let slip to a draw is a blunder).
The turning point is the first proven win or draw given away, else the largest graded loss.

Grading runs in slices (``Grader.step``), like the AI's thinkers, so a page never blocks its main thread;
it is reproducible: the random generator of each decision is seeded from the seed and the view alone.
"""

from __future__ import annotations

import math
import time
from collections.abc import Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass
from random import Random
from typing import Any

from .actions import Action, parse_action
from .ai.endgame import LOSS, OutOfBudget, Solver, outcome
from .ai.hard import candidates, fingerprint
from .ai.inference import likelihoods
from .ai.sampler import Sampler
from .ai.search import Pimc
from .ai.seen import Seen
from .game import Game
from .messages import Message

GOOD, INACCURACY, MISTAKE, BLUNDER = "good", "inaccuracy", "mistake", "blunder"
GRADES = (GOOD, INACCURACY, MISTAKE, BLUNDER)
#: The smallest loss in win chance of each grade, largest first.
THRESHOLDS = ((0.20, BLUNDER), (0.10, MISTAKE), (0.05, INACCURACY))
#: Sampled worlds per estimated decision: about 0.1 s of CPython for a typical two-player decision.
WORLDS = 48
#: Endgame proof size per decision (both proofs together): half the hard player's, since a review proves
#: every endgame decision of a game. The rare proof that needs more (a 13-card hand against 6) costs about
#: 0.5 s of CPython before the sampled worlds take over; in ten benchmark games no verdict changed.
ENDGAME_NODES = 30_000
#: Worlds after which the decision being graded has a first estimate (``Grader.estimate``), which its
#: remaining worlds refine: a review shows its first judgement in a fraction of the first decision's time.
FIRST_ESTIMATE = 8
#: Nodes of an endgame proof between two yields (about 3 ms of CPython, 6 ms of Pyodide). Slices are counted
#: in nodes, not time: a proof resumed after a slice searches part of its tree again, so slicing by time
#: would make whether a proof fits in ``ENDGAME_NODES`` (and so the verdict) depend on the machine's speed.
#: Measured on 16 reviews of 8 seeded games: the same verdicts, and as many proofs, as without slicing.
PROOF_SLICE = 200


@dataclass(frozen=True)
class Decision:
    """One real choice of the reviewed seat: what it saw, what it could do, and what it did."""

    move: int  # index of the action among the game's moves: frame ``move`` shows the table before it
    view: dict[str, Any]
    legal: tuple[Action, ...]
    played: Action

    @property
    def seat(self) -> int:
        seat: int = self.view["seat"]
        return seat


@dataclass(frozen=True)
class Verdict:
    """The engine's judgement of one decision; chances are for the seat (its team), draws counted half."""

    move: int
    seat: int
    played: Action
    best: Action  # the engine's best move: the one played when no other is better
    before: float  # the position's chance: the chance after ``best``
    after: float  # the chance after the move played
    spread: float  # one standard error of the loss (0 when proven)
    proven: bool  # exact values from the endgame solver
    grade: str
    message: Message

    @property
    def loss(self) -> float:
        return max(0.0, self.before - self.after)

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe, for the page."""
        return {
            "move": self.move, "seat": self.seat, "played": str(self.played), "best": str(self.best),
            "before": self.before, "after": self.after,
            "loss": self.loss, "spread": self.spread, "proven": self.proven, "grade": self.grade,
            "message": self.message.to_dict(),
        }


@dataclass(frozen=True)
class Review:
    """The verdicts on one seat's decisions so far, and the game's turning point among them."""

    seat: int | None
    verdicts: tuple[Verdict, ...]
    complete: bool

    @property
    def turning(self) -> int | None:
        """The move index of the turning point, or None when no move lost anything worth a grade."""
        return turning_point(self.verdicts)

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "verdicts": [v.to_dict() for v in self.verdicts],
                "turning": self.turning, "complete": self.complete}


def decisions(start: Game, moves: Iterable[tuple[int, Action | str]], seat: int) -> list[Decision]:
    """Replay ``moves`` from ``start`` (left unchanged) and collect ``seat``'s real choices.

    A move with a single legal action is no decision and gets no verdict. Nor, in cheat mode, does a cheat
    (not among the legal actions: grading weighs rule-abiding moves only) or an accusation (made out of turn,
    a bet on what another seat did rather than a choice among moves). Illegal moves raise the engine's
    ``IllegalAction``, as replaying them would.
    """
    game = start.copy()
    found: list[Decision] = []
    for index, (who, action) in enumerate(moves):
        played = parse_action(action)
        if who == seat:
            legal = game.legal_actions(seat)
            if len(legal) > 1 and played in legal:
                found.append(Decision(index, game.view(seat), tuple(sorted(legal)), played))
        game.apply(who, played)
    return found


def grade_of(loss: float, spread: float = 0.0) -> str:
    """The grade of a loss in win chance, counting only what lies beyond one standard error."""
    sure = loss - spread
    for threshold, grade in THRESHOLDS:
        if sure >= threshold - 1e-9:
            return grade
    return GOOD


def turning_point(verdicts: Sequence[Verdict]) -> int | None:
    """The first proven win or draw given away; else the move with the largest graded loss."""
    for verdict in verdicts:
        if verdict.proven and verdict.after < verdict.before:
            return verdict.move
    graded = [v for v in verdicts if v.grade != GOOD]
    if not graded:
        return None
    return max(graded, key=lambda v: (v.loss, -v.move)).move


class Grader:
    """A review in progress: ``step`` until it returns True; ``verdicts`` fill in move by move.

    ``worlds`` sampled worlds judge each decision the solver cannot prove within ``endgame_nodes`` nodes.
    Stopping early (not calling ``step`` again) is cancelling: the verdicts so far stay valid.
    """

    def __init__(self, choices: Sequence[Decision], *, seed: int = 0, worlds: int = WORLDS,
                 endgame_nodes: int = ENDGAME_NODES) -> None:
        if worlds < 1:
            raise ValueError(f"worlds must be at least 1, not {worlds!r}")
        self.decisions = list(choices)
        self.seed = seed
        self.worlds = worlds
        self.endgame_nodes = endgame_nodes
        self.verdicts: list[Verdict] = []
        self.done = not self.decisions
        self._share = 0.0  # how much of the current decision is done
        self._current: tuple[Decision, Pimc] | None = None  # the decision being sampled, for ``estimate``
        self._work = self._grade_all()

    @property
    def progress(self) -> float:
        """0 to 1: decisions done, the current one in part."""
        if not self.decisions:
            return 1.0
        return min(1.0, (len(self.verdicts) + (0.0 if self.done else self._share)) / len(self.decisions))

    def step(self, max_seconds: float = 0.03) -> bool:
        """Grade for about ``max_seconds``; True once every decision has its verdict."""
        deadline = time.perf_counter() + max_seconds
        while not self.done:
            try:
                next(self._work)
            except StopIteration:
                self.done = True
            if time.perf_counter() >= deadline:
                break
        return self.done

    def estimate(self) -> tuple[Verdict, int] | None:
        """The decision being graded judged on the worlds played so far, with their number; None before
        ``FIRST_ESTIMATE`` of them (or all, when fewer are asked for), during a proof, and between decisions.

        Its numbers and grade may still change; the verdict that replaces it is the one ``verdicts`` keeps.
        """
        if self._current is None:
            return None
        decision, pimc = self._current
        if pimc.worlds < min(FIRST_ESTIMATE, self.worlds):
            return None
        return _estimated_verdict(decision, pimc), pimc.worlds

    def review(self) -> Review:
        seat = self.decisions[0].seat if self.decisions else None
        return Review(seat, tuple(self.verdicts), self.done)

    def _grade_all(self) -> Iterator[None]:
        for decision in self.decisions:
            verdict = yield from self._grade(decision)
            self.verdicts.append(verdict)
            self._share = 0.0
            yield

    def _grade(self, decision: Decision) -> Generator[None, None, Verdict]:
        seen = Seen.read(decision.view)
        rng = Random(fingerprint(self.seed, decision.view))
        sampler = Sampler(seen, likelihoods(seen))
        team = seen.rules.team_of(seen.me)
        if sampler.certain and sum(seen.active) == 2:
            proof = yield from self._prove(sampler.world(rng), team, decision.played)
            if proof is not None:
                return _proven_verdict(decision, *proof)
        pimc = Pimc(sampler, seen.me, team, candidates(seen, list(decision.legal), decision.played), rng)
        self._current = decision, pimc
        for _ in pimc.run(self.worlds):
            self._share = max(self._share, pimc.worlds / self.worlds)  # never back after a proof cut short
            yield
        self._current = None
        return _estimated_verdict(decision, pimc)

    def _prove(self, world: Game, team: int, played: Action) -> Generator[None, None, tuple[Action, int, int] | None]:
        """The best move with its exact value and the played move's, or None beyond ``endgame_nodes`` nodes.

        Two alpha-beta proofs sharing one table (the position, then the position after the move played)
        cost far less than proving every move exactly.
        """
        solver = Solver(team)
        ranked = yield from self._solve(solver, world)
        if ranked is None:
            return None
        best, value = ranked[0]
        if best == played or value == LOSS:
            return played, value, value
        seat = world.to_act
        assert seat is not None
        after = world.copy()
        after.apply(seat, played)
        if after.result is not None:
            played_value = outcome(after, team)
        else:
            answers = yield from self._solve(solver, after)
            if answers is None:
                return None
            played_value = answers[0][1]
        return (played if played_value == value else best), value, played_value

    def _solve(self, solver: Solver, game: Game) -> Generator[None, None, list[tuple[Action, int]] | None]:
        """``solver.solve`` in slices of ``PROOF_SLICE`` nodes: the legal moves best first (the first value
        exact), None when out of nodes."""
        while True:
            try:
                return solver.solve(game, min(PROOF_SLICE, self.endgame_nodes - solver.nodes))
            except OutOfBudget:
                if solver.nodes >= self.endgame_nodes:
                    return None
                self._share = max(self._share, solver.nodes / self.endgame_nodes)
                yield


def start(choices: Sequence[Decision], *, seed: int = 0, worlds: int = WORLDS,
          endgame_nodes: int = ENDGAME_NODES) -> Grader:
    """Begin grading ``choices`` (from ``decisions``); step the grader in slices."""
    return Grader(choices, seed=seed, worlds=worlds, endgame_nodes=endgame_nodes)


def grade(choices: Sequence[Decision], *, seed: int = 0, worlds: int = WORLDS,
          endgame_nodes: int = ENDGAME_NODES) -> Review:
    """Grade every decision to the end (tests, benchmarks, the terminal)."""
    grader = start(choices, seed=seed, worlds=worlds, endgame_nodes=endgame_nodes)
    while not grader.step(1.0):
        pass
    return grader.review()


def _proven_verdict(decision: Decision, best: Action, value: int, played_value: int) -> Verdict:
    before, after = (value + 1) / 2, (played_value + 1) / 2
    played = decision.played
    return Verdict(decision.move, decision.seat, played, best, before, after, 0.0, True,
                   grade_of(before - after), _proven_message(played, best, before, after))


def _estimated_verdict(decision: Decision, pimc: Pimc) -> Verdict:
    played = decision.played
    chances = pimc.chances()
    after = chances[played]
    others = [a for a in pimc.alive if a != played]  # judged on every world, like the move played
    rival = max(others, key=lambda a: (chances[a], str(a)))
    if chances[rival] <= after:
        return Verdict(decision.move, decision.seat, played, played, after, after, 0.0, False, GOOD,
                       _estimated_message(played, played, after, after, GOOD))
    n = pimc.count[rival]
    gain = pimc.gain[rival] / n  # the paired difference in outcome units (-2..2): twice the chance's
    spread = math.sqrt(max(0.0, pimc.gain_squares[rival] / n - gain * gain) / n) / 2
    before = chances[rival]
    grade = grade_of(before - after, spread)
    return Verdict(decision.move, decision.seat, played, rival, before, after, spread, False,
                   grade, _estimated_message(played, rival, after, before, grade))


def _percent(chance: float) -> int:
    """An estimate shown as a percentage is never 0 or 100: it is an estimate."""
    return min(99, max(1, round(100 * chance)))


def _estimated_message(played: Action, best: Action, after: float, best_chance: float, grade: str) -> Message:
    params: dict[str, Any] = {"played": str(played), "best": str(best), "percent": _percent(after),
                              "best_percent": _percent(best_chance)}
    if best == played:
        code = "review.best"
    elif grade == GOOD:
        code = "review.close"
    else:
        code = "review.worse"
        params["points"] = round(100 * (best_chance - after))
    return Message(code, params, CODES[code].format(**params))


#: (before, after) of a proven verdict -> its code.
PROVEN_CODES = {
    (1.0, 1.0): "review.keeps_win",
    (0.5, 0.5): "review.keeps_draw",
    (1.0, 0.5): "review.win_to_draw",
    (1.0, 0.0): "review.throws_win",
    (0.5, 0.0): "review.loses_draw",
    (0.0, 0.0): "review.already_lost",
}
#: Every verdict line: its code and English sentence. ``played`` and ``best`` are actions in notation
#: ("defend 8H 9H"), which a page puts into words; ``percent``, ``best_percent`` and ``points`` are ints.
CODES = {
    "review.best": "{played}: the best move found (win chance {percent}%)",
    "review.close": "{played}: as good as {best} within the engine's accuracy ({percent}% against {best_percent}%)",
    "review.worse": "{played} costs {points} points of win chance: {best} keeps {best_percent}% against {percent}%",
    "review.keeps_win": "{played} keeps the win: the endgame is won for certain",
    "review.keeps_draw": "{played} holds the draw: with best play the endgame is drawn",
    "review.win_to_draw": "{played} lets a won endgame slip to a draw: {best} wins for certain",
    "review.throws_win": "{played} throws away a won endgame: {best} wins for certain",
    "review.loses_draw": "{played} loses a drawn endgame: {best} holds the draw",
    "review.already_lost": "The endgame was already lost: no move saves it against perfect play",
}


def _proven_message(played: Action, best: Action, before: float, after: float) -> Message:
    code = PROVEN_CODES[before, after]
    params: dict[str, Any] = {"played": str(played), "best": str(best)}
    return Message(code, params, CODES[code].format(**params))
