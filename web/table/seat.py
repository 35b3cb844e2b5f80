"""A seat client: what one seat knows of the table, built only from its host's messages.

It keeps the latest state (``seq``, view, legal actions), the recent-plays log, who is connected, the
quick messages and the turn clock; it turns the seat's choices into ``act`` and ``say`` messages. The
host may be in the same page or on another device, so every message from it is checked too (a card is
card notation, a seat is a seat) and anything else is ignored. At the end of an online game it checks
the deal (web/table/fairdeal.py). Pure Python: the page draws it through web/table/render.py.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from web.shared.i18n import DEFAULT_LANG, compass_name, say, t
from web.table import fairdeal
from web.table.params import LEVELS
from web.table.protocol import QUICK_MESSAGES, clean_name

#: Bytes a host's message may have (a state of a six-player game is about 3 kB).
MAX_FROM_HOST = 64 * 1024
CARD = re.compile(r"(?:[2-9]|10|[JQKA])[SHDC]")
#: A gesture's target: an attack card to beat, a card of the hand, or a zone (web/table/moves.py's names).
TARGET = re.compile(rf"attack:{CARD.pattern}|hand:{CARD.pattern}|accuse:{CARD.pattern}|zone:(?:table|transfer)")
#: Cheat mode: an accusation names one table card.
ACCUSATION = re.compile(rf"accuse {CARD.pattern}")
OUTCOMES = ("caught", "wrong")
STATUSES = ("connected", "away", "ai")


class BadMessage(ValueError):
    """A host's message this seat cannot use; it is ignored."""


def _cards(value: object) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(c, str) and CARD.fullmatch(c) for c in value):
        raise BadMessage("cards")
    return value


def _seat(value: object, players: int, optional: bool = False) -> None:
    if optional and value is None:
        return
    if type(value) is not int or not 0 <= value < players:
        raise BadMessage("seat")


def check_view(view: object, seat: int) -> dict[str, Any]:
    """The fields of a view that reach the page's markup: cards are card notation, seats are seats."""
    if not isinstance(view, dict) or view.get("seat") != seat:
        raise BadMessage("view")
    players = view.get("players")
    if type(players) is not int or not 2 <= players <= 6 or not 0 <= seat < players:
        raise BadMessage("players")
    _cards(view.get("hand"))
    _cards(view.get("discard"))
    for known in view.get("known") or []:
        _cards(known)
    table = view.get("table")
    if not isinstance(table, list):
        raise BadMessage("table")
    for pair in table:
        if not isinstance(pair, list) or len(pair) != 2:
            raise BadMessage("table")
        _cards([pair[0]])
        if pair[1] is not None:
            _cards([pair[1]])
    if view.get("trump") not in ("S", "H", "D", "C"):
        raise BadMessage("trump")
    if view.get("trump_card") is not None:
        _cards([view["trump_card"]])
    for key in ("to_act", "attacker", "defender", "dealer"):
        _seat(view.get(key), players, optional=True)
    sizes = view.get("hand_sizes")
    if not isinstance(sizes, list) or len(sizes) != players or not all(type(n) is int for n in sizes):
        raise BadMessage("hand_sizes")
    if not isinstance(view.get("active"), list) or not isinstance(view.get("history"), list):
        raise BadMessage("view")
    return view


def sayable(line: object) -> bool:
    """A recent-plays line this page can say: a narrated event's code with parameters it understands."""
    if not isinstance(line, dict) or not str(line.get("code", "")).startswith("event."):
        return False
    try:
        say(DEFAULT_LANG, line)
    except (KeyError, ValueError, TypeError, IndexError, AttributeError):
        return False
    return True


def display_names(seats: list[dict[str, Any]], lang: str, local: list[int]) -> list[str]:
    """Each seat's name in this page's language, as a card table names them: "You" for the one local
    player, a friend by their own name, the AIs and anyone unnamed by their compass point seen from the
    local player ("West", "North", "East"; pass-and-play: seen from the first seat, in the South)."""
    you = local[0] if len(local) == 1 else None
    names = []
    for index, info in enumerate(seats):
        name = "" if info.get("kind") in LEVELS else str(info.get("name") or "")
        if index == you:
            names.append(t(lang, "seat_you"))
        else:
            names.append(name or compass_name(lang, len(seats), index, you or 0))
    return names


class SeatClient:
    """One seat's side of the protocol."""

    def __init__(self, seat: int, send: Callable[[dict[str, Any]], None]) -> None:
        self.seat = seat
        self.send = send
        self.seq = -1
        self.view: dict[str, Any] | None = None
        self.legal: list[str] = []
        self.log: list[dict[str, Any]] = []
        self.series: dict[str, Any] | None = None
        self.seats: list[dict[str, Any]] = []
        self.thinking: int | None = None
        self.timer: dict[str, Any] | None = None
        self.said: dict[int, str] = {}
        self.refused: dict[str, Any] | None = None
        self.fresh: frozenset[str] = frozenset()
        self.commit = ""
        self.hands_seen: dict[int, list[str]] = {}
        self.deal_check: str | None = None
        self.current = True  # False while a remote host is out of reach: the position may be stale
        self.round_trip_ms: float | None = None
        # cheat mode: the cheats and accusations this seat may make now, the last accusation's outcome (shown
        # until the next bout ends) and whether the host is about to end a bout (the moment to accuse)
        self.cheats: list[str] = []
        self.accusations: list[str] = []
        self.accusation: dict[str, Any] | None = None
        self.closing = False

    # ------------------------------------------------------------------ incoming
    def receive_text(self, text: object) -> bool:
        """A remote host's message off the wire; False (and nothing changed) when it is unusable."""
        if not isinstance(text, str) or len(text) > MAX_FROM_HOST:
            return False
        try:
            data = json.loads(text)
        except ValueError:
            return False
        return self.receive(data)

    def deliver(self, message: dict[str, Any]) -> None:
        """The in-memory transport: the host in the same page hands its messages over as they are."""
        self.receive(message)

    def receive(self, message: object) -> bool:
        """Take in one host message; False (and nothing changed) when it is unusable."""
        if not isinstance(message, dict):
            return False
        kind = message.get("t")
        try:
            if kind == "state":
                self._state(message)
            elif kind == "status":
                self._status(message)
            elif kind == "refused":
                if not isinstance(message.get("code"), str):
                    raise BadMessage("code")
                self.refused = message
                if message["code"] == "replaced":
                    self.current = False  # the seat is played from another window now
            elif kind == "said":
                if message.get("quick") not in QUICK_MESSAGES:
                    raise BadMessage("quick")
                _seat(message.get("seat"), len(self.seats) or 6)
                self.said[message["seat"]] = message["quick"]
            elif kind == "reveal":
                self._reveal(message)
            elif kind != "pong":
                return False
        except (BadMessage, KeyError, TypeError):
            return False
        return True

    def _state(self, message: dict[str, Any]) -> None:
        seq = message.get("seq")
        if type(seq) is not int or message.get("seat") != self.seat:
            raise BadMessage("state")
        if seq < self.seq:
            return  # older than what is shown: never let a stale position replace a newer one
        view = check_view(message.get("view"), self.seat)
        legal = message.get("legal")
        events = message.get("events")
        if not isinstance(legal, list) or not all(isinstance(a, str) for a in legal) or not isinstance(events, list):
            raise BadMessage("state")
        cheats, accusations, accusation = self._cheat_fields(message, view["players"])
        old_table = self._table_cards(self.view) if self.view else set()
        commit = str(message.get("commit") or "")
        if self.view is not None and (commit != self.commit or len(view["history"]) < len(self.view["history"])):
            self.hands_seen = {}  # a new game
            self.deal_check = None
            self.said = {}
        lines = [line for line in events if sayable(line)]
        if message.get("reset"):
            self.log = lines
            self.fresh = frozenset()
        else:
            self.log = (self.log + lines)[-30:]
            self.fresh = frozenset(self._table_cards(view) - old_table)
        if accusation is not None or message.get("reset") or (old_table and not view["table"]):
            self.accusation = accusation  # a new outcome, or the bout after it ended
        self.seq = seq
        self.view = view
        self.legal = legal
        self.cheats = cheats
        self.accusations = accusations
        self.commit = commit
        series = message.get("series")
        self.series = series if isinstance(series, dict) else None
        self.refused = None
        self.current = True
        self.hands_seen[len(view["history"])] = list(view["hand"])

    def _status(self, message: dict[str, Any]) -> None:
        seats = message.get("seats")
        if not isinstance(seats, list) or not 2 <= len(seats) <= 6:
            raise BadMessage("seats")
        clean = []
        for info in seats:
            if not isinstance(info, dict) or info.get("status") not in STATUSES:
                raise BadMessage("seats")
            kind = info.get("kind")
            if kind not in ("human", "friend", *LEVELS):
                raise BadMessage("seats")
            clean.append({"kind": kind, "name": clean_name(str(info.get("name") or "")[:48]),
                          "status": info["status"]})
        thinking = message.get("thinking")
        _seat(thinking, len(clean), optional=True)
        timer = message.get("timer")
        if timer is not None:
            if not isinstance(timer, dict) or type(timer.get("seconds")) is not int:
                raise BadMessage("timer")
            _seat(timer.get("seat"), len(clean))
        closing = message.get("closing", False)
        if type(closing) is not bool:
            raise BadMessage("closing")
        self.seats = clean
        self.thinking = thinking
        self.timer = timer
        self.closing = closing

    def _reveal(self, message: dict[str, Any]) -> None:
        if self.view is None or self.view.get("result") is None or not self.commit:
            return
        ok = fairdeal.verify(self.commit, message, self.seat, self.hands_seen, self.view)
        self.deal_check = "verified" if ok else "mismatch"

    @staticmethod
    def _cheat_fields(message: dict[str, Any], players: int) -> tuple[list[str], list[str], dict[str, Any] | None]:
        """A cheat-mode state's cheats, accusations and accusation outcome, checked (all empty otherwise)."""
        cheats = message.get("cheats", [])
        accusations = message.get("accusations", [])
        for actions in (cheats, accusations):
            if not isinstance(actions, list) or not all(isinstance(a, str) and len(a) < 40 for a in actions):
                raise BadMessage("cheats")
        if not all(ACCUSATION.fullmatch(a) for a in accusations):
            raise BadMessage("accusations")
        outcome = message.get("accusation")
        if outcome is None:
            return cheats, accusations, None
        if not isinstance(outcome, dict) or outcome.get("outcome") not in OUTCOMES:
            raise BadMessage("accusation")
        _cards([outcome.get("card")])
        for key in ("accuser", "target", "taker"):
            _seat(outcome.get(key), players)
        return cheats, accusations, {key: outcome[key] for key in ("outcome", "accuser", "card", "target", "taker")}

    @staticmethod
    def _table_cards(view: dict[str, Any] | None) -> set[str]:
        cards: set[str] = set()
        for attack, defence in (view or {}).get("table", []):
            cards.add(attack)
            if defence:
                cards.add(defence)
        return cards

    # ------------------------------------------------------------------ outgoing
    def act(self, action: str) -> None:
        self.refused = None
        self.send({"t": "act", "seat": self.seat, "seq": self.seq, "action": action})

    def say(self, quick: str) -> None:
        if quick in QUICK_MESSAGES:
            self.send({"t": "say", "seat": self.seat, "quick": quick})
