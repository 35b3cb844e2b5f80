"""Try it yourself: the reader plays one seat of a worked example from any step, the AI the others.

A ``Tryout`` starts from a frame's position text (``Game.from_position``). Its seat is the player to act
there. Every card of that seat may be clicked, legal or not: a legal one plays (or lights its targets, as
on the table: web/table/moves.py decides), an illegal one is tried on the engine, which refuses it and says why,
in the page's language. The other seats then answer with the AI, one move per ``reply()``, so the page can
show each consequence. Every answer is a frame of web/examples/frames.py plus a ``try`` part that
web/examples/stepper.js draws. ``odds`` weighs each legal move with the hard AI's search, in slices that keep
the page responsive.
Pure Python: web/embed/engine_calls.py answers the page's calls with it, in the engine worker.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from durak import Game
from durak.actions import ATTACK, DEFEND, TRANSFER, Action, make
from durak.ai import make_player
from durak.ai.hard import HardThinker
from durak.cards import parse_card
from web.examples.frames import frame
from web.examples.narration import refusal, said
from web.shared.i18n import action_text, capitalised, t
from web.table.moves import NO_PICK, Menu, Pick
from web.table.render import Scene, buttons, status_text

#: The AI level of the other seats: quick, and plays sensibly.
REPLY_LEVEL = "normal"
#: The buttons "try it" may show, in this order (the table's, but the hint). Like the cards, every button
#: shown may be pressed, legal or not: the engine answers.
BUTTONS = ("take", "transfer", "pass", "exchange", "play", "cancel")
ODDS_SECONDS = 0.6  # search time for the odds of one position (thinking time, not counting the pauses)
ODDS_SLICE = 0.03  # seconds of search per main-thread task


class Tryout:
    """One reader's game from one step of one example."""

    def __init__(self, position: str, names: list[str], lang: str, *, seed: int = 0) -> None:
        self.game = Game.from_position(position)
        seat = self.game.to_act
        if seat is None:
            raise ValueError("nobody is to act in this position, so there is nothing to try")
        self.seat = seat
        self.names = names
        self.lang = lang
        self.pick = NO_PICK
        self.refusal = ""
        self.said = ""
        self.bots = {s: make_player(REPLY_LEVEL, seed=seed + s) for s in range(self.game.players) if s != seat}

    # ------------------------------------------------------------------ state
    @property
    def live(self) -> bool:
        """The reader is to act."""
        return self.game.result is None and self.game.to_act == self.seat

    @property
    def waiting(self) -> bool:
        """Another seat is to act: the page asks for its ``reply()``."""
        return self.game.result is None and self.game.to_act != self.seat

    def menu(self) -> Menu | None:
        if not self.live:
            return None
        return Menu(self.game.legal_actions(self.seat), self.game.rules.variant)

    def answer(self) -> dict[str, Any]:
        """What the page draws now: the frame and whether the AI moves next."""
        return {"frame": self.frame(), "waiting": self.waiting}

    def frame(self) -> dict[str, Any]:
        menu = self.menu()
        scene = Scene(view=self.game.view(self.seat), lang=self.lang, names=self.names, menu=menu, pick=self.pick)
        shown = frame(self.game, said=self.said, comment=self._comment(scene))
        info: dict[str, Any] = {"seat": self.seat, "live": menu is not None, "refusal": self.refusal,
                                "cards": {}, "targets": [], "buttons": {}}
        if menu is not None:
            targets = menu.targets(self.pick)
            for card in self.game.hand(self.seat):
                text = str(card)
                info["cards"][text] = {"playable": menu.playable(text, self.pick),
                                       "selected": text in self.pick.selected or text == self.pick.armed,
                                       "target": f"hand:{text}" in targets}
            info["targets"] = sorted(target for target in targets if not target.startswith("hand:"))
            states = buttons(scene)
            shown_buttons = self._buttons(states)
            info["buttons"] = {name: {"label": states[name]["label"], "legal": states[name]["enabled"]}
                               for name in BUTTONS if name in shown_buttons}
        shown["try"] = info
        return shown

    def _buttons(self, states: dict[str, dict[str, Any]]) -> set[str]:
        """The answers this seat's role has (the defender takes, or transfers in Perevodnoy; an attacker
        passes), the trump-six exchange where the rules have it, and play / cancel for a set being gathered."""
        game = self.game
        defending = game.defender == self.seat and not game.taking
        wanted = {"take", "transfer"} if defending and game.rules.variant == "perevodnoy" else \
            {"take"} if defending else {"pass"}
        if game.rules.exchange:
            wanted.add("exchange")
        wanted |= {name for name in ("play", "cancel") if not states[name]["hidden"]}
        return wanted

    def _comment(self, scene: Scene) -> str:
        game, lang = self.game, self.lang
        result = game.result
        if result is not None:
            if result.draw:
                return t(lang, "game_over_draw")
            return t(lang, "game_over_durak", name=self._name(result.durak))
        if not self.live:
            return t(lang, "example_answering", name=self._name(game.to_act))
        return f"{t(lang, 'example_playing_as', name=self._name(self.seat))} {status_text(scene)}"

    def _name(self, seat: int | None) -> str:
        return self.names[seat] if seat is not None and 0 <= seat < len(self.names) else "?"

    # ------------------------------------------------------------------ the reader's gestures
    def card(self, card: str) -> dict[str, Any]:
        """A click on one of the reader's cards: play it, light its targets, or have the engine refuse it."""
        menu = self.menu()
        card = card.upper()
        if menu is None or card not in {str(c) for c in self.game.hand(self.seat)}:
            return self.answer()
        if menu.playable(card, self.pick):
            outcome = menu.click_card(self.pick, card)
            if outcome.action:
                return self._play(outcome.action)
            self.pick, self.refusal = outcome.pick, ""
            return self.answer()
        return self._refuse(self._meaning(card))

    def target(self, target: str) -> dict[str, Any]:
        """A click on a lit target: the attack card an armed card beats."""
        menu = self.menu()
        if menu is None:
            return self.answer()
        outcome = menu.click_target(self.pick, target)
        if outcome.action:
            return self._play(outcome.action)
        self.pick = outcome.pick
        return self.answer()

    def press(self, action: str) -> dict[str, Any]:
        """A button: take, pass, transfer, exchange, play (the gathered set) or cancel."""
        menu = self.menu()
        if menu is None:
            return self.answer()
        if action == "cancel":
            self.pick, self.refusal = NO_PICK, ""
            return self.answer()
        if action == "play":
            text = menu.set_action(self.pick.selected)
            chosen = tuple(sorted(parse_card(c) for c in self.pick.selected))
            return self._play(text) if text else self._refuse(make(ATTACK, chosen))
        if action == "transfer":
            return self._transfer(menu)
        text = menu.text(action)
        return self._play(text) if text else self._refuse(action)

    def _transfer(self, menu: Menu) -> dict[str, Any]:
        """The transfer button: with a card chosen, transfer with it (or hear why not); with one card that
        may transfer, transfer with it; otherwise the next card clicked is the one to transfer with."""
        armed = self.pick.armed
        if armed:
            text = menu.text("transfer", (armed,))
            return self._play(text) if text else self._refuse(make(TRANSFER, (parse_card(armed),)))
        if len(menu.transfers) == 1:
            return self._play(menu.text("transfer", (menu.transfers[0],)) or "")
        self.pick, self.refusal = Pick(transfer=True), ""
        return self.answer()

    # ------------------------------------------------------------------ the others
    def reply(self) -> dict[str, Any]:
        """One move of the seat to act, by the AI (nothing when it is the reader's turn)."""
        seat = self.game.to_act
        if not self.waiting or seat is None:
            return self.answer()
        action = self.bots[seat].choose(self.game.view(seat), self.game.legal_actions(seat))
        return self._apply(seat, action)

    # ------------------------------------------------------------------ playing and refusing
    def _play(self, text: str) -> dict[str, Any]:
        return self._apply(self.seat, text)

    def _apply(self, seat: int, action: Action | str) -> dict[str, Any]:
        throw_in = bool(self.game.table)
        events = self.game.apply(seat, action)
        self.said = said(self.lang, events, self.names, throw_in=throw_in)
        self._accuse(seat)
        self.pick, self.refusal = NO_PICK, ""
        return self.answer()

    def _accuse(self, mover: int) -> None:
        """Cheat mode: after each move the AI seats, clockwise from the one after the mover, may name a table
        card they saw break the rules (as the table asks them); the first accusation ends the bout. They never
        cheat themselves here, and the reader has no accuse control: what a reader tries is a cheat."""
        if not self.game.rules.cheating:
            return
        players = self.game.players
        for offset in range(1, players + 1):
            seat = (mover + offset) % players
            if seat == self.seat or self.game.result is not None:
                continue
            accusations = self.game.accusations(seat)
            choice = self.bots[seat].accuse(self.game.view(seat), accusations) if accusations else None
            if choice is not None:
                events = self.game.apply(seat, choice)
                self.said = f"{self.said} {said(self.lang, events, self.names)}".strip()
                return

    def _refuse(self, action: Action | str) -> dict[str, Any]:
        """Ask the engine, the one judge: it refuses (changing nothing) and the page shows why; should it
        accept after all, the move is played."""
        try:
            return self._apply(self.seat, action)
        except ValueError as error:  # IllegalAction, or NotationError for a button that names no action
            self.refusal = refusal(self.lang, error, self.names)
            self.pick = NO_PICK
            return self.answer()

    def _meaning(self, text: str) -> Action:
        """What a click on a card that cannot be played would have asked for: transfer with it (after the
        transfer button, or a card of the attacking rank while nothing is beaten), beat the first unbeaten
        attack (one of its suit first), add it to the set being gathered, or attack with it."""
        game, card = self.game, parse_card(text)
        if self.pick.transfer:
            return make(TRANSFER, (card,))
        unbeaten = [attack for attack, defence in game.table if defence is None]
        if game.defender == self.seat and unbeaten:
            nothing_beaten = all(defence is None for _, defence in game.table)
            if game.rules.variant == "perevodnoy" and nothing_beaten and card.rank == unbeaten[0].rank:
                return make(TRANSFER, (card,))
            attack = next((a for a in unbeaten if a.suit == card.suit), unbeaten[0])
            return make(DEFEND, (attack, card))
        chosen = {parse_card(c) for c in self.pick.selected} | {card}
        return make(ATTACK, tuple(sorted(chosen)))


async def odds(position: str, names: list[str], lang: str, sleep: Callable[[float], Awaitable[None]],
               seconds: float = ODDS_SECONDS) -> dict[str, Any]:
    """The chance of winning after each legal move of the player to act, by the hard AI's search seen from
    that player's own view (it does not peek at the open hands), computed in slices: ``sleep(0)`` between
    them lets the page draw and answer clicks."""
    game = Game.from_position(position)
    seat = game.to_act
    if seat is None or game.result is not None:
        return {"name": "", "moves": []}
    legal = game.legal_actions(seat)
    thinker = HardThinker(game.view(seat), legal, 0, None, seconds, every=True)
    while not thinker.step(ODDS_SLICE):
        await sleep(0)
    values = thinker.values
    default = values.get(thinker.best(), 0.5)
    moves = [{"action": str(action), "label": capitalised(action_text(lang, str(action))),
              "chance": round(values.get(action, default), 3)} for action in legal]
    moves.sort(key=lambda move: -float(str(move["chance"])))
    return {"name": names[seat] if seat < len(names) else str(seat), "moves": moves}

