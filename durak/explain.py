"""Why an action is refused: a coded ``Message`` (code, params, English sentence) a player understands.

Only called once ``legal_actions`` has said no, so it may be slow; it never decides legality itself.
Every code is ``illegal.<reason>`` with the refused action as ``action`` (notation) beside the reason's
own params, so a page says the same in its language (web/shared/i18n.py renders them from the catalogues).
"""

from __future__ import annotations

from .actions import ACCUSE, ATTACK, DEFEND, EXCHANGE, PASS, TAKE, TRANSFER, Action
from .cards import DECK_LOWEST_RANK, Card, beats, rank_name
from .core import GameCore
from .messages import Message, ParamValue

_BEAT_RULE = "a non-trump is beaten by a higher card of its suit or by any trump"
_TRUMP_RULE = "a trump is beaten only by a higher trump"

Reason = tuple[str, str, dict[str, ParamValue]]  # code, English reason, params


class ExplainedCore(GameCore):
    """The rules core whose refusals name the action, the cards and the rule: records replay on it."""

    __slots__ = ()

    def _refusal(self, seat: int, action: Action) -> Message:
        return explain(self, seat, action)


def explain(game: GameCore, seat: int, action: Action) -> Message:
    """The message of the ``IllegalAction`` raised for ``action`` by ``seat``."""
    if game.result is not None:
        return refusal(action, "game_over", "the game is over", {})
    if action.kind == ACCUSE:
        return refusal(action, *_accuse_reason(game, seat, action))
    if seat != game.to_act:
        return refusal(action, "not_your_turn", f"it is seat {game.to_act}'s turn, not seat {seat}'s",
                       {"to_act": game.to_act, "seat": seat})
    missing = [c for c in action.cards if c not in game.hands[seat]]
    if action.kind == DEFEND:
        missing = [c for c in action.cards[1:] if c not in game.hands[seat]]
    if missing and action.kind in (ATTACK, DEFEND, TRANSFER):
        reason: Reason = ("not_holding", f"seat {seat} does not hold {_names(missing)}",
                          {"seat": seat, "cards": [str(c) for c in missing]})
    else:
        reason = _REASONS[action.kind](game, seat, action)
    return refusal(action, *reason)


def refusal(action: Action, code: str, reason: str, params: dict[str, ParamValue]) -> Message:
    """``cannot <action>: <reason>`` as the message ``illegal.<code>``."""
    return Message(f"illegal.{code}", {"action": str(action), **params}, f"cannot {described(action)}: {reason}")


def described(action: Action) -> str:
    """The action in words: ``beat 8♥ with 9♥``, ``attack 8♥ 8♦``, ``take``."""
    if action.kind == DEFEND:
        return f"beat {action.cards[0].symbol} with {action.cards[1].symbol}"
    if action.cards:
        return f"{action.kind} {_names(action.cards)}"
    return action.kind


def _names(cards: tuple[Card, ...] | list[Card]) -> str:
    return " ".join(c.symbol for c in cards)


def _attack_cards(n: int) -> str:
    return f"{n} attack card" if n == 1 else f"{n} attack cards"


def _phase(game: GameCore, seat: int) -> Reason:
    """What ``seat`` is expected to do now, for messages about the wrong kind of action."""
    if not game.attacks:
        return "phase_open", "the round has not started: the attacker must lead a card", {}
    if seat == game.defender and not game.taking:
        if game.rules.variant == "perevodnoy":
            return "phase_defend_transfer", "the defender must beat, take or transfer", {}
        return "phase_defend", "the defender must beat or take", {}
    return "phase_throw_in", "an attacker may only throw in a card or pass", {}


def _attack_reason(game: GameCore, seat: int, action: Action) -> Reason:
    cards = action.cards
    defender = game.defender
    assert defender is not None
    if game.rules.variant == "prostoy":
        if game.attacks:
            return "prostoy_no_throw_in", "nothing is ever added to a Prostoy attack", {}
        size = len(cards)
        if size not in (1, 3, 5):
            return "prostoy_size", f"a Prostoy attack has 1, 3 or 5 cards, not {size}", {"size": size}
        held = len(game.hands[defender])
        if size > held:
            return ("defender_holds", f"the defender holds only {held} card" + ("" if held == 1 else "s"),
                    {"n": held})
        if size == 3:
            return "prostoy_three", "3 cards must be a pair plus a free card", {}
        return ("prostoy_five", "5 cards must be two pairs of different ranks plus a free card, or four of a kind "
                "plus one", {})
    if seat == game.defender and game.attacks and not game.taking:
        return "defender_attacks", "the defender cannot attack his own round", {}
    if not game.attacks:
        if len({c.rank for c in cards}) > 1:
            return "opening_one_rank", "an opening attack of several cards must be of one rank", {}
        return "opening_limit", f"this round allows at most {_attack_cards(game.limit)}", {"n": game.limit}
    if len(cards) > 1:
        return "one_at_a_time", "throw-ins are added one card at a time", {}
    if None in game.defences and not game.taking and seat != game.defender:
        return "defender_first", "the defender must answer first", {}
    if len(game.attacks) >= game.limit:
        return ("limit_reached", f"the limit of {_attack_cards(game.limit)} for this round is reached",
                {"n": game.limit})
    ranks = {c.rank for c in game.attacks} | {d.rank for d in game.defences if d is not None}
    if cards[0].rank not in ranks and not game.rules.cheating:
        return "rank_not_on_table", f"no {rank_name(cards[0].rank)} is on the table", {"rank": cards[0].rank}
    return _phase(game, seat)


def _defend_reason(game: GameCore, seat: int, action: Action) -> Reason:
    attack, defence = action.cards
    if seat != game.defender:
        return "not_defender", f"seat {seat} is not the defender", {"seat": seat}
    if attack not in game.attacks:
        return "not_an_attack", f"{attack.symbol} is not an attack card on the table", {"card": str(attack)}
    if game.defences[game.attacks.index(attack)] is not None:
        return "already_beaten", f"{attack.symbol} is already beaten", {"card": str(attack)}
    if game.taking:
        return "take_declared", "the defender has already declared take", {}
    if not beats(defence, attack, game.trump_index) and not game.rules.cheating:
        if attack & 3 == game.trump_index:
            return "trump_rule", _TRUMP_RULE, {}
        return "beat_rule", _BEAT_RULE, {}
    return _phase(game, seat)


def _transfer_reason(game: GameCore, seat: int, action: Action) -> Reason:
    if game.rules.variant != "perevodnoy":
        return "transfer_variant", "transfers belong to Perevodnoy", {}
    if seat != game.defender or not game.attacks:
        return "transfer_not_defender", "only the defender may transfer an attack", {}
    if any(d is not None for d in game.defences):
        return "transfer_after_beat", "an attack card has already been beaten this round", {}
    rank = game.attacks[0].rank
    if action.cards[0].rank != rank and not game.rules.cheating:
        return "transfer_rank", f"a transfer must be of the attacking rank ({rank_name(rank)})", {"rank": rank}
    if game.taking:
        return "take_declared", "the defender has already declared take", {}
    return ("transfer_too_many", "the next defender would hold fewer cards than the attack, or the attack "
            "would exceed its cap", {})


def _take_reason(game: GameCore, seat: int, action: Action) -> Reason:
    if seat != game.defender:
        return "not_defender", f"seat {seat} is not the defender", {"seat": seat}
    if not game.attacks:
        return "nothing_to_take", "there is nothing on the table to take", {}
    if game.taking:
        return "take_again", "take is already declared", {}
    return "all_beaten", "every attack card is beaten", {}


def _pass_reason(game: GameCore, seat: int, action: Action) -> Reason:
    if not game.attacks:
        return "pass_open", "the attacker must lead a card to open the round", {}
    if seat == game.defender:
        return "pass_defender", "the defender beats, takes or transfers; only attackers pass", {}
    return "defender_first", "the defender must answer first", {}


def _exchange_reason(game: GameCore, seat: int, action: Action) -> Reason:
    if not game.rules.exchange:
        return "exchange_rules", "the trump-six exchange is not part of these rules", {}
    if not game.trump_exposed or not game.talon:
        return "exchange_no_trump", "no trump card is exposed under a talon", {}
    lowest = DECK_LOWEST_RANK[game.rules.deck]
    return ("exchange_no_six", f"seat {seat} does not hold the {rank_name(lowest)} of trumps",
            {"seat": seat, "rank": lowest})


def _accuse_reason(game: GameCore, seat: int, action: Action) -> Reason:
    card = action.cards[0]
    if not game.rules.cheating:
        return "accuse_off", "cheat mode is off, so there are no cheats to name", {}
    if not game.active[seat]:
        return "accuse_out", f"seat {seat} is out of the game", {"seat": seat}
    by = game.played_by.get(card)
    if by is None:
        return "accuse_not_on_table", f"{card.symbol} is not on the table", {"card": str(card)}
    return ("accuse_own", f"seat {seat} played {card.symbol}: nobody may accuse their own card",
            {"seat": seat, "card": str(card)})


_REASONS = {
    ATTACK: _attack_reason,
    DEFEND: _defend_reason,
    TRANSFER: _transfer_reason,
    TAKE: _take_reason,
    PASS: _pass_reason,
    EXCHANGE: _exchange_reason,
    ACCUSE: _accuse_reason,
}
