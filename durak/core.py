"""The rules core: who acts, what is legal, and what each action changes; nothing else.

The core knows the rules and the state, not how a game is written down, saved, shown to a seat or
explained: those build on it, and durak/game.py puts them together as ``Game``. One class serves all three
variants; the differences are read from ``Rules``. Legality has one source, ``legal_actions``: ``apply``
accepts exactly what it lists, so the AI, the table's highlighting and validation never disagree. Cheat mode
(RULES.md §7) adds what ``cheats`` and ``accusations`` list, on paths an honest game never takes. Hot
paths (legal moves, apply, copy) are kept lean because the hard AI plays many thousands of games per
decision on top of them. Their loops over hands and the table are plain ``for`` loops, not comprehensions:
CPython 3.11 creates and calls a function object for every comprehension (3.12 inlines them), which cost
more than the loop itself over a few cards.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache, partial
from itertools import combinations
from typing import Any, Self

from . import checks
from . import events as ev
from .actions import (
    ACCUSE,
    ACCUSE_ONE,
    ATTACK,
    ATTACK_ONE,
    DEFEND,
    DEFEND_PAIR,
    EXCHANGE_ACTION,
    PASS,
    PASS_ACTION,
    TAKE,
    TAKE_ACTION,
    TRANSFER,
    TRANSFER_ONE,
    Action,
    make,
    parse_action,
)
from .cards import CARDS, DECK_LOWEST_RANK, SUITS, Card, beats, deck, sort_key
from .events import Event
from .messages import CodedError, Message
from .rules import Rules

PODKIDNOY, PEREVODNOY, PROSTOY = "podkidnoy", "perevodnoy", "prostoy"
MAX_ATTACK = 6


class IllegalAction(CodedError):
    """An action the rules do not allow now; the message names the action and the reason, and its
    ``code`` (``illegal.<reason>``) and ``params`` say the same for a page in any language."""

    default_code = "illegal"

    @classmethod
    def of(cls, message: Message) -> IllegalAction:
        return cls(message.text, message.code, **message.params)


@dataclass(frozen=True)
class Result:
    """How a finished game ended."""

    durak: int | None
    draw: bool
    out_order: list[int]
    losers: list[int]

    def to_dict(self) -> dict[str, Any]:
        return {"durak": self.durak, "draw": self.draw, "out_order": list(self.out_order),
                "losers": list(self.losers)}


class GameCore:
    """One deal of Durak, from the deal to the durak: the state and the rules that change it.

    Build with ``new`` (or, through ``durak.game.Game``, from a save, a scenario, a position or a record).
    """

    # ----------------------------------------------------------------- construction
    rules: Rules
    seed: int | None
    dealer: int
    trump_index: int
    _trump_card: Card | None
    trump_exposed: bool
    _talon: list[Card]  # bottom first: the exposed trump is _talon[0], the next draw is _talon[-1]
    hands: list[list[Card]]
    _discard: list[Card]
    active: list[bool]
    out_order: list[int]
    known: list[set[Card]]
    attacks: list[Card]
    defences: list[Card | None]
    attacker: int | None
    defender: int | None
    opener: int | None
    limit: int
    taking: bool
    passed: set[int]
    throwers: list[int]
    emptied: list[int]
    first_round: bool
    round_no: int
    history: list[tuple[int, Action]]
    _result: Result | None
    _to_act: int | None
    _legal: list[Action] | None
    _prostoy: bool
    _perevodnoy: bool
    _exchange: bool
    _hand_size: int
    _next_seat: list[int]
    _prev_seat: list[int]
    _thrower_cache: dict[tuple[int, int], list[int]]
    _start: str | None  # the position() this game started from, when it came from a position or scenario
    _cheating: bool
    # Cheat mode only (empty otherwise): who put each table card there, and which of them were cheats. Both are
    # replaced, never changed in place, so copies share them.
    played_by: dict[Card, int]
    cheated: frozenset[Card]
    # Every attribute above is a slot. With a __dict__, a game's 35 attributes exceed the 30 keys CPython 3.11
    # shares between instances, so each game got a plain dict and attribute access lost its fast paths.
    __slots__ = tuple(__annotations__)

    @classmethod
    def new(cls, rules: Rules, seed: int | None = None, dealer: int | None = None,
            first_game: bool = True) -> Self:
        """Shuffle and deal. Same rules, seed and dealer give the same deal.

        ``first_game`` False applies the later-game first-attack rule (the dealer is the previous loser).
        """
        if not isinstance(rules, Rules):
            raise TypeError(f"rules must be a Rules, not {type(rules).__name__}")
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        rng = random.Random(seed)
        n = rules.players
        dealer = rng.randrange(n) if dealer is None else checks.seat(dealer, n, "dealer")
        cards = deck(rules.deck)
        rng.shuffle(cards)
        dealt = n * rules.hand_size
        # one card at a time from the dealer's left: each seat gets every n-th card of the first ``dealt``
        hands = [cards[(seat - dealer - 1) % n : dealt : n] for seat in range(n)]
        game = cls._blank(rules, seed, dealer)
        game.hands = hands
        if dealt < len(cards):
            turned = cards[dealt]
            game._talon = [turned, *reversed(cards[dealt + 1 :])]
            game.trump_exposed = True
        else:  # the whole deck is dealt: the dealer's last card shows the trump and stays in his hand
            turned = cards[dealt - 1]
            game._talon = []
            game.trump_exposed = False
            game.known[dealer].add(turned)
        game._trump_card = turned
        game.trump_index = turned & 3
        game._start_round(game._first_attacker(first_game), first_round=True)
        return game

    @classmethod
    def _blank(cls, rules: Rules, seed: int | None, dealer: int) -> Self:
        game = cls.__new__(cls)
        n = rules.players
        game.rules = rules
        game._prostoy = rules.variant == PROSTOY
        game._perevodnoy = rules.variant == PEREVODNOY
        game._exchange = rules.exchange
        game._hand_size = rules.hand_size
        game._cheating = rules.cheating
        game.played_by = {}
        game.cheated = frozenset()
        game.seed = seed
        game.dealer = dealer
        game._discard = []
        game.active = [True] * n
        game._refresh_neighbours()
        game.out_order = []
        game.known = [set() for _ in range(n)]
        game.attacks, game.defences = [], []
        game.passed, game.throwers, game.emptied = set(), [], []
        game.taking = False
        game.history = []
        game._result = None
        game._legal = None
        game.round_no = 0
        game._start = None
        return game

    def _first_attacker(self, first_game: bool) -> int:
        """RULES §2/§4: lowest trump in the first game, else relative to the dealer (the last loser)."""
        n = self.rules.players
        if self._prostoy or (not first_game and self.rules.first_attack == "loser_left"):
            return (self.dealer + 1) % n
        if not first_game:
            return (self.dealer - 1) % n
        trumps = [(c, seat) for seat, hand in enumerate(self.hands) for c in hand if c & 3 == self.trump_index]
        return min(trumps)[1] if trumps else (self.dealer + 1) % n

    # ----------------------------------------------------------------- read-only state
    @property
    def to_act(self) -> int | None:
        """The one seat that acts now; everyone else waits. ``None`` once the game is over."""
        return self._to_act

    @property
    def result(self) -> Result | None:
        return self._result

    @property
    def trump(self) -> str:
        return SUITS[self.trump_index]

    @property
    def trump_card(self) -> Card | None:
        """The face-up card showing trump (after an exchange, the trump six lying there)."""
        return self._trump_card

    @property
    def talon(self) -> list[Card]:
        """The talon, top first; the exposed trump card is last."""
        return self._talon[::-1]

    @property
    def table(self) -> list[tuple[Card, Card | None]]:
        return list(zip(self.attacks, self.defences, strict=True))

    @property
    def discard(self) -> list[Card]:
        return list(self._discard)

    @property
    def players(self) -> int:
        return self.rules.players

    def hand(self, seat: int) -> list[Card]:
        return sorted(self.hands[self._seat(seat)], key=sort_key(self.trump_index))

    def _seat(self, seat: object) -> int:
        if type(seat) is not int or not 0 <= seat < self.rules.players:
            raise IllegalAction(f"no seat {seat!r}: seats are 0 to {self.rules.players - 1}", "illegal.no_seat",
                                value=repr(seat), last=self.rules.players - 1)
        return seat

    # ----------------------------------------------------------------- rounds
    def _next_active(self, seat: int) -> int:
        """The next active player clockwise (``seat`` itself if nobody else is left)."""
        return self._next_seat[seat]

    def _prev_active(self, seat: int) -> int:
        return self._prev_seat[seat]

    def _refresh_neighbours(self) -> None:
        """Recompute the neighbour tables; called whenever a player leaves or a state is loaded."""
        self._next_seat, self._prev_seat = _neighbours(tuple(self.active))
        self._thrower_cache = {}  # valid while nobody leaves; its lists are never mutated

    def _opponent_after(self, seat: int) -> int:
        """The next active player clockwise who is not on ``seat``'s team."""
        rules = self.rules
        if rules.teams is None:
            return self._next_active(seat)
        n = rules.players
        team = seat % rules.team_count
        for step in range(1, n):
            other = (seat + step) % n
            if self.active[other] and other % rules.team_count != team:
                return other
        return self._next_active(seat)

    def _start_round(self, attacker: int, first_round: bool = False) -> None:
        defender = self._next_seat[attacker] if self.rules.teams is None else self._opponent_after(attacker)
        self.attacker = self.opener = attacker
        self.defender = defender
        self.first_round = first_round
        self.round_no += 1
        self.attacks, self.defences = [], []
        self.taking = False
        self.passed = set()
        self.emptied = []
        cap = 5 if self._prostoy else (self.rules.first_defence_limit if first_round else MAX_ATTACK)
        self.limit = min(cap, len(self.hands[defender]))
        throwers = self._thrower_cache.get((attacker, defender))
        if throwers is None:
            self._set_throwers()
            self._thrower_cache[attacker, defender] = self.throwers
        else:
            self.throwers = throwers
        self._to_act = attacker
        self._legal = None

    def _cap(self) -> int:
        if self._prostoy:
            return 5
        return self.rules.first_defence_limit if self.first_round else MAX_ATTACK

    def _set_throwers(self) -> None:
        """Who may add cards, in priority order (the round's attacker first)."""
        attacker, defender = self.attacker, self.defender
        assert attacker is not None and defender is not None
        rules = self.rules
        teams = rules.team_count
        if self._prostoy or self._prev_active(defender) == attacker == self._next_active(defender):
            self.throwers = [attacker]  # Prostoy has no throw-ins; heads-up only the attacker adds
            return
        if rules.throw_in == "everyone":
            n = rules.players
            order = [(attacker + step) % n for step in range(n)]
            candidates = [s for s in order if self.active[s] and s != defender]
        else:
            candidates = [attacker, self._prev_active(defender), self._next_active(defender)]
        throwers: list[int] = []
        for seat in candidates:
            if seat not in throwers and seat != defender and (rules.teams is None or seat % teams != defender % teams):
                throwers.append(seat)
        if attacker not in throwers:
            throwers.insert(0, attacker)
        self.throwers = throwers

    def _advance(self, out: list[Event]) -> None:
        """Work out who acts next, closing the round when every allowed attacker has passed."""
        self._legal = None
        if self._prostoy:
            self._to_act = self.attacker if not self.attacks else self.defender
        elif not self.attacks:
            self._to_act = self.attacker
        elif not self.taking and None in self.defences:
            self._to_act = self.defender
        else:
            passed = self.passed
            for seat in self.throwers:
                if seat not in passed:
                    self._to_act = seat
                    return
            self._close_round(out)

    # ----------------------------------------------------------------- legal actions
    def legal_actions(self, seat: int) -> list[Action]:
        """Every action ``seat`` may take now ([] unless ``seat`` is to act)."""
        if seat != self._to_act or type(seat) is not int:
            return []
        legal = self._legal
        if legal is None:
            legal = self._legal = self._compute_legal(seat)
        return list(legal)

    def _compute_legal(self, seat: int) -> list[Action]:
        hand = self.hands[seat]
        prostoy = self._prostoy
        legal: list[Action]
        if not self.attacks:
            legal = self._prostoy_sets(hand) if prostoy else self._openings(hand)
        elif seat == self.defender and not self.taking and (prostoy or None in self.defences):
            legal = self._defences(hand)
        else:
            legal = self._throw_ins(hand)
        if self._exchange and self.trump_exposed and self._can_exchange(seat):
            legal.append(EXCHANGE_ACTION)
        return legal

    def _openings(self, hand: list[Card]) -> list[Action]:
        ordered = sorted(hand)
        legal: list[Action] = []
        ranks: list[int] = []
        paired = False  # some rank is held twice or more: the sorted hand has it in a run
        last = -1
        for c in ordered:
            legal.append(ATTACK_ONE[c])
            rank = c >> 2
            if rank == last:
                paired = True
            ranks.append(rank)
            last = rank
        limit = self.limit
        if paired and limit > 1:
            ranks.append(-1)  # no rank: ends the last run
            start = 0
            for end in range(1, len(ranks)):
                if ranks[end] != ranks[start]:
                    if end - start > 1:
                        legal += _same_rank_attacks(tuple(ordered[start:end]), limit)
                    start = end
        return legal

    def _defences(self, hand: list[Card]) -> list[Action]:
        beaters = BEATERS[self.trump_index]
        legal: list[Action] = []
        for attack, defence in zip(self.attacks, self.defences, strict=True):
            if defence is None:
                row = DEFEND_PAIR[attack]
                can = beaters[attack]
                for d in hand:
                    if d in can:
                        legal.append(row[d])
        legal.append(TAKE_ACTION)
        if self._perevodnoy and self.defences.count(None) == len(self.defences):
            legal.extend(self._transfers(hand))
        return legal

    def _transfers(self, hand: list[Card]) -> list[Action]:
        if not self._can_transfer():
            return []
        rank = self.attacks[0] >> 2
        return [TRANSFER_ONE[c] for c in hand if c >> 2 == rank]

    def _can_transfer(self) -> bool:
        """One more card keeps the attack within its cap and the next defender's hand can answer it."""
        defender = self.defender
        assert defender is not None
        size = len(self.attacks) + 1
        if size > self._cap():
            return False
        target = self._opponent_after(defender)
        return target != defender and len(self.hands[target]) >= size

    def _throw_ins(self, hand: list[Card]) -> list[Action]:
        legal: list[Action] = []
        if len(self.attacks) < self.limit:
            ranks: set[int] = set()
            for c in self.attacks:
                ranks.add(c >> 2)
            for d in self.defences:
                if d is not None:
                    ranks.add(d >> 2)
            for c in hand:
                if c >> 2 in ranks:
                    legal.append(ATTACK_ONE[c])
        legal.append(PASS_ACTION)
        return legal

    def _prostoy_sets(self, hand: list[Card]) -> list[Action]:
        defender = self.defender
        assert defender is not None
        most = min(5, len(self.hands[defender]))
        ordered = sorted(hand)
        legal = [ATTACK_ONE[c] for c in ordered]
        if most >= 3:
            legal += _prostoy_groups(tuple(ordered), most)
        return legal

    def _can_exchange(self, seat: int) -> bool:
        if not (self.rules.exchange and self.trump_exposed and self._talon):
            return False
        six = CARDS[(DECK_LOWEST_RANK[self.rules.deck] - 2) * 4 + self.trump_index]
        return six in self.hands[seat]

    # ----------------------------------------------------------------- cheat mode
    def cheats(self, seat: int) -> list[Action]:
        """The cheats ``seat`` could make now ([] unless cheat mode is on and ``seat`` is to act): defences with
        a card that does not beat, throw-ins of a rank not on the table, transfers with another rank."""
        if not self._cheating or seat != self._to_act or type(seat) is not int:
            return []
        return self._cheat_list(seat)

    def _cheat_list(self, seat: int) -> list[Action]:
        attacks = self.attacks
        if not attacks:
            return []  # an opening attack breaks no card-play rule that a cheat may break
        hand = self.hands[seat]
        cheats: list[Action] = []
        if seat == self.defender and not self.taking and (self._prostoy or None in self.defences):
            beaters = BEATERS[self.trump_index]
            for attack, defence in zip(attacks, self.defences, strict=True):
                if defence is None:
                    row = DEFEND_PAIR[attack]
                    can = beaters[attack]
                    for d in hand:
                        if d not in can:
                            cheats.append(row[d])
            if self._perevodnoy and self.defences.count(None) == len(self.defences) and self._can_transfer():
                rank = attacks[0] >> 2
                cheats.extend(TRANSFER_ONE[c] for c in hand if c >> 2 != rank)
            return cheats
        if self._prostoy or len(attacks) >= self.limit:
            return cheats
        ranks = {c >> 2 for c in attacks} | {d >> 2 for d in self.defences if d is not None}
        return [ATTACK_ONE[c] for c in hand if c >> 2 not in ranks]

    def accusations(self, seat: int) -> list[Action]:
        """Every ``accuse <card>`` ``seat`` may make now, whoever is to act: each table card it did not play
        ([] unless cheat mode is on, the game goes on and ``seat`` is still in it)."""
        if not self._cheating or self._result is not None or type(seat) is not int:
            return []
        if not 0 <= seat < self.rules.players or not self.active[seat]:
            return []
        return [ACCUSE_ONE[c] for c, by in self.played_by.items() if by != seat]

    def _note(self, seat: int, action: Action, cheat: bool) -> None:
        """Cheat mode: remember who put the action's cards on the table, and whether it was a cheat."""
        kind = action[0]
        placed = action.cards if kind == ATTACK else action.cards[1:] if kind == DEFEND else \
            action.cards if kind == TRANSFER else ()
        if placed:
            self.played_by = {**self.played_by, **dict.fromkeys(placed, seat)}
            if cheat:
                self.cheated = self.cheated.union(placed)

    def _accuse(self, seat: int, action: Action) -> list[Event]:
        """Settle an accusation: the cheater (right) or the accuser (wrong) takes the table, as a defender who takes."""
        card = action.cards[0]
        if self._result is None:
            seat = self._seat(seat)
        by = self.played_by.get(card)
        if (not self._cheating or self._result is not None or not self.active[seat] or by is None
                or by == seat):
            raise IllegalAction.of(self._refusal(seat, action))
        self.history.append((seat, action))
        caught = card in self.cheated
        taker = by if caught else seat
        out = [Event(ev.CAUGHT if caught else ev.WRONG, seat, (card,), by)]
        self._close_taken_by(taker, out)
        return out

    def _close_taken_by(self, taker: int, out: list[Event]) -> None:
        """End the bout with ``taker`` picking up the whole table, then go on as after a take: ``taker`` draws
        last, and the player after ``taker`` attacks next."""
        opener, defender = self.opener, self.defender
        assert opener is not None and defender is not None
        picked = self.attacks + [d for d in self.defences if d is not None]
        self.attacks, self.defences = [], []
        self.played_by, self.cheated = {}, frozenset()
        self.hands[taker].extend(picked)
        self.known[taker].update(picked)
        if taker in self.emptied:
            self.emptied.remove(taker)
        out.append(_event((ev.PICKUP, taker, tuple(picked), None, len(picked), ())))
        if self._talon:
            if self._prostoy and defender != taker:
                self._draw(defender, out)  # Prostoy's attacker has refilled already; the defender has not
            self._draw_after_round(opener, taker, out)
        if not self._talon:
            self._retire_empty_hands(out)
            if self._result is not None:
                return
        nxt = self._next_active(taker)
        self._start_round(nxt)
        assert self.defender is not None
        out.append(ROUND_EVENTS[nxt][self.defender])

    # ----------------------------------------------------------------- applying actions
    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Play ``action`` for ``seat``; returns the events. Refused actions raise and change nothing."""
        if not isinstance(action, Action):
            action = parse_action(action)
        legal = self._legal
        if legal is None or seat != self._to_act or type(seat) is not int:
            if action[0] == ACCUSE:
                return self._accuse(seat, action)
            if self._result is None:
                seat = self._seat(seat)
            if self._result is not None or seat != self._to_act:
                raise IllegalAction.of(self._refusal(seat, action))
            legal = self._legal = self._compute_legal(seat)
        if action not in legal:
            if action[0] == ACCUSE:
                return self._accuse(seat, action)
            if self._cheating and action in self._cheat_list(seat):
                self.history.append((seat, action))
                self._note(seat, action, True)
                return self._dispatch(seat, action)
            raise IllegalAction.of(self._refusal(seat, action))
        self.history.append((seat, action))
        if self._cheating:
            self._note(seat, action, False)
        kind = action[0]
        if kind == ATTACK:
            return self._do_attack(seat, action.cards)
        if kind == DEFEND:
            return self._do_defend(seat, action.cards[0], action.cards[1])
        if kind == PASS:
            self.passed.add(seat)
            out = [PASS_EVENTS[seat]]
            self._advance(out)
            return out
        if kind == TAKE:
            return self._do_take(seat)
        if kind == TRANSFER:
            return self._do_transfer(seat, action.cards[0])
        return self._do_exchange(seat)

    def _dispatch(self, seat: int, action: Action) -> list[Event]:
        """A cheat's effect: the same as the rule-abiding action of its kind (cheats attack, defend or transfer)."""
        kind = action[0]
        if kind == ATTACK:
            return self._do_attack(seat, action.cards)
        if kind == DEFEND:
            return self._do_defend(seat, action.cards[0], action.cards[1])
        return self._do_transfer(seat, action.cards[0])

    def _remove_from_hand(self, seat: int, played: tuple[Card, ...]) -> None:
        hand = self.hands[seat]
        for c in played:
            hand.remove(c)
        known = self.known[seat]
        if known:
            known.difference_update(played)
        if not hand:
            self.emptied.append(seat)

    def _do_attack(self, seat: int, cards: tuple[Card, ...]) -> list[Event]:
        self._remove_from_hand(seat, cards)
        if len(cards) == 1:  # most attacks and every throw-in: no list to build
            self.attacks.append(cards[0])
            self.defences.append(None)
        else:
            self.attacks.extend(cards)
            self.defences.extend([None] * len(cards))
        self.passed.clear()
        out = [_event((ev.ATTACK, seat, cards, None, 0, ()))]
        if self._prostoy:
            self._draw(seat, out)
        self._advance(out)
        return out

    def _do_defend(self, seat: int, attack: Card, defence: Card) -> list[Event]:
        self._remove_from_hand(seat, (defence,))
        self.defences[self.attacks.index(attack)] = defence
        self.passed.clear()
        out = [_event((ev.DEFEND, seat, (attack, defence), None, 0, ()))]
        if self._prostoy and None not in self.defences:
            self._close_round(out)
        else:
            self._advance(out)
        return out

    def _do_take(self, seat: int) -> list[Event]:
        out = [TAKE_EVENTS[seat]]
        self.taking = True
        self.passed.clear()
        if self._prostoy:
            self._close_round(out)
        else:
            self._advance(out)
        return out

    def _do_transfer(self, seat: int, card: Card) -> list[Event]:
        self._remove_from_hand(seat, (card,))
        self.attacks.append(card)
        self.defences.append(None)
        target = self._opponent_after(seat)
        self.attacker, self.defender = seat, target
        self.limit = min(self._cap(), len(self.hands[target]))
        self.passed.clear()
        self._set_throwers()
        out = [Event(ev.TRANSFER, seat, (card,), target)]
        self._advance(out)
        return out

    def _do_exchange(self, seat: int) -> list[Event]:
        six = CARDS[(DECK_LOWEST_RANK[self.rules.deck] - 2) * 4 + self.trump_index]
        exposed = self._talon[0]
        hand = self.hands[seat]
        hand[hand.index(six)] = exposed
        self._talon[0] = six
        self._trump_card = six
        self.known[seat].discard(six)
        self.known[seat].add(exposed)
        self._legal = None
        return [Event(ev.EXCHANGE, seat, (six, exposed))]

    # ----------------------------------------------------------------- closing a round
    def _close_round(self, out: list[Event]) -> None:
        defender, opener = self.defender, self.opener
        assert defender is not None and opener is not None
        attacks, defences = self.attacks, self.defences
        if self._prostoy:
            picked = [a for a, d in zip(attacks, defences, strict=True) if d is None]
            beaten = [c for a, d in zip(attacks, defences, strict=True) if d is not None for c in (a, d)]
        elif self.taking:
            picked, beaten = attacks + [d for d in defences if d is not None], []
        else:
            picked, beaten = [], attacks + defences  # type: ignore[operator]  # all beaten: no None left
        if self._cheating:
            self.played_by, self.cheated = {}, frozenset()  # cheats nobody named before the bout ended stand
        if beaten:
            self._discard.extend(beaten)
            out.append(_event((ev.DISCARD, None, tuple(beaten), None, len(beaten), ())))
        if picked:
            self.hands[defender].extend(picked)
            self.known[defender].update(picked)
            if defender in self.emptied:
                self.emptied.remove(defender)
            out.append(_event((ev.PICKUP, defender, tuple(picked), None, len(picked), ())))
        if self._talon:
            self._draw_after_round(opener, defender, out)
        if not self._talon:  # also when this round's draws emptied it
            self._retire_empty_hands(out)
            if self._result is not None:
                self.attacks, self.defences = [], []
                return
        nxt = defender if not picked else self._next_active(defender)
        if not self.active[nxt]:
            nxt = self._next_active(nxt)
        self._start_round(nxt)
        assert self.defender is not None
        out.append(ROUND_EVENTS[nxt][self.defender])

    def _draw_after_round(self, opener: int, defender: int, out: list[Event]) -> None:
        """Prostoy: only the defender (the attacker drew at once). Others: opener first, clockwise, defender last."""
        if not self._prostoy:
            n = self.rules.players
            active = self.active
            for step in range(n):
                seat = (opener + step) % n
                if seat != defender and active[seat]:
                    self._draw(seat, out)
        self._draw(defender, out)

    def _draw(self, seat: int, out: list[Event]) -> None:
        """Refill ``seat`` to the hand size from the top of the talon; the exposed trump comes last."""
        talon = self._talon
        hand = self.hands[seat]
        need = self._hand_size - len(hand)
        if need <= 0 or not talon:
            return
        if need >= len(talon):
            drawn = talon[::-1]
            talon.clear()
        else:
            drawn = talon[-need:][::-1]
            del talon[-need:]
        hand += drawn
        public: tuple[Card, ...] = ()
        if not talon and self.trump_exposed:
            self.trump_exposed = False
            public = (drawn[-1],)
            self.known[seat].add(drawn[-1])
        if seat in self.emptied:
            self.emptied.remove(seat)
        out.append(_event((ev.DRAW, seat, tuple(drawn), None, len(drawn), public)))

    def _retire_empty_hands(self, out: list[Event]) -> None:
        """Once the talon is empty, empty hands leave (in the order they emptied) and the game may end."""
        empty = [s for s in range(self.rules.players) if self.active[s] and not self.hands[s]]
        if not empty:
            return  # nobody leaves, so the game cannot end this round either
        empty.sort(key=lambda s: self.emptied.index(s) if s in self.emptied else len(self.emptied) + s)
        for seat in empty:
            self.active[seat] = False
            self.out_order.append(seat)
            out.append(Event(ev.OUT, seat))
        self._refresh_neighbours()
        rules = self.rules
        holders = [s for s in range(rules.players) if self.active[s]]
        teams = {s % rules.team_count for s in holders}
        if len(teams) > 1:
            return
        if not holders:
            result = Result(None, True, list(self.out_order), [])
        else:
            durak = holders[0] if len(holders) == 1 else None
            team = holders[0] % rules.team_count
            losers = [s for s in range(rules.players) if s % rules.team_count == team]
            result = Result(durak, False, list(self.out_order), losers)
        self._result = result
        self._to_act = None
        self._legal = None
        self.attacker = self.defender = self.opener = None
        out.append(Event(ev.GAME_OVER, result.durak))

    # ----------------------------------------------------------------- refusals
    def _refusal(self, seat: int, action: Action) -> Message:
        """Why ``action`` by ``seat`` is refused. The core says only that it is not legal now; ``durak.game.Game``
        names the rule (durak/explain.py)."""
        return Message("illegal", {"action": str(action)}, f"cannot {action}: not a legal action now")

    # ----------------------------------------------------------------- copies
    def copy(self) -> Self:
        """An independent copy of the same class, cheap enough for search."""
        other = self.__class__.__new__(self.__class__)
        # shared: immutable values, and lists or caches that are replaced, never changed in place
        other.rules, other.seed, other.dealer, other.trump_index = self.rules, self.seed, self.dealer, self.trump_index
        other._trump_card, other.trump_exposed = self._trump_card, self.trump_exposed
        other.attacker, other.defender, other.opener = self.attacker, self.defender, self.opener
        other.limit, other.taking, other.first_round = self.limit, self.taking, self.first_round
        other.throwers, other.round_no, other._result = self.throwers, self.round_no, self._result
        other._to_act, other._legal, other._hand_size = self._to_act, self._legal, self._hand_size
        other._prostoy, other._perevodnoy, other._exchange = self._prostoy, self._perevodnoy, self._exchange
        other._next_seat, other._prev_seat, other._thrower_cache = self._next_seat, self._prev_seat, self._thrower_cache
        other._start, other._cheating = self._start, self._cheating
        other.played_by, other.cheated = self.played_by, self.cheated
        # copied: everything a move changes in place
        other._talon = self._talon[:]
        other.hands = list(map(list, self.hands))  # map, not a comprehension: no function object per call
        other._discard = self._discard[:]
        other.active = self.active[:]
        other.out_order = self.out_order[:]
        other.known = list(map(set, self.known))
        other.attacks = self.attacks[:]
        other.defences = self.defences[:]
        other.passed = set(self.passed)
        other.emptied = self.emptied[:]
        other.history = self.history[:]
        return other


#: Builds an Event from a full 6-tuple without a Python-level call: events are made on every move.
_event = partial(tuple.__new__, Event)

#: Events that name only seats (6 at most), built once: an event is immutable, and making one costs
#: more than the rest of a pass or a take.
PASS_EVENTS = tuple(Event(ev.PASS, seat) for seat in range(6))
TAKE_EVENTS = tuple(Event(ev.TAKE, seat) for seat in range(6))
ROUND_EVENTS = tuple(tuple(Event(ev.ROUND, attacker, (), defender) for defender in range(6)) for attacker in range(6))

#: BEATERS[trump][attack]: the cards that beat ``attack`` when ``trump`` is the trump suit's index.
BEATERS = tuple(tuple(frozenset(d for d in CARDS if beats(d, a, trump)) for a in CARDS) for trump in range(4))


@lru_cache(maxsize=256)
def _neighbours(active: tuple[bool, ...]) -> tuple[list[int], list[int]]:
    """For each seat, the next and the previous active seat clockwise (itself when nobody is active): one pair
    of tables per pattern of active seats, shared by every game (they are replaced, never changed in place)."""
    n = len(active)
    anyone = any(active)
    after = [next((seat + step) % n for step in range(1, n + 1) if active[(seat + step) % n])
             if anyone else seat for seat in range(n)]
    before = [next((seat - step) % n for step in range(1, n + 1) if active[(seat - step) % n])
              if anyone else seat for seat in range(n)]
    return after, before


@lru_cache(maxsize=4096)
def _same_rank_attacks(group: tuple[Card, ...], limit: int) -> tuple[Action, ...]:
    """Opening attacks of two or more cards from one rank's cards, within the limit."""
    return tuple(make(ATTACK, combo) for size in range(2, min(len(group), limit) + 1)
                 for combo in combinations(group, size))


@lru_cache(maxsize=8192)
def _prostoy_groups(ordered: tuple[Card, ...], most: int) -> tuple[Action, ...]:
    """Prostoy attacks of 3 cards (a pair + a free card) and, if ``most`` allows, 5 cards (two pairs of distinct
    ranks + a free card, or four of a kind + one): built from the pairs rather than by testing every combination."""
    pairs = [pair for pair in combinations(ordered, 2) if pair[0] >> 2 == pair[1] >> 2]
    sets = {tuple(sorted((*pair, free))) for pair in pairs for free in ordered if free not in pair}
    if most >= 5:
        for first, second in combinations(pairs, 2):
            if first[0] in second or first[1] in second:
                continue  # overlapping pairs of one rank: not two pairs
            cards = (*first, *second)
            sets.update(tuple(sorted((*cards, free))) for free in ordered if free not in cards)
    return tuple(make(ATTACK, combo) for combo in sorted(sets))
