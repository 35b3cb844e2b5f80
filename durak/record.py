"""Game records, PGN-like: header tags, then numbered moves with comments; and the notation's public face.

What PGN is to chess (docs/notation.md has the grammar): tags such as ``[Rules "podkidnoy/2p/36"]`` and
``[Seed "42"]`` or ``[Start "<position>"]``, then ``1. s0 attack 8H {comment}``. ``parse_record`` reads a
record and replays it, so a ``Record`` it returns always replays; ``str(record)`` writes the canonical text,
which parses back to an equal record, comments included. ``record_of(game)`` writes one from a game.

This module also gathers the rest of the notation for its users: positions (durak/position.py), the rules
token and ``RecordError`` (durak/notation.py), and the URL-safe forms (durak/links.py). Every malformed
input raises ``RecordError`` (a stable ``code``, JSON-safe ``params`` naming the line and the token) and
nothing half-built is returned.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from os import PathLike
from types import MappingProxyType
from typing import Any, NamedTuple, TypeVar

from .actions import KINDS, Action, NotationError, parse_action
from .core import GameCore, IllegalAction
from .explain import ExplainedCore
from .links import MAX_URL_SAFE, compact, from_url_safe, is_record
from .notation import RecordError, error, parse_rules, reason_of, rules_text
from .position import MAX_TEXT, game_from_position, position_of, result_text
from .rules import Rules
from .state import game_to_dict

#: The class a record is replayed as: the core, or a class built on it (``durak.game.Game``) for a caller
#: that shows the games it replays.
G = TypeVar("G", bound=GameCore)

__all__ = ["MAX_TEXT", "MAX_URL_SAFE", "Move", "Record", "RecordError", "from_url_safe", "game_from_position",
           "load_examples", "parse_record", "parse_rules", "position_of", "read_record", "record_of", "rules_text",
           "url_safe"]


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
_DEALER = re.compile(r"[0-9]")
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

    def start(self, cls: type[G]) -> G:
        """A fresh game at step 0, as a ``cls`` (``durak.game.Game`` to show it, ``GameCore`` to play it)."""
        return _start_game(cls, self.header, None)

    def frames(self, cls: type[G]) -> Iterator[G]:
        """The game at every step, from the start to the last move, each an independent copy."""
        game = self.start(cls)
        yield game.copy()
        for number, move in enumerate(self.moves, 1):
            _apply(game, move, number, None)
            yield game.copy()

    def replay(self, cls: type[G]) -> G:
        """The game after the last move."""
        game = self.start(cls)
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


def _escape_tag(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment(text: str) -> str:
    return "{" + text.replace("\\", "\\\\").replace("}", "\\}") + "}"


def _result_tag(game: GameCore) -> str:
    result = game.result
    if result is None:
        return "*"
    return result_text(result.to_dict()).replace(":", " ").replace(",", " ")


def record_of(game: GameCore, names: list[str] | None = None, comments: Mapping[int, str] | None = None,
              tags: Mapping[str, str] | None = None) -> Record:
    """The record of ``game`` from its start: a dealt game by its seed, a game from a position by that position.

    ``comments`` maps a step (0: the start, i: after move i) to its comment; ``tags`` adds header tags such
    as ``Example`` and ``Title`` (written first, in their order).
    """
    moves = len(game.history)
    header: dict[str, str] = {}
    for name, value in (tags or {}).items():
        if not isinstance(name, str) or not _TAG_NAME.fullmatch(name) or name in RESERVED_TAGS:
            raise error("record.bad_tag", f"{name!r} cannot be a tag here (reserved or malformed)", tag=str(name))
        header[name] = _tag_value(name, value)
    header["Rules"] = rules_text(game.rules)
    header.update(_origin(game))
    if names is not None:
        if not isinstance(names, list | tuple) or len(names) != game.players:
            raise error("record.bad_names", f"names must list one name for each of the {game.players} seats",
                        players=game.players)
        for seat, name in enumerate(names):
            header[f"Player{seat}"] = _tag_value(f"Player{seat}", name)
    header["Result"] = _result_tag(game)
    notes = dict(comments or {})
    for step, note in notes.items():
        if type(step) is not int or not 0 <= step <= moves or not isinstance(note, str):
            raise error("record.bad_comment", f"comments map steps 0 to {moves} to text, not {step!r}: {note!r}",
                        last=moves)
    return Record(header, tuple(Move(seat, action, notes.get(number, ""))
                                for number, (seat, action) in enumerate(game.history, 1)),
                  notes.get(0, ""))


def _tag_value(name: str, value: object) -> str:
    if not isinstance(value, str) or "\n" in value or "\r" in value:
        raise error("record.bad_tag", f"the {name} tag must be one line of text", tag=name)
    return value


def _origin(game: GameCore) -> dict[str, str]:
    """The tags that say where the game started: ``Start``, or the ``Game.new`` arguments that dealt it.

    ``Seed`` alone: the dealer was drawn from the seed; ``Dealer``: it was given; ``FirstGame "no"``: a later
    game of a series (its first attack follows the previous loser).
    """
    start = game._start
    if start is not None:
        return {"Start": start}
    if game.seed is not None:
        target = game_to_dict(game)
        for dealer in (None, game.dealer):
            for first_game in (True, False):
                tags = {"Seed": str(game.seed)}
                if dealer is not None:
                    tags["Dealer"] = str(dealer)
                if not first_game:
                    tags["FirstGame"] = "no"
                try:
                    replayed = _start_game(GameCore, tags, None, game.rules)
                    for number, (seat, action) in enumerate(game.history, 1):
                        _apply(replayed, Move(seat, action), number, None)
                except RecordError:
                    continue
                if game_to_dict(replayed) == target:
                    return tags
    if not game.history:
        return {"Start": position_of(game)}
    raise error("record.unknown_start", "the game's start is unknown (it was restored from a save that is "
                "neither a seeded deal nor a position): only its position can be written")


def _start_game(cls: type[G], header: Mapping[str, str], lines: dict[str, int] | None,
                rules: Rules | None = None) -> G:
    """The game at step 0 from the Start tag, or from Rules + Seed (+ Dealer, FirstGame) as ``Game.new`` takes them."""

    def line(tag: str) -> int | None:
        return None if lines is None else lines.get(tag)

    if rules is None:
        if "Rules" not in header:
            raise error("record.missing_tag", "the record has no Rules tag", tag="Rules")
        rules = _at_line(line("Rules"), parse_rules, header["Rules"])
    if "Start" in header:
        for tag in ("Seed", "Dealer", "FirstGame"):
            if tag in header:
                raise error("record.bad_tag", f"a record starting from a Start position has no {tag} tag",
                            line(tag), tag=tag)
        game: G = _at_line(line("Start"), game_from_position, cls, header["Start"])
        if game.rules != rules:
            raise error("record.rules_mismatch", "the Rules tag and the Start position's rules differ",
                        line("Rules"), token=header["Rules"])
        return game
    if "Seed" not in header:
        raise error("record.missing_tag", "the record needs a Seed or a Start tag", tag="Seed")
    seed = header["Seed"]
    if not _SEED.fullmatch(seed):
        raise error("record.bad_tag", "Seed must be a whole number", line("Seed"), tag="Seed", token=seed)
    dealer = header.get("Dealer")
    if dealer is not None and (not _DEALER.fullmatch(dealer) or int(dealer) >= rules.players):
        raise error("record.bad_tag", f"Dealer must be a seat from 0 to {rules.players - 1}",
                    line("Dealer"), tag="Dealer", token=dealer)
    first = header.get("FirstGame", "yes")
    if first not in ("yes", "no"):
        raise error("record.bad_tag", "FirstGame must be yes or no", line("FirstGame"), tag="FirstGame",
                    token=first)
    return cls.new(rules, seed=int(seed), dealer=None if dealer is None else int(dealer),
                    first_game=first == "yes")


def _at_line(line: int | None, read: Any, *args: Any) -> Any:
    """Call ``read``; a ``RecordError`` it raises is raised again naming ``line``."""
    try:
        return read(*args)
    except RecordError as problem:
        if line is None:
            raise
        raise RecordError(f"line {line}: {problem}", problem.code, **{**problem.params, "line": line}) from None


def _apply(game: GameCore, move: Move, number: int, line: int | None) -> None:
    try:
        game.apply(move.seat, move.action)
    except IllegalAction as refusal:
        raise error("record.illegal_move", f"move {number} (s{move.seat} {move.action}) is illegal: {refusal}",
                    line, move=number, seat=move.seat, action=str(move.action), **reason_of(refusal)) from None


def url_safe(text: str) -> str:
    """A compact form of a position or record for a link (``p1``/``r1`` + base64url of raw deflate).

    The text is read first (a record is replayed), so only valid text gets a link.
    """
    if not isinstance(text, str):
        raise error("record.not_text", f"expected a position or record as text, not {type(text).__name__}")
    if is_record(text):
        parse_record(text)
    else:
        game_from_position(GameCore, text)
    return compact(text)


def parse_record(text: object, source: str | None = None) -> Record:
    """Read a record and replay it; ``RecordError`` names the line and the token of the first problem."""
    return read_record(text, ExplainedCore, source)[0]


def read_record(text: object, cls: type[G], source: str | None = None) -> tuple[Record, G]:
    """The record and the game after its last move, replayed as a ``cls``."""
    try:
        return _parse(text, cls)
    except RecordError as problem:
        if source is None:
            raise
        raise RecordError(f"{source}: {problem}", problem.code, **problem.params) from None


def _parse(text: object, cls: type[G]) -> tuple[Record, G]:
    if not isinstance(text, str):
        raise error("record.not_text", f"a record is text, not {type(text).__name__}")
    if len(text) > MAX_TEXT:
        raise error("record.too_long", f"a record of {len(text)} characters is too long", size=len(text))
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
            raise error("record.bad_tag_line", 'a tag reads [Name "value"]', index, token=stripped[:60])
        name, value = match[1], re.sub(r"\\(.)", r"\1", match[2])
        if name in header:
            raise error("record.duplicate_tag", f"the {name} tag appears twice", index, tag=name)
        header[name] = value
        tag_lines[name] = index
    if not header:
        raise error("record.missing_tag", 'a record begins with its tags, such as [Rules "podkidnoy/2p/36"]',
                    1, tag="Rules")
    game = _start_game(cls, header, tag_lines)
    start_comment, moves = _read_moves("\n".join(lines[index:]), index + 1, game)
    if "Result" in header and header["Result"] != _result_tag(game):
        raise error("record.result_mismatch", f"the Result tag says {header['Result']!r} but the moves end with "
                    f"{_result_tag(game)!r}", tag_lines["Result"], token=header["Result"], expected=_result_tag(game))
    return Record(header, tuple(moves), start_comment), game


def _read_moves(body: str, first_line: int, game: GameCore) -> tuple[str, list[Move]]:
    """Scan the moves after the header, applying each to ``game``; comments may span lines."""
    moves: list[Move] = []
    start_comment: str | None = None
    pending: tuple[int, int, str, list[str]] | None = None  # a move being read: number, line, seat, words
    at = 0
    breaks = [index for index, char in enumerate(body) if char == "\n"]

    def line_of(index: int) -> int:
        return first_line + bisect_left(breaks, index)

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
            raise error("record.bad_action", f"move {number}: {problem}", line, token=action_text,
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
                raise error("record.extra_comment", "a step has one comment: join the two", line,
                            token=comment[:40])
            continue
        word, at = _next_word(body, at)
        number_match = _MOVE_NUMBER.fullmatch(word)
        if number_match is not None:
            finish()
            expected = len(moves) + 1
            if int(number_match[1]) != expected:
                raise error("record.move_number", f"expected move number {expected}.", line, token=word,
                            move=expected)
            seat_word, at = _next_word(body, at)
            if not _MOVE_SEAT.fullmatch(seat_word) or int(seat_word[1:]) >= game.players:
                raise error("record.bad_seat", f"move {expected} must name a seat s0 to s{game.players - 1}",
                            line, token=seat_word, move=expected)
            kind, at = _next_word(body, at)
            if kind.lower() not in KINDS:
                raise error("record.bad_action", f"move {expected}: expected an action ({', '.join(KINDS)})",
                            line, token=kind, move=expected)
            pending = (expected, line, seat_word.lower(), [kind])
            continue
        if pending is None:
            raise error("record.bad_move", f"expected move number {len(moves) + 1}.", line, token=word[:40],
                        move=len(moves) + 1)
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
    raise error("record.unterminated_comment", "a comment opened with { is never closed", line,
                token=body[at:at + 40])


def load_examples(directory: str | PathLike[str]) -> dict[str, Record]:
    """Every ``<id>.durak`` record of ``directory`` by id (sorted); each one's ``Example`` tag must be its id."""
    from pathlib import Path  # only builders and tests read files: the pages never import pathlib for it

    examples: dict[str, Record] = {}
    for path in sorted(Path(directory).glob("*.durak")):
        record = parse_record(path.read_text(encoding="utf-8"), source=path.name)
        if record.example != path.stem:
            raise error("record.bad_tag", f"{path.name}: the Example tag must be {path.stem!r}", tag="Example",
                        token=str(record.example))
        examples[path.stem] = record
    return examples
