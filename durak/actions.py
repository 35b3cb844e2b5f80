"""Actions a player can take, and their text notation.

Actions are interned: the same action is the same object, so checking an action against the legal
list is an identity test in the common case and costs almost nothing during search.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import CARD_TEXTS, CARDS, Card, CardError, parse_card
from .messages import CodedError

ATTACK = "attack"
DEFEND = "defend"
TRANSFER = "transfer"
TAKE = "take"
PASS = "pass"
EXCHANGE = "exchange"
ACCUSE = "accuse"  # cheat mode: name a table card as a cheat, out of turn

KINDS = (ATTACK, DEFEND, TRANSFER, TAKE, PASS, EXCHANGE, ACCUSE)
_CARD_COUNT = {ATTACK: (1, 5), DEFEND: (2, 2), TRANSFER: (1, 1), TAKE: (0, 0), PASS: (0, 0), EXCHANGE: (0, 0),
               ACCUSE: (1, 1)}


class NotationError(CodedError):
    """An action's text could not be read (code ``notation.<reason>``, the text given as ``given``)."""

    default_code = "notation"


class Action(NamedTuple):
    """``kind`` plus its cards: attack cards, (attack, defence) for defend, the card for transfer or accuse."""

    kind: str
    cards: tuple[Card, ...] = ()

    def __str__(self) -> str:
        text = _TEXTS.get(self)
        if text is None:
            text = _TEXTS[self] = " ".join([self.kind, *(CARD_TEXTS[card] for card in self.cards)])
        return text

    def __repr__(self) -> str:
        return f"Action({str(self)!r})"

    @classmethod
    def parse(cls, text: str) -> Action:
        return parse_action(text)


_INTERNED: dict[tuple[str, tuple[int, ...]], Action] = {}
#: Each action's text once written, and each canonical text once read (bounded: the actions of a deck).
_TEXTS: dict[Action, str] = {}
_BY_TEXT: dict[str, Action] = {}


def make(kind: str, cards: tuple[Card, ...] = ()) -> Action:
    """The interned action of this kind with these cards."""
    key = (kind, cards)
    found = _INTERNED.get(key)
    if found is None:
        found = _INTERNED[key] = Action(kind, cards)
    return found


TAKE_ACTION = make(TAKE)
PASS_ACTION = make(PASS)
EXCHANGE_ACTION = make(EXCHANGE)
ATTACK_ONE = tuple(make(ATTACK, (c,)) for c in CARDS)
TRANSFER_ONE = tuple(make(TRANSFER, (c,)) for c in CARDS)
ACCUSE_ONE = tuple(make(ACCUSE, (c,)) for c in CARDS)
DEFEND_PAIR = tuple(tuple(make(DEFEND, (a, d)) for d in CARDS) for a in CARDS)


def parse_action(text: object) -> Action:
    """Read ``attack 8H 8D``, ``defend 8h 9h``, ``Transfer 8♦``, ``take``, ``pass``, ``exchange``, ``accuse 7C``."""
    if isinstance(text, Action):
        text = str(text)
    known = _BY_TEXT.get(text) if isinstance(text, str) else None
    if known is not None:
        return known
    if not isinstance(text, str):
        raise NotationError(f"not an action: {text!r} (expected text such as 'attack 8H')", "notation.not_text",
                            given=repr(text))
    words = text.split()
    if not words:
        raise NotationError("not an action: empty text", "notation.empty")
    kind = words[0].lower()
    if kind not in _CARD_COUNT:
        raise NotationError(f"not an action: {text!r} (unknown kind {words[0]!r}; use {', '.join(KINDS)})",
                            "notation.kind", given=repr(text), kind=repr(words[0]))
    try:
        cards = tuple(parse_card(w) for w in words[1:])
    except CardError as error:
        raise NotationError(f"not an action: {text!r}: {error}", "notation.card", given=repr(text),
                            cause=[error.code, dict(error.params)]) from None
    low, high = _CARD_COUNT[kind]
    if not low <= len(cards) <= high:
        wanted = str(low) if low == high else f"{low} to {high}"
        raise NotationError(f"not an action: {text!r} ({kind} takes {wanted} card(s), got {len(cards)})",
                            "notation.card_count", given=repr(text), kind=kind, wanted=wanted, got=len(cards))
    if len(set(cards)) != len(cards):
        raise NotationError(f"not an action: {text!r} (a card is named twice)", "notation.card_twice",
                            given=repr(text))
    if kind == ATTACK:
        cards = tuple(sorted(cards))  # an attack is a set of cards: one canonical order
    action = make(kind, cards)
    if str(action) == text:
        _BY_TEXT[text] = action
    return action
