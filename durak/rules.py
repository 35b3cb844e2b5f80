"""The rule set: every option of RULES.md §5 as one frozen, validated value."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

from .cards import DECK_LOWEST_RANK
from .messages import CodedError

VARIANTS = ("podkidnoy", "perevodnoy", "prostoy")
THROW_IN = ("neighbours", "everyone")
FIRST_ATTACK = ("loser_left", "against_loser")
TEAMS = {"2v2": (4, 2), "3v3": (6, 2), "2v2v2": (6, 3)}  # name -> (players, number of teams)
MAX_PLAYERS_BY_DECK = {24: 4, 36: 6, 52: 6}


class RulesError(CodedError):
    """A rule set that cannot be played, with the reason (``code`` ``rules.<reason>`` and its ``params``)."""

    default_code = "rules"


@dataclass(frozen=True)
class Rules:
    """Options chosen before the deal and never changed during a game."""

    variant: str = "podkidnoy"
    players: int = 2
    deck: int = 36
    throw_in: str = "neighbours"
    first_defence_limit: int = 6
    trump_six_exchange: bool | None = None
    first_attack: str = "loser_left"
    teams: str | None = None
    cheating: bool = False
    hand_size: int = field(init=False)
    exchange: bool = field(init=False)

    def __post_init__(self) -> None:
        self._validate()
        set_ = object.__setattr__
        set_(self, "hand_size", 5 if self.variant == "prostoy" else 6)
        exchange = self.trump_six_exchange
        set_(self, "exchange", self.variant == "prostoy" if exchange is None else exchange)

    def _validate(self) -> None:
        if self.variant not in VARIANTS:
            raise RulesError(f"unknown variant {self.variant!r}: choose {', '.join(VARIANTS)}", "rules.variant",
                             value=repr(self.variant))
        if type(self.players) is not int or not 2 <= self.players <= 6:
            raise RulesError(f"players must be a whole number from 2 to 6, not {self.players!r}", "rules.players",
                             value=repr(self.players))
        if self.deck not in DECK_LOWEST_RANK or type(self.deck) is not int:
            raise RulesError(f"deck must be 24, 36 or 52 cards, not {self.deck!r}", "rules.deck",
                             value=repr(self.deck))
        if self.players > MAX_PLAYERS_BY_DECK[self.deck]:
            hand = 5 if self.variant == "prostoy" else 6
            raise RulesError(
                f"{self.players} players need {self.players * hand} cards for their hands, "
                f"more than a {self.deck}-card deck gives ({self.deck}-card deck: at most "
                f"{MAX_PLAYERS_BY_DECK[self.deck]} players)", "rules.too_many_players",
                players=self.players, cards=self.players * hand, deck=self.deck, most=MAX_PLAYERS_BY_DECK[self.deck],
            )
        if self.throw_in not in THROW_IN:
            raise RulesError(f"throw_in must be 'neighbours' or 'everyone', not {self.throw_in!r}", "rules.throw_in",
                             value=repr(self.throw_in))
        if self.first_defence_limit not in (5, 6) or type(self.first_defence_limit) is not int:
            raise RulesError(f"first_defence_limit must be 6 or 5, not {self.first_defence_limit!r}",
                             "rules.first_defence_limit", value=repr(self.first_defence_limit))
        if self.trump_six_exchange not in (None, True, False):
            raise RulesError(f"trump_six_exchange must be true, false or null, not {self.trump_six_exchange!r}",
                             "rules.trump_six_exchange", value=repr(self.trump_six_exchange))
        if self.first_attack not in FIRST_ATTACK:
            raise RulesError(f"first_attack must be 'loser_left' or 'against_loser', not {self.first_attack!r}",
                             "rules.first_attack", value=repr(self.first_attack))
        if type(self.cheating) is not bool:
            raise RulesError(f"cheating must be true or false, not {self.cheating!r}", "rules.cheating",
                             value=repr(self.cheating))
        if self.teams is not None:
            if self.teams not in TEAMS:
                raise RulesError(f"teams must be none, '2v2', '3v3' or '2v2v2', not {self.teams!r}", "rules.teams",
                                 value=repr(self.teams))
            if self.variant == "prostoy":
                raise RulesError("Prostoy is every player for himself: it has no teams", "rules.prostoy_teams")
            needed = TEAMS[self.teams][0]
            if self.players != needed:
                raise RulesError(f"teams {self.teams} need exactly {needed} players, not {self.players}",
                                 "rules.teams_players", teams=self.teams, need=needed, players=self.players)
        if self.variant == "prostoy":
            if self.throw_in != "neighbours":
                raise RulesError("Prostoy has no throw-ins, so the throw-in option does not apply",
                                 "rules.prostoy_throw_in")
            if self.first_defence_limit != 6:
                raise RulesError("Prostoy has no throw-ins, so the first-defence limit does not apply",
                                 "rules.prostoy_first_defence")
            if self.first_attack != "loser_left":
                raise RulesError("in Prostoy the dealer's left neighbour always attacks first, "
                                 "so the first-attack option does not apply", "rules.prostoy_first_attack")

    @property
    def team_count(self) -> int:
        """How many teams (every player alone: one team per player)."""
        return TEAMS[self.teams][1] if self.teams else self.players

    def team_of(self, seat: int) -> int:
        """Partners sit alternately: seat i is on team i mod the number of teams."""
        return seat % self.team_count

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        del data["hand_size"], data["exchange"]
        if not self.cheating:
            del data["cheating"]  # off by default: saves and views of honest games stay as they were
        return data

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        """Build rules from a JSON object; unknown keys are refused so that typos do not pass."""
        if not isinstance(data, dict):
            raise RulesError(f"rules must be an object, not {type(data).__name__}", "rules.not_an_object",
                             type=type(data).__name__)
        known = {"variant", "players", "deck", "throw_in", "first_defence_limit", "trump_six_exchange",
                 "first_attack", "teams", "cheating"}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(map(str, unknown))}", "rules.unknown_options",
                             names=[str(name) for name in unknown])
        return cls(**data)
