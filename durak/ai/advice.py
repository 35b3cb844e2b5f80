"""Hints and analysis for a human: the suggested move with a short reason, and win chances per move.

The reason describes the move in the terms a player thinks in ("lowest card that beats", "nothing of
its suit beats it"). It is a ``Message``: the code ``hint.<reason>`` and params (cards as notation) for a
page to render in its language, and the English sentence for the terminal and tests.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..actions import ATTACK, DEFEND, EXCHANGE, PASS, TAKE, TRANSFER, Action
from ..cards import Card, parse_card
from ..messages import Message, ParamValue
from .hard import HardThinker
from .seen import Seen
from .situation import Situation
from .tactics import beat_chance, beaters, cheapest_cover

#: The English of each hint reason (``hint.<key>``); a page renders the code from its own catalogue.
TEXT = {
    "exchange": "exchange the trump six for {card}: a higher trump for nothing",
    "beat_lowest": "beat {attack} with {card}: lowest card that beats",
    "beat_trump": "beat {attack} with the trump {card}: nothing of its suit beats it",
    "beat_cover": "beat {attack} with {card}: keeps the cheaper cards for the other attacks",
    "beat_search": "beat {attack} with {card}: the search finds it better than the lowest card that beats",
    "take_cannot": "take: you cannot beat {attack}",
    "take_save": "take: beating would cost {card}, worth more than the cards taken",
    "take_rest": "take the rest: beating it is not worth a good card",
    "take_search": "take: the search finds beating worse in the long run",
    "transfer": "transfer with {card}: the next player must defend",
    "open_low": "attack with {card}: your lowest card",
    "open_set": "attack with {cards}: {n} cards out at once",
    "open_trump": "attack with {card}: only trumps left",
    "open_search": "attack with {cards}: the search prefers it",
    "add_taker": "throw in {card}: the defender takes it anyway",
    "add_unbeatable": "throw in {card}: the defender probably cannot beat it",
    "add_cheap": "throw in {card}: a cheap card of a rank on the table",
    "pass_nothing": "pass: nothing to add",
    "pass_keep": "pass: keep your good cards for later",
}
#: What follows a reason: the search's estimate, or the endgame proof (``proven``: win, draw, loss).
CHANCE = " (win chance {percent}%)"
PROOF = {"win": " (won: every defence loses)", "draw": " (a draw: neither side can do better)",
         "loss": " (lost against perfect play)"}


class Hint(NamedTuple):
    """A suggested action and why."""

    action: Action
    reason: Message


def hint(
    view: dict[str, Any], legal: list[Action], *, seed: int = 0,
    iterations: int | None = None, time_budget: float = 0.2,
) -> Hint:
    """The hard level's move for this view, with a short reason."""
    thinker = HardThinker(view, legal, seed, iterations, time_budget)
    while not thinker.step(float("inf") if iterations is not None else 1.0):
        pass
    action = thinker.best()
    return Hint(action, reason(view, legal, action, thinker.values.get(action), thinker.proven))


def evaluate(
    view: dict[str, Any], legal: list[Action], *, seed: int = 0, iterations: int | None = None,
    time_budget: float = 0.5,
) -> dict[Action, float]:
    """Estimated chance of winning after each legal action (draws count half)."""
    thinker = HardThinker(view, legal, seed, iterations, time_budget, every=True)
    while not thinker.step(float("inf") if iterations is not None else 1.0):
        pass
    values = thinker.values
    default = values.get(thinker.best(), 0.5)
    return {a: values.get(a, default) for a in legal}


def reason(view: dict[str, Any], legal: list[Action], action: Action, chance: float | None = None,
           proven: bool = False) -> Message:
    """Why ``action`` is a good move here, in one short sentence: ``hint.<reason>`` with its cards.

    ``chance`` (the search's estimate) is shown as a percentage, never 0 or 100 (it is an estimate), in
    the param ``percent``; ``proven`` marks it exact, from the endgame proof: then the param ``proven``
    names the outcome (win, draw, loss) instead.
    """
    key, fields = _why(Seen.read(view), legal, action)
    params: dict[str, ParamValue] = dict(fields)
    text = TEXT[key].format(**{name: _symbols(value) for name, value in fields.items()})
    if chance is not None and proven:
        outcome = "win" if chance == 1 else "draw" if chance == 0.5 else "loss"
        params["proven"] = outcome
        text += PROOF[outcome]
    elif chance is not None:
        params["percent"] = min(99, max(1, round(100 * chance)))
        text += CHANCE.format(percent=params["percent"])
    return Message(f"hint.{key}", params, text)


def _symbols(value: ParamValue) -> str:
    """A param as the English shows it: cards with their suit symbols (``8H`` -> ``8♥``)."""
    if isinstance(value, list):
        return " ".join(parse_card(c).symbol for c in value)
    if isinstance(value, str):
        return parse_card(value).symbol
    return str(value)


Fields = dict[str, ParamValue]


def _why(seen: Seen, legal: list[Action], action: Action) -> tuple[str, Fields]:
    s = Situation.of_seen(seen)
    kind = action.kind
    cards = action.cards
    if kind == EXCHANGE:
        return "exchange", {"card": _name(seen.trump_card)}
    if kind == DEFEND:
        return _why_defend(s, cards[0], cards[1])
    if kind == TAKE:
        return _why_take(s)
    if kind == TRANSFER:
        return "transfer", {"card": _name(cards[0])}
    if kind == ATTACK and not s.attacks:
        return _why_open(s, cards)
    if kind == ATTACK:
        card = cards[0]
        if s.taking:
            return "add_taker", {"card": _name(card)}
        if s.unseen is not None and beat_chance(card, s.trump, s.defender_held, s.unseen, s.defender_hidden) < 0.5:
            return "add_unbeatable", {"card": _name(card)}
        return "add_cheap", {"card": _name(card)}
    assert kind == PASS
    return ("pass_keep" if any(a.kind == ATTACK for a in legal) else "pass_nothing"), {}


def _why_defend(s: Situation, attack: Card, card: Card) -> tuple[str, Fields]:
    fields: Fields = {"attack": _name(attack), "card": _name(card)}
    options = beaters(attack, s.hand, s.trump, s.lowest)
    if options[0] == card:
        if card & 3 == s.trump and attack & 3 != s.trump:
            return "beat_trump", fields
        return "beat_lowest", fields
    unbeaten = [a for a, d in zip(s.attacks, s.defences, strict=True) if d is None]
    if (attack, card) in (cheapest_cover(unbeaten, s.hand, s.trump, s.lowest) or ()):
        return "beat_cover", fields
    return "beat_search", fields


def _why_take(s: Situation) -> tuple[str, Fields]:
    unbeaten = [a for a, d in zip(s.attacks, s.defences, strict=True) if d is None]
    for attack in unbeaten:
        if not beaters(attack, s.hand, s.trump, s.lowest):
            return "take_cannot", {"attack": _name(attack)}
    if s.prostoy:
        return "take_rest", {}
    cover = cheapest_cover(unbeaten, s.hand, s.trump, s.lowest)
    if cover and s.talon > 0:
        card = max((d for _, d in cover), key=lambda c: (c & 3 == s.trump, c))
        return "take_save", {"card": _name(card)}
    return "take_search", {}


def _why_open(s: Situation, cards: tuple[Card, ...]) -> tuple[str, Fields]:
    if len(cards) > 1:
        return "open_set", {"cards": [_name(c) for c in cards], "n": len(cards)}
    card = cards[0]
    if all(c & 3 == s.trump for c in s.hand):
        return "open_trump", {"card": _name(card)}
    plain = [c for c in s.hand if c & 3 != s.trump]
    if card & 3 != s.trump and card.rank == min(c.rank for c in plain):
        return "open_low", {"card": _name(card)}
    return "open_search", {"cards": [_name(card)]}


def _name(card: Card | None) -> str:
    """A card as a param: its notation (``8H``)."""
    assert card is not None, "a hint names only cards the player can see"
    return str(card)
