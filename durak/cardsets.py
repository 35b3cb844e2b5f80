"""Sets of cards as integer bit-sets: bit ``c`` of a mask stands for ``CARDS[c]``.

A card is ``(rank - 2) * 4 + suit``, so a rank's four cards are one nibble of a mask and the cards of a
suit are every fourth bit. Taking cards out of a hand, adding them, testing which of them beat a card or
share a rank with the table are then one integer operation each, where lists cost a Python loop. The
rules core (durak/core.py) keeps hands and the table's ranks this way; ``cards_of`` turns a mask back into
cards, lowest first, with a few lookups in tables of 12-bit slices instead of a loop over the bits.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from .cards import CARDS, Card

T = TypeVar("T")

#: BIT[c]: the mask holding only card ``c``.
BIT: tuple[int, ...] = tuple(1 << c for c in range(52))

#: SUIT_CARDS[suit]: every card of that suit (index into "SHDC").
SUIT_CARDS: tuple[int, ...] = tuple(sum(1 << (rank * 4 + suit) for rank in range(13)) for suit in range(4))

#: SAME_RANK[c]: the four cards of ``c``'s rank (``c`` included).
SAME_RANK: tuple[int, ...] = tuple(0xF << (c & ~3) for c in range(52))

#: The lowest bit of every rank's nibble: ``(m | m >> 1 | m >> 2 | m >> 3) & RANK_LOW_BITS`` has one bit per rank
#: present in ``m``.
RANK_LOW_BITS = SUIT_CARDS[0]

#: BEATERS[trump][attack]: the cards that beat ``attack`` when ``trump`` is the trump suit's index.
BEATERS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (SUIT_CARDS[attack & 3] & ~((2 << attack) - 1)) | (SUIT_CARDS[trump] if attack & 3 != trump else 0)
        for attack in range(52)
    )
    for trump in range(4)
)


def mask_of(cards: Iterable[int]) -> int:
    """The bit-set of ``cards``."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def slice_table(items: tuple[T, ...], first: int, width: int) -> tuple[tuple[T, ...], ...]:
    """TABLE[v]: ``items[first + i]`` for every bit ``i`` set in ``v`` (``v`` below ``2 ** width``), lowest first."""
    table: list[tuple[T, ...]] = [()]
    for item in items[first : first + width]:
        table += [(*chosen, item) for chosen in table]
    return tuple(table)


#: The slices of a mask that ``cards_of`` and the core's tables read, as (first bit, width). Bits 16..51 hold the
#: 36-card deck (sixes up) and 28..51 the 24-card one, so three whole ranks per slice cover them in three
#: lookups; a 52-card hand also needs the low 16 bits.
SLICES = ((0, 4), (4, 12), (16, 12), (28, 12), (40, 12))
_LOW, _FOUR, _SIXTEEN, _TWENTY_EIGHT, _FORTY = (slice_table(CARDS, first, width) for first, width in SLICES)


def cards_of(mask: int) -> tuple[Card, ...]:
    """The cards of ``mask``, lowest first."""
    if mask & 0xFFFF:
        return (*_LOW[mask & 0xF], *_FOUR[mask >> 4 & 0xFFF], *_SIXTEEN[mask >> 16 & 0xFFF],
                *_TWENTY_EIGHT[mask >> 28 & 0xFFF], *_FORTY[mask >> 40])
    return (*_SIXTEEN[mask >> 16 & 0xFFF], *_TWENTY_EIGHT[mask >> 28 & 0xFFF], *_FORTY[mask >> 40])


def lowest(mask: int) -> int:
    """The lowest card of a non-empty ``mask``."""
    return (mask & -mask).bit_length() - 1
