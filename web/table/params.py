"""Game settings: the new-game dialog's choices, read from URL parameters or a save, checked before dealing.

``?variant=podkidnoy&players=2&level=hard&seed=42&lang=fr&speed=instant`` plus ``deck``, ``throw_in``,
``first_defence_limit``, ``exchange``, ``teams``, ``first_attack``, ``cheating`` (``on``: cheat mode) and
``seats`` (comma list of ``human|easy|normal|hard`` for seats 1..n-1) open that game directly.
Pure Python: no browser import.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from typing import Any
from urllib.parse import parse_qsl

from durak import Game
from durak.record import from_url_safe
from durak.rules import FIRST_ATTACK, MAX_PLAYERS_BY_DECK, THROW_IN, VARIANTS, Rules
from durak.rules import TEAMS as RULES_TEAMS
from web.shared.i18n import LANGS

LEVELS = ("easy", "normal", "hard")
SEAT_KINDS = ("human", *LEVELS)
#: Seat kinds of an online table: a friend on another device, or one of SEAT_KINDS (never from a URL).
ONLINE_SEAT_KINDS = ("friend", *SEAT_KINDS)
SPEEDS = ("slow", "normal", "fast", "instant")
TIMERS = (0, 30, 60)  # seconds of an online table's turn timer (0: off)
TEAMS = {name: players for name, (players, _) in RULES_TEAMS.items()}  # team layout -> players it needs

#: URL keys that choose a game (``lang`` and ``speed`` are preferences and never restart a game).
GAME_KEYS = ("variant", "players", "deck", "throw_in", "first_defence_limit", "exchange", "first_attack",
             "teams", "cheating", "level", "seats", "seed")
PREF_KEYS = ("lang", "speed")
#: URL keys that open a position or a game record in their URL-safe forms (durak.links), as embed.html's
#: "open in the full game" link does: the table plays on from there.
OPEN_KEYS = ("position", "record")


@dataclass(frozen=True)
class Settings:
    """What the new-game dialog chooses. ``seats[0]`` is always the local human."""

    variant: str = "podkidnoy"
    players: int = 2
    deck: int = 36
    throw_in: str = "neighbours"
    first_defence_limit: int = 6
    exchange: bool | None = None
    first_attack: str = "loser_left"
    teams: str | None = None
    seats: tuple[str, ...] = ("human", "normal")
    seed: int | None = None
    timer: int = 0  # seconds a person has for a move at an online table; 0: no timer
    cheating: bool = False  # cheat mode (RULES.md §7): cards that break the rules may be played, and caught

    def rules_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for ``durak.Rules``."""
        return {"variant": self.variant, "players": self.players, "deck": self.deck,
                "throw_in": self.throw_in, "first_defence_limit": self.first_defence_limit,
                "trump_six_exchange": self.exchange, "first_attack": self.first_attack, "teams": self.teams,
                "cheating": self.cheating}

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["seats"] = list(self.seats)
        if not self.cheating:
            del data["cheating"]  # an honest game's settings read as they always did
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        known = {f for f in cls.__dataclass_fields__}
        if not isinstance(data, dict) or set(data) - known:
            raise ValueError("settings: unknown fields")
        values = dict(data)
        values["seats"] = tuple(values.get("seats", ("human", "normal")))
        if values.get("timer", 0) not in TIMERS:
            raise ValueError("settings: a turn timer is 0, 30 or 60 seconds")
        if type(values.get("cheating", False)) is not bool:
            raise ValueError("settings: cheating is true or false")
        settings = cls(**values)
        return normalise_seats(settings)

    @property
    def humans(self) -> list[int]:
        return [i for i, kind in enumerate(self.seats) if kind == "human"]


def normalise_seats(settings: Settings, level: str = "normal") -> Settings:
    """Make ``seats`` as long as ``players``: seat 0 human, missing seats get ``level``."""
    seats = list(settings.seats[: settings.players])
    if not seats:
        seats = ["human"]
    seats[0] = "human"
    fill = level if level in LEVELS else "normal"
    while len(seats) < settings.players:
        seats.append(fill)
    seats = [kind if kind in ONLINE_SEAT_KINDS else fill for kind in seats]
    return replace(settings, seats=tuple(seats))


@dataclass
class Parsed:
    """The result of reading a query string."""

    settings: Settings | None  # None: the URL names no game
    lang: str | None = None
    speed: str | None = None
    ignored: list[str] = field(default_factory=list)  # "key=value" items that could not be used
    source: str = ""  # canonical text of the game keys, to recognise a reload of the same link
    opened: Game | None = None  # the position or record the URL names (OPEN_KEYS), to play on from


def open_link(key: str, value: str) -> Game:
    """The game a ``position=`` or ``record=`` value holds; a RecordError (ValueError) when it does not read."""
    text = from_url_safe(value, expect=key)
    return Game.from_position(text) if key == "position" else Game.from_record(text)


def _int(value: str) -> int:
    return int(value.strip())


def _bool(value: str) -> bool | None:
    low = value.strip().lower()
    if low in ("1", "true", "yes", "on"):
        return True
    if low in ("0", "false", "no", "off"):
        return False
    if low in ("", "default", "none"):
        return None
    raise ValueError(value)


def parse_query(query: str) -> Parsed:
    """Read URL parameters. Bad values are skipped and listed in ``ignored``; never raises."""
    items = parse_qsl(query.lstrip("?"), keep_blank_values=True)
    params: dict[str, str] = {}
    for key, value in items:
        params[key.strip().lower()] = value
    parsed = Parsed(settings=None)
    lang = params.get("lang", "").strip().lower()
    if lang:
        if lang in LANGS:
            parsed.lang = lang
        else:
            parsed.ignored.append(f"lang={lang}")
    speed = params.get("speed", "").strip().lower()
    if speed:
        if speed in SPEEDS:
            parsed.speed = speed
        else:
            parsed.ignored.append(f"speed={speed}")
    for key in OPEN_KEYS:
        if key in params:
            value = params[key].strip()
            try:
                parsed.opened = open_link(key, value)
                parsed.source = f"{key}={value}"
            except ValueError:
                parsed.ignored.append(f"{key}={value[:16]}…")
            return parsed
    if not any(key in params for key in GAME_KEYS):
        return parsed
    values: dict[str, Any] = {}
    level = "normal"

    def bad(key: str) -> None:
        parsed.ignored.append(f"{key}={params[key]}")

    for key in GAME_KEYS:
        if key not in params:
            continue
        raw = params[key].strip().lower()
        try:
            if key == "variant":
                if raw not in VARIANTS:
                    raise ValueError(raw)
                values["variant"] = raw
            elif key in ("players", "deck", "first_defence_limit"):
                values[key] = _int(raw)
            elif key == "seed":
                values["seed"] = _int(raw)
            elif key == "exchange":
                values["exchange"] = _bool(raw)
            elif key == "cheating":
                values["cheating"] = bool(_bool(raw))
            elif key == "throw_in":
                raw = "neighbours" if raw == "neighbors" else raw
                if raw not in THROW_IN:
                    raise ValueError(raw)
                values["throw_in"] = raw
            elif key == "first_attack":
                if raw not in FIRST_ATTACK:
                    raise ValueError(raw)
                values["first_attack"] = raw
            elif key == "teams":
                if raw in ("", "none", "no", "0"):
                    values["teams"] = None
                elif raw in TEAMS:
                    values["teams"] = raw
                else:
                    raise ValueError(raw)
            elif key == "level":
                if raw not in LEVELS:
                    raise ValueError(raw)
                level = raw
            elif key == "seats":
                kinds = tuple(k.strip() for k in raw.split(",") if k.strip())
                if not kinds or any(k not in SEAT_KINDS for k in kinds):
                    raise ValueError(raw)
                values["seats"] = ("human", *kinds)
        except ValueError:
            bad(key)
    players = values.get("players", 2)
    if "teams" in values and values["teams"] and "players" not in values:
        players = values["players"] = TEAMS[values["teams"]]
    seats = values.pop("seats", ("human",) + (level,) * (max(players, 1) - 1))
    try:
        settings = normalise_seats(Settings(**values, seats=seats), level)
    except TypeError:  # pragma: no cover - values are all known fields
        settings = Settings()
    parsed.settings = settings
    canon = [f"{key}={params[key].strip().lower()}" for key in GAME_KEYS if key in params]
    parsed.source = "&".join(canon)
    return parsed


def problems(settings: Settings) -> list[tuple[str, dict[str, Any]]]:
    """Why these settings cannot be dealt, as i18n keys with their values ([] when playable).

    Mirrors the engine's ``RulesError`` checks so the dialog explains them in the player's language;
    the engine stays the judge (its message is shown for anything this misses).
    """
    out: list[tuple[str, dict[str, Any]]] = []
    hand = 5 if settings.variant == "prostoy" else 6
    if settings.deck in MAX_PLAYERS_BY_DECK and settings.players > MAX_PLAYERS_BY_DECK[settings.deck]:
        out.append(("err_deck_players", {"players": settings.players, "cards": settings.players * hand,
                                         "deck": settings.deck, "most": MAX_PLAYERS_BY_DECK[settings.deck]}))
    if settings.teams:
        if settings.variant == "prostoy":
            out.append(("err_prostoy_teams", {}))
        elif TEAMS.get(settings.teams) != settings.players:
            out.append(("err_teams_players", {"teams": settings.teams, "need": TEAMS.get(settings.teams, "?")}))
    if settings.variant == "prostoy":
        if settings.throw_in != "neighbours":
            out.append(("err_prostoy_throw_in", {}))
        if settings.first_defence_limit != 6:
            out.append(("err_prostoy_first_defence", {}))
        if settings.first_attack != "loser_left":
            out.append(("err_prostoy_first_attack", {}))
    return out


def make_rules(settings: Settings) -> Rules:
    """``durak.Rules`` for these settings; raises the engine's ``RulesError`` when unplayable."""
    return Rules(**settings.rules_kwargs())


def to_query(settings: Settings, lang: str | None = None, speed: str | None = None) -> str:
    """A link that opens these settings (the inverse of ``parse_query`` for the game keys)."""
    parts = [f"variant={settings.variant}", f"players={settings.players}"]
    default = Settings()
    if settings.deck != default.deck:
        parts.append(f"deck={settings.deck}")
    if settings.throw_in != default.throw_in:
        parts.append(f"throw_in={settings.throw_in}")
    if settings.first_defence_limit != default.first_defence_limit:
        parts.append(f"first_defence_limit={settings.first_defence_limit}")
    if settings.exchange is not None:
        parts.append(f"exchange={'on' if settings.exchange else 'off'}")
    if settings.first_attack != default.first_attack:
        parts.append(f"first_attack={settings.first_attack}")
    if settings.teams:
        parts.append(f"teams={settings.teams}")
    if settings.cheating:
        parts.append("cheating=on")
    parts.append("seats=" + ",".join(settings.seats[1:]))
    if settings.seed is not None:
        parts.append(f"seed={settings.seed}")
    if lang:
        parts.append(f"lang={lang}")
    if speed:
        parts.append(f"speed={speed}")
    return "?" + "&".join(parts)
