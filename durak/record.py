"""Text notation for Durak: one-line positions, PGN-like game records, and URL-safe forms of both.

What FEN and PGN are to chess (docs/notation.md has the grammar and examples):

- ``position_of(game)`` writes one line holding everything ``game.to_dict()`` holds except the history and
  the seed; ``game_from_position`` reads it back by building that dict and restoring it with
  ``Game.from_dict``, so a position can never build a game the save checks would refuse.
- ``record_of(game)`` gives a ``Record``: header tags (rules, seed or starting position, names, result, any
  other tag), then numbered moves ``1. s0 attack 8H {comment}``. ``parse_record`` reads one and replays it,
  so a ``Record`` it returns always replays; ``str(record)`` writes the canonical text, which parses back to
  an equal record (comments included).
- ``url_safe`` / ``from_url_safe``: raw deflate with a fixed dictionary of the notation's common words, then
  base64url, behind a kind-and-version prefix (``p1`` position, ``r1`` record).

Every malformed input raises ``RecordError`` (a ``CodedError``: a stable ``code``, JSON-safe ``params``
naming the line and the token) and nothing half-built is returned.
"""

from __future__ import annotations

import base64
import binascii
import re
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from .actions import KINDS, Action, NotationError, parse_action
from .cards import SUITS, Card, CardError, deck, parse_card
from .messages import CodedError, ParamValue
from .rules import MAX_PLAYERS_BY_DECK, TEAMS, VARIANTS, Rules, RulesError
from .state import FORMAT, VERSION

if TYPE_CHECKING:
    from .game import Game

#: Refused beyond this size: a record of the longest real game is a few kilobytes.
MAX_TEXT = 200_000
#: A share link longer than this is refused before decoding (browsers and servers cut URLs near 8 kB+).
MAX_URL_SAFE = 16_000


class RecordError(CodedError):
    """A position, record or URL-safe text that cannot be read; names the line, the token and why."""

    default_code = "record.invalid"


def _error(code: str, why: str, line: int | None = None, **params: ParamValue) -> RecordError:
    where = f"line {line}: " if line is not None else ""
    token = params.get("token")
    at = f" (at {token!r})" if isinstance(token, str) else ""
    if line is not None:
        params["line"] = line
    return RecordError(f"{where}{why}{at}", code, **params)


# =============================================================================================== rules token
_OPTION_WORDS = ("everyone", "first-defence-5", "exchange", "no-exchange", "against-loser", *TEAMS)


def rules_text(rules: Rules) -> str:
    """``podkidnoy/2p/36`` and then only the options that differ from the default, in a fixed order."""
    parts = [rules.variant, f"{rules.players}p", str(rules.deck)]
    if rules.throw_in == "everyone":
        parts.append("everyone")
    if rules.first_defence_limit == 5:
        parts.append("first-defence-5")
    if rules.trump_six_exchange is not None:
        parts.append("exchange" if rules.trump_six_exchange else "no-exchange")
    if rules.first_attack == "against_loser":
        parts.append("against-loser")
    if rules.teams is not None:
        parts.append(rules.teams)
    return "/".join(parts)


def parse_rules(token: str) -> Rules:
    """Read ``perevodnoy/3p/36/everyone``; options in any order, each at most once."""
    parts = token.lower().split("/")
    if len(parts) < 3:
        raise _error("record.bad_rules", "rules must read variant/players/deck, e.g. podkidnoy/2p/36",
                     token=token)
    variant, players, size, *options = parts
    if variant not in VARIANTS:
        raise _error("record.bad_rules", f"unknown variant: choose {', '.join(VARIANTS)}", token=token)
    if not re.fullmatch(r"[2-6]p", players):
        raise _error("record.bad_rules", "players must read 2p to 6p", token=token)
    if size not in {str(d) for d in MAX_PLAYERS_BY_DECK}:
        raise _error("record.bad_rules", "the deck must be 24, 36 or 52", token=token)
    chosen: dict[str, Any] = {}
    for word in options:
        if word not in _OPTION_WORDS:
            raise _error("record.bad_rules", f"unknown option {word!r}: use {', '.join(_OPTION_WORDS)}",
                         token=token)
        key, value = _OPTION_FIELD.get(word, ("teams", word))
        if key in chosen:
            raise _error("record.bad_rules", f"option {word!r} repeats or contradicts another", token=token)
        chosen[key] = value
    try:
        return Rules(variant=variant, players=int(players[0]), deck=int(size), **chosen)
    except RulesError as problem:
        raise _error("record.bad_rules", str(problem), token=token) from None


_OPTION_FIELD: dict[str, tuple[str, object]] = {
    "everyone": ("throw_in", "everyone"),
    "first-defence-5": ("first_defence_limit", 5),
    "exchange": ("trump_six_exchange", True),
    "no-exchange": ("trump_six_exchange", False),
    "against-loser": ("first_attack", "against_loser"),
}


# =============================================================================================== positions
#: The fields after the rules token, in their fixed order; optional ones are left out when empty or false.
FIELDS = ("trump", "talon", "hands", "table", "discard", "dealer", "attacker", "defender", "opener", "turn",
          "limit", "round", "first", "take", "passed", "known", "emptied", "out", "result")
_OPTIONAL = frozenset({"first", "take", "passed", "known", "emptied", "out", "result"})
_FLAGS = frozenset({"first", "take"})
_SEAT = re.compile(r"[0-9]")
_NUMBER = re.compile(r"[0-9]{1,6}")


def _card_text(cards: list[str] | list[Card]) -> str:
    return ",".join(map(str, cards)) or "-"


def _seat_text(seat: int | None) -> str:
    return "-" if seat is None else str(seat)


def position_of(game: Game) -> str:
    """One line with everything ``game.to_dict()`` holds but the history and the seed."""
    data = game.to_dict()
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
        fields.append("result=" + _result_text(result))
    return " ".join(fields)


def _rest(game: Game) -> list[str]:
    """The cards named nowhere else, in deck order: what ``discard=*`` stands for."""
    used = set(game.talon).union(*game.hands, game.attacks, (d for d in game.defences if d is not None))
    return [str(c) for c in deck(game.rules.deck) if c not in used]


def _result_text(result: dict[str, Any]) -> str:
    if result["draw"]:
        return "draw"
    if result["durak"] is not None:
        return f"durak:{result['durak']}"
    return "losers:" + ",".join(map(str, result["losers"]))


def game_from_position(cls: type[Game], text: object) -> Game:
    """The game a ``position_of`` line describes; ``RecordError`` for anything malformed or inconsistent."""
    if not isinstance(text, str):
        raise _error("record.not_text", f"a position is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise _error("record.too_long", f"a position of {len(text)} characters is too long", size=len(text))
    line = text.strip()
    if "\n" in line or "\r" in line:
        raise _error("record.bad_position", "a position is one line")
    tokens = line.split()
    if not tokens:
        raise _error("record.bad_position", "the position is empty")
    rules = parse_rules(tokens[0])
    values = _position_fields(tokens[1:])
    data = _PositionReader(rules, values).save()
    try:
        game = cls.from_dict(data)
    except ValueError as problem:
        raise _error("record.inconsistent", f"the position is not a playable game: {problem}") from None
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
            raise _error("record.unknown_field", f"unknown position field {key!r}", token=token)
        if key in _FLAGS:
            if sep:
                raise _error("record.bad_field", f"{key} is a flag and takes no value", token=token)
        elif not sep or not value:
            raise _error("record.bad_field", f"{key} needs a value ({key}=...)", token=token)
        index = FIELDS.index(key)
        if index < at:
            what = "repeats" if key in values else "is out of order"
            raise _error("record.field_order", f"field {key} {what}: the order is {' '.join(FIELDS)}", token=token)
        at = index + 1
        values[key] = value
    missing = [key for key in FIELDS if key not in values and key not in _OPTIONAL]
    if missing:
        raise _error("record.missing_field", f"the position lacks {', '.join(missing)}", field=missing[0])
    return values


class _PositionReader:
    """Turns the fields of a position into the dict ``Game.from_dict`` restores."""

    def __init__(self, rules: Rules, values: dict[str, str]) -> None:
        self.rules = rules
        self.values = values
        self.n = rules.players

    def fail(self, key: str, why: str) -> RecordError:
        return _error("record.bad_field", f"{key}: {why}", field=key, token=f"{key}={self.values.get(key, '')}")

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
        }


def _check_derived(game: Game, values: dict[str, str]) -> None:
    """What the save checks leave open: the roles, the result and the stated turn must follow from the rest."""
    if game.result is None:
        _check_round(game)
    else:
        _check_result(game, values.get("result", ""))
    turn = values["turn"]
    if turn != _seat_text(game.to_act):
        raise _error("record.bad_field", f"turn: the position makes {_seat_text(game.to_act)} act, not {turn}",
                     field="turn", token=f"turn={turn}")


def _check_round(game: Game) -> None:
    sides = {game.rules.team_of(s) for s in range(game.players) if game.active[s]}
    if len(sides) < 2:
        raise _error("record.inconsistent", "a game in play needs two sides that still hold cards")
    assert game.attacker is not None  # from_dict refuses a game in play without one
    if game.defender != game._opponent_after(game.attacker):
        raise _error("record.inconsistent", f"seat {game.defender} cannot defend against seat {game.attacker}: "
                     "the defender is the attacker's next opponent clockwise")
    if len(game.attacks) > game.limit:
        raise _error("record.inconsistent", f"{len(game.attacks)} attack cards exceed the limit {game.limit}")


def _check_result(game: Game, text: str) -> None:
    result = game.result
    assert result is not None
    if game.attacker is not None or game.defender is not None or game.opener is not None or game.attacks:
        raise _error("record.inconsistent", "a finished game has no attacker, defender, opener or table")
    holders = [s for s in range(game.players) if game.active[s]]
    rules = game.rules
    if len({rules.team_of(s) for s in holders}) > 1:
        raise _error("record.inconsistent", "the game is over but two sides still hold cards")
    durak = holders[0] if len(holders) == 1 else None
    losers = [s for s in range(game.players) if holders and rules.team_of(s) == rules.team_of(holders[0])]
    if (result.durak, result.draw, result.losers) != (durak, not holders, losers):
        raise _error("record.inconsistent", "the result does not match who still holds cards",
                     token=f"result={text}")


# =============================================================================================== records
class Move(NamedTuple):
    """One numbered move of a record: who played what, and the comment on the position it leads to."""

    seat: int
    action: Action
    comment: str = ""


#: Tags a record writes itself; ``record_of``'s ``tags`` may add any other.
RESERVED_TAGS = ("Rules", "Seed", "Dealer", "FirstGame", "Start", "Result",
                 *(f"Player{seat}" for seat in range(6)))
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]{0,39}")
_TAG_LINE = re.compile(r'\[([^\s"]*)\s+"((?:[^"\\]|\\.)*)"\]')
_MOVE_NUMBER = re.compile(r"([0-9]{1,6})\.")
_MOVE_SEAT = re.compile(r"[sS]([0-9])")
_SEED = re.compile(r"-?[0-9]{1,20}")


@dataclass(frozen=True)
class Record:
    """A parsed game record: its header tags, its moves, and the comment of the starting frame.

    Built by ``parse_record`` (which replays it, so it always replays) or ``record_of``. Step ``i`` is the
    position after ``i`` moves; ``comments[i]`` is its comment (step 0: ``start_comment``).
    """

    header: Mapping[str, str]
    moves: tuple[Move, ...] = ()
    start_comment: str = ""

    def __post_init__(self) -> None:
        object.__setattr__(self, "header", MappingProxyType(dict(self.header)))
        object.__setattr__(self, "moves", tuple(Move(*m) for m in self.moves))

    @property
    def steps(self) -> int:
        """The number of frames: moves + 1 (the start)."""
        return len(self.moves) + 1

    @property
    def comments(self) -> list[str]:
        """The comment of every step, ``""`` where there is none."""
        return [self.start_comment, *(m.comment for m in self.moves)]

    @property
    def title(self) -> str | None:
        return self.header.get("Title")

    @property
    def example(self) -> str | None:
        return self.header.get("Example")

    def start(self) -> Game:
        """A fresh game at step 0."""
        return _start_game(self.header, None)

    def frames(self) -> Iterator[Game]:
        """The game at every step, from the start to the last move, each an independent copy."""
        game = self.start()
        yield game.copy()
        for number, move in enumerate(self.moves, 1):
            _apply(game, move, number, None)
            yield game.copy()

    def replay(self) -> Game:
        """The game after the last move."""
        game = self.start()
        for number, move in enumerate(self.moves, 1):
            _apply(game, move, number, None)
        return game

    def __str__(self) -> str:
        lines = [f'[{name} "{_escape_tag(value)}"]' for name, value in self.header.items()]
        body = []
        if self.start_comment:
            body.append(_comment(self.start_comment))
        for number, move in enumerate(self.moves, 1):
            text = f"{number}. s{move.seat} {move.action}"
            body.append(f"{text} {_comment(move.comment)}" if move.comment else text)
        if body:
            lines += ["", *body]
        return "\n".join(lines) + "\n"

    def text(self) -> str:
        """The canonical text (``str(record)``)."""
        return str(self)


def _escape_tag(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> str:
    return "{" + text.replace("\\", "\\\\").replace("}", "\\}") + "}"


def _result_tag(game: Game) -> str:
    result = game.result
    if result is None:
        return "*"
    return _result_text(result.to_dict()).replace(":", " ").replace(",", " ")


def record_of(game: Game, names: list[str] | None = None, comments: Mapping[int, str] | None = None,
              tags: Mapping[str, str] | None = None) -> Record:
    """The record of ``game`` from its start: a dealt game by its seed, a game from a position by that position.

    ``comments`` maps a step (0: the start, i: after move i) to its comment; ``tags`` adds header tags such
    as ``Example`` and ``Title`` (written first, in their order).
    """
    moves = len(game.history)
    header: dict[str, str] = {}
    for name, value in (tags or {}).items():
        if not isinstance(name, str) or not _TAG_NAME.fullmatch(name) or name in RESERVED_TAGS:
            raise _error("record.bad_tag", f"{name!r} cannot be a tag here (reserved or malformed)", token=str(name))
        header[name] = _tag_value(name, value)
    header["Rules"] = rules_text(game.rules)
    header.update(_origin(game))
    if names is not None:
        if not isinstance(names, list | tuple) or len(names) != game.players:
            raise _error("record.bad_names", f"names must list one name for each of the {game.players} seats")
        for seat, name in enumerate(names):
            header[f"Player{seat}"] = _tag_value(f"Player{seat}", name)
    header["Result"] = _result_tag(game)
    notes = dict(comments or {})
    for step, note in notes.items():
        if type(step) is not int or not 0 <= step <= moves or not isinstance(note, str):
            raise _error("record.bad_comment", f"comments map steps 0 to {moves} to text, not {step!r}: {note!r}")
    record = Record(header, tuple(Move(seat, action, notes.get(number, ""))
                                  for number, (seat, action) in enumerate(game.history, 1)),
                    notes.get(0, ""))
    return record


def _tag_value(name: str, value: object) -> str:
    if not isinstance(value, str) or "\n" in value or "\r" in value:
        raise _error("record.bad_tag", f"the {name} tag must be one line of text", tag=name)
    return value


def _origin(game: Game) -> dict[str, str]:
    """The tags that say where the game started: ``Start``, or the ``Game.new`` arguments that dealt it.

    ``Seed`` alone: the dealer was drawn from the seed; ``Dealer``: it was given; ``FirstGame "no"``: a later
    game of a series (its first attack follows the previous loser).
    """
    start = game._start
    if start is not None:
        return {"Start": start}
    if game.seed is not None:
        target = game.to_dict()
        for dealer in (None, game.dealer):
            for first_game in (True, False):
                tags = {"Seed": str(game.seed)}
                if dealer is not None:
                    tags["Dealer"] = str(dealer)
                if not first_game:
                    tags["FirstGame"] = "no"
                try:
                    replayed = _start_game(tags, None, game.rules)
                    for number, (seat, action) in enumerate(game.history, 1):
                        _apply(replayed, Move(seat, action), number, None)
                except RecordError:
                    continue
                if replayed.to_dict() == target:
                    return tags
    if not game.history:
        return {"Start": position_of(game)}
    raise _error("record.unknown_start", "the game's start is unknown (it was restored from a save that is "
                 "neither a seeded deal nor a position): only its position can be written")


def _start_game(header: Mapping[str, str], lines: dict[str, int] | None, rules: Rules | None = None) -> Game:
    """The game at step 0 from the Start tag, or from Rules + Seed (+ Dealer, FirstGame) as ``Game.new`` takes them."""
    from .game import Game

    def line(tag: str) -> int | None:
        return None if lines is None else lines.get(tag)

    if rules is None:
        if "Rules" not in header:
            raise _error("record.missing_tag", "the record has no Rules tag", tag="Rules")
        rules = _at_line(line("Rules"), parse_rules, header["Rules"])
    if "Start" in header:
        for tag in ("Seed", "Dealer", "FirstGame"):
            if tag in header:
                raise _error("record.bad_tag", f"a record starting from a Start position has no {tag} tag",
                             line(tag), tag=tag)
        game: Game = _at_line(line("Start"), game_from_position, Game, header["Start"])
        if game.rules != rules:
            raise _error("record.rules_mismatch", "the Rules tag and the Start position's rules differ",
                         line("Rules"), token=header["Rules"])
        return game
    if "Seed" not in header:
        raise _error("record.missing_tag", "the record needs a Seed or a Start tag", tag="Seed")
    seed = header["Seed"]
    if not _SEED.fullmatch(seed):
        raise _error("record.bad_tag", "Seed must be a whole number", line("Seed"), tag="Seed", token=seed)
    dealer = header.get("Dealer")
    if dealer is not None and (not _SEAT.fullmatch(dealer) or int(dealer) >= rules.players):
        raise _error("record.bad_tag", f"Dealer must be a seat from 0 to {rules.players - 1}",
                     line("Dealer"), tag="Dealer", token=dealer)
    first = header.get("FirstGame", "yes")
    if first not in ("yes", "no"):
        raise _error("record.bad_tag", "FirstGame must be yes or no", line("FirstGame"), tag="FirstGame",
                     token=first)
    return Game.new(rules, seed=int(seed), dealer=None if dealer is None else int(dealer),
                    first_game=first == "yes")


def _at_line(line: int | None, read: Any, *args: Any) -> Any:
    """Call ``read``; a ``RecordError`` it raises is raised again naming ``line``."""
    try:
        return read(*args)
    except RecordError as problem:
        if line is None:
            raise
        raise RecordError(f"line {line}: {problem}", problem.code, **{**problem.params, "line": line}) from None


def _apply(game: Game, move: Move, number: int, line: int | None) -> None:
    from .game import IllegalAction

    try:
        game.apply(move.seat, move.action)
    except IllegalAction as refusal:
        params: dict[str, ParamValue] = {"move": number, "seat": move.seat, "action": str(move.action)}
        code, details = getattr(refusal, "code", None), getattr(refusal, "params", None)
        if isinstance(code, str) and isinstance(details, dict):
            params["reason_code"] = code
            params["reason_params"] = cast(ParamValue, dict(details))
        params["reason"] = str(refusal)
        raise _error("record.illegal_move", f"move {number} (s{move.seat} {move.action}) is illegal: {refusal}",
                     line, **params) from None


def parse_record(text: object, source: str | None = None) -> Record:
    """Read a record and replay it; ``RecordError`` names the line and the token of the first problem."""
    return read_record(text, source)[0]


def read_record(text: object, source: str | None = None) -> tuple[Record, Game]:
    try:
        return _parse(text)
    except RecordError as problem:
        if source is None:
            raise
        raise RecordError(f"{source}: {problem}", problem.code, **problem.params) from None


def _parse(text: object) -> tuple[Record, Game]:
    if not isinstance(text, str):
        raise _error("record.not_text", f"a record is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise _error("record.too_long", f"a record of {len(text)} characters is too long", size=len(text))
    lines = text.split("\n")
    header: dict[str, str] = {}
    tag_lines: dict[str, int] = {}
    index = 0
    while index < len(lines) and not lines[index].strip():
        index += 1
    while index < len(lines) and lines[index].strip().startswith("["):
        stripped = lines[index].strip()
        index += 1
        match = _TAG_LINE.fullmatch(stripped)
        if match is None or not _TAG_NAME.fullmatch(match[1]):
            raise _error("record.bad_tag", 'a tag reads [Name "value"]', index, token=stripped[:60])
        name, value = match[1], re.sub(r"\\(.)", r"\1", match[2])
        if name in header:
            raise _error("record.duplicate_tag", f"the {name} tag appears twice", index, tag=name)
        header[name] = value
        tag_lines[name] = index
    if not header:
        raise _error("record.missing_tag", 'a record begins with its tags, such as [Rules "podkidnoy/2p/36"]',
                     1, tag="Rules")
    game = _start_game(header, tag_lines)
    start_comment, moves = _read_moves("\n".join(lines[index:]), index + 1, game)
    if "Result" in header and header["Result"] != _result_tag(game):
        raise _error("record.result_mismatch", f"the Result tag says {header['Result']!r} but the moves end with "
                     f"{_result_tag(game)!r}", tag_lines["Result"], token=header["Result"])
    return Record(header, tuple(moves), start_comment), game


def _read_moves(body: str, first_line: int, game: Game) -> tuple[str, list[Move]]:
    """Scan the moves after the header, applying each to ``game``; comments may span lines."""
    moves: list[Move] = []
    start_comment: str | None = None
    pending: tuple[int, int, str, list[str]] | None = None  # a move being read: number, line, seat, words
    at = 0

    def line_of(index: int) -> int:
        return first_line + body.count("\n", 0, index)

    def finish(comment: str = "") -> None:
        nonlocal pending
        if pending is None:
            return
        number, line, seat_word, words = pending
        pending = None
        action_text = " ".join(words)
        try:
            action = parse_action(action_text)
        except NotationError as problem:
            raise _error("record.bad_action", f"move {number}: {problem}", line, token=action_text,
                         move=number) from None
        move = Move(int(seat_word[1:]), action, comment)
        _apply(game, move, number, line)
        moves.append(move)

    while True:
        while at < len(body) and body[at].isspace():
            at += 1
        if at >= len(body):
            break
        line = line_of(at)
        if body[at] == "{":
            comment, at = _read_comment(body, at, line)
            if pending is not None:
                finish(comment)
            elif not moves and start_comment is None:
                start_comment = comment
            else:
                raise _error("record.extra_comment", "a step has one comment: join the two", line,
                             token=comment[:40])
            continue
        word, at = _next_word(body, at)
        number_match = _MOVE_NUMBER.fullmatch(word)
        if number_match is not None:
            finish()
            expected = len(moves) + 1
            if int(number_match[1]) != expected:
                raise _error("record.move_number", f"expected move number {expected}.", line, token=word,
                             move=expected)
            seat_word, at = _next_word(body, at)
            if not _MOVE_SEAT.fullmatch(seat_word) or int(seat_word[1:]) >= game.players:
                raise _error("record.bad_seat", f"move {expected} must name a seat s0 to s{game.players - 1}",
                             line, token=seat_word, move=expected)
            kind, at = _next_word(body, at)
            if kind.lower() not in KINDS:
                raise _error("record.bad_action", f"move {expected}: expected an action ({', '.join(KINDS)})",
                             line, token=kind, move=expected)
            pending = (expected, line, seat_word.lower(), [kind])
            continue
        if pending is None:
            raise _error("record.bad_move", f"expected move number {len(moves) + 1}.", line, token=word[:40])
        pending[3].append(word)
    finish()
    return start_comment or "", moves


def _next_word(body: str, at: int) -> tuple[str, int]:
    """The next whitespace-separated word (stopping at a comment), and the index after it."""
    while at < len(body) and body[at].isspace():
        at += 1
    end = at
    while end < len(body) and not body[end].isspace() and body[end] != "{":
        end += 1
    return body[at:end], end


def _read_comment(body: str, at: int, line: int) -> tuple[str, int]:
    """``{...}`` from ``at``: backslash escapes ``}`` and itself; returns the text and the index after it."""
    out: list[str] = []
    index = at + 1
    while index < len(body):
        char = body[index]
        if char == "\\" and index + 1 < len(body):
            out.append(body[index + 1])
            index += 2
            continue
        if char == "}":
            return "".join(out), index + 1
        out.append(char)
        index += 1
    raise _error("record.unterminated_comment", "a comment opened with { is never closed", line,
                 token=body[at:at + 40])


def load_examples(directory: str | PathLike[str]) -> dict[str, Record]:
    """Every ``<id>.durak`` record of ``directory`` by id (sorted); each one's ``Example`` tag must be its id."""
    examples: dict[str, Record] = {}
    for path in sorted(Path(directory).glob("*.durak")):
        record = parse_record(path.read_text(encoding="utf-8"), source=path.name)
        if record.example != path.stem:
            raise _error("record.bad_tag", f"{path.name}: the Example tag must be {path.stem!r}", tag="Example",
                         token=str(record.example))
        examples[path.stem] = record
    return examples


# =============================================================================================== URL-safe forms
_KINDS = {"p": "position", "r": "record"}
_URL_VERSION = "1"
_URL_TEXT = re.compile(r"[A-Za-z0-9_-]*")
#: A preset deflate dictionary (version 1, never to change): the words records and positions repeat.
_ZDICT = (
    b' talon=- hands= table=- discard=* dealer=0 attacker=1 defender=0 opener=1 turn=0 limit=6 round=1 first '
    b'passed= known= emptied= out= result=durak: trump= podkidnoy/2p/36 perevodnoy/3p/36 prostoy/4p/36 '
    b'[Rules "podkidnoy/2p/36"]\n[Seed "\n[Dealer "0"]\n[FirstGame "yes"]\n[Start "\n[Result "*"]\n'
    b'[Player0 "\n[Player1 "\n[Example "\n[Title "\n'
    b' attack 6S 7H 8D 9C 10S JH QD KC AS  defend 10H JD QC KS AH  transfer  take  pass  exchange\n'
    b'1. s0 attack 2. s1 defend 3. s0 pass\n4. s1 take\n5. s0 attack '
)


def _kind_of(text: str) -> str:
    return "r" if text.lstrip().startswith("[") else "p"


def url_safe(text: str) -> str:
    """A compact form of a position or record for a link: ``p1``/``r1`` + base64url of raw deflate.

    The text is read first (a record is replayed), so only valid text gets a link.
    """
    from .game import Game

    if not isinstance(text, str):
        raise _error("record.not_text", f"expected a position or record as text, not {type(text).__name__}")
    kind = _kind_of(text)
    if kind == "r":
        parse_record(text)
    else:
        Game.from_position(text)
    packer = zlib.compressobj(9, zlib.DEFLATED, -15, 9, zlib.Z_DEFAULT_STRATEGY, _ZDICT)
    packed = packer.compress(text.encode("utf-8")) + packer.flush()
    return kind + _URL_VERSION + base64.urlsafe_b64encode(packed).rstrip(b"=").decode("ascii")


def from_url_safe(value: object, expect: str | None = None) -> str:
    """The text a ``url_safe`` string holds; ``expect`` ``"position"`` or ``"record"`` insists on one kind.

    Only decodes: read the text with ``Game.from_position`` or ``parse_record``.
    """
    if not isinstance(value, str):
        raise _error("record.bad_url", f"expected text, not {type(value).__name__}")
    if len(value) > MAX_URL_SAFE:
        raise _error("record.too_long", f"a link of {len(value)} characters is too long", size=len(value))
    if len(value) < 2 or value[0] not in _KINDS or value[1] != _URL_VERSION:
        raise _error("record.bad_url", "a link value starts with p1 (position) or r1 (record)",
                     token=value[:8])
    kind = _KINDS[value[0]]
    if expect is not None and expect != kind:
        raise _error("record.bad_url", f"expected a {expect}, got a {kind}", token=value[:8])
    body = value[2:]
    if not _URL_TEXT.fullmatch(body) or len(body) % 4 == 1:
        raise _error("record.bad_url", "the link's text is not base64url", token=value[:8])
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        unpacker = zlib.decompressobj(-15, _ZDICT)
        raw = unpacker.decompress(packed, MAX_TEXT * 4)
        if unpacker.unconsumed_tail or not unpacker.eof:
            raise _error("record.bad_url", "the link's text is cut short or too long", token=value[:8])
        text = raw.decode("utf-8")
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError) as problem:
        if isinstance(problem, RecordError):
            raise
        raise _error("record.bad_url", "the link's text cannot be decoded", token=value[:8]) from None
    if _kind_of(text) != value[0]:
        raise _error("record.bad_url", f"the link says {kind} but holds something else", token=value[:8])
    return text
