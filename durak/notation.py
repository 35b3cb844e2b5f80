"""What the position and record notations share: ``RecordError`` and the rules token.

The rules token is the compact form of a ``Rules``: ``variant/<n>p/deck`` and then only the options that
differ from their defaults (``perevodnoy/3p/36/everyone``); docs/notation.md lists its words.
"""

from __future__ import annotations

import re
from typing import Any

from .messages import CodedError, ParamValue
from .rules import MAX_PLAYERS_BY_DECK, TEAMS, VARIANTS, Rules, RulesError

#: Every code a ``RecordError`` carries, with the parameters it always has and a sentence for a page to translate.
#: Most also carry ``line`` (the line of a record) and the English ``str()`` gives the detail.
CODES: dict[str, str] = {
    "record.not_text": "Expected text.",
    "record.too_long": "The text is too long ({size} characters).",
    "record.bad_position": "A position is one line of text.",
    "record.bad_rules": "Cannot read the rules {token}.",
    "record.unknown_field": "Unknown position field {token}.",
    "record.bad_field": "Cannot read the position field {field}: {token}.",
    "record.field_order": "The position field {token} is repeated or out of order.",
    "record.missing_field": "The position lacks the field {field}.",
    "record.inconsistent": "The position is not a playable game.",
    "record.bad_tag_line": 'A tag reads [Name "value"], not {token}.',
    "record.bad_tag": "The {tag} tag cannot be used or read here.",
    "record.duplicate_tag": "The {tag} tag appears twice.",
    "record.missing_tag": "The record has no {tag} tag.",
    "record.rules_mismatch": "The Rules tag and the starting position's rules differ.",
    "record.result_mismatch": "The Result tag says {token} but the moves end with {expected}.",
    "record.move_number": "Expected move number {move}, not {token}.",
    "record.bad_move": "Expected move number {move}, not {token}.",
    "record.bad_seat": "Move {move} must name a seat such as s0, not {token}.",
    "record.bad_action": "Move {move}: cannot read the action {token}.",
    "record.extra_comment": "A step has only one comment.",
    "record.unterminated_comment": "A comment opened with { is never closed.",
    "record.illegal_move": "Move {move} ({action}) is illegal: {reason}",
    "record.unknown_start": "The game's start is unknown: only its position can be written.",
    "record.bad_names": "Give one name for each of the {players} seats.",
    "record.bad_comment": "Comments belong to steps 0 to {last}.",
    "record.bad_url": "This link cannot be read.",
}


class RecordError(CodedError):
    """A position, record or URL-safe text that cannot be read; names the line, the token and why."""

    default_code = "record.invalid"


def reason_of(refusal: Exception) -> dict[str, ParamValue]:
    """The engine's refusal behind a ``RecordError``, as params: its English ``reason`` and, when it is coded,
    its ``reason_code`` and ``reason_params`` (what a page renders in its own language)."""
    params: dict[str, ParamValue] = {"reason": str(refusal)}
    code, details = getattr(refusal, "code", None), getattr(refusal, "params", None)
    if isinstance(code, str) and isinstance(details, dict):
        params.update(reason_code=code, reason_params=dict(details))
    return params


def error(code: str, why: str, line: int | None = None, **params: ParamValue) -> RecordError:
    where = f"line {line}: " if line is not None else ""
    token = params.get("token")
    at = f" (at {token!r})" if isinstance(token, str) else ""
    if line is not None:
        params["line"] = line
    return RecordError(f"{where}{why}{at}", code, **params)


_OPTION_WORDS = ("everyone", "first-defence-5", "exchange", "no-exchange", "against-loser", *TEAMS, "cheating")


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
    if rules.cheating:
        parts.append("cheating")
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
        raise error("record.bad_rules", str(problem), None, token=token, **reason_of(problem)) from None


_OPTION_FIELD: dict[str, tuple[str, object]] = {
    "everyone": ("throw_in", "everyone"),
    "first-defence-5": ("first_defence_limit", 5),
    "exchange": ("trump_six_exchange", True),
    "no-exchange": ("trump_six_exchange", False),
    "against-loser": ("first_attack", "against_loser"),
    "cheating": ("cheating", True),
}
