"""The players behind ``make_player``: one interface for every level, sliced or not.

A player sees only a view and the legal actions. ``start`` returns a thinker that works in steps
of a few milliseconds, so a browser's main thread can interleave thinking and drawing; ``choose``
runs the same thinker to the end.
"""

from __future__ import annotations

from random import Random
from typing import Any, Protocol

from ..actions import Action
from .cheating import choose_accusation, choose_cheat
from .easy import choose_easy
from .hard import HardThinker, fingerprint
from .normal import choose_normal
from .seen import Seen
from .situation import Situation

LEVELS = ("random", "easy", "normal", "hard")


class Thinker(Protocol):
    """A decision in progress: ``step`` until it returns True, then read ``best``."""

    def step(self, max_seconds: float = 0.03) -> bool: ...

    def best(self) -> Action: ...


class Decided:
    """A thinker whose decision is already made (the quick levels)."""

    def __init__(self, action: Action) -> None:
        self.action = action

    def step(self, max_seconds: float = 0.03) -> bool:
        return True

    def best(self) -> Action:
        return self.action


class Cheating:
    """A thinker whose finished decision may turn into a cheat (cheat mode): decided once, at the end."""

    def __init__(self, inner: Thinker, level: str, seed: int, view: dict[str, Any], legal: list[Action],
                 cheats: list[Action]) -> None:
        self.inner, self.level, self.seed = inner, level, seed
        self.view, self.legal, self.cheats = view, legal, cheats
        self.action: Action | None = None

    def step(self, max_seconds: float = 0.03) -> bool:
        return self.inner.step(max_seconds)

    def best(self) -> Action:
        if self.action is None:
            self.action = choose_cheat(self.level, self.seed, self.view, self.inner.best(), self.legal, self.cheats)
        return self.action


class Player:
    """An AI player of one level."""

    def __init__(self, level: str, seed: int, iterations: int | None, time_budget: float) -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown AI level {level!r}: choose {', '.join(LEVELS)}")
        if iterations is not None and iterations < 1:
            raise ValueError(f"iterations must be at least 1, not {iterations!r}")
        self.level = level
        self.seed = seed
        self.iterations = iterations
        self.time_budget = time_budget

    def start(self, view: dict[str, Any], legal: list[Action], cheats: list[Action] | None = None, *,
              time_budget: float | None = None) -> Thinker:
        """Begin a decision; the quick levels are done at once. With ``cheats`` (cheat mode: ``game.cheats``),
        the decision may end as one of them. ``time_budget``, when given, replaces the player's own for this
        decision (a table that waits anyway before showing the move lets hard think through the wait)."""
        if not legal:
            raise ValueError("no legal action to choose from: this seat is not to act")
        if time_budget is not None and not time_budget > 0:
            raise ValueError(f"time_budget must be a positive number of seconds, not {time_budget!r}")
        if cheats:
            inner = self.start(view, legal, time_budget=time_budget)
            return Cheating(inner, self.level, self.seed, view, legal, list(cheats))
        if self.level == "hard":
            budget = self.time_budget if time_budget is None else time_budget
            return HardThinker(view, legal, self.seed, self.iterations, budget)
        legal = sorted(legal)  # the engine's order follows its hand order, which a view does not show
        if self.level == "random":
            return Decided(Random(fingerprint(self.seed, view)).choice(legal))
        situation = Situation.of_seen(Seen.read(view))
        choose = choose_easy if self.level == "easy" else choose_normal
        return Decided(choose(situation, legal))

    def choose(self, view: dict[str, Any], legal: list[Action], cheats: list[Action] | None = None) -> Action:
        """The action to play: one of ``legal``, or now and then one of ``cheats`` when it gains by it."""
        thinker = self.start(view, legal, cheats)
        while not thinker.step(float("inf") if self.iterations is not None else 1.0):
            pass
        return thinker.best()

    def accuse(self, view: dict[str, Any], accusations: list[Action]) -> Action | None:
        """One of ``accusations`` (``game.accusations``) naming a cheat this player noticed, or None.

        The chance of noticing depends on the level; the same view always gets the same answer."""
        return choose_accusation(self.level, self.seed, view, accusations)


def make_player(level: str, seed: int = 0, iterations: int | None = None, time_budget: float = 0.2) -> Player:
    """A player of ``level``: "easy", "normal", "hard" (or "random", a yardstick).

    ``iterations`` makes the hard player reproducible: that many sampled worlds per decision instead of
    ``time_budget`` seconds of thinking.
    """
    return Player(level, seed, iterations, time_budget)
