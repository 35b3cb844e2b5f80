"""Shared helpers for the AI tests: positions from a few strings, and seeded play."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from durak import Game, Rules
from durak.ai import make_player

#: Rule sets covering every variant and option the AI must handle.
RULE_SETS: list[dict[str, Any]] = [
    {"variant": "podkidnoy"},
    {"variant": "podkidnoy", "players": 3, "throw_in": "everyone"},
    {"variant": "podkidnoy", "players": 4, "teams": "2v2", "first_defence_limit": 5},
    {"variant": "podkidnoy", "players": 6, "teams": "2v2v2"},
    {"variant": "podkidnoy", "players": 6, "deck": 52, "teams": "3v3", "trump_six_exchange": True},
    {"variant": "podkidnoy", "players": 4, "deck": 24},
    {"variant": "perevodnoy"},
    {"variant": "perevodnoy", "players": 4, "teams": "2v2"},
    {"variant": "perevodnoy", "players": 5, "deck": 52, "throw_in": "everyone"},
    {"variant": "prostoy"},
    {"variant": "prostoy", "players": 4},
    {"variant": "prostoy", "players": 3, "deck": 52, "trump_six_exchange": False},
]


def position(hands: list[str], *, trump: str = "D", talon: str = "", attacker: int = 0,
             trump_card: str | None = None, **rules: Any) -> Game:
    """A round-start position: ``hands`` as space-separated cards per seat, ``talon`` top first.

    Cards named nowhere are in the discard pile, so with an empty talon every card is known.
    ``trump_card`` (the talon's last card) is exposed, which allows the trump-six exchange.
    """
    rules.setdefault("players", len(hands))
    trump_field = {"trump_card": trump_card} if trump_card else {"trump": trump}
    return Game.from_scenario(
        {"rules": rules, "hands": [h.split() for h in hands], "talon": talon.split(), **trump_field,
         "attacker": attacker}
    )


def positions(rules: Rules, seed: int, every: int = 7) -> Iterator[Game]:
    """Positions met in a seeded game played by a mix of random and normal players."""
    rng = random.Random(seed)
    game = Game.new(rules, seed=seed)
    normal = make_player("normal")
    moves = 0
    while game.result is None:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        if moves % every == every - 1:
            yield game.copy()
        action = rng.choice(legal) if rng.random() < 0.3 else normal.choose(game.view(seat), legal)
        game.apply(seat, action)
        moves += 1


def act(game: Game, *moves: str) -> None:
    """Apply moves for whoever is to act."""
    for move in moves:
        seat = game.to_act
        assert seat is not None, f"game over before {move!r}"
        game.apply(seat, move)
