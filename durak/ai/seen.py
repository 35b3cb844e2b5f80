"""A player's view, read once into typed fields.

Views are JSON-safe dicts (strings for cards); the players reason with ints and frozensets, and this
module is the only place that knows the view's key names.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..actions import Action, parse_action
from ..cards import SUITS, Card, deck, parse_card
from ..rules import Rules


@dataclass(frozen=True)
class Seen:
    """Everything one seat may know, typed: own hand, public cards, public history."""

    view: dict[str, Any]
    rules: Rules
    me: int
    hand: tuple[Card, ...]
    trump: int
    trump_card: Card | None
    trump_exposed: bool
    talon: int
    hand_sizes: tuple[int, ...]
    known: tuple[frozenset[Card], ...]
    table: tuple[tuple[Card, Card | None], ...]
    discard: frozenset[Card]
    defender: int | None
    taking: bool
    active: tuple[bool, ...]
    history: tuple[tuple[int, Action], ...]

    @classmethod
    def read(cls, view: dict[str, Any]) -> Seen:
        trump_card = view.get("trump_card")
        return cls(
            view=view,
            rules=Rules.from_dict(view["rules"]),
            me=view["seat"],
            hand=tuple(parse_card(c) for c in view["hand"]),
            trump=SUITS.index(view["trump"]),
            trump_card=parse_card(trump_card) if trump_card else None,
            trump_exposed=bool(view.get("trump_exposed")),
            talon=view["talon"],
            hand_sizes=tuple(view["hand_sizes"]),
            known=tuple(frozenset(parse_card(c) for c in cards) for cards in view["known"]),
            table=tuple(
                (parse_card(a), parse_card(d) if d is not None else None) for a, d in view["table"]
            ),
            discard=frozenset(parse_card(c) for c in view["discard"]),
            defender=view.get("defender"),
            taking=bool(view.get("taking")),
            active=tuple(view["active"]),
            history=tuple((seat, parse_action(text)) for seat, text in view.get("history", ())),
        )

    @property
    def players(self) -> int:
        return self.rules.players

    @cached_property
    def table_cards(self) -> frozenset[Card]:
        return frozenset(c for pair in self.table for c in pair if c is not None)

    @cached_property
    def unseen(self) -> frozenset[Card]:
        """Cards whose place I cannot know: other seats' unknown cards and the talon below its trump."""
        placed = set(self.hand) | self.table_cards | self.discard
        for seat, cards in enumerate(self.known):
            if seat != self.me:
                placed |= cards
        if self.trump_exposed and self.trump_card is not None:
            placed.add(self.trump_card)
        return frozenset(deck(self.rules.deck)) - placed

    def hidden_count(self, seat: int) -> int:
        """How many of ``seat``'s cards I cannot name."""
        return self.hand_sizes[seat] - len(self.known[seat])

    @property
    def hidden_talon(self) -> int:
        """Talon cards I cannot name (all but the exposed trump)."""
        return self.talon - (1 if self.trump_exposed and self.talon else 0)

    @property
    def lowest_rank(self) -> int:
        return min(c.rank for c in deck(self.rules.deck))
