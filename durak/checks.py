"""Checks of untrusted input shared by scenarios and saves: seat numbers and lists of cards.

Each check raises ``error(message)``: ``ScenarioError`` for scenarios, ``SaveError`` (with its
"not a valid saved game: " prefix) for saves, ``ValueError`` by default.
"""

from __future__ import annotations

from collections.abc import Callable

from .cards import Card, CardError, parse_cards

Fail = Callable[[str], Exception]


def seat(value: object, players: int, what: str, error: Fail = ValueError) -> int:
    """``value`` if it is a seat number of a ``players``-player game."""
    if type(value) is not int or not 0 <= value < players:
        raise error(f"{what} must be a seat from 0 to {players - 1}, not {value!r}")
    return value


def card_list(value: object, what: str, error: Fail = ValueError) -> list[Card]:
    """``value``, a list of card names (``["8H", "10♥"]``), as cards."""
    if not isinstance(value, list):
        raise error(f"{what} must be a list of cards, not {value!r}")
    try:
        return parse_cards(value)
    except CardError as problem:
        raise error(f"{what}: {problem}") from None
