"""Durak rules engine: Podkidnoy, Perevodnoy and Prostoy, standard library only.

The API (views, events, the AI interface) is described in docs/api.md.
"""

from .actions import Action, NotationError, parse_action
from .cards import Card, CardError, parse_card
from .events import Event
from .game import Game, IllegalAction, Result
from .record import Move, Record, RecordError, from_url_safe, parse_record, url_safe
from .rules import Rules, RulesError
from .scenario import ScenarioError
from .state import SaveError

__all__ = [
    "Action",
    "Card",
    "CardError",
    "Event",
    "Game",
    "IllegalAction",
    "Move",
    "NotationError",
    "Record",
    "RecordError",
    "Result",
    "Rules",
    "RulesError",
    "SaveError",
    "ScenarioError",
    "from_url_safe",
    "parse_action",
    "parse_card",
    "parse_record",
    "url_safe",
]
