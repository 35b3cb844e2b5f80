"""Easy: the beginner's fair opponent (RULES.md §6): attacks low, beats with the lowest card that beats.

It never plans: no saving trumps, no taking on purpose, no transfers. But it is not random either: it
throws in only cheap cards and always beats when it can.
"""

from __future__ import annotations

from ..actions import ATTACK, ATTACK_ONE, DEFEND, EXCHANGE_ACTION, PASS_ACTION, TAKE_ACTION, Action
from ..cards import Card
from .situation import Situation
from .tactics import beaters, strength


def choose_easy(s: Situation, legal: list[Action]) -> Action:
    """The easy level's action: one of ``legal``."""
    if EXCHANGE_ACTION in legal:
        return EXCHANGE_ACTION
    if TAKE_ACTION in legal:
        return _defend(s, legal)
    singles = [a.cards[0] for a in legal if a.kind == ATTACK and len(a.cards) == 1]
    if not singles:
        return PASS_ACTION
    card = min(singles, key=lambda c: strength(c, s.trump, s.lowest))
    if not s.attacks:
        return ATTACK_ONE[card]
    cheap = card & 3 != s.trump and card.rank <= s.lowest + s.ranks // 2
    return ATTACK_ONE[card] if cheap else PASS_ACTION


def _defend(s: Situation, legal: list[Action]) -> Action:
    """Beat the first unbeaten card with the lowest card that beats it; take if one cannot be beaten.

    In Prostoy a defence may be partial, so there it beats what it can and takes the rest.
    """
    answers: dict[tuple[Card, Card], Action] = {(a.cards[0], a.cards[1]): a for a in legal if a.kind == DEFEND}
    for attack, defence in zip(s.attacks, s.defences, strict=True):
        if defence is None:
            for card in beaters(attack, s.hand, s.trump, s.lowest):
                found = answers.get((attack, card))
                if found is not None:
                    return found
            if not s.prostoy:
                return TAKE_ACTION
    return TAKE_ACTION
