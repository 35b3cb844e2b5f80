"""Random-play fuzzing: many seeded full games under every rule set, and series of games.

Every game must end within a move cap with a consistent result; a series must follow the dealer rule of
RULES.md §1 ("the loser deals; after a draw the same dealer deals again") and the first-attack rule of §2.
"""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter
from collections.abc import Callable

import pytest

from durak import Game, Rules
from durak.series import Series

VARIANTS = ["podkidnoy", "perevodnoy", "prostoy"]
GRID = [(v, p) for v in VARIANTS for p in range(2, 7)]
MOVE_CAP = 3000  # random 6-player games take about 250 moves; the longest seen are under 1,000
TEAMS = {4: ["2v2"], 6: ["3v3", "2v2v2"]}
TEAM_COUNT = {"2v2": 2, "3v3": 2, "2v2v2": 3}


def every_rules(variant: str, players: int) -> list[Rules]:
    """Every valid combination of deck, throw_in, first_defence_limit, exchange, first_attack and teams."""
    prostoy = variant == "prostoy"
    decks = [d for d in (24, 36, 52) if players <= (4 if d == 24 else 6)]
    throw_ins = ["neighbours"] if prostoy else ["neighbours", "everyone"]
    limits = [6] if prostoy else [6, 5]
    teams = [None] if prostoy else [None, *TEAMS.get(players, [])]
    first_attacks = ["loser_left"] if prostoy else ["loser_left", "against_loser"]
    return [Rules(variant=variant, players=players, deck=deck, throw_in=throw_in, first_defence_limit=limit,
                  trump_six_exchange=exchange, first_attack=first_attack, teams=team)
            for deck, throw_in, limit, exchange, first_attack, team in itertools.product(
                decks, throw_ins, limits, [None, True, False], first_attacks, teams)]


class Stuck(AssertionError):
    """The seat to act has no legal action."""


# Open docs/engine-bugs.md entries: (entry, how to recognise a failure caused by it in the game where it showed).
# Empty while no bug is open; a fixed bug's entry goes, so that a regression fails instead of xfailing.
# (#2, fixed in e9a7de4, was recognised by: talon empty and an active seat with no cards.)
KNOWN_BUGS: list[tuple[str, Callable[[Game], bool]]] = []


def known_bug(game: Game) -> str | None:
    """The open docs/engine-bugs.md entry a failure is an instance of, if any (None: a new bug: fail)."""
    return next((entry for entry, shows in KNOWN_BUGS if shows(game)), None)


def play_out(game: Game, rng: random.Random, eager: bool = False) -> int:
    """Random legal moves to the end; returns the number of moves. ``eager``: mostly beat, transfer, throw
    in and exchange rather than take or pass (hands empty more often, and in more ways)."""
    moves = 0
    while game.to_act is not None:
        seat = game.to_act
        legal = game.legal_actions(seat)
        if not legal:
            raise Stuck(f"seat {seat} is to act with no legal action: {json.dumps(game.to_dict())}")
        action = legal[rng.randrange(len(legal))]
        if eager and action.kind in ("take", "pass") and rng.random() < 0.85:
            action = next((a for a in legal if a.kind not in ("take", "pass")), action)
        game.apply(seat, action)
        moves += 1
        assert moves <= MOVE_CAP, f"no end after {MOVE_CAP} moves: {json.dumps(game.to_dict())}"
    return moves


def team_of(rules: Rules, seat: int) -> int:
    return seat % TEAM_COUNT[rules.teams] if rules.teams else seat


def check_result(game: Game) -> None:
    """durak / losers / out_order / draw are consistent with each other and with the cards left."""
    rules, result = game.rules, game.result
    assert result is not None and game.to_act is None
    n = rules.players
    seats = set(range(n))
    out = result.out_order
    holding = {s for s in seats if game.hand(s)}
    assert len(out) == len(set(out)), f"a seat went out twice: {out}"
    assert set(out) <= seats
    assert not game.talon and not game.table
    assert set(out).isdisjoint(holding), "a seat that went out still holds cards"
    assert set(out) | holding == seats, "out_order and the seats still holding cards must cover the table"
    assert all(not game.hand(s) for s in out)
    if result.draw:
        assert result.durak is None and result.losers == [] and not holding
        assert sorted(out) == sorted(seats)
        return
    assert holding, "not a draw, so somebody still holds cards"
    losing_teams = {team_of(rules, s) for s in holding}
    assert len(losing_teams) == 1, "the game ends when only one side holds cards"
    losing = losing_teams.pop()
    assert sorted(result.losers) == [s for s in range(n) if team_of(rules, s) == losing]
    if rules.teams is None:
        assert result.losers == [result.durak]
        assert holding == {result.durak}
        assert sorted([*out, result.durak]) == sorted(seats)
    else:
        assert result.durak is None if len(holding) > 1 else result.durak == min(holding)
    assert result.durak is None or result.durak in result.losers
    if result.durak is not None:
        assert result.durak not in out


class KnownBugs:
    """Counts games stopped by a known engine bug; any other failure is raised at once."""

    def __init__(self) -> None:
        self.hits: Counter[str] = Counter()

    def play(self, game: Game, rng: random.Random, eager: bool = False) -> bool:
        """Play ``game`` out; False if a known bug stopped it."""
        try:
            play_out(game, rng, eager)
        except Stuck:
            bug = known_bug(game)
            if bug is None:
                raise
            self.hits[bug] += 1
            return False
        return True

    def finish(self) -> None:
        if self.hits:
            pytest.xfail("; ".join(f"{bug} ({count} game(s))" for bug, count in self.hits.items()))


@pytest.mark.parametrize(("variant", "players"), GRID)
def test_random_games_end_with_a_consistent_result(variant: str, players: int) -> None:
    """Every option combination, three seeded games each (more for the short heads-up games)."""
    bugs = KnownBugs()
    rules_list = every_rules(variant, players)
    rounds = 3 if players > 2 else 8
    lengths: list[int] = []
    for index, rules in enumerate(rules_list * rounds):
        seed = 7919 * index + players
        game = Game.new(rules, seed=seed)
        before = len(game.history)
        if bugs.play(game, random.Random(seed), eager=index % 2 == 1):
            check_result(game)
            lengths.append(len(game.history) - before)
    assert len(lengths) >= len(rules_list)
    bugs.finish()


def expected_first_attacker(game: Game) -> int:
    """RULES §2/§4 for a later game of a series: the dealer is the previous loser."""
    rules, n, dealer = game.rules, game.rules.players, game.dealer
    if rules.variant == "prostoy" or rules.first_attack == "loser_left":
        return (dealer + 1) % n
    return (dealer - 1) % n


@pytest.mark.parametrize("variant", VARIANTS)
def test_series_follow_the_dealer_rule(variant: str) -> None:
    """The loser deals the next game (with teams: a losing player still holding cards); after a draw the
    same dealer deals; the first attack follows first_attack; losses, first-outs and draws are tallied."""
    bugs = KnownBugs()
    games = 0
    for players in range(2, 7):
        for teams in [None, *(TEAMS.get(players, []) if variant != "prostoy" else [])]:
            for first_attack in ("loser_left",) if variant == "prostoy" else ("loser_left", "against_loser"):
                rules = Rules(variant=variant, players=players, teams=teams, first_attack=first_attack)
                seed = players * 100 + len(teams or "") + len(first_attack)
                series = Series(rules, seed=seed)
                rng = random.Random(seed)
                losses, first_out, draws = [0] * players, [0] * players, 0
                for number in range(6):
                    game = series.game
                    if number > 0:
                        assert game.attacker == expected_first_attacker(game)
                        if rules.first_attack == "against_loser":
                            assert game.defender == game.dealer, "the previous loser defends first"
                    if not bugs.play(game, rng, eager=number % 2 == 1):
                        break
                    check_result(game)
                    games += 1
                    result = game.result
                    assert result is not None
                    for seat in result.losers:
                        losses[seat] += 1
                    if result.out_order:
                        first_out[result.out_order[0]] += 1
                    draws += result.draw
                    saved = Series.from_dict(json.loads(json.dumps(series.to_dict())))
                    assert saved.to_dict() == series.to_dict()
                    dealer = game.dealer
                    nxt = series.next_game()
                    assert nxt is series.game and nxt.result is None
                    if result.draw:
                        assert nxt.dealer == dealer, "after a draw the same dealer deals again"
                    elif result.durak is not None:
                        assert nxt.dealer == result.durak, "the loser deals"
                    else:
                        assert nxt.dealer in result.losers and nxt.dealer not in result.out_order
                    assert series.games_played == number + 1
                    assert series.losses == losses and series.first_out == first_out and series.draws == draws
                    assert saved.next_game().to_dict() == nxt.to_dict(), "a restored series deals the same game"
    assert games >= (30 if variant == "prostoy" else 60)  # Prostoy has one first-attack rule, the others two
    bugs.finish()


def test_a_series_refuses_to_deal_before_the_game_ends() -> None:
    series = Series(Rules(), seed=3)
    with pytest.raises(ValueError):
        series.next_game()
    assert series.games_played == 0


def test_games_are_reproducible_from_the_seed() -> None:
    """Same rules, seed and moves: the same game; another seed: another deal."""
    for rules in (Rules(), Rules(variant="perevodnoy", players=4), Rules(variant="prostoy", players=3)):
        first, second = Game.new(rules, seed=99), Game.new(rules, seed=99)
        play_out(first, random.Random(1))
        play_out(second, random.Random(1))
        assert first.to_dict() == second.to_dict()
        assert Game.new(rules, seed=100).to_dict()["hands"] != Game.new(rules, seed=99).to_dict()["hands"]
