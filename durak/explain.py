"""Why an action is refused, in words a player understands.

Only called once ``legal_actions`` has said no, so it may be slow; it never decides legality itself.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .actions import ATTACK, DEFEND, EXCHANGE, PASS, TAKE, TRANSFER, Action
from .cards import DECK_LOWEST_RANK, Card, beats, rank_name

if TYPE_CHECKING:
    from .game import Game

_BEAT_RULE = "a non-trump is beaten by a higher card of its suit or by any trump"
_TRUMP_RULE = "a trump is beaten only by a higher trump"


def explain(game: Game, seat: int, action: Action) -> str:
    """The message of the ``IllegalAction`` raised for ``action`` by ``seat``."""
    head = f"cannot {_described(action)}"
    missing = [c for c in action.cards if c not in game.hands[seat]]
    if action.kind == DEFEND:
        missing = [c for c in action.cards[1:] if c not in game.hands[seat]]
    if missing and action.kind in (ATTACK, DEFEND, TRANSFER):
        return f"{head}: seat {seat} does not hold {_names(missing)}"
    reason = _REASONS[action.kind](game, seat, action)
    return f"{head}: {reason}"


def _described(action: Action) -> str:
    if action.kind == DEFEND:
        return f"beat {action.cards[0].symbol} with {action.cards[1].symbol}"
    if action.cards:
        return f"{action.kind} {_names(action.cards)}"
    return action.kind


def _names(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.symbol for c in cards)


def _phase(game: Game, seat: int) -> str:
    """What ``seat`` is expected to do now, for messages about the wrong kind of action."""
    if not game.attacks:
        return "the round has not started: the attacker must lead a card"
    if seat == game.defender and not game.taking:
        return "the defender must beat, take" + (" or transfer" if game.rules.variant == "perevodnoy" else "")
    return "an attacker may only throw in a card or pass"


def _attack_reason(game: Game, seat: int, action: Action) -> str:
    cards = action.cards
    defender = game.defender
    assert defender is not None
    if game.rules.variant == "prostoy":
        if game.attacks:
            return "nothing is ever added to a Prostoy attack"
        size = len(cards)
        if size not in (1, 3, 5):
            return f"a Prostoy attack has 1, 3 or 5 cards, not {size}"
        if size > len(game.hands[defender]):
            return f"the defender holds only {len(game.hands[defender])} card(s)"
        return ("3 cards must be a pair plus a free card" if size == 3
                else "5 cards must be two pairs of different ranks plus a free card, or four of a kind plus one")
    if seat == game.defender and game.attacks and not game.taking:
        return "the defender cannot attack his own round"
    if not game.attacks:
        if len({c.rank for c in cards}) > 1:
            return "an opening attack of several cards must be of one rank"
        return f"this round allows at most {game.limit} attack card(s)"
    if len(cards) > 1:
        return "throw-ins are added one card at a time"
    if None in game.defences and not game.taking and seat != game.defender:
        return "the defender must answer first"
    if len(game.attacks) >= game.limit:
        return f"the limit of {game.limit} attack card(s) for this round is reached"
    ranks = {c.rank for c in game.attacks} | {d.rank for d in game.defences if d is not None}
    if cards[0].rank not in ranks:
        return f"no {rank_name(cards[0].rank)} is on the table"
    return _phase(game, seat)


def _defend_reason(game: Game, seat: int, action: Action) -> str:
    attack, defence = action.cards
    if seat != game.defender:
        return f"seat {seat} is not the defender"
    if attack not in game.attacks:
        return f"{attack.symbol} is not an attack card on the table"
    if game.defences[game.attacks.index(attack)] is not None:
        return f"{attack.symbol} is already beaten"
    if game.taking:
        return "the defender has already declared take"
    if not beats(defence, attack, game.trump_index):
        return _TRUMP_RULE if attack & 3 == game.trump_index else _BEAT_RULE
    return _phase(game, seat)


def _transfer_reason(game: Game, seat: int, action: Action) -> str:
    if game.rules.variant != "perevodnoy":
        return "transfers belong to Perevodnoy"
    if seat != game.defender or not game.attacks:
        return "only the defender may transfer an attack"
    if any(d is not None for d in game.defences):
        return "an attack card has already been beaten this round"
    if action.cards[0].rank != game.attacks[0].rank:
        return f"a transfer must be of the attacking rank ({rank_name(game.attacks[0].rank)})"
    if game.taking:
        return "the defender has already declared take"
    return "the next defender would hold fewer cards than the attack, or the attack would exceed its cap"


def _take_reason(game: Game, seat: int, action: Action) -> str:
    if seat != game.defender:
        return f"seat {seat} is not the defender"
    if not game.attacks:
        return "there is nothing on the table to take"
    if game.taking:
        return "take is already declared"
    return "every attack card is beaten"


def _pass_reason(game: Game, seat: int, action: Action) -> str:
    if not game.attacks:
        return "the attacker must lead a card to open the round"
    if seat == game.defender:
        return "the defender beats, takes or transfers; only attackers pass"
    return "the defender must answer first"


def _exchange_reason(game: Game, seat: int, action: Action) -> str:
    if not game.rules.exchange:
        return "the trump-six exchange is not part of these rules"
    if not game.trump_exposed or not game.talon:
        return "no trump card is exposed under a talon"
    lowest = rank_name(DECK_LOWEST_RANK[game.rules.deck])
    return f"seat {seat} does not hold the {lowest} of trumps"


_REASONS = {
    ATTACK: _attack_reason,
    DEFEND: _defend_reason,
    TRANSFER: _transfer_reason,
    TAKE: _take_reason,
    PASS: _pass_reason,
    EXCHANGE: _exchange_reason,
}
