"""``Game``: the rules core with everything built on it, the one class the engine's users hold.

The core (durak/core.py) plays and durak/explain.py says why a move is refused; this class adds what the
API promises beside: each observer's view and the saves (durak/state.py), scenarios, positions and records.
Those modules build on the core and receive the class to construct, so the imports run one way.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self

from .cards import Card
from .core import IllegalAction, Result
from .explain import ExplainedCore
from .position import game_from_position, position_of
from .record import read_record, record_of
from .scenario import game_from_scenario
from .state import game_from_dict, game_to_dict, open_view_of, public_view_of, state_from_view, view_of

__all__ = ["Game", "IllegalAction", "Result"]


class Game(ExplainedCore):
    """One deal of Durak, from the deal to the durak. Build with ``new``, ``from_dict``, ``from_scenario``,
    ``from_position`` or ``from_record``."""

    __slots__ = ()

    # ----------------------------------------------------------------- views and saves
    def view(self, seat: int) -> dict[str, Any]:
        """JSON-safe: only what ``seat`` may know (see docs/api.md for the keys)."""
        return view_of(self, self._seat(seat))

    def open_view(self) -> dict[str, Any]:
        """Every hand open and the talon in order (examples, reviews of finished games): never send it to a seat."""
        return open_view_of(self)

    def public_view(self) -> dict[str, Any]:
        """What a spectator knows: the table, the discards and the public cards, no hand."""
        return public_view_of(self)

    def to_dict(self) -> dict[str, Any]:
        return game_to_dict(self)

    @classmethod
    def from_dict(cls, data: object) -> Self:
        """Restore a save; anything inconsistent raises ``SaveError`` (a ``ValueError``)."""
        return game_from_dict(cls, data)

    @classmethod
    def from_view(cls, view: dict[str, Any], hands: list[list[Card]], talon: list[Card]) -> Self:
        """A full game consistent with ``view`` once its hidden cards are assigned (determinized search).

        ``hands`` lists every seat's cards (the viewer's own and everyone's known cards included);
        ``talon`` is top first, ending with the exposed trump card when one is exposed.
        """
        return game_from_dict(cls, state_from_view(view, hands, talon))

    # ----------------------------------------------------------------- scenarios, positions and records
    @classmethod
    def from_scenario(cls, data: object) -> Self:
        """A position at the start of a round (DESIGN.md scenario format); raises ``ScenarioError``."""
        game = game_from_scenario(cls, data)
        game._start = position_of(game)
        return game

    def position(self) -> str:
        """One line of text holding everything ``to_dict()`` holds but the history and the seed (docs/notation.md)."""
        return position_of(self)

    @classmethod
    def from_position(cls, text: str) -> Self:
        """The game a ``position()`` line describes; raises ``RecordError`` (a ``ValueError``)."""
        return game_from_position(cls, text)

    def record(self, names: list[str] | None = None, comments: Mapping[int, str] | None = None,
               tags: Mapping[str, str] | None = None) -> str:
        """The game record from the deal or starting position: header tags, then the numbered moves.

        ``comments`` maps a step (0: the start, i: after move i) to its comment; ``tags`` adds tags such as
        ``Example`` and ``Title``.
        """
        return str(record_of(self, names, comments, tags))

    @classmethod
    def from_record(cls, text: str) -> Self:
        """Replay a record (``durak.record.parse_record`` gives its moves and comments); raises ``RecordError``."""
        return read_record(text, cls)[1]
