"""Positions: one line of text holding everything ``game.to_dict()`` holds but the history and the seed.

What FEN is to chess (docs/notation.md has the grammar): the rules token, then ``key=value`` fields in a fixed
order, optional ones left out when empty. Reading builds the dict ``Game.from_dict`` restores, so a position
can never build a game the save checks would refuse; the few facts those checks leave open (whose turn it
is, the roles, the result) are checked here against what the rest implies.
"""

from __future__ import annotations

import re
from typing import Any, TypeVar

from .cards import SUITS, Card, CardError, deck, parse_card
from .core import GameCore
from .notation import RecordError, error, parse_rules, reason_of, rules_text
from .rules import Rules
from .state import FORMAT, VERSION, game_from_dict, game_to_dict

#: The class a position is read as: the core or a class built on it (durak.game.Game).
G = TypeVar("G", bound=GameCore)

#: Refused beyond this size: a record of the longest real game is a few kilobytes, a position far less.
MAX_TEXT = 200_000

#: The fields after the rules token, in their fixed order; optional ones are left out when empty or false.
FIELDS = ("trump", "talon", "hands", "table", "by", "cheats", "discard", "dealer", "attacker", "defender", "opener",
          "turn", "limit", "round", "first", "take", "passed", "known", "emptied", "out", "result")
_OPTIONAL = frozenset({"by", "cheats", "first", "take", "passed", "known", "emptied", "out", "result"})
_FLAGS = frozenset({"first", "take"})
_SEAT = re.compile(r"[0-9]")
_NUMBER = re.compile(r"[0-9]{1,6}")


def _card_text(cards: list[str] | list[Card]) -> str:
    return ",".join(map(str, cards)) or "-"


def _seat_text(seat: int | None) -> str:
    return "-" if seat is None else str(seat)


def position_of(game: GameCore) -> str:
    """One line with everything ``game.to_dict()`` holds but the history and the seed."""
    data = game_to_dict(game)
    card = data["trump_card"]
    if card is None:
        trump = data["trump"]
    elif data["trump_exposed"]:
        trump = card
    else:
        trump = f"{data['trump']}:{card}"
    fields = [
        rules_text(game.rules),
        f"trump={trump}",
        f"talon={_card_text(data['talon'])}",
        "hands=" + "|".join(_card_text(hand) for hand in data["hands"]),
        "table=" + (",".join(a if d is None else f"{a}:{d}" for a, d in data["table"]) or "-"),
    ]
    if data.get("table_by"):  # cheat mode: who played each table card, and which were cheats
        fields.append("by=" + ",".join(str(a) if d is None else f"{a}:{d}" for a, d in data["table_by"]))
    if data.get("cheats"):
        fields.append(f"cheats={_card_text(data['cheats'])}")
    fields += [
        f"discard={'*' if data['discard'] == _rest(game) else _card_text(data['discard'])}",
        f"dealer={data['dealer']}",
        f"attacker={_seat_text(data['attacker'])}",
        f"defender={_seat_text(data['defender'])}",
        f"opener={_seat_text(data['opener'])}",
        f"turn={_seat_text(game.to_act)}",
        f"limit={data['limit']}",
        f"round={data['round']}",
    ]
    if data["first_round"]:
        fields.append("first")
    if data["taking"]:
        fields.append("take")
    if data["passed"]:
        fields.append("passed=" + ",".join(map(str, data["passed"])))
    if any(data["known"]):
        fields.append("known=" + "|".join(_card_text(k) for k in data["known"]))
    if data["emptied"]:
        fields.append("emptied=" + ",".join(map(str, data["emptied"])))
    if data["out_order"]:
        fields.append("out=" + ",".join(map(str, data["out_order"])))
    result = data["result"]
    if result is not None:
        fields.append("result=" + result_text(result))
    return " ".join(fields)


def _rest(game: GameCore) -> list[str]:
    """The cards named nowhere else, in deck order: what ``discard=*`` stands for."""
    used = set(game.talon).union(*game.hands, game.attacks, (d for d in game.defences if d is not None))
    return [str(c) for c in deck(game.rules.deck) if c not in used]


def result_text(result: dict[str, Any]) -> str:
    """``draw``, ``durak:1`` or (a team lost with several players still holding cards) ``losers:1,3``."""
    if result["draw"]:
        return "draw"
    if result["durak"] is not None:
        return f"durak:{result['durak']}"
    return "losers:" + ",".join(map(str, result["losers"]))


def game_from_position(cls: type[G], text: object) -> G:
    """The game a ``position_of`` line describes; ``RecordError`` for anything malformed or inconsistent."""
    if not isinstance(text, str):
        raise error("record.not_text", f"a position is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise error("record.too_long", f"a position of {len(text)} characters is too long", size=len(text))
    line = text.strip()
    if "\n" in line or "\r" in line:
        raise error("record.bad_position", "a position is one line")
    tokens = line.split()
    if not tokens:
        raise error("record.bad_position", "the position is empty")
    rules = parse_rules(tokens[0])
    values = _position_fields(tokens[1:])
    data = _PositionReader(rules, values).save()
    try:
        game = game_from_dict(cls, data)
    except ValueError as problem:  # a SaveError: the save checks' reason
        raise error("record.inconsistent", f"the position is not a playable game: {problem}", None,
                    **reason_of(problem)) from None
    _check_derived(game, values)
    game._start = position_of(game)
    return game


def _position_fields(tokens: list[str]) -> dict[str, str]:
    """``key=value`` tokens (and the bare flags) in the fixed order, each at most once."""
    values: dict[str, str] = {}
    at = 0
    for token in tokens:
        key, sep, value = token.partition("=")
        key = key.lower()
        if key not in FIELDS:
            raise error("record.unknown_field", f"unknown position field {key!r}", token=token)
        if key in _FLAGS:
            if sep:
                raise error("record.bad_field", f"{key} is a flag and takes no value", field=key, token=token)
        elif not sep or not value:
            raise error("record.bad_field", f"{key} needs a value ({key}=...)", field=key, token=token)
        index = FIELDS.index(key)
        if index < at:
            what = "repeats" if key in values else "is out of order"
            raise error("record.field_order", f"field {key} {what}: the order is {' '.join(FIELDS)}", token=token)
        at = index + 1
        values[key] = value
    missing = [key for key in FIELDS if key not in values and key not in _OPTIONAL]
    if missing:
        raise error("record.missing_field", f"the position lacks {', '.join(missing)}", field=missing[0])
    return values


class _PositionReader:
    """Turns the fields of a position into the dict ``Game.from_dict`` restores."""

    def __init__(self, rules: Rules, values: dict[str, str]) -> None:
        self.rules = rules
        self.values = values
        self.n = rules.players

    def fail(self, key: str, why: str) -> RecordError:
        return error("record.bad_field", f"{key}: {why}", field=key, token=f"{key}={self.values.get(key, '')}")

    def cards(self, key: str, text: str) -> list[str]:
        if text == "-":
            return []
        items = text.split(",")
        try:
            return [str(parse_card(item)) for item in items]
        except CardError as problem:
            raise self.fail(key, str(problem)) from None

    def per_seat(self, key: str) -> list[list[str]]:
        parts = self.values[key].split("|")
        if len(parts) != self.n:
            raise self.fail(key, f"list {self.n} seats separated by |, not {len(parts)}")
        return [self.cards(key, part) for part in parts]

    def seat(self, key: str, optional: bool = False) -> int | None:
        text = self.values[key]
        if text == "-" and optional:
            return None
        if not _SEAT.fullmatch(text) or int(text) >= self.n:
            raise self.fail(key, f"a seat from 0 to {self.n - 1}" + (" or -" if optional else ""))
        return int(text)

    def seats(self, key: str, text: str | None = None) -> list[int]:
        text = self.values.get(key) if text is None else text
        if text is None:
            return []
        seats = []
        for part in text.split(","):
            if not _SEAT.fullmatch(part) or int(part) >= self.n:
                raise self.fail(key, f"seats from 0 to {self.n - 1} separated by commas")
            seats.append(int(part))
        if len(set(seats)) != len(seats):
            raise self.fail(key, "a seat is named twice")
        return seats

    def number(self, key: str) -> int:
        text = self.values[key]
        if not _NUMBER.fullmatch(text):
            raise self.fail(key, "a whole number")
        return int(text)

    def trump(self) -> tuple[str, str | None, bool]:
        """(suit, card or None, exposed): ``D``, ``7D`` (lying under the talon) or ``D:7D`` (no longer there)."""
        text = self.values["trump"].upper()
        if text in SUITS:
            return text, None, False
        suit, sep, rest = text.partition(":")
        try:
            card = parse_card(rest if sep else text)
        except CardError as problem:
            raise self.fail("trump", f"a suit, a card or suit:card ({problem})") from None
        if sep and suit != card.suit:
            raise self.fail("trump", f"the card {card} is not of the suit {suit}")
        return card.suit, str(card), not sep

    def table(self) -> list[list[str | None]]:
        text = self.values["table"]
        if text == "-":
            return []
        pairs: list[list[str | None]] = []
        for part in text.split(","):
            attack, sep, defence = part.partition(":")
            try:
                pairs.append([str(parse_card(attack)), str(parse_card(defence)) if sep else None])
            except CardError as problem:
                raise self.fail("table", f"attack or attack:defence cards ({problem})") from None
        return pairs

    def table_by(self, size: int) -> list[list[int | None]]:
        """``by=0:1,2``: the seat that played each table pair's attack and (after ``:``) its defence."""
        pairs: list[list[int | None]] = []
        parts = self.values["by"].split(",")
        if len(parts) != size:
            raise self.fail("by", f"name the players of the {size} table pair(s)")
        for part in parts:
            attack, sep, defence = part.partition(":")
            seats = [attack, defence] if sep else [attack]
            if not all(_SEAT.fullmatch(seat) and int(seat) < self.n for seat in seats):
                raise self.fail("by", f"seats from 0 to {self.n - 1}, attack:defence for a beaten pair")
            pairs.append([int(attack), int(defence) if sep else None])
        return pairs

    def result(self, out: list[int]) -> dict[str, Any] | None:
        text = self.values.get("result")
        if text is None:
            return None
        if text == "draw":
            return {"durak": None, "draw": True, "out_order": list(out), "losers": []}
        kind, _, seats = text.partition(":")
        if kind == "durak" and _SEAT.fullmatch(seats) and int(seats) < self.n:
            durak = int(seats)
            losers = [s for s in range(self.n) if self.rules.team_of(s) == self.rules.team_of(durak)]
            return {"durak": durak, "draw": False, "out_order": list(out), "losers": losers}
        if kind == "losers" and self.rules.teams is not None:
            losers = sorted(self.seats("result", seats))
            return {"durak": None, "draw": False, "out_order": list(out), "losers": losers}
        raise self.fail("result", "draw, durak:<seat> or (teams) losers:<seats>")

    def save(self) -> dict[str, Any]:
        rules, values = self.rules, self.values
        suit, card, exposed = self.trump()
        talon = self.cards("talon", values["talon"])
        hands = self.per_seat("hands")
        table = self.table()
        if values["discard"] == "*":
            used = set(talon).union(*hands, (c for pair in table for c in pair if c is not None))
            discard = [str(c) for c in deck(rules.deck) if str(c) not in used]
        else:
            discard = self.cards("discard", values["discard"])
        out = self.seats("out")
        known = self.per_seat("known") if "known" in values else [[] for _ in range(self.n)]
        over = "result" in values
        cheat_fields: dict[str, Any] = {}
        if not rules.cheating:
            for key in ("by", "cheats"):
                if key in values:
                    raise self.fail(key, "only a cheat-mode game names who played the table's cards or its cheats")
        else:
            if "by" in values:
                cheat_fields["table_by"] = self.table_by(len(table))
            cheat_fields["cheats"] = self.cards("cheats", values.get("cheats", "-"))
        return {
            "format": FORMAT,
            "version": VERSION,
            "rules": rules.to_dict(),
            "seed": None,
            "dealer": self.seat("dealer"),
            "trump": suit,
            "trump_card": card,
            "trump_exposed": exposed,
            "talon": talon,
            "hands": hands,
            "discard": discard,
            "active": [seat not in out for seat in range(self.n)],
            "out_order": out,
            "known": [sorted(k, key=parse_card) for k in known],
            "table": table,
            "attacker": self.seat("attacker", optional=over),
            "defender": self.seat("defender", optional=over),
            "opener": self.seat("opener", optional=over),
            "limit": self.number("limit"),
            "taking": "take" in values,
            "passed": sorted(self.seats("passed")),
            "emptied": self.seats("emptied"),
            "first_round": "first" in values,
            "round": self.number("round"),
            "history": [],
            "result": self.result(out),
            **cheat_fields,
        }


def _check_derived(game: GameCore, values: dict[str, str]) -> None:
    """What the save checks leave open: the roles, the result and the stated turn must follow from the rest."""
    if game.result is None:
        _check_round(game)
    else:
        _check_result(game, values.get("result", ""))
    turn = values["turn"]
    if turn != _seat_text(game.to_act):
        raise error("record.bad_field", f"turn: the position makes {_seat_text(game.to_act)} act, not {turn}",
                    field="turn", token=f"turn={turn}")


def _check_round(game: GameCore) -> None:
    sides = {game.rules.team_of(s) for s in range(game.players) if game.active[s]}
    if len(sides) < 2:
        raise error("record.inconsistent", "a game in play needs two sides that still hold cards")
    assert game.attacker is not None  # from_dict refuses a game in play without one
    if game.defender != game._opponent_after(game.attacker):
        raise error("record.inconsistent", f"seat {game.defender} cannot defend against seat {game.attacker}: "
                    "the defender is the attacker's next opponent clockwise")
    if len(game.attacks) > game.limit:
        raise error("record.inconsistent", f"{len(game.attacks)} attack cards exceed the limit {game.limit}")


def _check_result(game: GameCore, text: str) -> None:
    result = game.result
    assert result is not None
    if game.attacker is not None or game.defender is not None or game.opener is not None or game.attacks:
        raise error("record.inconsistent", "a finished game has no attacker, defender, opener or table")
    holders = [s for s in range(game.players) if game.active[s]]
    rules = game.rules
    if len({rules.team_of(s) for s in holders}) > 1:
        raise error("record.inconsistent", "the game is over but two sides still hold cards")
    durak = holders[0] if len(holders) == 1 else None
    losers = [s for s in range(game.players) if holders and rules.team_of(s) == rules.team_of(holders[0])]
    if (result.durak, result.draw, result.losers) != (durak, not holders, losers):
        raise error("record.inconsistent", "the result does not match who still holds cards",
                    token=f"result={text}")
