"""The few facts a rule-of-thumb player decides on, read from a view or, inside search, from a game.

Heuristic players and search playouts share one decision code; this small record is what lets the
same code run on a real player's view and on the sampled games the hard player imagines.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, NamedTuple

from ..cards import DECK_LOWEST_RANK, Card
from .seen import Seen

if TYPE_CHECKING:
    from ..game import Game


class Situation(NamedTuple):
    """What the acting player knows that matters for a quick decision."""

    hand: Sequence[Card]
    trump: int
    lowest: int
    talon: int
    fresh: float  # talon left as a share of the talon after the deal: 1 early, 0 once empty
    attacks: Sequence[Card]
    defences: Sequence[Card | None]
    taking: bool
    prostoy: bool
    hand_size: int
    defender_held: frozenset[Card]  # cards everybody knows the defender holds
    unseen: Sequence[Card] | None  # None: skip the chance estimates (fast playouts)
    defender_hidden: int

    @classmethod
    def of_seen(cls, seen: Seen) -> Situation:
        rules = seen.rules
        attacks = tuple(a for a, _ in seen.table)
        defender = seen.defender
        return cls(
            hand=seen.hand,
            trump=seen.trump,
            lowest=seen.lowest_rank,
            talon=seen.talon,
            fresh=freshness(seen.talon, rules.deck, rules.players, rules.hand_size),
            attacks=attacks,
            defences=tuple(d for _, d in seen.table),
            taking=seen.taking,
            prostoy=rules.variant == "prostoy",
            hand_size=rules.hand_size,
            defender_held=seen.known[defender] if defender is not None else frozenset(),
            unseen=tuple(seen.unseen),
            defender_hidden=seen.hidden_count(defender) if defender is not None else 0,
        )

    @classmethod
    def of_game(cls, game: Game, seat: int) -> Situation:
        """From a sampled game, seeing only what ``seat`` would: no chance estimates, no peeking."""
        rules = game.rules
        talon = len(game.talon)
        return cls(
            hand=game.hands[seat],
            trump=game.trump_index,
            lowest=DECK_LOWEST_RANK[rules.deck],
            talon=talon,
            fresh=freshness(talon, rules.deck, rules.players, rules.hand_size),
            attacks=game.attacks,
            defences=game.defences,
            taking=game.taking,
            prostoy=rules.variant == "prostoy",
            hand_size=rules.hand_size,
            defender_held=frozenset(),
            unseen=None,
            defender_hidden=0,
        )

    @property
    def ranks(self) -> int:
        """How many ranks the deck has (9 for 36 cards)."""
        return 15 - self.lowest


def freshness(talon: int, deck: int, players: int, hand_size: int) -> float:
    full = deck - players * hand_size
    return talon / full if full > 0 else 0.0
