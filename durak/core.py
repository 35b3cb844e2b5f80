"""The rules core: who acts, what is legal, and what each action changes; nothing else.

The core knows the rules and the state, not how a game is written down, saved, shown to a seat or
explained: those build on it, and durak/game.py puts them together as ``Game``. One class serves all three
variants; the differences are read from ``Rules``. Legality has one source, ``legal_actions``: ``apply``
accepts exactly what it lists, so the AI, the table's highlighting and validation never disagree.

Representation. The hard AI plays many thousands of games per decision on ``copy``, ``legal_actions`` and
``apply``, so the state is kept in the form those need (durak/cardsets.py):

- ``_held[seat]``: the cards in each hand as a bit-set (bit ``c`` for ``CARDS[c]``); ``hands`` and ``hand()``
  build lists from it on demand, lowest card first. ``_known[seat]``: the subset the other players have
  seen (``known`` builds the sets). A copy copies two short lists of ints.
- the table stays two lists, ``attacks`` and ``defences`` (``None`` for an unbeaten card), because its order
  is the game's; beside them ``_unbeaten`` counts the ``None`` entries and ``_table_ranks`` is the bit-set of
  every card whose rank lies on the table, so the throw-ins are ``hand & _table_ranks``.
- ``_passed``: the seats that passed since the table last changed, as bits of an int (``passed`` is the set).
- legal actions are interned ``Action`` objects (durak/actions.py), listed at most once per state
  (``_legal``): a defence is ``DEFEND_PAIR[attack][card]`` for each card of ``hand & BEATERS[trump][attack]``.
- events that name only seats or one card are built once at import and shared.

Lists from bit-sets come out lowest card first, so ``legal_actions`` lists the cards of each kind of action
in card order. ``apply`` and the round's close are written out in one function where a helper call would
cost more than the work it does.
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
from .cards import CARDS, DECK_LOWEST_RANK, SUITS, Card, deck, sort_key
from .cardsets import BEATERS, BIT, SAME_RANK, SLICES, SUIT_CARDS, cards_of, lowest, mask_of, slice_table
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
    _held: list[int]  # per seat: the bit-set of the cards in hand
    _arrived: list[int]  # per card: when it came into the hand that holds it (orders each hand as dealt and drawn)
    _arrivals: int  # how many times a card came into a hand
    _discard: list[Card]
    active: list[bool]
    out_order: list[int]
    _known: list[int]  # per seat: the bit-set of the cards in hand that every player has seen
    attacks: list[Card]
    defences: list[Card | None]
    _unbeaten: int  # how many entries of defences are None
    _table_ranks: int  # the bit-set of every card whose rank is on the table (attack or defence)
    attacker: int | None
    defender: int | None
    opener: int | None
    limit: int
    taking: bool
    _passed: int  # bit ``seat`` set: that seat passed since the table last changed
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
    # Every attribute above is a slot. With a __dict__, a game's attributes exceed the 30 keys CPython 3.11
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
        game = cls._blank(rules, seed, dealer)
        # one card at a time from the dealer's left: each seat gets every n-th card of the first ``dealt``
        game._held = [mask_of(cards[(seat - dealer - 1) % n : dealt : n]) for seat in range(n)]
        arrived = game._arrived
        for when, c in enumerate(cards[:dealt]):
            arrived[c] = when
        game._arrivals = dealt
        if dealt < len(cards):
            turned = cards[dealt]
            game._talon = [turned, *reversed(cards[dealt + 1 :])]
            game.trump_exposed = True
        else:  # the whole deck is dealt: the dealer's last card shows the trump and stays in his hand
            turned = cards[dealt - 1]
            game._talon = []
            game.trump_exposed = False
            game._known[dealer] |= BIT[turned]
        game._trump_card = turned
        game.trump_index = turned & 3
        game._start_round(game._first_attacker(first_game), first_round=True)
        return game

    @classmethod
    def _blank(cls, rules: Rules, seed: int | None, dealer: int) -> Self:
        """A game with no cards dealt and no round begun; the builders fill in the cards and start a round."""
        game = cls.__new__(cls)
        n = rules.players
        game.rules = rules
        game._prostoy = rules.variant == PROSTOY
        game._perevodnoy = rules.variant == PEREVODNOY
        game._exchange = rules.exchange
        game._hand_size = rules.hand_size
        game.seed = seed
        game.dealer = dealer
        game._held = [0] * n
        game._arrived = [0] * 52
        game._arrivals = 0
        game._discard = []
        game.active = [True] * n
        game._refresh_neighbours()
        game.out_order = []
        game._known = [0] * n
        game.attacks, game.defences = [], []
        game._unbeaten = game._table_ranks = game._passed = 0
        game.throwers, game.emptied = [], []
        game.taking = False
        game.history = []
        game._result = None
        game._legal = None
        game.round_no = 0
        game._start = None
        return game

    def _set_hands(self, hands: list[list[Card]], known: list[list[Card]] | None = None) -> None:
        """Give each seat these cards, in this order (and, if given, these known cards): for the builders of a
        state."""
        self._held = [mask_of(hand) for hand in hands]
        arrived = self._arrived
        when = 0
        for hand in hands:
            for c in hand:
                arrived[c] = when
                when += 1
        self._arrivals = when
        if known is not None:
            self._known = [mask_of(cards) for cards in known]

    def _set_table(self, attacks: list[Card], defences: list[Card | None]) -> None:
        """Lay out the table of a state being loaded."""
        self.attacks, self.defences = attacks, defences
        self._unbeaten = defences.count(None)
        ranks = 0
        for c in attacks + defences:
            if c is not None:
                ranks |= SAME_RANK[c]
        self._table_ranks = ranks

    def _first_attacker(self, first_game: bool) -> int:
        """RULES §2/§4: lowest trump in the first game, else relative to the dealer (the last loser)."""
        n = self.rules.players
        if self._prostoy or (not first_game and self.rules.first_attack == "loser_left"):
            return (self.dealer + 1) % n
        if not first_game:
            return (self.dealer - 1) % n
        trumps = SUIT_CARDS[self.trump_index]
        held = [(lowest(cards & trumps), seat) for seat, cards in enumerate(self._held) if cards & trumps]
        return min(held)[1] if held else (self.dealer + 1) % n

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

    @property
    def hands(self) -> list[list[Card]]:
        """Every seat's cards in the order they came into the hand (new lists on each call)."""
        arrived = self._arrived.__getitem__
        return [sorted(cards_of(held), key=arrived) for held in self._held]

    @property
    def known(self) -> list[set[Card]]:
        """For each seat, the cards in its hand that every player has seen (new sets on each call)."""
        return [set(cards_of(known)) for known in self._known]

    @property
    def passed(self) -> set[int]:
        """The seats that passed since the table last changed."""
        return {seat for seat in range(self.rules.players) if self._passed >> seat & 1}

    def hand(self, seat: int) -> list[Card]:
        """``seat``'s cards in display order: by suit, trumps last, then by rank."""
        return sorted(cards_of(self._held[self._seat(seat)]), key=sort_key(self.trump_index))

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
        n = self.rules.players
        active = self.active
        self._next_seat = [next((seat + step) % n for step in range(1, n + 1) if active[(seat + step) % n])
                           if any(active) else seat for seat in range(n)]
        self._thrower_cache = {}  # valid while nobody leaves; its lists are never mutated
        self._prev_seat = [next((seat - step) % n for step in range(1, n + 1) if active[(seat - step) % n])
                           if any(active) else seat for seat in range(n)]

    def _opponent_after(self, seat: int) -> int:
        """The next active player clockwise who is not on ``seat``'s team."""
        rules = self.rules
        if rules.teams is None:
            return self._next_seat[seat]
        n = rules.players
        team = seat % rules.team_count
        for step in range(1, n):
            other = (seat + step) % n
            if self.active[other] and other % rules.team_count != team:
                return other
        return self._next_seat[seat]

    def _start_round(self, attacker: int, first_round: bool = False) -> None:
        defender = self._next_seat[attacker] if self.rules.teams is None else self._opponent_after(attacker)
        self.attacker = self.opener = attacker
        self.defender = defender
        self.first_round = first_round
        self.round_no += 1
        self.attacks, self.defences = [], []
        self._unbeaten = self._table_ranks = self._passed = 0
        self.taking = False
        self.emptied = []
        cap = 5 if self._prostoy else (self.rules.first_defence_limit if first_round else MAX_ATTACK)
        held = self._held[defender].bit_count()
        self.limit = cap if cap < held else held
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
        if self._prostoy or self._prev_seat[defender] == attacker == self._next_seat[defender]:
            self.throwers = [attacker]  # Prostoy has no throw-ins; heads-up only the attacker adds
            return
        if rules.throw_in == "everyone":
            n = rules.players
            order = [(attacker + step) % n for step in range(n)]
            candidates = [s for s in order if self.active[s] and s != defender]
        else:
            candidates = [attacker, self._prev_seat[defender], self._next_seat[defender]]
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
        elif not self.taking and self._unbeaten:
            self._to_act = self.defender
        else:
            passed = self._passed
            for seat in self.throwers:
                if not passed >> seat & 1:
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
        held = self._held[seat]
        attacks = self.attacks
        legal: list[Action]
        if not attacks:
            legal = self._prostoy_sets(held) if self._prostoy else self._openings(held)
        elif seat == self.defender and not self.taking and (self._unbeaten or self._prostoy):
            beaters = BEATERS[self.trump_index]
            legal = []
            for attack, defence in zip(attacks, self.defences, strict=True):
                if defence is None:
                    can = held & beaters[attack]
                    if can:
                        row = DEFEND_PAIR[attack]
                        if can & (can - 1):  # several cards: in the hand's order
                            legal += map(row.__getitem__, sorted(cards_of(can), key=self._arrived.__getitem__))
                        else:
                            legal.append(row[can.bit_length() - 1])
            legal.append(TAKE_ACTION)
            if self._perevodnoy and self._unbeaten == len(attacks):
                legal += self._transfers(held)
        else:  # an attacker adds a card of a rank on the table, or passes
            can = held & self._table_ranks
            if not can or len(attacks) >= self.limit:
                legal = [PASS_ACTION]
            elif can & (can - 1):
                legal = list(map(_attack_one, sorted(cards_of(can), key=self._arrived.__getitem__)))
                legal.append(PASS_ACTION)
            else:
                legal = [ATTACK_ONE[can.bit_length() - 1], PASS_ACTION]
        if self._exchange and self.trump_exposed and self._can_exchange(seat):
            legal.append(EXCHANGE_ACTION)
        return legal

    def _openings(self, held: int) -> list[Action]:
        """One card, or (within the limit) several of one rank: read from the tables of three ranks at a time."""
        middle, upper, top = held >> 16 & 0xFFF, held >> 28 & 0xFFF, held >> 40
        if held & 0xFFFF:  # a 52-card deck's low ranks
            bottom, low = held & 0xF, held >> 4 & 0xFFF
            legal = [*_ATTACKS[0][bottom], *_ATTACKS[1][low], *_ATTACKS[2][middle], *_ATTACKS[3][upper],
                     *_ATTACKS[4][top]]
            groups = _GROUPS[0][bottom] + _GROUPS[1][low] + _GROUPS[2][middle] + _GROUPS[3][upper] + _GROUPS[4][top]
        else:
            legal = [*_ATTACKS[2][middle], *_ATTACKS[3][upper], *_ATTACKS[4][top]]
            groups = _GROUPS[2][middle] + _GROUPS[3][upper] + _GROUPS[4][top]
        limit = self.limit
        if groups and limit > 1:
            for group in groups:
                legal += _same_rank_attacks(group, limit)
        return legal

    def _transfers(self, held: int) -> list[Action]:
        defender = self.defender
        assert defender is not None
        size = len(self.attacks) + 1
        if size > self._cap():
            return []
        target = self._opponent_after(defender)
        if target == defender or self._held[target].bit_count() < size:
            return []
        same = held & SAME_RANK[self.attacks[0]]
        return [TRANSFER_ONE[c] for c in sorted(cards_of(same), key=self._arrived.__getitem__)]

    def _prostoy_sets(self, held: int) -> list[Action]:
        defender = self.defender
        assert defender is not None
        most = min(5, self._held[defender].bit_count())
        ordered = cards_of(held)
        legal = list(map(_attack_one, ordered))
        if most >= 3:
            legal += _prostoy_groups(ordered, most)
        return legal

    def _trump_six(self) -> Card:
        return CARDS[(DECK_LOWEST_RANK[self.rules.deck] - 2) * 4 + self.trump_index]

    def _can_exchange(self, seat: int) -> bool:
        if not (self.rules.exchange and self.trump_exposed and self._talon):
            return False
        return bool(self._held[seat] & BIT[self._trump_six()])

    # ----------------------------------------------------------------- applying actions
    def apply(self, seat: int, action: Action | str) -> list[Event]:
        """Play ``action`` for ``seat``; returns the events. Refused actions raise and change nothing."""
        if not isinstance(action, Action):
            action = parse_action(action)
        legal = self._legal
        if legal is None or seat != self._to_act or type(seat) is not int:
            if self._result is None:
                seat = self._seat(seat)
            if self._result is not None or seat != self._to_act:
                raise IllegalAction.of(self._refusal(seat, action))
            legal = self._legal = self._compute_legal(seat)
        if action not in legal:
            raise IllegalAction.of(self._refusal(seat, action))
        self.history.append((seat, action))
        self._legal = None
        kind = action[0]
        out: list[Event]
        if kind == ATTACK:
            cards = action[1]
            if len(cards) == 1:
                card = cards[0]
                played = BIT[card]
                self.attacks.append(card)
                self.defences.append(None)
                self._table_ranks |= SAME_RANK[card]
                out = [ATTACK_EVENTS[seat][card]]
            else:
                played = mask_of(cards)
                self.attacks.extend(cards)
                self.defences.extend([None] * len(cards))
                for card in cards:
                    self._table_ranks |= SAME_RANK[card]
                out = [_event((ev.ATTACK, seat, cards, None, 0, ()))]
            self._unbeaten += len(cards)
            held = self._held[seat] = self._held[seat] & ~played
            if self._known[seat] & played:
                self._known[seat] &= ~played
            if not held:
                self.emptied.append(seat)
            self._passed = 0
            if self._prostoy:
                self._draw(seat, out)
                self._to_act = self.defender
            else:
                self._to_act = self.throwers[0] if self.taking else self.defender
            return out
        if kind == DEFEND:
            attack, card = pair = action[1]
            played = BIT[card]
            held = self._held[seat] = self._held[seat] & ~played
            if self._known[seat] & played:
                self._known[seat] &= ~played
            if not held:
                self.emptied.append(seat)
            self.defences[self.attacks.index(attack)] = card
            self._unbeaten -= 1
            self._table_ranks |= SAME_RANK[card]
            self._passed = 0
            out = [_event((ev.DEFEND, seat, pair, None, 0, ()))]
            if self._unbeaten:
                self._to_act = self.defender
            elif self._prostoy:
                self._close_round(out)
            else:
                self._to_act = self.throwers[0]  # nobody has passed since this card
            return out
        if kind == PASS:
            passed = self._passed = self._passed | 1 << seat
            out = [PASS_EVENTS[seat]]
            for thrower in self.throwers:
                if not passed >> thrower & 1:
                    self._to_act = thrower
                    return out
            self._close_round(out)
            return out
        if kind == TAKE:
            out = [TAKE_EVENTS[seat]]
            self.taking = True
            self._passed = 0
            if self._prostoy:
                self._close_round(out)
            else:
                self._to_act = self.throwers[0]
            return out
        if kind == TRANSFER:
            return self._do_transfer(seat, action[1][0])
        return self._do_exchange(seat)

    def _take_from_hand(self, seat: int, played: int) -> None:
        """Take the cards of ``played`` out of ``seat``'s hand (they are public now)."""
        held = self._held[seat] = self._held[seat] & ~played
        known = self._known
        if known[seat] & played:
            known[seat] &= ~played
        if not held:
            self.emptied.append(seat)

    def _do_transfer(self, seat: int, card: Card) -> list[Event]:
        self._take_from_hand(seat, BIT[card])
        self.attacks.append(card)
        self.defences.append(None)
        self._unbeaten += 1
        self._table_ranks |= SAME_RANK[card]
        target = self._opponent_after(seat)
        self.attacker, self.defender = seat, target
        self.limit = min(self._cap(), self._held[target].bit_count())
        self._passed = 0
        self._set_throwers()
        out = [Event(ev.TRANSFER, seat, (card,), target)]
        self._advance(out)
        return out

    def _do_exchange(self, seat: int) -> list[Event]:
        six = self._trump_six()
        exposed = self._talon[0]
        self._held[seat] = self._held[seat] & ~BIT[six] | BIT[exposed]
        self._arrived[exposed] = self._arrived[six]  # it takes the six's place in the hand
        self._talon[0] = six
        self._trump_card = six
        self._known[seat] = self._known[seat] & ~BIT[six] | BIT[exposed]
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
            picked, beaten = attacks + defences, []  # type: ignore[operator]
            if self._unbeaten:
                picked = [c for c in picked if c is not None]
        else:
            picked, beaten = [], attacks + defences  # type: ignore[operator]  # all beaten: no None left
        if beaten:
            self._discard += beaten
            out.append(_event((ev.DISCARD, None, tuple(beaten), None, len(beaten), ())))
        if picked:
            gained = 0
            arrived, when = self._arrived, self._arrivals
            for c in picked:
                gained |= BIT[c]
                arrived[c] = when
                when += 1
            self._arrivals = when
            self._held[defender] |= gained
            self._known[defender] |= gained
            if defender in self.emptied:
                self.emptied.remove(defender)
            out.append(_event((ev.PICKUP, defender, tuple(picked), None, len(picked), ())))
        if self._talon:
            if not self._prostoy:  # opener first, clockwise, defender last (Prostoy: the attacker drew at once)
                n = self.rules.players
                active = self.active
                for step in range(n):
                    seat = (opener + step) % n
                    if seat != defender and active[seat]:
                        self._draw(seat, out)
            self._draw(defender, out)
        if not self._talon:  # also when this round's draws emptied it
            self._retire_empty_hands(out)
            if self._result is not None:
                self.attacks, self.defences = [], []
                self._unbeaten = self._table_ranks = 0
                return
        nxt = defender if not picked else self._next_seat[defender]
        if not self.active[nxt]:
            nxt = self._next_seat[nxt]
        self._start_round(nxt)
        assert self.defender is not None
        out.append(ROUND_EVENTS[nxt][self.defender])

    def _draw(self, seat: int, out: list[Event]) -> None:
        """Refill ``seat`` to the hand size from the top of the talon; the exposed trump comes last."""
        talon = self._talon
        held = self._held[seat]
        need = self._hand_size - held.bit_count()
        if need <= 0 or not talon:
            return
        if need >= len(talon):
            drawn = talon[::-1]
            talon.clear()
        else:
            drawn = talon[-need:][::-1]
            del talon[-need:]
        arrived, when = self._arrived, self._arrivals
        for c in drawn:
            held |= BIT[c]
            arrived[c] = when
            when += 1
        self._arrivals = when
        self._held[seat] = held
        public: tuple[Card, ...] = ()
        if not talon and self.trump_exposed:
            self.trump_exposed = False
            public = (drawn[-1],)
            self._known[seat] |= BIT[drawn[-1]]
        if seat in self.emptied:
            self.emptied.remove(seat)
        out.append(_event((ev.DRAW, seat, tuple(drawn), None, len(drawn), public)))

    def _retire_empty_hands(self, out: list[Event]) -> None:
        """Once the talon is empty, empty hands leave (in the order they emptied) and the game may end."""
        empty = [s for s in range(self.rules.players) if self.active[s] and not self._held[s]]
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
        other._start, other._passed = self._start, self._passed
        other._unbeaten, other._table_ranks = self._unbeaten, self._table_ranks
        # copied: everything a move changes in place
        other._talon = self._talon[:]
        other._held = self._held[:]
        other._arrived, other._arrivals = self._arrived[:], self._arrivals
        other._discard = self._discard[:]
        other.active = self.active[:]
        other.out_order = self.out_order[:]
        other._known = self._known[:]
        other.attacks = self.attacks[:]
        other.defences = self.defences[:]
        other.emptied = self.emptied[:]
        other.history = self.history[:]
        return other


#: Builds an Event from a full 6-tuple without a Python-level call: events are made on every move.
_event = partial(tuple.__new__, Event)
_attack_one = ATTACK_ONE.__getitem__

#: Events that name only seats (6 at most) or one seat and one card, built once: an event is immutable,
#: and making one costs more than the rest of a pass or a take.
PASS_EVENTS = tuple(Event(ev.PASS, seat) for seat in range(6))
TAKE_EVENTS = tuple(Event(ev.TAKE, seat) for seat in range(6))
ROUND_EVENTS = tuple(tuple(Event(ev.ROUND, attacker, (), defender) for defender in range(6)) for attacker in range(6))
ATTACK_EVENTS = tuple(tuple(Event(ev.ATTACK, seat, (c,)) for c in CARDS) for seat in range(6))

#: For each slice of a hand's bit-set (cardsets.SLICES): _ATTACKS[i][v], the one-card attacks with the slice's
#: cards, lowest first; _GROUPS[i][v], the cards of each of its ranks held two or more times (the slices hold whole
#: ranks, so an attack of several cards of one rank never spans two slices).
_ATTACKS = tuple(slice_table(ATTACK_ONE, first, width) for first, width in SLICES)
_Groups = tuple[tuple[Card, ...], ...]


def _group_table(first: int, width: int) -> tuple[_Groups, ...]:
    table: list[_Groups] = [()]
    for rank_first in range(first, first + width, 4):  # each rank's nibble, lowest rank first
        subsets = slice_table(CARDS, rank_first, 4)
        table = [held + ((subsets[nibble],) if len(subsets[nibble]) > 1 else ()) for nibble in range(16)
                 for held in table]
    return tuple(table)


_GROUPS = tuple(_group_table(first, width) for first, width in SLICES)


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
