"""Positions at the start of a round, from JSON: rules pages, puzzles and tests.

Format (DESIGN.md): ``{"rules": {...}, "trump": "D" | "trump_card": "7D", "talon": [...], "hands": [[...], ...],
"attacker": 0, "dealer": 1, "first_round": false}``. Cards named nowhere start in the discard pile.
"""

from __future__ import annotations

from typing import Any, TypeVar

from . import checks
from .cards import SUITS, Card, CardError, deck, parse_card
from .core import GameCore
from .messages import CodedError, ParamValue
from .rules import Rules, RulesError

#: The class a scenario is built as: the core or a class built on it (durak.game.Game).
G = TypeVar("G", bound=GameCore)

_FIELDS = {"rules", "trump", "trump_card", "talon", "hands", "attacker", "dealer", "first_round", "seed"}


class ScenarioError(CodedError):
    """A scenario that does not describe a playable position, with the reason (code ``scenario.<reason>``)."""

    default_code = "scenario"


def _fail(text: str, code: str, **params: ParamValue) -> ScenarioError:
    """The failure ``checks`` raises for a scenario."""
    return ScenarioError(text, f"scenario.{code}", **params)


def game_from_scenario(cls: type[G], data: object) -> G:
    if not isinstance(data, dict):
        raise ScenarioError(f"a scenario must be an object, not {type(data).__name__}", "scenario.not_an_object",
                            type=type(data).__name__)
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise ScenarioError(f"unknown scenario field(s): {', '.join(map(str, unknown))}", "scenario.unknown_fields",
                            names=[str(name) for name in unknown])
    try:
        rules = data["rules"] if isinstance(data.get("rules"), Rules) else Rules.from_dict(data.get("rules", {}))
    except (RulesError, TypeError) as error:
        raise ScenarioError(f"scenario rules: {error}", "scenario.rules", cause=checks.cause(error)) from None
    n = rules.players
    hands = _hands(data.get("hands"), n)
    talon = checks.card_list(data.get("talon", []), "talon", _fail)
    trump_index, trump_card = _trump(data, talon)
    _check_cards(rules, hands, talon)
    attacker = checks.seat(data.get("attacker"), n, "attacker", _fail)
    dealer = checks.seat(data.get("dealer", (attacker - 1) % n), n, "dealer", _fail)
    first_round = data.get("first_round", False)
    if not isinstance(first_round, bool):
        raise ScenarioError(f"first_round must be true or false, not {first_round!r}", "scenario.first_round",
                            value=repr(first_round))
    seed = data.get("seed")
    if seed is not None and type(seed) is not int:
        raise ScenarioError(f"seed must be a whole number, not {seed!r}", "scenario.seed", value=repr(seed))

    game = cls._blank(rules, seed, dealer)
    game._set_hands(hands)
    game._talon = talon[::-1]
    game.trump_index = trump_index
    game._trump_card = trump_card
    game.trump_exposed = trump_card is not None
    used = set(talon).union(*hands)
    game._discard = [c for c in deck(rules.deck) if c not in used]
    for seat, hand in enumerate(hands):
        if not hand:
            if talon:
                raise ScenarioError(f"seat {seat} has no cards while the talon could still refill it",
                                    "scenario.empty_hand", seat=seat)
            game.active[seat] = False
            game.out_order.append(seat)
    game._refresh_neighbours()
    if not game.active[attacker]:
        raise ScenarioError(f"the attacker (seat {attacker}) has no cards", "scenario.attacker_empty", seat=attacker)
    if len({rules.team_of(s) for s in range(n) if game.active[s]}) < 2:
        raise ScenarioError("a scenario needs at least two sides that still hold cards", "scenario.one_side")
    game._start_round(attacker, first_round=first_round)
    return game


def _hands(value: object, n: int) -> list[list[Card]]:
    if not isinstance(value, list) or len(value) != n:
        raise ScenarioError(f"hands must list one hand for each of the {n} players", "scenario.hands", n=n)
    return [checks.card_list(hand, f"hand of seat {seat}", _fail, f"hands[{seat}]") for seat, hand in enumerate(value)]


def _trump(data: dict[str, Any], talon: list[Card]) -> tuple[int, Card | None]:
    if data.get("trump_card") is not None:
        try:
            card = parse_card(data["trump_card"])
        except CardError as error:
            raise ScenarioError(f"trump_card: {error}", "scenario.trump_card", cause=checks.cause(error)) from None
        if not talon or talon[-1] != card:
            raise ScenarioError(f"the trump card {card.symbol} must be the talon's last card",
                                "scenario.trump_card_place", card=str(card))
        if data.get("trump") is not None and data["trump"] != card.suit:
            raise ScenarioError(f"trump {data['trump']!r} disagrees with the trump card {card.symbol}",
                                "scenario.trump_disagrees", value=repr(data["trump"]), card=str(card))
        return card & 3, card
    trump = data.get("trump")
    if not isinstance(trump, str) or trump.upper() not in SUITS:
        raise ScenarioError(f"trump must be one of S H D C (or give trump_card), not {trump!r}", "scenario.trump",
                            value=repr(trump))
    return SUITS.index(trump.upper()), None


def _check_cards(rules: Rules, hands: list[list[Card]], talon: list[Card]) -> None:
    full = set(deck(rules.deck))
    seen: set[Card] = set()
    for c in [*talon, *(c for hand in hands for c in hand)]:
        if c not in full:
            raise ScenarioError(f"{c.symbol} is not in a {rules.deck}-card deck", "scenario.not_in_deck", card=str(c),
                                deck=rules.deck)
        if c in seen:
            raise ScenarioError(f"{c.symbol} appears twice in the scenario", "scenario.card_twice", card=str(c))
        seen.add(c)
