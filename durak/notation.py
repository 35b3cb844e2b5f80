"""What the position and record notations share: ``RecordError`` and the rules token.

The rules token is the compact form of a ``Rules``: ``variant/<n>p/deck`` and then only the options that
differ from their defaults (``perevodnoy/3p/36/everyone``); docs/notation.md lists its words.
"""

from __future__ import annotations

import re
from typing import Any

from .messages import CodedError, ParamValue
from .rules import MAX_PLAYERS_BY_DECK, TEAMS, VARIANTS, Rules, RulesError


class RecordError(CodedError):
    """A position, record or URL-safe text that cannot be read; names the line, the token and why."""

    default_code = "record.invalid"


def error(code: str, why: str, line: int | None = None, **params: ParamValue) -> RecordError:
    where = f"line {line}: " if line is not None else ""
    token = params.get("token")
    at = f" (at {token!r})" if isinstance(token, str) else ""
    if line is not None:
        params["line"] = line
    return RecordError(f"{where}{why}{at}", code, **params)


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
        raise error("record.bad_rules", "rules must read variant/players/deck, e.g. podkidnoy/2p/36",
                    token=token)
    variant, players, size, *options = parts
    if variant not in VARIANTS:
        raise error("record.bad_rules", f"unknown variant: choose {', '.join(VARIANTS)}", token=token)
    if not re.fullmatch(r"[2-6]p", players):
        raise error("record.bad_rules", "players must read 2p to 6p", token=token)
    if size not in {str(d) for d in MAX_PLAYERS_BY_DECK}:
        raise error("record.bad_rules", "the deck must be 24, 36 or 52", token=token)
    chosen: dict[str, Any] = {}
    for word in options:
        if word not in _OPTION_WORDS:
            raise error("record.bad_rules", f"unknown option {word!r}: use {', '.join(_OPTION_WORDS)}",
                        token=token)
        key, value = _OPTION_FIELD.get(word, ("teams", word))
        if key in chosen:
            raise error("record.bad_rules", f"option {word!r} repeats or contradicts another", token=token)
        chosen[key] = value
    try:
        return Rules(variant=variant, players=int(players[0]), deck=int(size), **chosen)
    except RulesError as problem:
        raise error("record.bad_rules", str(problem), token=token) from None


_OPTION_FIELD: dict[str, tuple[str, object]] = {
    "everyone": ("throw_in", "everyone"),
    "first-defence-5": ("first_defence_limit", 5),
    "exchange": ("trump_six_exchange", True),
    "no-exchange": ("trump_six_exchange", False),
    "against-loser": ("first_attack", "against_loser"),
}
