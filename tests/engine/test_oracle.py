"""An independent reference referee, written straight from RULES.md, played in lock-step with the engine.

``Ref`` is a slow, plain re-implementation of the rules. It shares no code with ``durak/`` except the
``Rules`` value it is given (and only its option fields are read: variant, players, deck, throw_in,
first_defence_limit, trump_six_exchange, first_attack, teams; not the derived ``exchange``, ``hand_size``,
``team_of``). Cards are plain strings such as ``"10H"``; ranks, suits and the beating test are its own.

What it reads from the engine:

* to set up a position (a round start): ``game.rules``, ``game.hand(p)``, ``game.talon``, ``game.trump``,
  ``game.trump_card`` and ``game.dealer`` (cards in neither hands nor talon start in the discard);
  for ``from_scenario`` positions also ``game.attacker`` (the scenario names it). The first attacker
  of a dealt game is worked out from the dealer and the hands, and checked against the engine.
* to compare, at every step: ``to_act``, ``legal_actions(p)`` for every seat, ``attacker``,
  ``defender``, ``hand(p)``, ``table``, ``talon``, ``discard``, ``result`` and the attributes ``limit``,
  ``active`` and ``out_order`` (game.py; also shown in views).

It never reads ``passed``, ``throwers``, ``taking``, ``first_round``, ``opener``, ``emptied`` or ``known``,
and never decides anything from what it compares: it keeps its own state. ``test_perft.py`` reuses ``Ref``
for its own, engine-free perft counts.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

import pytest

from durak import Game, Rules
from durak.series import Series

# ----------------------------------------------------------------------------- cards, from RULES.md §1
RANK_OF = {**{str(r): r for r in range(2, 11)}, "J": 11, "Q": 12, "K": 13, "A": 14}
NAME_OF = {r: name for name, r in RANK_OF.items()}
SUIT_LETTERS = "SHDC"
LOWEST_RANK = {24: 9, 36: 6, 52: 2}
TEAM_COUNT = {"2v2": 2, "3v3": 2, "2v2v2": 3}

Key = tuple[str, ...]  # ("attack", "8D", "8H") | ("defend", "8H", "9H") | ("transfer", "8D") | ("take",) ...


def rank(card: str) -> int:
    return RANK_OF[card[:-1]]


_ORDER = {NAME_OF[r] + s: (r, i) for r in range(2, 15) for i, s in enumerate(SUIT_LETTERS)}


def suit(card: str) -> str:
    return card[-1]


def order(card: str) -> tuple[int, int]:
    """Deck order: by rank, then S H D C (the engine's canonical order of attack cards)."""
    return _ORDER[card]


def deck_cards(size: int) -> list[str]:
    return [NAME_OF[r] + s for r in range(LOWEST_RANK[size], 15) for s in SUIT_LETTERS]


def beats(defence: str, attack: str, trump: str) -> bool:
    """A non-trump is beaten by a higher card of its suit or by any trump; a trump only by a higher trump."""
    if suit(defence) == suit(attack):
        return rank(defence) > rank(attack)
    return suit(defence) == trump and suit(attack) != trump


def key_of(action: object) -> Key:
    """An action (engine object or text) as an order-free key: attack cards sorted, others as written."""
    words = str(action).split()
    kind, cards = words[0], words[1:]
    if kind == "attack":
        cards = sorted(cards, key=order)
    return (kind, *cards)


def text_of(key: Key) -> str:
    return " ".join(key)


def is_prostoy_set(cards: tuple[str, ...]) -> bool:
    """RULES §4: 3 = a pair + a free card; 5 = two pairs of distinct ranks + a free card, or four of a kind + one."""
    if len(cards) == 1:
        return True
    if len(cards) == 3:
        return any(rank(a) == rank(b) for a, b in combinations(cards, 2))
    if len(cards) == 5:
        for free in range(5):
            r = sorted(rank(c) for i, c in enumerate(cards) if i != free)
            if r[0] == r[1] == r[2] == r[3]:
                return True
            if r[0] == r[1] and r[2] == r[3] and r[1] != r[2]:
                return True
    return False


# ----------------------------------------------------------------------------- the reference referee
class Ref:
    """The rules of RULES.md §1-§5 as a slow, obvious state machine (one game)."""

    def __init__(self, rules: Rules, hands: list[list[str]], talon: list[str], trump: str,
                 exposed: str | None, dealer: int, attacker: int, first_round: bool) -> None:
        self.variant = rules.variant
        self.prostoy = rules.variant == "prostoy"
        self.n = rules.players
        self.deck = rules.deck
        self.everyone = rules.throw_in == "everyone"
        self.first_cap = rules.first_defence_limit
        exchange = rules.trump_six_exchange
        self.exchange = self.prostoy if exchange is None else bool(exchange)
        self.team_count = TEAM_COUNT[rules.teams] if rules.teams else None
        self.hand_size = 5 if self.prostoy else 6
        self.hands = [list(h) for h in hands]
        self.talon = list(talon)  # top first
        self.trump = trump
        self.exposed = exposed  # the face-up card under the talon (its last card), or None
        self.dealer = dealer
        held = {c for h in hands for c in h} | set(talon)
        self.discard = [c for c in deck_cards(rules.deck) if c not in held]  # cards listed nowhere
        self.table: list[list[Any]] = []  # [attack, defence | None]
        self.active = [bool(h) or bool(talon) for h in hands]
        self.out_order = [s for s in range(self.n) if not self.active[s]]
        self.result: dict[str, Any] | None = None
        self.start_round(attacker, first_round)

    # -- factories
    @classmethod
    def from_game(cls, game: Game, attacker: int | None = None, first_round: bool = True) -> Ref:
        """Mirror a game at a round start. ``attacker`` None: the first attacker RULES.md §2/§4 names."""
        assert not game.table, "Ref starts at a round start"
        hands = [[str(c) for c in game.hand(p)] for p in range(game.rules.players)]
        talon = [str(c) for c in game.talon]
        card = None if game.trump_card is None else str(game.trump_card)
        exposed = card if talon and talon[-1] == card else None
        if attacker is None:
            attacker = first_attacker(game.rules, hands, game.trump, game.dealer, first_game=True)
        return cls(game.rules, hands, talon, game.trump, exposed, game.dealer, attacker, first_round)

    def copy(self) -> Ref:
        other = Ref.__new__(Ref)
        other.__dict__.update(self.__dict__)
        other.hands = [h[:] for h in self.hands]
        other.talon = self.talon[:]
        other.discard = self.discard[:]
        other.table = [row[:] for row in self.table]
        other.active = self.active[:]
        other.out_order = self.out_order[:]
        other.passed = set(self.passed)
        other.emptied = self.emptied[:]
        return other

    # -- seating
    def team(self, seat: int) -> int:
        return seat % self.team_count if self.team_count else seat

    def next_active(self, seat: int) -> int:
        for step in range(1, self.n):
            other = (seat + step) % self.n
            if self.active[other]:
                return other
        return seat

    def prev_active(self, seat: int) -> int:
        for step in range(1, self.n):
            other = (seat - step) % self.n
            if self.active[other]:
                return other
        return seat

    def next_opponent(self, seat: int) -> int | None:
        for step in range(1, self.n):
            other = (seat + step) % self.n
            if self.active[other] and self.team(other) != self.team(seat):
                return other
        return None

    # -- rounds
    def cap(self) -> int:
        if self.prostoy:
            return 5
        return self.first_cap if self.first_round else 6

    def start_round(self, attacker: int, first_round: bool) -> None:
        self.attacker = self.opener = attacker
        defender = self.next_opponent(attacker)
        assert defender is not None
        self.defender = defender
        self.first_round = first_round
        self.table = []
        self.taking = False
        self.passed: set[int] = set()
        self.emptied: list[int] = []
        self.limit = min(self.cap(), len(self.hands[defender]))

    def throwers(self) -> list[int]:
        """Who may add cards, in priority order: clockwise from the round's attacker (who comes first)."""
        if self.prostoy:
            return []
        d = self.defender
        if self.everyone:
            allowed = {s for s in range(self.n) if self.active[s] and s != d}
        else:
            allowed = {self.attacker, self.prev_active(d), self.next_active(d)} - {d}
        allowed = {s for s in allowed if self.team(s) != self.team(d)} | {self.attacker}
        return [s for s in ((self.attacker + k) % self.n for k in range(self.n)) if s in allowed]

    def unbeaten(self) -> bool:
        return any(d is None for _, d in self.table)

    def to_act(self) -> int | None:
        if self.result is not None:
            return None
        if not self.table:
            return self.attacker
        if self.prostoy or (not self.taking and self.unbeaten()):
            return self.defender
        for seat in self.throwers():
            if seat not in self.passed:
                return seat
        raise AssertionError("every attacker passed but the round is still open")

    def lowest_trump(self) -> str:
        return NAME_OF[LOWEST_RANK[self.deck]] + self.trump

    def legal(self) -> set[Key]:
        seat = self.to_act()
        if seat is None:
            return set()
        hand = self.hands[seat]
        out: set[Key] = set()
        if not self.table:  # opening
            if self.prostoy:
                most = min(5, len(self.hands[self.defender]))
                ordered = sorted(hand, key=order)
                for size in (1, 3, 5):
                    if size <= most:
                        out.update(("attack", *combo) for combo in combinations(ordered, size)
                                   if is_prostoy_set(combo))
            else:
                by_rank: dict[int, list[str]] = {}
                for c in sorted(hand, key=order):
                    by_rank.setdefault(rank(c), []).append(c)
                for group in by_rank.values():
                    for size in range(1, min(len(group), self.limit) + 1):
                        out.update(("attack", *combo) for combo in combinations(group, size))
        elif seat == self.defender and (self.prostoy or (not self.taking and self.unbeaten())):
            for attack, defence in self.table:
                if defence is None:
                    out.update(("defend", attack, c) for c in hand if beats(c, attack, self.trump))
            out.add(("take",))
            if self.variant == "perevodnoy" and all(d is None for _, d in self.table):
                size = len(self.table) + 1
                target = self.next_opponent(self.defender)
                if target is not None and size <= self.cap() and len(self.hands[target]) >= size:
                    attack_rank = rank(self.table[0][0])
                    out.update(("transfer", c) for c in hand if rank(c) == attack_rank)
        else:  # an attacker: throw in one card of a rank on the table, within the limit, or pass
            if len(self.table) < self.limit:
                ranks = {rank(c) for row in self.table for c in row if c is not None}
                out.update(("attack", c) for c in hand if rank(c) in ranks)
            out.add(("pass",))
        if self.exchange and self.exposed is not None and self.lowest_trump() in hand:
            out.add(("exchange",))
        return out

    # -- applying
    def _remove(self, seat: int, card: str) -> None:
        self.hands[seat].remove(card)
        if not self.hands[seat]:
            self.emptied.append(seat)

    def _draw(self, seat: int) -> None:
        need = self.hand_size - len(self.hands[seat])
        if need <= 0 or not self.talon:
            return
        got, self.talon = self.talon[:need], self.talon[need:]
        self.hands[seat].extend(got)
        if not self.talon:
            self.exposed = None
        if seat in self.emptied:
            self.emptied.remove(seat)

    def apply(self, seat: int, key: Key) -> None:
        assert seat == self.to_act(), f"seat {seat} is not to act"
        assert key in self.legal(), f"{text_of(key)} is not legal for the reference"
        kind, cards = key[0], key[1:]
        if kind == "attack":
            for c in cards:
                self._remove(seat, c)
                self.table.append([c, None])
            self.passed.clear()
            if self.prostoy:
                self._draw(seat)
        elif kind == "defend":
            attack, defence = cards
            self._remove(seat, defence)
            row = next(r for r in self.table if r[0] == attack)
            row[1] = defence
            self.passed.clear()
            if self.prostoy and not self.unbeaten():
                self._close()
        elif kind == "take":
            self.taking = True
            self.passed.clear()
            if self.prostoy:
                self._close()
        elif kind == "pass":
            self.passed.add(seat)
            if all(s in self.passed for s in self.throwers()):
                self._close()
        elif kind == "transfer":
            self._remove(seat, cards[0])
            self.table.append([cards[0], None])
            target = self.next_opponent(seat)
            assert target is not None
            self.attacker, self.defender = seat, target
            self.limit = min(self.cap(), len(self.hands[target]))
            self.passed.clear()
        elif kind == "exchange":
            six, hand = self.lowest_trump(), self.hands[seat]
            assert self.exposed is not None
            hand[hand.index(six)] = self.exposed
            self.talon[-1] = self.exposed = six
        else:
            raise AssertionError(kind)

    def _close(self) -> None:
        d = self.defender
        if self.prostoy:
            picked = [a for a, x in self.table if x is None]
            self.discard += [c for row in self.table if row[1] is not None for c in row]
        elif self.taking:
            picked = [c for row in self.table for c in row if c is not None]
        else:
            picked = []
            self.discard += [c for row in self.table for c in row if c is not None]
        self.table = []
        if picked:
            self.hands[d] += picked
            if d in self.emptied:
                self.emptied.remove(d)
        if self.talon:  # draw: opener first, then clockwise, the (last) defender last; Prostoy: the defender
            if not self.prostoy:
                for k in range(self.n):
                    seat = (self.opener + k) % self.n
                    if seat != d and self.active[seat]:
                        self._draw(seat)
            self._draw(d)
        if not self.talon:  # empty hands leave, in the order they emptied
            empty = [s for s in range(self.n) if self.active[s] and not self.hands[s]]
            empty.sort(key=lambda s: self.emptied.index(s) if s in self.emptied else self.n + s)
            for s in empty:
                self.active[s] = False
                self.out_order.append(s)
        holders = [s for s in range(self.n) if self.active[s]]
        if len({self.team(s) for s in holders}) <= 1:
            if not holders:
                self.result = {"durak": None, "draw": True, "out_order": list(self.out_order), "losers": []}
            else:
                losing = self.team(holders[0])
                self.result = {"durak": holders[0] if len(holders) == 1 else None, "draw": False,
                               "out_order": list(self.out_order),
                               "losers": [s for s in range(self.n) if self.team(s) == losing]}
            return
        # success: the defender attacks next (the next active player if he went out); take: he is skipped
        nxt = self.next_active(d) if picked or not self.active[d] else d
        self.start_round(nxt, False)


def first_attacker(rules: Rules, hands: list[list[str]], trump: str, dealer: int, first_game: bool) -> int:
    """RULES §2/§4: lowest trump (first game), else the dealer's left neighbour; later games by first_attack."""
    n = rules.players
    if rules.variant == "prostoy":
        return (dealer + 1) % n
    if not first_game:
        return (dealer + 1) % n if rules.first_attack == "loser_left" else (dealer - 1) % n
    trumps = [(rank(c), seat) for seat, hand in enumerate(hands) for c in hand if suit(c) == trump]
    return min(trumps)[1] if trumps else (dealer + 1) % n


# ----------------------------------------------------------------------------- comparing
def legal_keys(game: Game, seat: int) -> set[Key]:
    actions = game.legal_actions(seat)
    keys = {key_of(a) for a in actions}
    assert len(keys) == len(actions), f"duplicate legal actions: {actions}"
    return keys


def differences(ref: Ref, game: Game) -> list[str]:
    """Every way the engine's state or legal actions differ from the reference (empty: agreement)."""
    out: list[str] = []

    def check(what: str, expected: object, got: object) -> None:
        if expected != got:
            out.append(f"{what}: expected (RULES.md reference) {expected!r}, engine has {got!r}")

    check("to_act", ref.to_act(), game.to_act)
    n = ref.n
    check("hands", [sorted(h) for h in ref.hands], [sorted(str(c) for c in game.hand(p)) for p in range(n)])
    check("talon", ref.talon, [str(c) for c in game.talon])
    check("table", [tuple(r) for r in ref.table],
          [(str(a), None if d is None else str(d)) for a, d in game.table])
    check("discard", sorted(ref.discard), sorted(str(c) for c in game.discard))
    got_result = None if game.result is None else game.result.to_dict()
    check("result", ref.result, got_result)
    check("players still in", ref.active, list(game.active))
    check("out order", ref.out_order, list(game.out_order))
    if ref.result is None:
        check("attacker", ref.attacker, game.attacker)
        check("defender", ref.defender, game.defender)
        check("limit", ref.limit, game.limit)
    if out:  # the legal sets only mean something once the state agrees
        return out
    seat = ref.to_act()
    expected = ref.legal()
    got = legal_keys(game, seat) if seat is not None else set()
    if expected != got:
        missing = sorted(text_of(k) for k in expected - got)
        extra = sorted(text_of(k) for k in got - expected)
        out.append(f"legal actions of seat {seat}: missing (legal by RULES.md) {missing}, "
                   f"extra (illegal by RULES.md) {extra}")
    for other in range(n):
        if other != seat and game.legal_actions(other):
            out.append(f"seat {other} is not to act but has legal actions {game.legal_actions(other)}")
    return out


def report(game: Game, diffs: list[str], history: list[str]) -> str:
    return ("engine and reference disagree:\n  " + "\n  ".join(diffs)
            + f"\nafter moves: {history[-12:]}\nposition: {json.dumps(game.to_dict())}")


def eager(rng: random.Random, legal: list[Any]) -> Any:
    """A random player who mostly beats, transfers, throws in and exchanges rather than takes or passes:
    it empties hands and reaches the end of the talon in more ways than uniform random play."""
    for kind in ("defend", "transfer", "attack", "exchange"):
        mine = [a for a in legal if a.kind == kind]
        if mine and rng.random() < 0.85:
            return rng.choice(mine)
    return rng.choice(legal)


class Disagreement(AssertionError):
    """The engine and the reference differ; ``game`` is the engine at that point."""

    def __init__(self, message: str, game: Game) -> None:
        super().__init__(message)
        self.game = game


# Open docs/engine-bugs.md entries: (entry, how to recognise a failure caused by it in the game where it showed).
# Empty while no bug is open; a fixed bug's entry goes, so that a regression fails instead of xfailing.
# (#2, fixed in e9a7de4, was recognised by: talon empty and an active seat with no cards.)
KNOWN_BUGS: list[tuple[str, Callable[[Game], bool]]] = []


def known_bug(game: Game) -> str | None:
    """The open docs/engine-bugs.md entry a failure is an instance of, if any (None: a new bug: fail)."""
    return next((entry for entry, shows in KNOWN_BUGS if shows(game)), None)


def play_in_step(game: Game, ref: Ref, rng: random.Random, cap: int = 3000) -> int:
    """Random play with the engine and the reference side by side (uniform random moves, or ``eager``
    ones for half of the seeds); returns the number of positions compared; raises ``Disagreement``."""
    pick = eager if rng.random() < 0.5 else lambda r, legal: r.choice(legal)
    moves: list[str] = []
    positions = 0
    while True:
        diffs = differences(ref, game)
        if diffs:
            raise Disagreement(report(game, diffs, moves), game)
        positions += 1
        seat = game.to_act
        if seat is None:
            return positions
        assert positions < cap, "game runs past the move cap"
        action = pick(rng, sorted(game.legal_actions(seat), key=str))  # the path is independent of list order
        moves.append(f"{seat}: {action}")
        game.apply(seat, action)
        ref.apply(seat, key_of(action))


# ----------------------------------------------------------------------------- configurations
def all_rules(variant: str, players: int) -> list[Rules]:
    """Every valid option combination for a variant and a player count (exchange None only for Prostoy,
    where it differs from False; first_attack matters in series only, see test_series_games_agree)."""
    found: list[Rules] = []
    decks = [d for d in (24, 36, 52) if players <= (4 if d == 24 else 6)]
    prostoy = variant == "prostoy"
    throw_ins = ["neighbours"] if prostoy or players == 2 else ["neighbours", "everyone"]
    limits = [6] if prostoy else [6, 5]
    exchanges: list[bool | None] = [None, True, False] if prostoy else [False, True]
    teams: list[str | None] = [None]
    if not prostoy:
        teams += {4: ["2v2"], 6: ["3v3", "2v2v2"]}.get(players, [])
    for deck in decks:
        for throw_in in throw_ins:
            for limit in limits:
                for exchange in exchanges:
                    for team in teams:
                        found.append(Rules(variant=variant, players=players, deck=deck, throw_in=throw_in,
                                           first_defence_limit=limit, trump_six_exchange=exchange,
                                           teams=team))
    return found


VARIANTS = ["podkidnoy", "perevodnoy", "prostoy"]
GRID = [(v, p) for v in VARIANTS for p in range(2, 7)]


def games_for(variant: str, players: int) -> Iterator[tuple[Rules, int]]:
    """One seeded game per option combination; more for the short Prostoy and heads-up games."""
    per_config = 4 if variant == "prostoy" else 2 if players == 2 else 1
    for i, rules in enumerate(all_rules(variant, players)):
        for j in range(per_config):
            yield rules, 1000 * i + j + 17 * players


# ----------------------------------------------------------------------------- the tests
class Sweep:
    """Runs many games; a disagreement that is a known engine bug is counted (the test then reports xfail,
    not strict: the bug's own test in this file is the strict xfail), any other one fails the test."""

    def __init__(self) -> None:
        self.positions = 0
        self.known: dict[str, int] = {}

    def play(self, game: Game, ref: Ref, rng: random.Random) -> None:
        try:
            self.positions += play_in_step(game, ref, rng)
        except Disagreement as error:
            bug = known_bug(error.game)
            if bug is None:
                raise
            self.known[bug] = self.known.get(bug, 0) + 1

    def finish(self, at_least: int) -> None:
        assert self.positions >= at_least
        if self.known:
            pytest.xfail("; ".join(f"{bug} ({count} game(s))" for bug, count in self.known.items()))


@pytest.mark.parametrize(("variant", "players"), GRID)
def test_engine_agrees_with_reference_in_random_games(variant: str, players: int) -> None:
    """Every option combination of this variant and player count, one seeded random game each (more for
    short games): the engine's legal actions equal the reference's in every position, and so does the state."""
    sweep = Sweep()
    for rules, seed in games_for(variant, players):
        game = Game.new(rules, seed=seed)
        sweep.play(game, Ref.from_game(game), random.Random(seed))
    sweep.finish(at_least=1000)


@pytest.mark.parametrize(("variant", "first_attack"),
                         [(v, a) for v in VARIANTS for a in ("loser_left", "against_loser")
                          if v != "prostoy" or a == "loser_left"])  # Prostoy has no first-attack option
def test_series_games_agree(variant: str, first_attack: str) -> None:
    """Later games of a series: the loser deals, the first attacker follows the first_attack option."""
    sweep = Sweep()
    for players in (2, 3, 4):
        teams = "2v2" if players == 4 and variant != "prostoy" else None
        rules = Rules(variant=variant, players=players, first_attack=first_attack, teams=teams)
        series = Series(rules, seed=players)
        rng = random.Random(players)
        for index in range(4):
            game = series.game
            hands = [[str(c) for c in game.hand(p)] for p in range(players)]
            attacker = first_attacker(rules, hands, game.trump, game.dealer, first_game=index == 0)
            sweep.play(game, Ref.from_game(game, attacker=attacker), rng)
            if game.result is None:  # a known bug stopped it
                break
            series.next_game()
    sweep.finish(at_least=100)


SCENARIOS: list[dict[str, Any]] = [
    # RULES §2 worked example (seed 000 §07), talon empty, diamonds trump
    {"rules": {"variant": "podkidnoy", "players": 2}, "trump": "D", "talon": [],
     "hands": [["8H", "9S", "JH", "QS", "7C"], ["9H", "JD", "6C"]], "attacker": 0},
    # RULES §4 worked example (seed 002 §06), spades trump
    {"rules": {"variant": "prostoy", "players": 2}, "trump": "S", "talon": [],
     "hands": [["7C", "7D", "QH", "10S", "AH"], ["KC", "8D", "6C"]], "attacker": 0},
    # transfers around a table of three, one exposed trump
    {"rules": {"variant": "perevodnoy", "players": 3}, "trump_card": "7D", "talon": ["AS", "6H", "7D"],
     "hands": [["8H", "8S", "9C", "KD", "6S", "QC"], ["8C", "8D", "10H", "JS", "6D", "AC"],
               ["9S", "10C", "QH", "KS", "JH", "7S"]], "attacker": 0, "first_round": True},
    # everyone throws in, first round capped at 5, an exchange pending
    {"rules": {"variant": "podkidnoy", "players": 4, "throw_in": "everyone", "first_defence_limit": 5,
               "trump_six_exchange": True}, "trump_card": "QH", "talon": ["AD", "QH"],
     "hands": [["7S", "7C", "7D", "6H", "9S", "10D"], ["8S", "8C", "KD", "KS", "JC", "AS"],
               ["7H", "9C", "9D", "10S", "10C", "JS"], ["6S", "6C", "6D", "8D", "8H", "AH"]],
     "attacker": 0, "first_round": True},
    # a talon but no exposed card: no exchange although seat 1 holds the trump six
    {"rules": {"variant": "podkidnoy", "players": 2, "trump_six_exchange": True}, "trump": "H",
     "talon": ["AD", "QH", "7S"], "hands": [["7C", "9S", "10D", "JH", "KC", "QS"],
                                             ["6H", "8C", "9C", "10S", "JD", "QD"]], "attacker": 0},
    # 2v2v2 with a seat already out
    {"rules": {"variant": "perevodnoy", "players": 6, "teams": "2v2v2"}, "trump": "C", "talon": [],
     "hands": [["8S", "9S"], [], ["8H", "JC"], ["10S", "10H", "QD"], ["8D", "KH"], ["AS", "7C"]],
     "attacker": 0},
]


@pytest.mark.parametrize("index", range(len(SCENARIOS)))
def test_scenario_positions_agree(index: int) -> None:
    scenario = SCENARIOS[index]
    sweep = Sweep()
    for seed in range(40):
        game = Game.from_scenario(scenario)
        sweep.play(game, Ref.from_game(game, attacker=scenario["attacker"],
                                       first_round=scenario.get("first_round", False)), random.Random(seed))
    sweep.finish(at_least=40)


def random_position(rng: random.Random, rules: Rules) -> dict[str, Any]:
    """A random round-start scenario: hands of 0-7 cards (none empty while a talon is left), a talon of
    0-9 cards with or without an exposed trump, any attacker holding cards, first round or not."""
    cards = deck_cards(rules.deck)
    rng.shuffle(cards)
    n = rules.players
    team = (lambda s: s % TEAM_COUNT[rules.teams]) if rules.teams else (lambda s: s)
    while True:
        talon_size = rng.choice([0, 0, 1, 2, 3, 4, 6, 9])
        sizes = [rng.randint(0 if talon_size == 0 else 1, 7) for _ in range(n)]
        if sum(sizes) + talon_size <= len(cards) and len({team(s) for s in range(n) if sizes[s]}) > 1:
            break
    hands, start = [], 0
    for size in sizes:
        hands.append(cards[start:start + size])
        start += size
    talon = cards[start:start + talon_size]
    data: dict[str, Any] = {"rules": rules.to_dict(), "hands": hands, "talon": talon,
                            "attacker": rng.choice([s for s in range(n) if sizes[s]]),
                            "first_round": rng.random() < 0.3}
    if talon and rng.random() < 0.8:
        data["trump_card"] = talon[-1]
    else:
        data["trump"] = rng.choice(SUIT_LETTERS)
    return data


@pytest.mark.parametrize(("variant", "players"), GRID)
def test_random_round_start_positions_agree(variant: str, players: int) -> None:
    """Random endgame-like positions (small hands, short talons) reach what whole games rarely do:
    hands that empty while the talon runs out, several players leaving in one round, draws."""
    rng = random.Random(f"{variant}/{players}")
    choices = all_rules(variant, players)
    sweep = Sweep()
    for _ in range(80):
        scenario = random_position(rng, rng.choice(choices))
        game = Game.from_scenario(scenario)
        sweep.play(game, Ref.from_game(game, attacker=scenario["attacker"], first_round=scenario["first_round"]),
                   rng)
    sweep.finish(at_least=80)


def test_empty_hand_leaves_when_the_rounds_draws_empty_the_talon() -> None:
    """RULES §1 Going out: "Once the talon is empty, players with no cards leave at the end of the round"."""
    game = Game.from_scenario({"rules": {"variant": "podkidnoy", "players": 2}, "trump": "D",
                               "talon": ["QH", "AC"], "hands": [["9S", "8C"], ["10S"]], "attacker": 0})
    for seat, action in [(0, "attack 9S"), (1, "defend 9S 10S"), (0, "pass")]:
        game.apply(seat, action)
    # seat 0 drew the last two cards; seat 1 beat with his last card and cannot be refilled: he is out
    assert game.result is not None
    assert (game.result.durak, game.result.out_order, game.result.losers) == (0, [1], [0])
