"""The words of the worked examples: what a move did, a move described before it is played, a refusal.

The rules pages' builder and "try it yourself" both speak through these three functions, in the page's
language, with the seats' names of the example. Pure Python, no browser import.
"""

from __future__ import annotations

from durak import Event, Game
from durak.actions import Action

from .i18n import card_symbol, cards_symbols, t, tn

#: The events a reader is told about, in the order they happen; draws, new rounds and the end of the game
#: show on the board itself.
_TOLD = ("attack", "defend", "transfer", "take", "pass", "exchange", "pickup", "discard", "out")


def said(lang: str, events: list[Event], names: list[str], *, throw_in: bool = False) -> str:
    """One line for the events of one move: "Seat 0 attacks with 8♥. Seat 1 picks up 5 cards."
    ``throw_in``: the move added a card to a table that already held cards."""
    lines = [_event_line(lang, event, names, throw_in) for event in events if event.kind in _TOLD]
    return " ".join(f"{line}." for line in lines if line)


def describe(lang: str, game: Game, seat: int, action: Action, names: list[str]) -> str:
    """A legal move of ``game`` told before it is played (the odds list): played on a copy, then said."""
    copy = game.copy()
    events = copy.apply(seat, action)
    return _event_line(lang, events[0], names, bool(game.table))


def refusal(lang: str, error: Exception) -> str:
    """Why the engine refused a move: its English reason, inside the page language's "Not allowed" frame."""
    return str(error)


def _name(names: list[str], seat: int | None) -> str:
    return names[seat] if seat is not None and 0 <= seat < len(names) else "?"


def _event_line(lang: str, event: Event, names: list[str], throw_in: bool) -> str:
    who = _name(names, event.player)
    cards = [str(c) for c in event.cards]
    kind = event.kind
    if kind == "attack":
        return t(lang, "log_throw" if throw_in else "log_attack", name=who, cards=cards_symbols(lang, cards))
    if kind == "defend":
        return t(lang, "log_defend", name=who, attack=card_symbol(lang, cards[0]), defence=card_symbol(lang, cards[1]))
    if kind == "transfer":
        return t(lang, "log_transfer", name=who, cards=cards_symbols(lang, cards), target=_name(names, event.target))
    if kind in ("take", "pass", "out"):
        return t(lang, f"log_{kind}", name=who)
    if kind == "exchange":
        return t(lang, "log_exchange", name=who, card=card_symbol(lang, cards[-1]))
    if kind == "pickup":
        return tn(lang, "log_pickup", event.size, name=who)
    if kind == "discard":
        return tn(lang, "log_discard", event.size)
    return ""
