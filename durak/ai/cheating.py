"""Cheat mode for the AI (RULES.md §7): when a level cheats, and which table cards it notices as cheats.

Both decisions read only the player's view: its own hand and the public cards and history. A cheat is
judged by the card-play rules alone (a defence that does not beat, a throw-in or transfer of a rank the
table did not hold), which anyone who watched the table can check. Chance comes from a ``Random`` seeded by
the player's seed and what it sees, so the same view gets the same answer however often it is asked.
"""

from __future__ import annotations

import zlib
from random import Random
from typing import Any

from ..actions import ACCUSE, ATTACK, DEFEND, PASS_ACTION, TAKE_ACTION, TRANSFER, Action
from ..cards import Card, beats
from .seen import Seen
from .tactics import strength

#: How often a level takes a chance to cheat, by the kind of gain: a defence when nothing beats the attack
#: (or a transfer instead of a take), keeping a trump by defending with a plain card, and an attacker's
#: throw-in of a rank the table does not hold. Easy cheats rarely; hard prefers the safer cheats.
CHEAT_RATES: dict[str, dict[str, float]] = {
    "random": {"no_defence": 0.0, "save_trump": 0.0, "throw_in": 0.0},
    "easy": {"no_defence": 0.08, "save_trump": 0.0, "throw_in": 0.0},
    "normal": {"no_defence": 0.3, "save_trump": 0.1, "throw_in": 0.03},
    "hard": {"no_defence": 0.6, "save_trump": 0.25, "throw_in": 0.05},
}
#: The chance that a level notices one given cheat on the table (once per card and bout: asking again
#: about the same card gives the same answer).
NOTICE: dict[str, float] = {"random": 0.0, "easy": 0.15, "normal": 0.6, "hard": 0.95}


def _rng(seed: int, *key: object) -> Random:
    return Random(zlib.crc32(repr(key).encode()) ^ (seed * 0x9E3779B1 & 0xFFFFFFFF))


def choose_cheat(level: str, seed: int, view: dict[str, Any], honest: Action, legal: list[Action],
                 cheats: list[Action]) -> Action:
    """``honest`` or, now and then when it gains by it, one of ``cheats``."""
    if not cheats:
        return honest
    rates = CHEAT_RATES[level]
    seen = Seen.read(view)
    rng = _rng(seed, "cheat", view.get("round"), len(view.get("history", ())), str(honest))
    trump, lowest = seen.trump, seen.lowest_rank

    def cost(card: Card) -> int:
        return strength(card, trump, lowest)

    defences = [a for a in cheats if a.kind == DEFEND]
    transfers = [a for a in cheats if a.kind == TRANSFER]
    throw_ins = [a for a in cheats if a.kind == ATTACK]
    if honest == TAKE_ACTION:  # a cheat instead of picking up the table
        answered = {a.cards[0] for a in legal if a.kind == DEFEND}
        options = transfers + [a for a in defences if a.cards[0] not in answered] or defences
        if options and rng.random() < rates["no_defence"]:
            return min(options, key=lambda a: (cost(a.cards[-1]), a.kind, a.cards))
        return honest
    if honest.kind == DEFEND:
        attack, card = honest.cards
        if card & 3 == trump and attack & 3 != trump:
            plain = [a for a in defences if a.cards[0] == attack and a.cards[1] & 3 != trump]
            if plain and rng.random() < rates["save_trump"]:
                return min(plain, key=lambda a: cost(a.cards[1]))
        return honest
    if honest == PASS_ACTION:  # one more card for the defender to beat, or one less for me to keep
        cheap = [a for a in throw_ins if a.cards[0] & 3 != trump and a.cards[0].rank <= lowest + 2]
        if cheap and seen.table and rng.random() < rates["throw_in"]:
            return min(cheap, key=lambda a: cost(a.cards[0]))
    return honest


def judge(seen: Seen) -> dict[Card, bool]:
    """Each table card, whether the card-play rules allowed it, as anyone who watched the table can tell."""
    table = seen.table
    if not table:
        return {}
    trump = seen.trump
    placed: dict[Card, Action] = {}
    wanted = seen.table_cards
    for _, action in reversed(seen.history):  # the latest play of each table card is the one on the table
        if action.kind == ACCUSE:
            break  # an accusation ends a bout: nothing older is on the table
        for card in action.cards[1:] if action.kind == DEFEND else action.cards:
            if card in wanted and card not in placed:
                placed[card] = action
        if len(placed) == len(wanted):
            break
    prostoy = seen.rules.variant == "prostoy"
    verdict: dict[Card, bool] = {}
    ranks: set[int] = set()
    opening = placed.get(table[0][0])
    for attack, defence in table:
        play = placed.get(attack)
        if prostoy or play is None or play is opening:
            fair = True
        elif play.kind == TRANSFER:
            fair = attack.rank == table[0][0].rank
        else:
            fair = attack.rank in ranks
        verdict[attack] = fair
        ranks.add(attack.rank)
        if defence is not None:
            verdict[defence] = beats(defence, attack, trump)
            ranks.add(defence.rank)
    return verdict


def choose_accusation(level: str, seed: int, view: dict[str, Any], accusations: list[Action]) -> Action | None:
    """The accusation to make, or None: a cheat this level noticed, never a partner's, never a guess."""
    if not accusations:
        return None
    seen = Seen.read(view)
    verdict = judge(seen)
    rules, me = seen.rules, seen.me
    owners: dict[str, int | None] = {}
    for (attack, defence), (by_attack, by_defence) in zip(view["table"], view.get("table_by", ()), strict=False):
        owners[attack] = by_attack
        if defence is not None:
            owners[defence] = by_defence
    for action in sorted(accusations):
        card = action.cards[0]
        if verdict.get(card, True):
            continue
        by = owners.get(str(card))
        if rules.teams and by is not None and rules.team_of(by) == rules.team_of(me):
            continue  # a partner's cheat: catching it makes our own side take the table
        if _rng(seed, "notice", view.get("round"), str(card), me).random() < NOTICE[level]:
            return action
    return None
