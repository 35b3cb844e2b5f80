"""A series of games: the loser deals the next one, and losses and first-outs are tallied (seed 003).

Each game's seed comes from the series seed, so a whole series replays exactly.
"""

from __future__ import annotations

import random
from typing import Any

from . import checks
from .game import Game, Result
from .rules import Rules
from .state import SaveError


class Series:
    """Consecutive games under one rule set, with the dealer rule of RULES.md §1."""

    def __init__(self, rules: Rules, seed: int | None = None, dealer: int | None = None) -> None:
        self.rules = rules
        self.seed = random.SystemRandom().randrange(2**63) if seed is None else seed
        self.losses = [0] * rules.players
        self.first_out = [0] * rules.players
        self.draws = 0
        self.games_played = 0
        self.game = Game.new(rules, seed=self._game_seed(0), dealer=dealer)

    def _game_seed(self, index: int) -> int:
        return random.Random(f"{self.seed}/{index}").randrange(2**63)

    def next_game(self) -> Game:
        """Record the finished game and deal the next: the loser deals; after a draw the same dealer."""
        result = self.game.result
        if result is None:
            raise ValueError("the current game is not over yet")
        self._record(result)
        dealer = next_dealer(self.game.dealer, result)
        self.game = Game.new(self.rules, seed=self._game_seed(self.games_played), dealer=dealer, first_game=False)
        return self.game

    def _record(self, result: Result) -> None:
        self.games_played += 1
        if result.draw:
            self.draws += 1
        for seat in result.losers:
            self.losses[seat] += 1
        if result.out_order:
            self.first_out[result.out_order[0]] += 1

    def standings(self) -> dict[str, Any]:
        """The tally including the current game if it is over (what a score board shows)."""
        losses, first_out, played, draws = list(self.losses), list(self.first_out), self.games_played, self.draws
        result = self.game.result
        if result is not None:
            played += 1
            draws += result.draw
            for seat in result.losers:
                losses[seat] += 1
            if result.out_order:
                first_out[result.out_order[0]] += 1
        return {"games": played, "draws": draws, "losses": losses, "first_out": first_out}

    def to_dict(self) -> dict[str, Any]:
        return {"format": "durak-series", "version": 1, "rules": self.rules.to_dict(), "seed": self.seed,
                "losses": self.losses, "first_out": self.first_out, "draws": self.draws,
                "games_played": self.games_played, "game": self.game.to_dict()}

    @classmethod
    def from_dict(cls, data: object) -> Series:
        if not isinstance(data, dict) or data.get("format") != "durak-series" or data.get("version") != 1:
            raise SaveError("not a saved series of this version", "save.series_version")
        try:
            rules = Rules.from_dict(data["rules"])
            series = cls.__new__(cls)
            series.rules = rules
            series.seed = int(data["seed"])
            series.losses = _tally(data["losses"], rules.players)
            series.first_out = _tally(data["first_out"], rules.players)
            series.draws = int(data["draws"])
            series.games_played = int(data["games_played"])
        except (KeyError, TypeError, ValueError) as error:
            raise SaveError(f"not a valid saved series: {error}", "save.series", cause=checks.cause(error)) from None
        series.game = Game.from_dict(data["game"])
        if series.game.rules != rules:
            raise SaveError("not a valid saved series: the game's rules differ from the series' rules",
                            "save.series_rules")
        return series


def next_dealer(dealer: int, result: Result) -> int:
    """The loser deals (in a team loss, the first loser still holding cards); after a draw the dealer stays."""
    if result.draw:
        return dealer
    if result.durak is not None:
        return result.durak
    holders = [seat for seat in result.losers if seat not in result.out_order]
    return holders[0] if holders else result.losers[0]


def _tally(value: object, players: int) -> list[int]:
    if not isinstance(value, list) or len(value) != players or not all(type(v) is int and v >= 0 for v in value):
        raise ValueError(f"a tally must list {players} whole numbers")
    return list(value)
