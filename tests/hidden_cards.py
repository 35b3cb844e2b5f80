"""What a seat may not know, for the tests that check no message or view shows it."""

from __future__ import annotations

from durak import Game


def secret_cards(game: Game, seat: int) -> set[str]:
    """What ``seat`` may not know now: other hands but their known cards, the talon but the exposed trump."""
    hidden: set[str] = set()
    for other in range(game.rules.players):
        if other != seat:
            hidden |= {str(c) for c in game.hand(other)} - {str(c) for c in game.known[other]}
    exposed = str(game.trump_card) if game.trump_exposed else None
    return hidden | ({str(c) for c in game.talon} - {exposed})
