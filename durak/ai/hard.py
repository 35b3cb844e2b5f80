"""Hard: searches (RULES.md §6). Exact endgames when every card is known, sampled worlds otherwise.

The thinking is a generator that yields after each small unit of work (a playout, a slice of the
endgame proof), so ``step`` can stop within a few milliseconds and the browser stays responsive;
the same code runs to completion for ``choose``.
"""

from __future__ import annotations

import json
import time
import zlib
from collections.abc import Generator, Iterator
from random import Random
from typing import Any

from ..actions import ATTACK, DEFEND, EXCHANGE_ACTION, Action
from ..game import Game
from .endgame import DRAW, WIN, OutOfBudget, Solver
from .inference import likelihoods
from .normal import choose_normal
from .sampler import Sampler
from .search import Pimc
from .seen import Seen
from .situation import Situation
from .tactics import strength

#: Most moves searched at once; the rest are variations of these (another card of the same worth).
MAX_CANDIDATES = 10
#: Endgame proof size in iteration mode: about 1 s of CPython at the worst.
ENDGAME_NODES = 60_000
#: In time mode the endgame proof may take this many times the usual budget (exact play is worth it);
#: if it fails, the sampled search still gets its usual budget after it.
ENDGAME_PROOF_SHARE = 2.0


def fingerprint(seed: int, view: dict[str, Any]) -> int:
    """A seed that depends only on the player's seed and what it sees: same view, same decision."""
    return zlib.crc32(json.dumps(view, sort_keys=True).encode()) ^ (seed * 0x9E3779B1 & 0xFFFFFFFF)


def candidates(seen: Seen, legal: list[Action], first: Action) -> list[Action]:
    """The moves worth searching: the heuristic's pick first, then one of each kind of idea.

    Beyond ``MAX_CANDIDATES`` moves, defences are represented by the cheapest plain and the cheapest
    trump answer to each attack, multi-card attacks by the lowest of each size, and single cards by
    the cheapest ones: the rest differ only by a card of nearly the same worth.
    """
    if len(legal) <= MAX_CANDIDATES:
        return [first, *(a for a in legal if a is not first)]
    trump, lowest = seen.trump, seen.lowest_rank
    plain: list[Action] = []
    kinds: dict[tuple[Any, ...], Action] = {}
    singles: list[Action] = []
    for action in legal:
        if action.kind == DEFEND:
            attack, defence = action.cards
            key: tuple[Any, ...] = (DEFEND, attack, defence & 3 == trump)
            current = kinds.get(key)
            if current is None or defence < current.cards[1]:
                kinds[key] = action
        elif action.kind == ATTACK and len(action.cards) > 1:
            key = (ATTACK, len(action.cards))
            current = kinds.get(key)
            if current is None or max(action.cards) < max(current.cards):
                kinds[key] = action
        elif action.cards:
            singles.append(action)
        else:
            plain.append(action)
    singles.sort(key=lambda a: strength(a.cards[0], trump, lowest))
    return list(dict.fromkeys([first, *plain, *kinds.values(), *singles]))[:MAX_CANDIDATES]


class HardThinker:
    """One decision in progress."""

    def __init__(
        self, view: dict[str, Any], legal: list[Action], seed: int, iterations: int | None,
        time_budget: float, every: bool = False,
    ) -> None:
        self.seen = Seen.read(view)
        self.legal = sorted(legal)  # the engine's order follows its hand order, which a view does not show
        self.iterations = iterations
        self.budget = time_budget
        self.every = every  # analysis: value every legal move, not just find the best
        self.rng = Random(fingerprint(seed, view))
        self.choice = choose_normal(Situation.of_seen(self.seen), self.legal)
        self.values: dict[Action, float] = {}
        self.proven = False  # values are exact: the endgame proof finished
        self.done = False
        self.spent = 0.0
        self.started = 0.0
        self.deadline = 0.0
        self.pimc: Pimc | None = None
        self._work = self._think()

    def step(self, max_seconds: float = 0.03) -> bool:
        """Think for about ``max_seconds``; True once the decision is made."""
        self.started = time.perf_counter()
        self.deadline = self.started + max_seconds
        while not self.done:
            if self.iterations is None:
                self.deadline = min(self.deadline, self.started + self.budget - self.spent)
            try:
                next(self._work)
            except StopIteration:
                self.done = True
            if time.perf_counter() >= self.deadline:
                break
        self.spent = self.elapsed()
        if self.iterations is None and self.spent >= self.budget:
            self.done = True
        if self.done and self.pimc is not None:
            self.choice = self.pimc.best()
            self.values.update(self.pimc.chances())
        return self.done

    def best(self) -> Action:
        return self.choice

    def elapsed(self) -> float:
        """Thinking time so far, this step included (the browser's pauses between steps are not)."""
        return self.spent + time.perf_counter() - self.started

    def _think(self) -> Iterator[None]:
        seen = self.seen
        if not self.every and (len(self.legal) == 1 or EXCHANGE_ACTION in self.legal):
            if EXCHANGE_ACTION in self.legal:
                self.choice = EXCHANGE_ACTION  # a higher trump for the six: never worse
            return
        sampler = Sampler(seen, likelihoods(seen))
        team = seen.rules.team_of(seen.me)
        if sampler.certain and sum(seen.active) == 2:
            usual = self.budget
            self.budget = usual * ENDGAME_PROOF_SHARE
            solved = yield from self._solve(sampler.world(self.rng), team)
            if solved:
                return
            self.budget = self.elapsed() + usual
        moves = self.legal if self.every else candidates(seen, self.legal, self.choice)
        self.pimc = Pimc(sampler, seen.me, team, moves, self.rng)
        yield from self.pimc.run(self.iterations)

    def _solve(self, world: Game, team: int) -> Generator[None, None, bool]:
        """Prove the best move exactly; False when the budget runs out or every move loses.

        A proof cut short by the end of a step resumes from the solver's table in the next step.
        """
        solver = Solver(team)
        budget = None if self.iterations is None else ENDGAME_NODES
        while True:
            try:
                nodes = 1 << 40 if budget is None else budget - solver.nodes
                values = solver.solve(world, nodes, self.deadline, every=self.every)
                break
            except OutOfBudget:
                spent = (solver.nodes >= budget) if budget is not None else (self.elapsed() >= self.budget)
                if spent:
                    return False
                yield
        self.values = {a: (v + 1) / 2 for a, v in values}
        if values[0][1] in (WIN, DRAW) or self.every:
            self.proven = True
            self.choice = values[0][0]
            return True
        return False  # lost against perfect play: let sampled play find the likeliest slip
