"""Events: what one ``apply`` changed, in order, so a table can animate it.

The engine returns the full events; ``seen_by(p)`` gives the copy a player may see, in which cards
drawn by somebody else are hidden (only their count shows).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from .cards import Card

ATTACK = "attack"
DEFEND = "defend"
TRANSFER = "transfer"
TAKE = "take"
PASS = "pass"
PICKUP = "pickup"
DISCARD = "discard"
DRAW = "draw"
EXCHANGE = "exchange"
OUT = "out"
ROUND = "round"
GAME_OVER = "game_over"
#: Cheat mode: an accusation's outcome. ``player`` accused ``cards[0]``, which ``target`` had played; a
#: ``PICKUP`` follows, by ``target`` when CAUGHT (it was a cheat), by ``player`` when WRONG (it was legal).
CAUGHT = "caught"
WRONG = "wrong"


class Event(NamedTuple):
    """One change. ``player`` acts or receives; ``target`` is a second seat (the new defender of a
    transfer or a round); ``size`` is how many cards moved (a draw shows it even when cards are hidden)."""

    kind: str
    player: int | None = None
    cards: tuple[Card, ...] = ()
    target: int | None = None
    size: int = 0
    public: tuple[Card, ...] = ()

    def seen_by(self, seat: int | None) -> Event:
        """The copy ``seat`` may see (``None``: a spectator who sees no hand)."""
        if self.kind == DRAW and self.player != seat:
            return self._replace(cards=self.public)
        return self

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind}
        if self.player is not None:
            data["player"] = self.player
        if self.cards:
            data["cards"] = [str(c) for c in self.cards]
        if self.target is not None:
            data["target"] = self.target
        if self.size:
            data["count"] = self.size
        return data
