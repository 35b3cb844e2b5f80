"""AI players for every variant (RULES.md §6): easy, normal, hard; hints and move analysis.

Players receive a seat's view and its legal actions, never the game. See docs/ai.md.
"""

from .advice import Hint, evaluate, hint, reason
from .players import LEVELS, Player, Thinker, make_player

__all__ = ["LEVELS", "Hint", "Player", "Thinker", "evaluate", "hint", "make_player", "reason"]
