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
        return max(attacks, key=lambda a: _opening_value(s, a.cards))
    return _throw_in(s, [a.cards[0] for a in attacks])


def _cost(s: Situation, card: int) -> int:
    return strength(card, s.trump, s.lowest)


def precious(s: Situation, card: int) -> bool:
    """A card worth keeping for now: a trump, or a high card while the talon is still large."""
    if card & 3 == s.trump:
        return True
    return s.fresh > 0.3 and _cost(s, card) >= s.ranks - 3


def _opening_value(s: Situation, cards: tuple[Card, ...]) -> float:
    """Open low; several cheap cards of one rank at once clear the hand faster."""
    worst = max(_cost(s, c) for c in cards)
    value = -float(worst)
    if any(c & 3 == s.trump for c in cards):
        value -= s.ranks * (1 + s.fresh)
    if len(cards) > 1:
        cheap = worst < s.ranks * 0.6 or s.talon == 0
        value += (len(cards) - 1) * (1.5 if cheap else -2.0)
    if s.prostoy:
        value += _prostoy_bonus(s, cards)
    return value


def _prostoy_bonus(s: Situation, cards: tuple[Card, ...]) -> float:
    """In Prostoy the attacker refills at once: unloading many cheap cards is the whole game."""
    return sum(s.ranks * 0.7 - _cost(s, c) for c in cards if not precious(s, c))


def _throw_in(s: Situation, cards: list[Card]) -> Action:
    """Add a cheap card the defender probably cannot beat; to a taking defender, unload junk."""
    if s.taking:
        junk = [c for c in cards if _junk_for_taker(s, c)]
        return ATTACK_ONE[min(junk, key=lambda c: _cost(s, c))] if junk else PASS_ACTION
    best: Card | None = None
    best_score = 0.0
    for card in cards:
        chance = _beat_chance(s, card)
        affordable = card & 3 != s.trump and _cost(s, card) <= s.ranks * (0.45 + 0.55 * (1 - s.fresh))
        if not affordable and not (s.talon == 0 and chance < 0.35):
            continue
        score = 1.5 - chance - _cost(s, card) / (2 * s.ranks)
        if best is None or score > best_score:
            best, best_score = card, score
    return ATTACK_ONE[best] if best is not None else PASS_ACTION


def _junk_for_taker(s: Situation, card: Card) -> bool:
    if s.talon == 0:
        return card & 3 != s.trump or card.rank <= s.lowest + 2
    return card & 3 != s.trump and _cost(s, card) <= s.ranks * (0.6 + 0.4 * (1 - s.fresh))


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
        spent = max((_cost(s, d) for _, d in cover), default=1 << 20) if cover else 1 << 20
        if not precious(s, card) or _cost(s, card) < spent:
            return TRANSFER_ONE[card]
    if cover is None or _should_take(s, cover):
        return TAKE_ACTION
    attack, defence = max(cover, key=lambda pair: _cost(s, pair[1]))
    return DEFEND_PAIR[attack][defence]


def _should_take(s: Situation, cover: list[tuple[Card, Card]]) -> bool:
    """Early on, a cheap attack is not worth a good trump: take it and keep the trump."""
    if s.talon == 0 or len(s.hand) > s.hand_size + 1:
        return False
    trumps = [(a, d) for a, d in cover if d & 3 == s.trump and a & 3 != s.trump]
    if not trumps:
        return False
    cheap_table = all(_cost(s, a) < s.ranks * 0.6 for a in s.attacks) and len(s.attacks) <= 2
    best_trump = max(_cost(s, d) for _, d in trumps) - s.ranks
    if s.fresh > 0.5:
        return cheap_table and best_trump >= 3
    if s.fresh > 0.2:
        return cheap_table and (len(trumps) >= 2 or best_trump >= s.ranks - 3)
    return False


def _defend_prostoy(s: Situation) -> Action:
    """Prostoy defends card by card: beat what is worth beating, pick up the rest."""
    unbeaten = sorted(
        (a for a, d in zip(s.attacks, s.defences, strict=True) if d is None),
        key=lambda c: -_cost(s, c),
    )
    for attack in unbeaten:
        options = sorted((c for c in s.hand if beats(c, attack, s.trump)), key=lambda c: _cost(s, c))
        if options and (not precious(s, options[0]) or s.fresh < 0.3 or _cost(s, attack) >= s.ranks * 0.6):
            return DEFEND_PAIR[attack][options[0]]
    return TAKE_ACTION
