"""Durak rules engine: Podkidnoy, Perevodnoy and Prostoy, standard library only.

The API (views, events, the AI interface) is described in docs/api.md.
"""

from .actions import Action, NotationError, parse_action
from .cards import Card, CardError, parse_card
from .events import Event
from .game import Game, IllegalAction, Result
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
    "NotationError",
    "Result",
    "Rules",
    "RulesError",
    "SaveError",
    "ScenarioError",
    "parse_action",
    "parse_card",
]
