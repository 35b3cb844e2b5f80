"""Building positions for clause tests in a line or two."""

from __future__ import annotations

from typing import Any

from durak import Game, parse_action


def position(hands: list[str], *, trump: str = "D", talon: str = "", attacker: int = 0,
             trump_card: str | None = None, first_round: bool = False, **rules: Any) -> Game:
    """A round-start position: ``hands`` as space-separated cards per seat, ``talon`` top first."""
    rules.setdefault("players", len(hands))
    data: dict[str, Any] = {
        "rules": rules,
        "hands": [h.split() for h in hands],
        "talon": talon.split(),
        "attacker": attacker,
        "first_round": first_round,
    }
    if trump_card is not None:
        data["trump_card"] = trump_card
    else:
        data["trump"] = trump
    return Game.from_scenario(data)


def legal(game: Game) -> set[str]:
    """The legal actions of the seat to act, as notation."""
    seat = game.to_act
    assert seat is not None
    return {str(a) for a in game.legal_actions(seat)}


def play(game: Game, *moves: str) -> None:
    """Apply moves for whoever is to act."""
    for move in moves:
        seat = game.to_act
        assert seat is not None, f"game over before {move!r}"
        game.apply(seat, move)


def canon(text: str) -> str:
    """The canonical notation of an action (attack cards in deck order)."""
    return str(parse_action(text))
