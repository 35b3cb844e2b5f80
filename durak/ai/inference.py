"""What the public history says about hidden hands: soft evidence for sampling them.

Players spend their cheapest cards first, so each card they show hints at the cards they lack:
- one who took rather than beat a card probably held no cheap card of its suit above it, and no trump
  below the two highest (a sound player keeps only those back when it takes on purpose);
- one who beat a plain card with a trump probably held none of that suit above it;
- one who beat a card probably held nothing that beat it more cheaply;
- one who opened a bout probably held nothing cheaper than the card it led (its latest lead only: it has
  drawn since the earlier ones).
These are likelihoods, not certainties (players take on purpose, keep a pair, lead what cannot be
beaten), so they only weigh the sampling, never forbid a card. The weights were set by how well the
sampled hands matched the real ones in games against normal and easy (docs/ai.md).
"""

from __future__ import annotations

from ..actions import ACCUSE, ATTACK, DEFEND, PASS, TAKE, TRANSFER, Action
from ..cards import Card, deck
from .seen import Seen
from .tactics import strength

#: Weight of a card a seat probably lacks: it is sampled into that seat this much less often.
TOOK_CHEAP = 0.15
TOOK_DEAR = 0.5
TRUMPED = 0.4
CHEAP_STEPS = 4
#: A trump below this many top ranks would have beaten the plain card its holder took.
TOOK_UNDER_TOP_TRUMPS = 0.2
KEPT_TRUMP_RANKS = 2
#: A card that would have beaten the same attack more cheaply than the card played.
PASSED_OVER = 0.15
#: A card cheaper than the one the seat last opened a bout with.
LED_OVER = 0.2


class _Evidence:
    """Per-seat weights, multiplied as the history is read."""

    def __init__(self, seen: Seen) -> None:
        self.unseen = seen.unseen
        self.trump = seen.trump
        self.lowest = seen.lowest_rank
        self.top_rank = max(c.rank for c in deck(seen.rules.deck))
        self.weights: list[dict[Card, float]] = [{} for _ in range(seen.players)]

    def lower(self, seat: int, cards: list[Card], factor: float) -> None:
        table = self.weights[seat]
        for card in cards:
            table[card] = table.get(card, 1.0) * factor

    def worth(self, card: Card) -> int:
        return strength(card, self.trump, self.lowest)

    def above(self, attack: Card) -> list[Card]:
        """Unseen cards of ``attack``'s suit that beat it."""
        return [c for c in self.unseen if c & 3 == attack & 3 and c > attack]

    def took(self, seat: int, unbeaten: set[Card]) -> None:
        for attack in unbeaten:
            for card in self.above(attack):
                cheap = card.rank - attack.rank <= CHEAP_STEPS
                self.lower(seat, [card], TOOK_CHEAP if cheap else TOOK_DEAR)
        if len(unbeaten) == 1 and next(iter(unbeaten)) & 3 != self.trump:
            low_trumps = [c for c in self.unseen if c & 3 == self.trump and c.rank <= self.top_rank - KEPT_TRUMP_RANKS]
            self.lower(seat, low_trumps, TOOK_UNDER_TOP_TRUMPS)

    def beat(self, seat: int, attack: Card, defence: Card) -> None:
        trumped = defence & 3 == self.trump and attack & 3 != self.trump
        if trumped:
            self.lower(seat, self.above(attack), TRUMPED)
        cheaper = [
            c for c in self.unseen
            if c & 3 == defence & 3 and c < defence and (trumped or c > attack)
        ]
        self.lower(seat, cheaper, PASSED_OVER)

    def led(self, seat: int, cards: tuple[Card, ...]) -> None:
        least = min(self.worth(c) for c in cards)
        self.lower(seat, [c for c in self.unseen if self.worth(c) < least], LED_OVER)


def likelihoods(seen: Seen) -> list[dict[Card, float]]:
    """Per seat, weights below 1 for cards the history suggests it does not hold."""
    evidence = _Evidence(seen)
    unbeaten: set[Card] = set()
    bout_ranks: set[int] = set()
    latest_lead: dict[int, tuple[Card, ...]] = {}
    previous: Action | None = None
    for seat, action in seen.history:
        kind = action.kind
        if kind == PASS:
            unbeaten.clear()  # a pass means every card is beaten or the defender already took
        elif kind in (ATTACK, TRANSFER):
            ranks = {c.rank for c in action.cards}
            if kind == ATTACK and _opens_bout(seen, previous, ranks, bout_ranks):
                unbeaten.clear()
                bout_ranks.clear()
                latest_lead[seat] = action.cards
            bout_ranks |= ranks
            unbeaten.update(action.cards)
        elif kind == DEFEND:
            attack, defence = action.cards
            unbeaten.discard(attack)
            bout_ranks.add(defence.rank)
            evidence.beat(seat, attack, defence)
        elif kind == TAKE:
            evidence.took(seat, unbeaten)
            unbeaten.clear()
        elif kind == ACCUSE:
            unbeaten.clear()  # cheat mode: an accusation ends the bout
        previous = action
    for seat, cards in latest_lead.items():
        evidence.led(seat, cards)
    return evidence.weights


def _opens_bout(seen: Seen, previous: Action | None, ranks: set[int], bout_ranks: set[int]) -> bool:
    """Whether an attack starts a bout: a throw-in must match a rank on the table, so one that does not
    opens; so does the first attack of the game, every Prostoy attack, and a heads-up attack after a pass.
    """
    if previous is None or seen.rules.variant == "prostoy" or not ranks & bout_ranks:
        return True
    return seen.players == 2 and previous.kind == PASS
