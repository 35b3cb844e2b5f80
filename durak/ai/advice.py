"""Hints and analysis for a human: the suggested move with a short reason, and win chances per move.

The reason describes the move in the terms a player thinks in ("lowest card that beats", "nothing of
its suit beats it"), in English or French, whichever level found the move.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from ..actions import ATTACK, DEFEND, EXCHANGE, PASS, TAKE, TRANSFER, Action
from ..cards import Card
from .hard import HardThinker
from .seen import Seen
from .situation import Situation
from .tactics import beat_chance, beaters, cheapest_cover

LANGS = ("en", "fr")

TEXT = {
    "en": {
        "exchange": "exchange the trump six for {card}: a higher trump for nothing",
        "beat_lowest": "beat {attack} with {card}: lowest card that beats",
        "beat_trump": "beat {attack} with the trump {card}: nothing of its suit beats it",
        "beat_cover": "beat {attack} with {card}: keeps the cheaper cards for the other attacks",
        "beat_search": "beat {attack} with {card}: the search finds it better than the lowest card that beats",
        "take_cannot": "take: you cannot beat {attack}",
        "take_save": "take: beating would cost {card}, worth more than the cards taken",
        "take_rest": "take the rest: beating it is not worth a good card",
        "take_search": "take: the search finds beating worse in the long run",
        "transfer": "transfer with {card}: the next player must defend",
        "open_low": "attack with {card}: your lowest card",
        "open_set": "attack with {cards}: {count} cards out at once",
        "open_trump": "attack with {card}: only trumps left",
        "open_search": "attack with {cards}: the search prefers it",
        "add_taker": "throw in {card}: the defender takes it anyway",
        "add_unbeatable": "throw in {card}: the defender probably cannot beat it",
        "add_cheap": "throw in {card}: a cheap card of a rank on the table",
        "pass_nothing": "pass: nothing to add",
        "pass_keep": "pass: keep your good cards for later",
        "chance": " (win chance {percent}%)",
        "proven": " (proven: {outcome})",
        "win": "a win", "draw": "a draw", "loss": "a loss against perfect play",
    },
    "fr": {
        "exchange": "échanger le six d'atout contre {card} : un atout plus fort pour rien",
        "beat_lowest": "battre {attack} avec {card} : la plus petite carte qui bat",
        "beat_trump": "battre {attack} avec l'atout {card} : aucune carte de sa couleur ne la bat",
        "beat_cover": "battre {attack} avec {card} : garde les petites cartes pour les autres attaques",
        "beat_search": "battre {attack} avec {card} : la recherche la préfère à la plus petite carte qui bat",
        "take_cannot": "prendre : vous ne pouvez pas battre {attack}",
        "take_save": "prendre : battre coûterait {card}, qui vaut plus que les cartes prises",
        "take_rest": "prendre le reste : la battre ne vaut pas une bonne carte",
        "take_search": "prendre : la recherche trouve que battre est pire à la longue",
        "transfer": "transférer avec {card} : le joueur suivant doit défendre",
        "open_low": "attaquer avec {card} : votre plus petite carte",
        "open_set": "attaquer avec {cards} : {count} cartes d'un coup",
        "open_trump": "attaquer avec {card} : il ne reste que des atouts",
        "open_search": "attaquer avec {cards} : la recherche la préfère",
        "add_taker": "ajouter {card} : le défenseur la prend de toute façon",
        "add_unbeatable": "ajouter {card} : le défenseur ne peut sans doute pas la battre",
        "add_cheap": "ajouter {card} : une petite carte d'un rang déjà sur la table",
        "pass_nothing": "passer : rien à ajouter",
        "pass_keep": "passer : gardez vos bonnes cartes pour plus tard",
        "chance": " (chance de gagner {percent} %)",
        "proven": " (prouvé : {outcome})",
        "win": "victoire", "draw": "match nul", "loss": "défaite face à un jeu parfait",
    },
}


class Hint(NamedTuple):
    """A suggested action and why, in the asked language."""

    action: Action
    reason: str


def hint(
    view: dict[str, Any], legal: list[Action], lang: str = "en", *, seed: int = 0,
    iterations: int | None = None, time_budget: float = 0.2,
) -> Hint:
    """The hard level's move for this view, with a short reason in ``lang`` ("en" or "fr")."""
    thinker = HardThinker(view, legal, seed, iterations, time_budget)
    while not thinker.step(float("inf") if iterations is not None else 1.0):
        pass
    action = thinker.best()
    return Hint(action, reason(view, legal, action, lang, thinker.values.get(action), thinker.proven))


def evaluate(
    view: dict[str, Any], legal: list[Action], *, seed: int = 0, iterations: int | None = None,
    time_budget: float = 0.5,
) -> dict[Action, float]:
    """Estimated chance of winning after each legal action (draws count half)."""
    thinker = HardThinker(view, legal, seed, iterations, time_budget, every=True)
    while not thinker.step(float("inf") if iterations is not None else 1.0):
        pass
    values = thinker.values
    default = values.get(thinker.best(), 0.5)
    return {a: values.get(a, default) for a in legal}


def reason(view: dict[str, Any], legal: list[Action], action: Action, lang: str = "en",
           chance: float | None = None, proven: bool = False) -> str:
    """Why ``action`` is a good move here, in one short sentence of ``lang``.

    ``chance`` (the search's estimate) is shown as a percentage, never 0 or 100 (it is an estimate);
    ``proven`` marks it exact, from the endgame proof: then the outcome is named instead.
    """
    if lang not in TEXT:
        raise ValueError(f"no hints in {lang!r}: choose {', '.join(LANGS)}")
    words = TEXT[lang]
    key, fields = _why(Seen.read(view), legal, action)
    text = words[key].format(**fields)
    if chance is not None and proven:
        text += words["proven"].format(outcome=words["win" if chance == 1 else "draw" if chance == 0.5 else "loss"])
    elif chance is not None:
        text += words["chance"].format(percent=min(99, max(1, round(100 * chance))))
    return text


def _why(seen: Seen, legal: list[Action], action: Action) -> tuple[str, dict[str, Any]]:
    s = Situation.of_seen(seen)
    kind = action.kind
    cards = action.cards
    if kind == EXCHANGE:
        return "exchange", {"card": _name(seen.trump_card)}
    if kind == DEFEND:
        return _why_defend(s, cards[0], cards[1])
    if kind == TAKE:
        return _why_take(s)
    if kind == TRANSFER:
        return "transfer", {"card": _name(cards[0])}
    if kind == ATTACK and not s.attacks:
        return _why_open(s, cards)
    if kind == ATTACK:
        card = cards[0]
        if s.taking:
            return "add_taker", {"card": _name(card)}
        if s.unseen is not None and beat_chance(card, s.trump, s.defender_held, s.unseen, s.defender_hidden) < 0.5:
            return "add_unbeatable", {"card": _name(card)}
        return "add_cheap", {"card": _name(card)}
    assert kind == PASS
    return ("pass_keep" if any(a.kind == ATTACK for a in legal) else "pass_nothing"), {}


def _why_defend(s: Situation, attack: Card, card: Card) -> tuple[str, dict[str, Any]]:
    fields = {"attack": _name(attack), "card": _name(card)}
    options = beaters(attack, s.hand, s.trump, s.lowest)
    if options[0] == card:
        if card & 3 == s.trump and attack & 3 != s.trump:
            return "beat_trump", fields
        return "beat_lowest", fields
    unbeaten = [a for a, d in zip(s.attacks, s.defences, strict=True) if d is None]
    if (attack, card) in (cheapest_cover(unbeaten, s.hand, s.trump, s.lowest) or ()):
        return "beat_cover", fields
    return "beat_search", fields


def _why_take(s: Situation) -> tuple[str, dict[str, Any]]:
    unbeaten = [a for a, d in zip(s.attacks, s.defences, strict=True) if d is None]
    for attack in unbeaten:
        if not beaters(attack, s.hand, s.trump, s.lowest):
            return "take_cannot", {"attack": _name(attack)}
    if s.prostoy:
        return "take_rest", {}
    cover = cheapest_cover(unbeaten, s.hand, s.trump, s.lowest)
    if cover and s.talon > 0:
        card = max((d for _, d in cover), key=lambda c: (c & 3 == s.trump, c))
        return "take_save", {"card": _name(card)}
    return "take_search", {}


def _why_open(s: Situation, cards: tuple[Card, ...]) -> tuple[str, dict[str, Any]]:
    if len(cards) > 1:
        return "open_set", {"cards": " ".join(_name(c) for c in cards), "count": len(cards)}
    card = cards[0]
    if all(c & 3 == s.trump for c in s.hand):
        return "open_trump", {"card": _name(card)}
    plain = [c for c in s.hand if c & 3 != s.trump]
    if card & 3 != s.trump and card.rank == min(c.rank for c in plain):
        return "open_low", {"card": _name(card)}
    return "open_search", {"cards": _name(card)}


def _name(card: Card | None) -> str:
    return card.symbol if card is not None else "?"
