"""What the public history says about hidden hands: soft evidence for sampling them.

A player who took rather than beat a card probably held no cheap card of its suit above it; one who
beat a plain card with a trump probably held none of that suit. These are likelihoods, not certainties
(players take on purpose), so they only weigh the sampling, never forbid a card.
"""

from __future__ import annotations

from ..actions import ACCUSE, ATTACK, DEFEND, PASS, TAKE, TRANSFER
from ..cards import Card
from .seen import Seen

#: Weight of a card a seat probably lacks: it is sampled into that seat this much less often.
TOOK_CHEAP = 0.15
TOOK_DEAR = 0.5
TRUMPED = 0.4
CHEAP_STEPS = 4


def likelihoods(seen: Seen) -> list[dict[Card, float]]:
    """Per seat, weights below 1 for cards the history suggests it does not hold."""
    weights: list[dict[Card, float]] = [{} for _ in range(seen.players)]
    unbeaten: set[Card] = set()
    prostoy = seen.rules.variant == "prostoy"
    trump = seen.trump
    unseen = seen.unseen

    def lower(seat: int, card: Card, factor: float) -> None:
        if card in unseen:
            table = weights[seat]
            table[card] = table.get(card, 1.0) * factor

    def above(attack: Card) -> list[Card]:
        return [c for c in unseen if c & 3 == attack & 3 and c > attack]

    for seat, action in seen.history:
        kind = action.kind
        if kind == PASS:
            unbeaten.clear()  # a pass means every card is beaten or the defender already took
        elif kind == ATTACK:
            if prostoy:
                unbeaten.clear()  # every Prostoy attack opens a round
            unbeaten.update(action.cards)
        elif kind == TRANSFER:
            unbeaten.update(action.cards)
        elif kind == DEFEND:
            attack, defence = action.cards
            unbeaten.discard(attack)
            if defence & 3 == trump and attack & 3 != trump:
                for card in above(attack):
                    lower(seat, card, TRUMPED)
        elif kind == TAKE:
            for attack in unbeaten:
                for card in above(attack):
                    cheap = card.rank - attack.rank <= CHEAP_STEPS
                    lower(seat, card, TOOK_CHEAP if cheap else TOOK_DEAR)
            unbeaten.clear()
        elif kind == ACCUSE:
            unbeaten.clear()  # cheat mode: an accusation ends the bout
    return weights
