"""Card arithmetic the players share: what a card is worth, what beats what, what it costs to cover."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..cards import Card, beats


def strength(card: int, trump: int, lowest: int) -> int:
    """A card's worth in play: rank above the deck's lowest, every trump above every plain card."""
    value = (card >> 2) + 2 - lowest
    return value + 15 - lowest if card & 3 == trump else value


def beaters(attack: int, cards: Iterable[Card], trump: int, lowest: int) -> list[Card]:
    """The cards that beat ``attack``, cheapest first."""
    return sorted((c for c in cards if beats(c, attack, trump)), key=lambda c: strength(c, trump, lowest))


def cheapest_cover(
    attacks: Sequence[Card], hand: Sequence[Card], trump: int, lowest: int
) -> list[tuple[Card, Card]] | None:
    """Beat every attack with distinct hand cards at the least total worth, or ``None`` if impossible.

    Branch and bound: a table holds at most six attacks, so an exact answer is cheap and avoids the
    greedy trap of spending 8♥ on 7♥ when 9♥ also needed it.
    """
    if len(attacks) == 1:  # the usual case, and the hot one in playouts
        found = [c for c in hand if beats(c, attacks[0], trump)]
        return [(attacks[0], min(found, key=lambda c: strength(c, trump, lowest)))] if found else None
    options = sorted(
        ((a, beaters(a, hand, trump, lowest)) for a in attacks), key=lambda item: len(item[1])
    )
    if any(not found for _, found in options):
        return None
    floor = [strength(found[0], trump, lowest) for _, found in options]
    rest = [sum(floor[i:]) for i in range(len(floor) + 1)]
    best: list[tuple[Card, Card]] | None = None
    best_cost = 1 << 30
    chosen: list[tuple[Card, Card]] = []
    used: set[Card] = set()

    def search(i: int, cost: int) -> None:
        nonlocal best, best_cost
        if cost + rest[i] >= best_cost:
            return
        if i == len(options):
            best, best_cost = list(chosen), cost
            return
        attack, found = options[i]
        for card in found:
            if card not in used:
                used.add(card)
                chosen.append((attack, card))
                search(i + 1, cost + strength(card, trump, lowest))
                chosen.pop()
                used.discard(card)

    search(0, 0)
    return best


def beat_chance(attack: int, trump: int, held: Iterable[Card], unseen: Sequence[Card], hidden: int) -> float:
    """Chance that a defender holding ``held`` plus ``hidden`` cards drawn from ``unseen`` can beat ``attack``.

    Cards are assumed spread uniformly over the unseen places: the chance of holding no beater is the
    hypergeometric chance of drawing ``hidden`` cards that all miss the unseen beaters.
    """
    if any(beats(c, attack, trump) for c in held):
        return 1.0
    count = len(unseen)
    missing = count - sum(1 for c in unseen if beats(c, attack, trump))
    none = 1.0
    for i in range(min(hidden, count)):
        if missing - i <= 0:
            return 1.0
        none *= (missing - i) / (count - i)
    return 1.0 - none
