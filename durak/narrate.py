"""One narrator: puts the engine's events into words, for the table's log, the terminal game and the rules
pages' examples alike.

``narrate(event, me)`` returns a ``Message``: the code ``event.<kind>`` (``event.<kind>_you`` when ``me``
did it, so every language can conjugate "you"), params by the convention of durak/messages.py (``seat``,
``target``, ``cards`` as notation, ``n`` a count) and the English sentence, in which seats read "seat 2".
A page says the code in its own language with the seats' names (web/shared/i18n.py ``say``).
"""

from __future__ import annotations

from . import events as ev
from .cards import SUIT_SYMBOLS, SUITS, Card
from .events import Event
from .messages import Message, ParamValue

SUIT_WORDS = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}


def _symbols(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.symbol for c in cards)


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def _seat(seat: int | None, me: int | None) -> str:
    return "you" if seat is not None and seat == me else f"seat {seat}"


def narrate(event: Event, me: int | None = None, *, throw_in: bool = False) -> Message | None:
    """``event`` as ``me`` may see it, in words (None for events nobody narrates: the end of the game).

    ``throw_in`` says an attack adds to a table that already holds cards (the events cannot tell).
    """
    seen = event.seen_by(me)
    kind, seat = seen.kind, seen.player
    mine = seat is not None and seat == me
    suffix = "_you" if mine else ""
    who = _seat(seat, me)
    cards = [str(c) for c in seen.cards]
    params: dict[str, ParamValue] = {} if mine or seat is None else {"seat": seat}

    def said(code: str, text: str, **more: ParamValue) -> Message:
        return Message(f"event.{code}{suffix}", {**params, **more}, text)

    if kind == ev.ATTACK:
        verb = ("throw in" if mine else "throws in") if throw_in else ("attack with" if mine else "attacks with")
        return said("throw_in" if throw_in else "attack", f"{who} {verb} {_symbols(seen.cards)}", cards=cards)
    if kind == ev.DEFEND:
        attack, defence = seen.cards
        return said("defend", f"{who} {'beat' if mine else 'beats'} {attack.symbol} with {defence.symbol}",
                    attack=str(attack), defence=str(defence))
    if kind == ev.TRANSFER and not mine and seen.target is not None and seen.target == me:
        return Message("event.transfer_to_you", {**params, "cards": cards},
                       f"{who} transfers with {_symbols(seen.cards)} to you")
    if kind == ev.TRANSFER:
        target = _seat(seen.target, me)
        return said("transfer", f"{who} {'transfer' if mine else 'transfers'} with {_symbols(seen.cards)} to "
                    f"{target}", cards=cards, target=seen.target)
    if kind == ev.TAKE:
        return said("take", f"{who} {'take' if mine else 'takes'}")
    if kind == ev.PASS:
        return said("pass", f"{who} {'pass' if mine else 'passes'}")
    if kind == ev.PICKUP:
        n = len(seen.cards) or seen.size
        return said("pickup", f"{who} {'pick' if mine else 'picks'} up {_cards(n)}: {_symbols(seen.cards)}",
                    n=n, cards=cards)
    if kind == ev.DISCARD:
        n = len(seen.cards)
        return Message("event.discard", {"n": n, "cards": cards},
                       f"beaten: {_cards(n)} to the discard pile: {_symbols(seen.cards)}")
    if kind == ev.DRAW:
        n = len(event.cards)
        if mine:
            return said("draw", f"you draw {_symbols(seen.cards)}", n=n, cards=cards)
        if seen.cards:
            return Message("event.draw_trump", {**params, "n": n, "cards": cards},
                           f"{who} draws {_cards(n)}, the trump {_symbols(seen.cards)} among them")
        return said("draw", f"{who} draws {_cards(n)}", n=n)
    if kind == ev.EXCHANGE:
        six, taken = seen.cards
        return said("exchange", f"{who} {'swap' if mine else 'swaps'} {six.symbol} for the trump card "
                    f"{taken.symbol}", six=str(six), card=str(taken))
    if kind in (ev.CAUGHT, ev.WRONG):
        return _accusation(seen, me, params, suffix)
    if kind == ev.OUT:
        return said("out", f"{who} {'are' if mine else 'is'} out")
    if kind == ev.ROUND:
        if seen.target is not None and seen.target == me:
            return Message("event.round_at_you", {"seat": seat}, f"new round: {who} attacks you")
        return said("round", f"new round: {who} {'attack' if mine else 'attacks'} {_seat(seen.target, me)}",
                    target=seen.target)
    return None


def _accusation(seen: Event, me: int | None, params: dict[str, ParamValue], suffix: str) -> Message:
    """Cheat mode: ``player`` named ``cards[0]``, which ``target`` had played; caught or wrong, and who takes."""
    who, card, target = _seat(seen.player, me), seen.cards[0], seen.target
    more: dict[str, ParamValue] = {"card": str(card)}
    caught = seen.kind == ev.CAUGHT
    if not suffix and target is not None and target == me:
        if caught:
            return Message("event.caught_at_you", {**params, **more},
                           f"{who} catches you cheating with {card.symbol}: you take the table")
        return Message("event.wrong_at_you", {**params, **more},
                       f"{who} wrongly accuses your {card.symbol}, a fair play: {who} takes the table")
    more["target"] = target
    if caught:
        return Message(f"event.caught{suffix}", {**params, **more},
                       f"{who} {'catch' if suffix else 'catches'} {_seat(target, me)} cheating with {card.symbol}: "
                       f"{_seat(target, me)} takes the table")
    return Message(f"event.wrong{suffix}", {**params, **more},
                   f"{who} wrongly {'accuse' if suffix else 'accuses'} {card.symbol} of {_seat(target, me)}, "
                   f"a fair play: {who} {'take' if suffix else 'takes'} the table")


def deal(trump: str, attacker: int | None, me: int | None = None) -> Message:
    """The first line of a game: the trump suit and who attacks first."""
    suit = f"{SUIT_SYMBOLS[SUITS.index(trump)]} {SUIT_WORDS[trump]}"
    if attacker is not None and attacker == me:
        return Message("event.deal_you", {"trump": trump}, f"new deal, trump {suit}: you attack first")
    return Message("event.deal", {"trump": trump, "seat": attacker},
                   f"new deal, trump {suit}: {_seat(attacker, me)} attacks first")
