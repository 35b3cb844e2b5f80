"""Deal the cards I cannot see into a full game that agrees with everything I know.

Each hidden card goes to a place (another seat's hidden slots or the talon) with chance proportional
to the free slots there times the history's likelihood for that seat; with no evidence this is exactly
a uniform deal. The result is always consistent with the view: own hand, known cards, hand sizes, the
exposed trump at the bottom of the talon.
"""

from __future__ import annotations

from random import Random

from ..cards import Card
from ..game import Game
from .seen import Seen


class Sampler:
    """Draws worlds for one view; the setup work is done once per decision."""

    def __init__(self, seen: Seen, weights: list[dict[Card, float]]) -> None:
        self.seen = seen
        self.cards = sorted(seen.unseen)
        self.weights = weights
        self.slots = [0 if seat == seen.me else seen.hidden_count(seat) for seat in range(seen.players)]
        self.slots.append(seen.hidden_talon)  # the last place is the talon
        if sum(self.slots) != len(self.cards):
            raise ValueError(
                f"view does not add up: {len(self.cards)} unseen cards for {sum(self.slots)} hidden places"
            )

    @property
    def certain(self) -> bool:
        """Whether there is a single world: the hidden cards all lie in one hand (or one in the talon).

        Several hidden talon cards are never certain, even with every hand known: their order is not.
        """
        return sum(1 for free in self.slots if free) <= 1 and self.slots[-1] <= 1

    def deal(self, rng: Random) -> tuple[list[list[Card]], list[Card]]:
        """One assignment: every seat's full hand, and the talon top first."""
        seen = self.seen
        free = self.slots[:]
        places: list[list[Card]] = [[] for _ in free]
        order = self.cards[:]
        rng.shuffle(order)
        talon_place = len(free) - 1
        for card in order:
            odds = [
                slots * (self.weights[place].get(card, 1.0) if place < talon_place else 1.0)
                for place, slots in enumerate(free)
            ]
            place = _pick(odds, rng.random() * sum(odds))
            places[place].append(card)
            free[place] -= 1
        hands = [
            list(seen.hand) if seat == seen.me else sorted(seen.known[seat]) + places[seat]
            for seat in range(seen.players)
        ]
        talon = places[talon_place]
        if seen.trump_exposed and seen.talon and seen.trump_card is not None:
            talon.append(seen.trump_card)
        return hands, talon

    def world(self, rng: Random) -> Game:
        hands, talon = self.deal(rng)
        return Game.from_view(self.seen.view, hands, talon)


def _pick(odds: list[float], point: float) -> int:
    """The place whose share of the odds contains ``point`` (never one with no odds left)."""
    for place, odd in enumerate(odds):
        if point < odd:
            return place
        point -= odd
    return max(place for place, odd in enumerate(odds) if odd > 0)
