"""Normal: a sound club player's rules of thumb (RULES.md §6).

Saves trumps and high cards while the talon is large, takes cheap attacks rather than spend a trump
early, throws in ranks the defender seems unable to beat, transfers with cheap cards, attacks in
Prostoy with the largest set of cheap cards. The hard player's playouts use these same rules.
"""

from __future__ import annotations

from ..actions import (
    ATTACK,
    ATTACK_ONE,
    DEFEND_PAIR,
    EXCHANGE_ACTION,
    PASS_ACTION,
    TAKE_ACTION,
    TRANSFER,
    TRANSFER_ONE,
    Action,
)
from ..cards import Card, beats
from .situation import Situation
from .tactics import beat_chance, cheapest_cover, strength

UNBEATABLE_WEIGHT = 0.5
ADD_BASE = 0.85
JUNK_BASE = 0.6
PAIR_BONUS = 1.5
PROSTOY_BASE = 1.0


def choose_normal(s: Situation, legal: list[Action]) -> Action:
    """The normal level's action: one of ``legal``."""
    if EXCHANGE_ACTION in legal:
        return EXCHANGE_ACTION
    if TAKE_ACTION in legal:
        return _defend_prostoy(s) if s.prostoy else _defend(s, legal)
    attacks = [a for a in legal if a.kind == ATTACK]
    if not attacks:
        return PASS_ACTION
    if not s.attacks:
        value = _prostoy_value if s.prostoy else _opening_value
        return max(attacks, key=lambda a: value(s, a.cards))
    return _throw_in(s, [a.cards[0] for a in attacks])


def _cost(s: Situation, card: int) -> int:
    return strength(card, s.trump, s.lowest)


def _opening_value(s: Situation, cards: tuple[Card, ...]) -> float:
    """Open low; several cheap cards of one rank at once clear the hand faster."""
    worst = max(_cost(s, c) for c in cards)
    value = -float(worst)
    if any(c & 3 == s.trump for c in cards):
        value -= s.ranks * (1 + s.fresh)
    if len(cards) > 1:
        cheap = worst < s.ranks * 0.6 or s.talon == 0
        value += (len(cards) - 1) * (PAIR_BONUS if cheap else -2.0)
    if s.unseen is not None:
        unbeatable = sum(1 - _beat_chance(s, c) for c in cards)
        value += unbeatable * s.ranks * UNBEATABLE_WEIGHT * (1 - s.fresh)
    return value


def _prostoy_value(s: Situation, cards: tuple[Card, ...]) -> float:
    """Prostoy's attacker refills at once: every cheap card out is a better card in, so unload many."""
    value = 0.0
    for card in cards:
        value += s.ranks * PROSTOY_BASE - _cost(s, card)
        if s.talon == 0:
            value += s.ranks
        if s.unseen is not None:
            value += (1 - _beat_chance(s, card)) * s.ranks * UNBEATABLE_WEIGHT
    return value


def _throw_in(s: Situation, cards: list[Card]) -> Action:
    """Add a cheap card the defender probably cannot beat; to a taking defender, unload junk."""
    if s.taking:
        junk = [c for c in cards if _junk_for_taker(s, c)]
        return ATTACK_ONE[min(junk, key=lambda c: _cost(s, c))] if junk else PASS_ACTION
    best: Card | None = None
    best_score = 0.0
    for card in cards:
        chance = _beat_chance(s, card)
        affordable = card & 3 != s.trump and _cost(s, card) <= s.ranks * (ADD_BASE + (1 - ADD_BASE) * (1 - s.fresh))
        if not affordable and not (s.talon == 0 and chance < 0.35):
            continue
        score = 1.5 - chance - _cost(s, card) / (2 * s.ranks)
        if best is None or score > best_score:
            best, best_score = card, score
    return ATTACK_ONE[best] if best is not None else PASS_ACTION


def _junk_for_taker(s: Situation, card: Card) -> bool:
    if s.talon == 0:
        return card & 3 != s.trump or card.rank <= s.lowest + 2
    return card & 3 != s.trump and _cost(s, card) <= s.ranks * (JUNK_BASE + (1 - JUNK_BASE) * (1 - s.fresh))


def _beat_chance(s: Situation, card: Card) -> float:
    if s.unseen is None:
        return 0.5
    return beat_chance(card, s.trump, s.defender_held, s.unseen, s.defender_hidden)


def _defend(s: Situation, legal: list[Action]) -> Action:
    """Beat everything at the least cost, transfer with a cheap card, or take a cheap attack early."""
    unbeaten = [a for a, d in zip(s.attacks, s.defences, strict=True) if d is None]
    cover = cheapest_cover(unbeaten, s.hand, s.trump, s.lowest)
    transfers = [a.cards[0] for a in legal if a.kind == TRANSFER]
    if transfers:
        card = min(transfers, key=lambda c: _cost(s, c))
        dearest = max(_cost(s, d) for _, d in cover) if cover else None
        if card & 3 != s.trump or dearest is None or _cost(s, card) < dearest:
            return TRANSFER_ONE[card]
    if cover is None or _should_take(s, cover):
        return TAKE_ACTION
    attack, defence = max(cover, key=lambda pair: _cost(s, pair[1]))
    return DEFEND_PAIR[attack][defence]


def _should_take(s: Situation, cover: list[tuple[Card, Card]]) -> bool:
    """Early on, one cheap card is not worth one of my two best trumps: take it and keep them.

    Only that narrow case: a taker gets every throw-in too, and the arena shows broader taking loses.
    """
    if s.fresh < 0.5 or len(s.attacks) > 1 or len(s.hand) > s.hand_size:
        return False
    attack, defence = cover[0]
    if defence & 3 != s.trump or attack & 3 == s.trump:
        return False
    return _cost(s, defence) - s.ranks >= s.ranks - 2 and _cost(s, attack) <= 3


def _defend_prostoy(s: Situation) -> Action:
    """Prostoy defends card by card and refills after: beat whatever can be beaten, dearest attack first."""
    unbeaten = sorted(
        (a for a, d in zip(s.attacks, s.defences, strict=True) if d is None),
        key=lambda c: -_cost(s, c),
    )
    for attack in unbeaten:
        options = [c for c in s.hand if beats(c, attack, s.trump)]
        if options:
            return DEFEND_PAIR[attack][min(options, key=lambda c: _cost(s, c))]
    return TAKE_ACTION
