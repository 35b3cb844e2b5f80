"""Checks of untrusted input shared by scenarios and saves: seat numbers and lists of cards.

Each check raises ``error(message, code, **params)`` with a code of its own (``seat``, ``card_list``,
``card``) that the caller's factory prefixes with its family: ``ScenarioError`` gives ``scenario.seat``,
``SaveError`` (with its "not a valid saved game: " prefix) ``save.seat``, and by default ``input.seat``.
``field`` names the input in the params as data (``hands[1]``), where the English text may say it in words.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .cards import Card, CardError, parse_cards
from .messages import CodedError, ParamValue

Fail = Callable[..., Exception]


def plain(text: str, code: str, **params: ParamValue) -> Exception:
    """The default failure: a ``CodedError`` (a ``ValueError``) of the family ``input``."""
    return CodedError(text, f"input.{code}", **params)


def cause(error: Exception) -> list[Any]:
    """A wrapped error as a ``cause`` param, ``[code, params]``: a page renders it in its own language."""
    if isinstance(error, CodedError):
        return [error.code, dict(error.params)]
    return ["error", {"detail": str(error)}]


def seat(value: object, players: int, what: str, error: Fail = plain, field: str | None = None) -> int:
    """``value`` if it is a seat number of a ``players``-player game."""
    if type(value) is not int or not 0 <= value < players:
        raise error(f"{what} must be a seat from 0 to {players - 1}, not {value!r}", "seat", field=field or what,
                    last=players - 1, value=repr(value))
    return value


def card_list(value: object, what: str, error: Fail = plain, field: str | None = None) -> list[Card]:
    """``value``, a list of card names (``["8H", "10♥"]``), as cards."""
    if not isinstance(value, list):
        raise error(f"{what} must be a list of cards, not {value!r}", "card_list", field=field or what,
                    value=repr(value))
    try:
        return parse_cards(value)
    except CardError as problem:
        raise error(f"{what}: {problem}", "card", field=field or what, cause=cause(problem)) from None
