"""Determinized Monte Carlo (PIMC): judge each candidate move by playing sampled worlds to the end.

Every sampled world is played once per candidate with the same playout randomness (common random
numbers), so candidates are compared on identical deals and the noise of the deal cancels. Sequential
halving drops the weaker half of the candidates at 8, 16, 32 … worlds to spend the time on the close
calls. Hard cannot know who it faces, so each playout imagines one of three opponents: normal making
the chance estimates it makes at the table (which cards the defender can beat), normal without them, or a
beginner playing easy's rules (lowest card first, the lowest card that beats, take what cannot be beaten).
Its own side always plays normal's rules of thumb. In the arena the estimating model alone gained against
normal but lost against easy; imagining the beginner as well gained against easy at no measurable cost
against normal (docs/ai.md).
"""

from __future__ import annotations

import math
from collections.abc import Generator, Iterator
from random import Random

from ..actions import TAKE_ACTION, Action
from ..game import Game
from .easy import choose_easy
from .endgame import DRAW, outcome
from .normal import choose_normal
from .sampler import Sampler
from .situation import Situation

#: How many standard errors another move must gain over the heuristic's pick to replace it.
MARGIN = 1.0
#: Sequential halving starts after this many worlds (then at every doubling).
HALVING_FROM = 8
#: A playout longer than this is a loop bug in a policy: score it as a draw rather than hang.
PLAYOUT_CAP = 2000
#: Share of the playouts whose opponents play as a beginner, by easy's rules.
BEGINNER_SHARE = 1 / 3
#: Share of the playouts whose players make normal's chance estimates (``informed``); the rest play blind.
INFORMED_SHARE = 0.5


def playout(game: Game, team: int, rng: Random, noise: float) -> Generator[None, None, int]:
    """Play ``game`` to its end for ``team``: normal's rules, the opponents perhaps a beginner's (a ``noise``
    share of random moves).

    ``rng`` decides first whether the opponents play as beginners, then whether normal's players make its
    chance estimates, so every candidate played on one world with the same seed meets the same opponents.
    Yields every few moves so that a long playout cannot overrun a browser's time slice.
    """
    beginner = rng.random() < BEGINNER_SHARE
    situation = informed if rng.random() < INFORMED_SHARE else blind
    for move in range(PLAYOUT_CAP):
        if game.result is not None:
            return outcome(game, team)
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        if len(legal) == 1:
            action = legal[0]
        elif noise and rng.random() < noise:
            action = rng.choice(legal)
        elif beginner and game.rules.team_of(seat) != team:
            action = choose_easy(Situation.of_game(game, seat), legal)
        else:
            action = choose_normal(situation(game, seat, legal), legal)
        game.apply(seat, action)
        if move & 31 == 31:
            yield
    return DRAW


def blind(game: Game, seat: int, legal: list[Action]) -> Situation:
    """``seat``'s situation in a playout without chance estimates: normal's attacks judged by cost alone."""
    return Situation.of_game(game, seat)


def informed(game: Game, seat: int, legal: list[Action]) -> Situation:
    """``seat``'s situation in a playout, with the chance estimates normal makes at the table.

    Normal judges its attacks by the chance that the defender can beat them, from the cards it cannot
    see; here those are the other hands and the talon below its exposed trump, the defender's whole hand
    counted as hidden (playouts do not track what it picked up). A defence needs no estimate.
    """
    situation = Situation.of_game(game, seat)
    defender = game.defender
    if TAKE_ACTION in legal or defender is None or defender == seat:
        return situation
    unseen = [card for other, hand in enumerate(game.hands) if other != seat for card in hand]
    talon = game.talon
    unseen += talon[:-1] if game.trump_exposed and talon else talon
    return situation._replace(unseen=unseen, defender_hidden=len(game.hands[defender]))


class Pimc:
    """Running statistics of the candidates; ``run`` yields after every playout so it can be sliced.

    The first candidate is the heuristic's own pick, the baseline: another move replaces it only when
    it wins on the same worlds by more than ``MARGIN`` standard errors. With a few dozen worlds the best
    average is often luck, and following luck is worse than following the rules of thumb.
    """

    def __init__(self, sampler: Sampler, me: int, team: int, candidates: list[Action], rng: Random) -> None:
        self.sampler = sampler
        self.me = me
        self.team = team
        self.baseline = candidates[0]
        self.alive = list(candidates)
        self.total = dict.fromkeys(candidates, 0.0)
        self.count = dict.fromkeys(candidates, 0)
        self.gain = dict.fromkeys(candidates, 0.0)  # sums of (result - baseline's) on the same world
        self.gain_squares = dict.fromkeys(candidates, 0.0)
        self.rng = rng
        self.worlds = 0
        # one world only (every card known): vary the playouts instead
        self.noise = 0.1 if sampler.certain else 0.0

    def mean(self, action: Action) -> float:
        return self.total[action] / self.count[action] if self.count[action] else 0.0

    def run(self, worlds: int | None) -> Iterator[None]:
        """Sample worlds until ``worlds`` (``None``: until the caller stops pulling)."""
        world: Game | None = None
        while worlds is None or self.worlds < worlds:
            if world is None or not self.sampler.certain:
                world = self.sampler.world(self.rng)
            seed = self.rng.getrandbits(32)
            results: dict[Action, int] = {}
            for action in self.alive:
                game = world.copy()
                game.apply(self.me, action)
                results[action] = yield from playout(game, self.team, Random(seed), self.noise)
                yield
            base = results[self.baseline]
            for action, value in results.items():  # a world counts once complete: like for like
                self.total[action] += value
                self.count[action] += 1
                self.gain[action] += value - base
                self.gain_squares[action] += (value - base) ** 2
            self.worlds += 1
            if self.worlds >= HALVING_FROM and self.worlds & (self.worlds - 1) == 0 and len(self.alive) > 2:
                ranked = sorted(self.alive, key=lambda a: -self.mean(a))[: max(2, len(self.alive) // 2)]
                self.alive = [a for a in self.alive if a in ranked or a is self.baseline]

    def best(self) -> Action:
        """The best surviving candidate if it clearly beats the baseline, else the baseline."""
        top = max(self.alive, key=self.mean)
        n = self.count[top]
        if top is self.baseline or n == 0:
            return self.baseline
        gain = self.gain[top] / n
        spread = math.sqrt(max(0.0, self.gain_squares[top] / n - gain * gain) / n)
        return top if gain > MARGIN * spread else self.baseline

    def chances(self) -> dict[Action, float]:
        """Each candidate's estimated chance to win, draws counted half."""
        return {a: (self.mean(a) + 1) / 2 for a in self.total if self.count[a]}
