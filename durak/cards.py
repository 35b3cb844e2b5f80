"""Cards, suits, ranks, decks and their notation.

A card is a small ``int`` (``(rank - 2) * 4 + suit index``) so that hands, comparisons and the
beating test stay cheap: the hard AI plays thousands of games per decision on top of this.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from .messages import CodedError

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANKS = range(2, 15)  # 2 .. 10, J=11, Q=12, K=13, A=14
RANK_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A"}
_RANK_BY_NAME = {"J": 11, "Q": 12, "K": 13, "A": 14, "T": 10}
DECK_LOWEST_RANK = {24: 9, 36: 6, 52: 2}


class CardError(CodedError):
    """A card's notation could not be read (code ``card.<reason>``, the text given as ``given``)."""

    default_code = "card"


class Card(int):
    """One playing card; an ``int`` whose text form is ``rank + suit letter`` (``10H``, ``QS``)."""

    __slots__ = ()

    @property
    def rank(self) -> int:
        return (self >> 2) + 2

    @property
    def suit(self) -> str:
        return SUITS[self & 3]

    @property
    def symbol(self) -> str:
        """The card with its suit symbol, for messages: ``Q♥``."""
        return rank_name(self.rank) + SUIT_SYMBOLS[self & 3]

    def __str__(self) -> str:
        return CARD_TEXTS[self]

    def __repr__(self) -> str:
        return f"Card({self})"

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read ``8H``, ``10h``, ``Th``, ``q♥``: rank then suit, any case."""
        return parse_card(text)


def rank_name(rank: int) -> str:
    return RANK_NAMES.get(rank, str(rank))


#: Every card, indexed by its integer value.
CARDS: tuple[Card, ...] = tuple(Card(i) for i in range(52))
#: Each card's text, indexed likewise: saves and records write thousands of them.
CARD_TEXTS: tuple[str, ...] = tuple(rank_name((i >> 2) + 2) + SUITS[i & 3] for i in range(52))
#: The card of each text in its usual forms (``10H``, ``TH``, ``10♥``), read without parsing.
_BY_TEXT: dict[str, Card] = {
    rank + suit: CARDS[i]
    for i in range(52)
    for rank in (("10", "T") if i >> 2 == 8 else (rank_name((i >> 2) + 2),))
    for suit in (SUITS[i & 3], SUIT_SYMBOLS[i & 3])
}


def card(rank: int, suit: str) -> Card:
    """The card of this rank (2..14) and suit letter."""
    return CARDS[(rank - 2) * 4 + SUITS.index(suit)]


def parse_card(text: object) -> Card:
    if isinstance(text, Card):
        return text
    known = _BY_TEXT.get(text) if isinstance(text, str) else None
    if known is not None:
        return known
    if not isinstance(text, str):
        raise CardError(f"not a card: {text!r} (expected text such as '8H' or '10♥')", "card.not_text",
                        given=repr(text))
    raw = text.strip().upper()
    if len(raw) < 2:
        raise CardError(f"not a card: {text!r} (expected rank then suit, such as '8H' or '10♥')", "card.too_short",
                        given=repr(text))
    rank_text, suit_text = raw[:-1], raw[-1]
    if suit_text in SUIT_SYMBOLS:
        suit_index = SUIT_SYMBOLS.index(suit_text)
    elif suit_text in SUITS:
        suit_index = SUITS.index(suit_text)
    else:
        raise CardError(f"not a card: {text!r} (unknown suit {suit_text!r}; use S H D C or ♠ ♥ ♦ ♣)", "card.suit",
                        given=repr(text), suit=repr(suit_text))
    if rank_text in _RANK_BY_NAME:
        rank = _RANK_BY_NAME[rank_text]
    elif rank_text.isdigit() and 2 <= int(rank_text) <= 10:
        rank = int(rank_text)
    else:
        raise CardError(f"not a card: {text!r} (unknown rank {rank_text!r}; use 2-10, T, J, Q, K, A)", "card.rank",
                        given=repr(text), rank=repr(rank_text))
    return CARDS[(rank - 2) * 4 + suit_index]


def parse_cards(items: Iterable[object]) -> list[Card]:
    return [parse_card(item) for item in items]


def deck(size: int) -> list[Card]:
    """The cards of a 24-, 36- or 52-card deck, lowest first."""
    if size not in DECK_LOWEST_RANK:
        raise CardError(f"no {size}-card deck: choose 24, 36 or 52", "card.deck", size=size)
    return list(CARDS[(DECK_LOWEST_RANK[size] - 2) * 4 :])


def beats(defence: int, attack: int, trump: int) -> bool:
    """Whether ``defence`` beats ``attack`` when ``trump`` is the trump suit's index."""
    if defence & 3 == attack & 3:
        return defence > attack
    return defence & 3 == trump and attack & 3 != trump


def sort_key(trump: int) -> Callable[[int], tuple[bool, int, int]]:
    """Hand order for display: by suit, trumps last, then by rank."""

    def key(c: int) -> tuple[bool, int, int]:
        return (c & 3 == trump, c & 3, c)

    return key
