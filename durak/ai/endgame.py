"""Exact play once every card is known (talon empty, one opponent's hand left to deduce).

Alpha-beta over the engine's own games (so every variant's rules hold exactly), values -1 loss,
0 draw, +1 win for the solving side. A transposition table keyed by the whole public-and-private
state lets a search that ran out of budget resume where it stopped: the browser can solve in slices.
"""

from __future__ import annotations

import time
from collections.abc import Hashable
from functools import cache

from ..actions import ATTACK, DEFEND, PASS, TAKE, Action
from ..cards import DECK_LOWEST_RANK
from ..game import Game
from .tactics import strength

WIN, DRAW, LOSS = 1, 0, -1
#: Only subtrees at least this large are remembered: small ones are cheaper to search again.
REMEMBER = 8


class OutOfBudget(Exception):
    """The node or time budget ran out; the table keeps what was proved so far."""


def outcome(game: Game, team: int) -> int:
    """A finished game's value for ``team``."""
    result = game.result
    assert result is not None
    if result.draw:
        return DRAW
    rules = game.rules
    return LOSS if any(rules.team_of(s) == team for s in result.losers) else WIN


def state_key(game: Game) -> Hashable:
    """Everything that decides the rest of the game (not how it got here)."""
    return (
        tuple(map(tuple, map(sorted, game.hands))),
        tuple(game.attacks),
        tuple(game.defences),
        game.to_act,
        game.attacker,
        game.defender,
        game.opener,
        game.taking,
        tuple(sorted(game.passed)),  # plain tuples of ints: the garbage collector can skip them
        game.limit,
        tuple(game.active),
        tuple(game.talon),
        game.first_round,
    )


class Solver:
    """Proves the value of a perfect-information position for one team."""

    def __init__(self, team: int) -> None:
        self.team = team
        self.table: dict[Hashable, tuple[int, int]] = {}
        self.nodes = 0
        self._path: set[Hashable] = set()
        self._limit = 0
        self._deadline = 0.0

    def solve(
        self, game: Game, nodes: int, deadline: float = float("inf"), every: bool = False
    ) -> list[tuple[Action, int]]:
        """Legal moves with their values, best first for the side to act; raises ``OutOfBudget``.

        Only the first value is exact unless ``every``: once a move wins, the others are just shown
        to be no better.
        """
        self._limit = self.nodes + nodes
        self._deadline = deadline
        seat = game.to_act
        assert seat is not None
        mine = game.rules.team_of(seat) == self.team
        values: list[tuple[Action, int]] = []
        alpha, beta = LOSS, WIN
        for action in ordered(game, seat):
            child = game.copy()
            child.apply(seat, action)
            value = self._search(child, alpha, beta)
            values.append((action, value))
            if every:
                continue
            if mine:
                alpha = max(alpha, value)
            else:
                beta = min(beta, value)
            if alpha >= beta:
                break
        values.sort(key=lambda item: -item[1] if mine else item[1])
        return values

    def _search(self, game: Game, alpha: int, beta: int) -> int:
        if game.result is not None:
            return outcome(game, self.team)
        self.nodes += 1
        if self.nodes > self._limit or (self.nodes & 63 == 0 and time.perf_counter() > self._deadline):
            raise OutOfBudget
        key = state_key(game)
        if key in self._path:
            return DRAW  # cards can circulate for ever (transfers, takes): a repetition is a draw
        known = self.table.get(key)
        if known is not None:
            low, high = known
            if low >= beta or low == high:
                return low
            if high <= alpha:
                return high
            alpha, beta = max(alpha, low), min(beta, high)
        start = self.nodes
        seat = game.to_act
        assert seat is not None
        mine = game.rules.team_of(seat) == self.team
        first_alpha, first_beta = alpha, beta
        best = LOSS if mine else WIN
        self._path.add(key)
        try:
            for action in ordered(game, seat):
                child = game.copy()
                child.apply(seat, action)
                value = self._search(child, alpha, beta)
                if mine:
                    if value > best:
                        best = value
                        alpha = max(alpha, value)
                elif value < best:
                    best = value
                    beta = min(beta, value)
                if alpha >= beta:
                    break
        finally:
            self._path.discard(key)
        if self.nodes - start >= REMEMBER or known is not None:
            low, high = known or (LOSS, WIN)
            if best <= first_alpha:
                high = min(high, best)
            elif best >= first_beta:
                low = max(low, best)
            else:
                low = high = best
            self.table[key] = (low, high)
        return best


_KIND_ORDER = {DEFEND: 0, ATTACK: 1, PASS: 2, TAKE: 3}


class _SortKeys(dict[Action, tuple[int, int, int]]):
    """Each action's sort key under one trump and deck, worked out the first time the action is met: the
    same interned actions come back at every node of a search."""

    def __init__(self, trump: int, lowest: int) -> None:
        super().__init__()
        self._worth = tuple(strength(card, trump, lowest) for card in range(64))

    def __missing__(self, action: Action) -> tuple[int, int, int]:
        cards = action.cards[1:] if action.kind == DEFEND else action.cards
        key = _KIND_ORDER.get(action.kind, 1), -len(cards), max((self._worth[c] for c in cards), default=0)
        self[action] = key
        return key


@cache
def _sort_keys(trump: int, lowest: int) -> _SortKeys:
    """The one table of sort keys for this trump and deck, kept for the process (twelve at most)."""
    return _SortKeys(trump, lowest)


def ordered(game: Game, seat: int) -> list[Action]:
    """Likely-best moves first (cheap cards first, take last), which makes cut-offs come early."""
    legal = game.legal_actions(seat)
    if len(legal) < 2:
        return list(legal)
    return sorted(legal, key=_sort_keys(game.trump_index, DECK_LOWEST_RANK[game.rules.deck]).__getitem__)
