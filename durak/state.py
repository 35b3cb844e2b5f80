"""Saving and restoring a game: a JSON-safe dict that round-trips exactly.

Restoring validates everything (card conservation, seats, hand sizes) because a save may come from
localStorage, a share link or a network peer: a bad one raises ``SaveError`` and builds nothing.
"""

from __future__ import annotations

from typing import Any, TypeVar

from . import checks
from .actions import parse_action
from .cards import SUITS, Card, deck, parse_card, sort_key
from .core import GameCore, Result
from .messages import CodedError, ParamValue
from .rules import Rules

#: The class a save is restored as: the core or a class built on it (durak.game.Game).
G = TypeVar("G", bound=GameCore)

FORMAT = "durak-game"
VERSION = 1


class SaveError(CodedError):
    """A saved game or position that cannot be read, with the reason (code ``save.<reason>``)."""

    default_code = "save"


def _cards(items: list[Card] | set[Card] | frozenset[Card]) -> list[str]:
    return [str(c) for c in sorted(items)]


def game_to_dict(game: GameCore) -> dict[str, Any]:
    result = game.result
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": game.rules.to_dict(),
        "seed": game.seed,
        "dealer": game.dealer,
        "trump": game.trump,
        "trump_card": None if game.trump_card is None else str(game.trump_card),
        "trump_exposed": game.trump_exposed,
        "talon": [str(c) for c in game.talon],
        "hands": [[str(c) for c in hand] for hand in game.hands],
        "discard": [str(c) for c in game.discard],
        "active": list(game.active),
        "out_order": list(game.out_order),
        "known": [_cards(k) for k in game.known],
        **public_round(game),
        "history": [[seat, str(action)] for seat, action in game.history],
        "result": None if result is None else result.to_dict(),
        **({"cheats": _cards(game.cheated)} if game.rules.cheating else {}),
    }


def table_by(game: GameCore) -> list[list[int | None]]:
    """Cheat mode: who played each table pair's attack and defence (public: everyone saw it)."""
    by = game.played_by
    return [[by.get(a), None if d is None else by.get(d)] for a, d in zip(game.attacks, game.defences, strict=True)]


def public_round(game: GameCore) -> dict[str, Any]:
    """The round's public state, shared by saves and views."""
    return {
        "table": [[str(a), None if d is None else str(d)] for a, d in zip(game.attacks, game.defences, strict=True)],
        "attacker": game.attacker,
        "defender": game.defender,
        "opener": game.opener,
        "limit": game.limit,
        "taking": game.taking,
        "passed": sorted(game.passed),
        "emptied": list(game.emptied),
        "first_round": game.first_round,
        "round": game.round_no,
        **({"table_by": table_by(game)} if game.rules.cheating else {}),
    }


def game_from_dict(cls: type[G], data: object) -> G:
    """Rebuild a game from ``game_to_dict`` output; refuse anything inconsistent."""
    try:
        return _restore(cls, data)
    except SaveError:
        raise
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as error:
        if isinstance(error, KeyError):
            raise _invalid(f"missing field {error}", "missing_field", field=str(error)) from None
        raise _invalid(str(error), "malformed", cause=checks.cause(error)) from None


def _invalid(text: str, code: str, **params: ParamValue) -> SaveError:
    """``not a valid saved game: <text>`` as the code ``save.<code>``."""
    return SaveError(f"not a valid saved game: {text}", f"save.{code}", **params)


def _seat(value: object, n: int, what: str, optional: bool = False) -> int | None:
    if value is None and optional:
        return None
    return checks.seat(value, n, what, _invalid)


def _card_list(value: object, what: str, field: str | None = None) -> list[Card]:
    return checks.card_list(value, what, _invalid, field)


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise _invalid(f"{what} must be true or false, not {value!r}", "flag", field=what, value=repr(value))
    return value


def _restore(cls: type[G], data: object) -> G:
    if not isinstance(data, dict):
        raise _invalid(f"expected an object, not {type(data).__name__}", "not_an_object", type=type(data).__name__)
    if data.get("format") != FORMAT or data.get("version") != VERSION:
        raise SaveError(f"not a saved game of this version (format {data.get('format')!r}, "
                        f"version {data.get('version')!r}; expected {FORMAT!r} {VERSION})", "save.version",
                        format=repr(data.get("format")), version=repr(data.get("version")), expected=VERSION)
    rules = Rules.from_dict(data["rules"])
    n = rules.players
    dealer = _seat(data["dealer"], n, "dealer")
    assert dealer is not None
    seed = data.get("seed")
    if seed is not None and type(seed) is not int:
        raise _invalid(f"seed must be a whole number, not {seed!r}", "seed", value=repr(seed))
    game = cls._blank(rules, seed, dealer)
    trump = data["trump"]
    if trump not in SUITS or not isinstance(trump, str):
        raise _invalid(f"trump must be one of S H D C, not {trump!r}", "trump", value=repr(trump))
    game.trump_index = SUITS.index(trump)
    game._trump_card = None if data["trump_card"] is None else parse_card(data["trump_card"])
    game.trump_exposed = _flag(data["trump_exposed"], "trump_exposed")
    talon = _card_list(data["talon"], "talon")
    game._talon = talon[::-1]
    hands = data["hands"]
    if not isinstance(hands, list) or len(hands) != n:
        raise _invalid(f"hands must list {n} hands", "hands", n=n)
    game.hands = [_card_list(hand, f"hand of seat {seat}", f"hands[{seat}]") for seat, hand in enumerate(hands)]
    game._discard = _card_list(data["discard"], "discard")
    active = data["active"]
    if not isinstance(active, list) or len(active) != n:
        raise _invalid(f"active must list {n} flags", "active", n=n)
    game.active = [_flag(a, "active") for a in active]
    game._refresh_neighbours()
    game.out_order = [_seat(s, n, "out_order") for s in data["out_order"]]  # type: ignore[misc]
    known = data["known"]
    if not isinstance(known, list) or len(known) != n:
        raise _invalid(f"known must list {n} card lists", "known", n=n)
    game.known = [set(_card_list(k, f"known cards of seat {seat}", f"known[{seat}]")) for seat, k in enumerate(known)]
    table = data["table"]
    if not isinstance(table, list):
        raise _invalid("table must be a list of [attack, defence] pairs", "table")
    game.attacks = [parse_card(pair[0]) for pair in table]
    game.defences = [None if pair[1] is None else parse_card(pair[1]) for pair in table]
    _check_conservation(rules, talon, game)
    _check_trump(game, talon)
    for seat in range(n):
        if not game.known[seat] <= set(game.hands[seat]):
            raise _invalid(f"seat {seat} is said to hold cards not in its hand", "known_not_held", seat=seat)
    _restore_round(game, data, n)
    if rules.cheating:
        _restore_cheats(game, data, n)
    game.history = [(_seat(s, n, "history seat"), parse_action(a)) for s, a in data["history"]]  # type: ignore[misc]
    result = data["result"]
    if result is not None:
        game._result = Result(result["durak"], bool(result["draw"]), list(result["out_order"]),
                              list(result["losers"]))
        game._to_act = None
    else:
        game._to_act = _whose_turn(game)
    return game


def _restore_round(game: GameCore, data: dict[str, Any], n: int) -> None:
    game.attacker = _seat(data["attacker"], n, "attacker", optional=True)
    game.defender = _seat(data["defender"], n, "defender", optional=True)
    game.opener = _seat(data["opener"], n, "opener", optional=True)
    limit = data["limit"]
    if type(limit) is not int or not 0 <= limit <= 6:
        raise _invalid(f"limit must be 0 to 6, not {limit!r}", "limit", value=repr(limit))
    game.limit = limit
    game.taking = _flag(data["taking"], "taking")
    game.passed = {_seat(s, n, "passed") for s in data["passed"]}  # type: ignore[misc]
    game.emptied = [_seat(s, n, "emptied") for s in data["emptied"]]  # type: ignore[misc]
    game.first_round = _flag(data["first_round"], "first_round")
    round_no = data["round"]
    if type(round_no) is not int or round_no < 0:
        raise _invalid(f"round must be a whole number, not {round_no!r}", "round", value=repr(round_no))
    game.round_no = round_no
    if data["result"] is None:
        if game.attacker is None or game.defender is None or game.opener is None:
            raise _invalid("a game in play needs an attacker, a defender and an opener", "roles_missing")
        if not (game.active[game.attacker] and game.active[game.defender]):
            raise _invalid("the attacker and defender must still be in the game", "roles_out")
        game._set_throwers()


def _restore_cheats(game: GameCore, data: dict[str, Any], n: int) -> None:
    """Who played each table card (by default the attacker's and the defender's) and which were cheats."""
    owners = data.get("table_by")
    if owners is None:
        owners = [[game.attacker, None if d is None else game.defender] for d in game.defences]
    if not isinstance(owners, list) or len(owners) != len(game.attacks):
        raise _invalid("table_by must list a [attack seat, defence seat] pair for each table pair", "table_by")
    played_by: dict[Card, int] = {}
    for (attack, defence), pair in zip(zip(game.attacks, game.defences, strict=True), owners, strict=True):
        if not isinstance(pair, list) or len(pair) != 2 or (pair[1] is None) != (defence is None):
            raise _invalid("table_by must list a [attack seat, defence seat] pair for each table pair", "table_by")
        played_by[attack] = _seat(pair[0], n, "table_by")  # type: ignore[assignment]
        if defence is not None:
            played_by[defence] = _seat(pair[1], n, "table_by")  # type: ignore[assignment]
    cheats = set(_card_list(data.get("cheats", []), "cheats"))
    stray = sorted(cheats - set(played_by))
    if stray:
        raise _invalid(f"cheats must be table cards, not {' '.join(c.symbol for c in stray)}", "cheats_off_table",
                       cards=[str(c) for c in stray])
    game.played_by = played_by
    game.cheated = frozenset(cheats)


def _check_conservation(rules: Rules, talon: list[Card], game: GameCore) -> None:
    """Every card of the deck is in exactly one place."""
    places = talon + game._discard + game.attacks + [d for d in game.defences if d is not None]
    for hand in game.hands:
        places += hand
    seen: set[Card] = set()
    for c in places:
        if c in seen:
            raise _invalid(f"{c.symbol} is in two places", "card_twice", card=str(c))
        seen.add(c)
    full = set(deck(rules.deck))
    if seen != full:
        stray = sorted(seen - full)
        lost = sorted(full - seen)
        if stray:
            strays = " ".join(c.symbol for c in stray)
            raise _invalid(f"cards are not conserved ({strays} not in a {rules.deck}-card deck)", "not_in_deck",
                           cards=[str(c) for c in stray], deck=rules.deck)
        raise _invalid(f"cards are not conserved ({' '.join(c.symbol for c in lost)} missing)", "not_conserved",
                       cards=[str(c) for c in lost])


def _check_trump(game: GameCore, talon: list[Card]) -> None:
    card = game.trump_card
    if card is not None and card & 3 != game.trump_index:
        raise _invalid(f"trump card {card.symbol} is not of the trump suit {game.trump}", "trump_card_suit",
                       card=str(card), suit=game.trump)
    if game.trump_exposed and (not talon or talon[-1] != card):
        raise _invalid("the exposed trump card must be the talon's last card", "trump_card_place")


def _whose_turn(game: GameCore) -> int:
    if game.rules.variant == "prostoy":
        seat = game.attacker if not game.attacks else game.defender
    elif not game.attacks:
        seat = game.attacker
    elif not game.taking and None in game.defences:
        seat = game.defender
    else:
        waiting = [s for s in game.throwers if s not in game.passed]
        if not waiting:
            raise _invalid("every attacker has passed but the round is open", "all_passed")
        seat = waiting[0]
    assert seat is not None
    return seat


def view_of(game: GameCore, seat: int) -> dict[str, Any]:
    """What ``seat`` may know, JSON-safe: never another hand's unseen cards or the talon order."""
    view = public_view_of(game)
    view["seat"] = seat
    view["hand"] = [str(c) for c in sorted(game.hands[seat], key=sort_key(game.trump_index))]
    return view


def public_view_of(game: GameCore) -> dict[str, Any]:
    """What a spectator knows: ``view_of``'s keys with ``seat`` None and no ``hand``."""
    rules = game.rules
    n = rules.players
    result = game.result
    return {
        "seat": None,
        "players": n,
        "variant": rules.variant,
        "rules": rules.to_dict(),
        "trump": game.trump,
        "trump_card": None if game.trump_card is None else str(game.trump_card),
        "trump_exposed": game.trump_exposed,
        "talon": len(game._talon),
        "hand_sizes": [len(h) for h in game.hands],
        "known": [_cards(game.known[s]) for s in range(n)],
        "discard": _cards(game._discard),
        "dealer": game.dealer,
        "to_act": game.to_act,
        **public_round(game),
        "active": list(game.active),
        "out_order": list(game.out_order),
        "teams": None if rules.teams is None else [rules.team_of(s) for s in range(n)],
        "history": [[s, str(a)] for s, a in game.history],
        "result": None if result is None else result.to_dict(),
    }


def open_view_of(game: GameCore) -> dict[str, Any]:
    """Every hand open (``hands``, each in display order) and the talon in order (``talon_cards``, top first):
    for worked examples and reviews of finished games, never for a seat that is still playing."""
    view = public_view_of(game)
    order = sort_key(game.trump_index)
    view["hands"] = [[str(c) for c in sorted(hand, key=order)] for hand in game.hands]
    view["talon_cards"] = [str(c) for c in game.talon]
    return view


def state_from_view(view: dict[str, Any], hands: list[list[Card]], talon: list[Card]) -> dict[str, Any]:
    """A full save built from a view plus an assignment of its hidden cards (for determinized search)."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "rules": view["rules"],
        "seed": None,
        "dealer": view["dealer"],
        "trump": view["trump"],
        "trump_card": view["trump_card"],
        "trump_exposed": view["trump_exposed"],
        "talon": [str(c) for c in talon],
        "hands": [[str(c) for c in hand] for hand in hands],
        "discard": view["discard"],
        "active": view["active"],
        "out_order": view["out_order"],
        "known": view["known"],
        **{key: view[key] for key in ("table", "attacker", "defender", "opener", "limit", "taking", "passed",
                                      "emptied", "first_round", "round")},
        "history": view["history"],
        "result": view["result"],
        **({"table_by": view["table_by"]} if "table_by" in view else {}),
    }
