"""From the engine's legal actions to what a click, a key or a drop on the table does.

The engine is the one source of legality: this module only reads the list of legal actions (in their
text notation) and the player's half-made choice (``Pick``), and says which cards are playable, which
places light up as targets, and which action a gesture completes. In cheat mode the engine's cheats join
the gestures (a card only a cheat could play still goes down) but never the marking: ``marked`` says what
the rules allow. Pure Python: no browser import.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

TABLE_ZONE = "zone:table"
TRANSFER_ZONE = "zone:transfer"


@dataclass(frozen=True)
class Pick:
    """A choice in progress: a card waiting for its target, a set being gathered, or a transfer."""

    armed: str | None = None
    selected: tuple[str, ...] = ()
    transfer: bool = False

    @property
    def empty(self) -> bool:
        return self.armed is None and not self.selected and not self.transfer


NO_PICK = Pick()


@dataclass(frozen=True)
class Outcome:
    """``action``: play this now; otherwise ``pick`` is the new half-made choice."""

    action: str | None = None
    pick: Pick = NO_PICK


def _parse(text: str) -> tuple[str, tuple[str, ...]]:
    words = str(text).split()
    return words[0].lower(), tuple(w.upper() for w in words[1:])


class Menu:
    """The legal actions of the player to act, indexed by card."""

    def __init__(self, legal: list[str] | list[object], variant: str,
                 cheats: list[str] | list[object] | tuple[()] = ()) -> None:
        self.texts = [str(a) for a in legal] + [str(a) for a in cheats]
        self.honest = Menu(legal, variant) if cheats else None
        self.actions = [_parse(a) for a in self.texts]
        self.variant = variant
        self._by_parsed = {(k, frozenset(c) if k == "attack" else c): text
                           for (k, c), text in zip(self.actions, self.texts, strict=True)}
        self.attack_sets = [frozenset(c) for k, c in self.actions if k == "attack"]
        self.defences: dict[str, list[str]] = {}  # defence card -> attack cards it may beat
        self.transfers: list[str] = []
        for kind, cards in self.actions:
            if kind == "defend":
                self.defences.setdefault(cards[1], []).append(cards[0])
            elif kind == "transfer":
                self.transfers.append(cards[0])

    # ------------------------------------------------------------------ queries
    def has(self, kind: str) -> bool:
        return any(k == kind for k, _ in self.actions)

    def text(self, kind: str, cards: tuple[str, ...] = ()) -> str | None:
        key = (kind, frozenset(cards) if kind == "attack" else tuple(cards))
        return self._by_parsed.get(key)

    @property
    def only_pass(self) -> bool:
        return [k for k, _ in self.actions] == ["pass"]

    def grouped(self, card: str) -> bool:
        """Whether ``card`` is played by gathering a set (Prostoy, or several cards of a rank)."""
        if self.variant == "prostoy":
            return any(card in s for s in self.attack_sets)
        return any(card in s and len(s) > 1 for s in self.attack_sets)

    def card_options(self, card: str) -> list[tuple[str, str]]:
        """``(target, action text)`` for each way to play ``card`` alone."""
        out: list[tuple[str, str]] = []
        single = self.text("attack", (card,))
        if single:
            out.append((TABLE_ZONE, single))
        for attack in self.defences.get(card, []):
            out.append((f"attack:{attack}", self.text("defend", (attack, card)) or ""))
        if card in self.transfers:
            out.append((TRANSFER_ZONE, self.text("transfer", (card,)) or ""))
        return out

    def playable(self, card: str, pick: Pick = NO_PICK) -> bool:
        if pick.transfer:
            return card in self.transfers
        if pick.selected:
            return card in pick.selected or self._extends(pick.selected, card) or self._playable_alone(card)
        return self._playable_alone(card)

    def marked(self, card: str, pick: Pick = NO_PICK) -> bool:
        """Whether the rules allow ``card`` now (``data-playable``); a cheat is playable but never marked."""
        return (self.honest or self).playable(card, pick)

    def _playable_alone(self, card: str) -> bool:
        return any(card in s for s in self.attack_sets) or card in self.defences or card in self.transfers

    def _extends(self, selected: tuple[str, ...], card: str) -> bool:
        wanted = {*selected, card}
        return card not in selected and any(wanted <= s for s in self.attack_sets)

    def set_action(self, selected: tuple[str, ...]) -> str | None:
        return self.text("attack", selected) if selected else None

    def targets(self, pick: Pick) -> set[str]:
        """Places to light up (``data-target``): attack cards, the table zone, hand cards to add."""
        if pick.transfer:
            return {f"hand:{c}" for c in self.transfers}
        if pick.selected:
            out = {f"hand:{c}" for kind, cards in self.actions if kind == "attack" for c in cards
                   if self._extends(pick.selected, c)}
            if self.set_action(pick.selected):
                out.add(TABLE_ZONE)
            return out
        if pick.armed:
            return {target for target, _ in self.card_options(pick.armed)}
        return set()

    # ------------------------------------------------------------------ gestures
    def click_card(self, pick: Pick, card: str) -> Outcome:
        """A click (or Enter) on a hand card."""
        card = card.upper()
        if pick.transfer:
            if card in self.transfers:
                return Outcome(self.text("transfer", (card,)))
            return Outcome(pick=NO_PICK) if not self._playable_alone(card) else self.click_card(NO_PICK, card)
        if pick.selected:
            if card in pick.selected:
                rest = tuple(c for c in pick.selected if c != card)
                return Outcome(pick=Pick(selected=rest))
            if self._extends(pick.selected, card):
                return Outcome(pick=Pick(selected=(*pick.selected, card)))
            return self.click_card(NO_PICK, card)
        if pick.armed == card:
            return Outcome(pick=NO_PICK)
        if not self._playable_alone(card):
            return Outcome(pick=NO_PICK)
        if self.grouped(card):
            others = self.card_options(card)
            # a card that may also beat or transfer is armed; the table zone then starts a set
            if all(target == TABLE_ZONE for target, _ in others):
                return Outcome(pick=Pick(selected=(card,)))
        options = self.card_options(card)
        if len(options) == 1:
            return Outcome(options[0][1])
        return Outcome(pick=Pick(armed=card))

    def click_target(self, pick: Pick, target: str) -> Outcome:
        """A click on a lit target (an attack card, the table zone, a hand card to add)."""
        if target.startswith("hand:"):
            return self.click_card(pick, target[5:])
        if pick.selected:
            if target == TABLE_ZONE and self.set_action(pick.selected):
                return Outcome(self.set_action(pick.selected))
            return Outcome(pick=pick)
        if pick.armed:
            for option_target, text in self.card_options(pick.armed):
                if option_target == target:
                    return Outcome(text)
        return Outcome(pick=pick)

    def drop(self, pick: Pick, card: str, target: str) -> Outcome:
        """A card dragged from the hand and dropped on ``target``."""
        card = card.upper()
        if target == TABLE_ZONE and pick.selected and card in pick.selected:
            text = self.set_action(pick.selected)
            if text:
                return Outcome(text)
        if target == TABLE_ZONE and self.variant == "prostoy" and not self.text("attack", (card,)):
            return Outcome(pick=pick)
        for option_target, text in self.card_options(card):
            if option_target == target:
                return Outcome(text)
        return Outcome(pick=pick)

    def press_transfer(self, pick: Pick) -> Outcome:
        """The transfer button: transfer at once when only one card can, else choose the card."""
        if len(self.transfers) == 1:
            return Outcome(self.text("transfer", (self.transfers[0],)))
        if self.transfers:
            return Outcome(pick=replace(NO_PICK, transfer=True))
        return Outcome(pick=pick)
