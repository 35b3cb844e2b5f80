"""The history of finished games and their statistics, kept in the browser.

One JSON document under ``HISTORY_KEY`` in any ``storage.Store`` (localStorage in the page, a dict in
tests): ``{"format": "durak-history", "version": 1, "games": [...], "older": {...}}``. Each game is an
``Entry``: when it ended, the rules, who sat where (the human or an AI level), the result, the exit order,
its length and its record (the record notation of durak/record.py), so any game can be reviewed again.

The store is bounded. The newest ``KEEP_RECORDS`` games keep their record; older ones keep a summary row
(no record) up to ``KEEP_GAMES``; beyond that a game is folded into ``older``, running totals that keep
the statistics (losses, first-outs per opponent level and per variant, the streaks) of every game ever
played. A damaged or unknown store is set aside under ``SET_ASIDE_KEY`` with a notice, never a crash.

Export writes the same document as a file; import merges such a file into the history (games deduplicated
by their id) or refuses it whole with a coded ``HistoryError``, leaving the history as it was.
Pure Python: no browser import.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from durak import Game
from durak.messages import CodedError, ParamValue
from durak.notation import RecordError, parse_rules, rules_text
from durak.record import parse_record
from web.shared.storage import Store

HISTORY_KEY = "durak.history"
SET_ASIDE_KEY = "durak.history.set-aside"
FORMAT = "durak-history"
VERSION = 1
#: The newest games that keep their record (each about 1.5 KB for two players).
KEEP_RECORDS = 100
#: The games kept as rows (about 150 bytes without a record); older ones only count in the totals.
KEEP_GAMES = 2000
#: The largest file import reads (characters): a full history is well under a megabyte.
MAX_IMPORT = 4_000_000
RESULTS = ("win", "loss", "draw")
HUMAN = "human"
#: Opponent kinds in the order the statistics list them ("easy+hard" names a mixed table).
KINDS = ("easy", "normal", "hard", HUMAN, "friend")


#: Every refusal of a history file or store: its code and the params it carries.
CODES: dict[str, tuple[str, ...]] = {
    "history.not_json": (), "history.too_large": ("limit",), "history.foreign": (), "history.version": ("version",),
    "history.damaged": (), "history.damaged_game": ("game",), "history.damaged_totals": (),
    "history.bad_record": ("game",),
}


class HistoryError(CodedError):
    """A history file or store that cannot be used; ``code`` says why (``history.not_json``, ...)."""

    default_code = "history.damaged"


def _refuse(code: str, text: str, **params: ParamValue) -> HistoryError:
    return HistoryError(text, code, **params)


@dataclass(frozen=True)
class Entry:
    """One finished game, from the point of view of the seat that played it here."""

    id: str
    date: str  # ISO 8601 in UTC, "2026-12-01T08:50:12Z": sorts as text
    rules: str  # the rules token of the record notation: "podkidnoy/2p/36"
    seat: int
    levels: tuple[str, ...]  # every seat's kind: "human" or an AI level
    result: str  # "win" | "loss" | "draw", for ``seat`` (its team)
    durak: int | None
    out_order: tuple[int, ...]
    moves: int
    record: str | None = None  # dropped for old games (the store's bound)

    @property
    def variant(self) -> str:
        return self.rules.split("/", 1)[0]

    @property
    def first_out(self) -> bool:
        return bool(self.out_order) and self.out_order[0] == self.seat

    @property
    def opponents(self) -> str:
        """The opponent kinds, e.g. "hard", or "easy+hard" at a mixed table."""
        kinds = {kind for seat, kind in enumerate(self.levels) if seat != self.seat}
        return "+".join(sorted(kinds, key=lambda k: (KINDS.index(k) if k in KINDS else len(KINDS), k)))

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"id": self.id, "date": self.date, "rules": self.rules, "seat": self.seat,
                                "levels": list(self.levels), "result": self.result, "durak": self.durak,
                                "out_order": list(self.out_order), "moves": self.moves}
        if self.record is not None:
            data["record"] = self.record
        return data

    @classmethod
    def from_dict(cls, data: object, number: int) -> Entry:
        """Check every field; ``number`` (from 1) names the game in a refusal."""
        where = f"game {number}"
        if not isinstance(data, dict):
            raise _refuse("history.damaged_game", f"{where} is not an object", game=number)
        allowed = {"id", "date", "rules", "seat", "levels", "result", "durak", "out_order", "moves", "record"}
        unknown = set(data) - allowed
        if unknown:
            raise _refuse("history.damaged_game", f"{where} has unknown fields {sorted(unknown)}", game=number)
        game_id, date, token = (_text(data, key, number) for key in ("id", "date", "rules"))
        try:
            rules = parse_rules(token)
        except RecordError:
            raise _refuse("history.damaged_game", f"{where}: unknown rules {token!r}", game=number) from None
        players = rules.players
        seat = _seat(data.get("seat"), players, number, "seat")
        levels = data.get("levels")
        if not isinstance(levels, list) or len(levels) != players or not all(
                isinstance(k, str) and 0 < len(k) <= 20 for k in levels):
            raise _refuse("history.damaged_game", f"{where}: levels must name every seat", game=number)
        result = data.get("result")
        if result not in RESULTS:
            raise _refuse("history.damaged_game", f"{where}: result must be win, loss or draw", game=number)
        durak = None if data.get("durak") is None else _seat(data.get("durak"), players, number, "durak")
        out_order = data.get("out_order")
        if not isinstance(out_order, list):
            raise _refuse("history.damaged_game", f"{where}: out_order must list seats", game=number)
        out = tuple(_seat(s, players, number, "out_order") for s in out_order)
        if len(set(out)) != len(out):
            raise _refuse("history.damaged_game", f"{where}: out_order must list distinct seats", game=number)
        moves = data.get("moves")
        if type(moves) is not int or not 0 <= moves <= 100_000:
            raise _refuse("history.damaged_game", f"{where}: moves must be a count", game=number)
        record = data.get("record")
        if record is not None and not isinstance(record, str):
            raise _refuse("history.damaged_game", f"{where}: the record must be text", game=number)
        return cls(game_id, date, rules_text(rules), seat, tuple(levels), str(result), durak, out, moves, record)


def _text(data: Mapping[str, Any], key: str, number: int) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not 0 < len(value) <= 100:
        raise _refuse("history.damaged_game", f"game {number}: {key} must be short text", game=number)
    return value


def _seat(value: object, players: int, number: int, what: str) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise _refuse("history.damaged_game", f"game {number}: {what} must be a seat", game=number)
    return value


def entry_of(game: Game, seat: int, levels: Iterable[str], date: str, names: list[str] | None = None) -> Entry:
    """The history entry of a finished ``game`` played at ``seat``; ``date`` is when it ended (ISO, UTC)."""
    result = game.result
    if result is None:
        raise ValueError("only a finished game joins the history")
    record = game.record(names)
    if result.draw:
        outcome = "draw"
    elif seat in result.losers:
        outcome = "loss"
    else:
        outcome = "win"
    digest = hashlib.sha256(f"{date}\n{record}".encode()).hexdigest()[:16]
    return Entry(digest, date, rules_text(game.rules), seat, tuple(levels), outcome, result.durak,
                 tuple(result.out_order), len(game.history), record)


@dataclass
class Tally:
    """Games, wins, losses, draws and first-outs of one group of games."""

    games: int = 0
    wins: int = 0
    losses: int = 0
    draws: int = 0
    first_outs: int = 0

    def add(self, entry: Entry) -> None:
        self.games += 1
        self.wins += entry.result == "win"
        self.losses += entry.result == "loss"
        self.draws += entry.result == "draw"
        self.first_outs += entry.first_out

    def plus(self, other: Tally) -> Tally:
        return Tally(*(a + b for a, b in zip(self.as_tuple(), other.as_tuple(), strict=True)))

    def larger(self, other: Tally) -> Tally:
        return other if other.games > self.games else self

    def as_tuple(self) -> tuple[int, int, int, int, int]:
        return (self.games, self.wins, self.losses, self.draws, self.first_outs)

    @property
    def win_rate(self) -> float | None:
        """Games not lost, per game (draws count half); None without games."""
        return (self.wins + self.draws / 2) / self.games if self.games else None

    def to_dict(self) -> dict[str, int]:
        return dict(zip(("games", "wins", "losses", "draws", "first_outs"), self.as_tuple(), strict=True))

    @classmethod
    def from_dict(cls, data: object) -> Tally:
        if not isinstance(data, dict) or set(data) != {"games", "wins", "losses", "draws", "first_outs"}:
            raise _refuse("history.damaged_totals", "the older games' totals are not tallies")
        values = [data[k] for k in ("games", "wins", "losses", "draws", "first_outs")]
        if not all(type(v) is int and v >= 0 for v in values) or sum(values[1:4]) != values[0]:
            raise _refuse("history.damaged_totals", "the older games' totals do not add up")
        return cls(*values)


@dataclass
class Stats:
    """What the history says: overall, per opponent level, per variant, and the streaks.

    A streak is a run of games not lost (won or drawn), the current one and the best ever.
    """

    total: Tally = field(default_factory=Tally)
    by_level: dict[str, Tally] = field(default_factory=dict)
    by_variant: dict[str, Tally] = field(default_factory=dict)
    streak: int = 0
    best_streak: int = 0

    def add(self, entry: Entry) -> None:
        self.total.add(entry)
        self.by_level.setdefault(entry.opponents, Tally()).add(entry)
        self.by_variant.setdefault(entry.variant, Tally()).add(entry)
        self.streak = 0 if entry.result == "loss" else self.streak + 1
        self.best_streak = max(self.best_streak, self.streak)

    def copy(self) -> Stats:
        return Stats(replace(self.total), {k: replace(v) for k, v in self.by_level.items()},
                     {k: replace(v) for k, v in self.by_variant.items()}, self.streak, self.best_streak)

    def to_dict(self) -> dict[str, Any]:
        return {"total": self.total.to_dict(), "by_level": {k: v.to_dict() for k, v in self.by_level.items()},
                "by_variant": {k: v.to_dict() for k, v in self.by_variant.items()},
                "streak": self.streak, "best_streak": self.best_streak}

    @classmethod
    def from_dict(cls, data: object) -> Stats:
        if not isinstance(data, dict) or set(data) != {"total", "by_level", "by_variant", "streak", "best_streak"}:
            raise _refuse("history.damaged_totals", "the older games' totals are damaged")
        groups = []
        for key in ("by_level", "by_variant"):
            group = data[key]
            if not isinstance(group, dict) or not all(isinstance(k, str) and len(k) <= 60 for k in group):
                raise _refuse("history.damaged_totals", "the older games' totals are damaged")
            groups.append({k: Tally.from_dict(v) for k, v in group.items()})
        streak, best = data["streak"], data["best_streak"]
        if type(streak) is not int or type(best) is not int or not 0 <= streak <= best:
            raise _refuse("history.damaged_totals", "the older games' totals are damaged")
        return cls(Tally.from_dict(data["total"]), groups[0], groups[1], streak, best)


@dataclass(frozen=True)
class Merged:
    """What an import did."""

    added: int
    known: int  # games the history already had


class History:
    """The games (oldest first) and the totals of the games folded out of them."""

    def __init__(self, games: Iterable[Entry] = (), older: Stats | None = None) -> None:
        self.games: list[Entry] = sorted(games, key=lambda e: (e.date, e.id))
        self.older = older or Stats()
        self._prune()

    # ------------------------------------------------------------------ reading
    def stats(self) -> Stats:
        """The statistics of every game ever played here, the folded ones included."""
        stats = self.older.copy()
        for entry in self.games:
            stats.add(entry)
        return stats

    def find(self, game_id: str) -> Entry | None:
        return next((e for e in self.games if e.id == game_id), None)

    # ------------------------------------------------------------------ changing
    def add(self, entry: Entry) -> None:
        """A finished game joins the history (a game already there is not counted twice)."""
        if self.find(entry.id) is None:
            self.games.append(entry)
            self.games.sort(key=lambda e: (e.date, e.id))
            self._prune()

    def clear(self) -> None:
        self.games = []
        self.older = Stats()

    def merge(self, text: str) -> Merged:
        """Import an exported history: new games join, known ones are skipped. Raises ``HistoryError``
        (and changes nothing) for a damaged or foreign file.

        The totals of games folded out on both sides cannot be matched game by game: each group keeps the
        larger of the two, so merging a device's own export twice never counts a game twice.
        """
        other = parse(text, check_records=True)
        known = {e.id: e for e in self.games}
        added = 0
        for entry in other.games:
            mine = known.get(entry.id)
            if mine is None:
                known[entry.id] = entry
                added += 1
            elif mine.record is None and entry.record is not None:
                known[entry.id] = entry  # the other side still had its record
        older = self.older
        merged = Stats(older.total.larger(other.older.total),
                       _larger_groups(older.by_level, other.older.by_level),
                       _larger_groups(older.by_variant, other.older.by_variant),
                       older.streak if older.total.games >= other.older.total.games else other.older.streak,
                       max(older.best_streak, other.older.best_streak))
        self.games = sorted(known.values(), key=lambda e: (e.date, e.id))
        self.older = merged
        self._prune()
        return Merged(added, len(other.games) - added)

    def _prune(self) -> None:
        """Keep the bound: records only for the newest games, rows only up to ``KEEP_GAMES``."""
        while len(self.games) > KEEP_GAMES:
            self.older.add(replace(self.games.pop(0), record=None))
        for index in range(len(self.games) - KEEP_RECORDS):
            if self.games[index].record is not None:
                self.games[index] = replace(self.games[index], record=None)

    # ------------------------------------------------------------------ text
    def to_dict(self) -> dict[str, Any]:
        return {"format": FORMAT, "version": VERSION, "games": [e.to_dict() for e in self.games],
                "older": self.older.to_dict()}

    def text(self) -> str:
        """The stored form, which is also the exported file."""
        return json.dumps(self.to_dict(), ensure_ascii=False, separators=(",", ":"))


def _larger_groups(mine: dict[str, Tally], theirs: dict[str, Tally]) -> dict[str, Tally]:
    return {key: mine.get(key, Tally()).larger(theirs.get(key, Tally())) for key in {**mine, **theirs}}


def parse(text: object, check_records: bool = False) -> History:
    """A history from its text; ``HistoryError`` for anything that is not one (nothing half-read).

    ``check_records`` replays every record (imports: a file from elsewhere); the local store skips it,
    so the page starts quickly, and a record is replayed when its game is reviewed.
    """
    if not isinstance(text, str):
        raise _refuse("history.not_json", "a history file is JSON text")
    if len(text) > MAX_IMPORT:
        raise _refuse("history.too_large", f"a history file holds at most {MAX_IMPORT} characters",
                      limit=MAX_IMPORT)
    try:
        data = json.loads(text)
    except ValueError:
        raise _refuse("history.not_json", "this is not a history file: it is not JSON") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise _refuse("history.foreign", "this is not a Durak history file")
    version = data.get("version")
    if version != VERSION:
        raise _refuse("history.version", f"history version {version!r}: this page reads version {VERSION}",
                      version=str(version))
    games = data.get("games")
    if not isinstance(games, list) or set(data) - {"format", "version", "games", "older", "exported"}:
        raise _refuse("history.damaged", "the history's games are missing or it has unknown parts")
    entries = [Entry.from_dict(item, number) for number, item in enumerate(games, 1)]
    if len({e.id for e in entries}) != len(entries):
        raise _refuse("history.damaged", "the same game is listed twice")
    if check_records:
        for number, entry in enumerate(entries, 1):
            if entry.record is not None:
                _check_record(entry, number)
    older = Stats.from_dict(data["older"]) if "older" in data else Stats()
    return History(entries, older)


def _check_record(entry: Entry, number: int) -> None:
    try:
        record = parse_record(entry.record)
    except RecordError as problem:
        raise _refuse("history.bad_record", f"game {number}: its record does not replay: {problem}",
                      game=number) from None
    game = record.replay(Game)
    if rules_text(game.rules) != entry.rules or len(record.moves) != entry.moves or game.result is None:
        raise _refuse("history.bad_record", f"game {number}: its record is not the game described", game=number)


def export_text(history: History, date: str) -> str:
    """The file to download: the stored document with the date of the export."""
    return json.dumps({**history.to_dict(), "exported": date}, ensure_ascii=False, indent=1)


def load(store: Store) -> tuple[History, bool]:
    """The stored history, and whether a damaged one was set aside (the page says so once)."""
    try:
        text = store.get(HISTORY_KEY)
    except Exception:
        return History(), False
    if not text:
        return History(), False
    try:
        return parse(text), False
    except HistoryError:
        with contextlib.suppress(Exception):
            store.set(SET_ASIDE_KEY, text)
            store.remove(HISTORY_KEY)
        return History(), True


def save(store: Store, history: History) -> bool:
    """Write the history; False when the browser refused (storage full or disabled)."""
    try:
        store.set(HISTORY_KEY, history.text())
    except Exception:
        return False
    return True
