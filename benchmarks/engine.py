"""Engine speed: random full games per second, legal_actions, apply and copy calls per second.

    python benchmarks/engine.py [--seconds 2] [--warmup 0.5] [--players 2 6] [--variants podkidnoy ...] [--floor]

Single-threaded (one core). A "random game" is ``Game.new`` plus uniformly random legal moves to the end.
The per-call figures come from positions met in random 2-player games of each variant: ``legal_actions``
is timed on positions nobody has asked yet (copies taken right after a move), ``apply`` on the same
positions once their legal actions are listed (as in a game loop), ``copy`` on every position.
Goal (docs/api.md, the AI's search budget): at least 2,000 random 2-player Podkidnoy games per second.

``--floor`` also runs the same loop on ``FloorGame``, an engine that does nothing but answer the calls, and
prints its games/s and the ratio floor / real engine: the ceiling any engine with this API can reach in this
loop on this Python, since the loop, the random choices and the shuffle are paid whatever the engine does.
"""

from __future__ import annotations

import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak import Action, Game, Rules
from durak.actions import ATTACK_ONE, PASS_ACTION, TAKE_ACTION

VARIANTS = ("podkidnoy", "perevodnoy", "prostoy")
GOAL_GAMES_PER_SECOND = 2000


class FloorGame:
    """A do-nothing engine with ``Game``'s call pattern, for ``--floor``: ``new`` shuffles a deck with the seed's
    ``random.Random`` as a deal does, ``to_act`` alternates two seats, ``legal_actions`` returns a copy of a
    prebuilt four-action list, ``apply`` appends to the history and returns a prebuilt event list; the game
    ends after ``moves`` moves (set to the real engine's moves per game, so both loops run as many moves)."""

    __slots__ = ("_cards", "_left", "history", "to_act")
    moves: ClassVar[int] = 107
    _legal: ClassVar[list[Action]] = [PASS_ACTION, TAKE_ACTION, ATTACK_ONE[0], ATTACK_ONE[4]]
    _events: ClassVar[list[object]] = []

    @classmethod
    def new(cls, rules: Rules, seed: int) -> FloorGame:
        game = cls()
        game._cards = list(range(36))
        random.Random(seed).shuffle(game._cards)
        game._left = cls.moves
        game.history = []
        game.to_act = 0
        return game

    def legal_actions(self, seat: int) -> list[Action]:
        return list(self._legal)

    def apply(self, seat: int, action: Action) -> list[object]:
        self.history.append((seat, action))
        self._left -= 1
        self.to_act = None if self._left == 0 else 1 - seat
        return self._events


def random_game(rules: Rules, seed: int, new: Callable[..., Any] = Game.new) -> int:
    """Deal and play one game with uniformly random legal moves; returns the number of moves."""
    game = new(rules, seed=seed)
    choice = random.Random(seed).choice
    moves = 0
    seat = game.to_act
    while seat is not None:
        game.apply(seat, choice(game.legal_actions(seat)))
        moves += 1
        seat = game.to_act
    return moves


def timed(seconds: float, step: Callable[[int], int]) -> tuple[int, int, float, float]:
    """Call ``step(i)`` for i = 0, 1, ... until ``seconds`` have passed.

    Returns (calls, sum of the results, wall seconds, CPU seconds of this process)."""
    calls = total = 0
    cpu = time.process_time()
    start = time.perf_counter()
    deadline = start + seconds
    now = start
    while now < deadline:
        total += step(calls)
        calls += 1
        now = time.perf_counter()
    return calls, total, now - start, time.process_time() - cpu


def games_per_second(rules: Rules, seconds: float, warmup: float,
                     new: Callable[..., Any] = Game.new) -> tuple[float, float, float]:
    """(games per wall second, moves per game, share of a core this process got while measuring)."""
    timed(warmup, lambda i: random_game(rules, 10**6 + i, new))
    games, moves, wall, cpu = timed(seconds, lambda i: random_game(rules, i, new))
    return games / wall, moves / games, cpu / wall


def positions(rules: Rules, count: int) -> list[tuple[Game, int, Action]]:
    """Uncached copies of positions from random games, each with its seat to act and a random legal move."""
    found: list[tuple[Game, int, Action]] = []
    seed = 0
    while len(found) < count:
        game = Game.new(rules, seed=seed)
        rng = random.Random(seed)
        seed += 1
        while game.to_act is not None and len(found) < count:
            fresh = game.copy()  # taken before anyone asked for its legal actions
            seat = game.to_act
            action = rng.choice(game.legal_actions(seat))
            found.append((fresh, seat, action))
            game.apply(seat, action)
    return found


def per_call(rules: Rules, seconds: float, warmup: float) -> dict[str, float]:
    """legal_actions (first call in a position), apply (legal actions listed) and copy: calls per second;
    "core share": the share of a core this process got while measuring."""
    base = positions(rules, 3000)
    spent = {"legal_actions": 0.0, "apply": 0.0, "copy": 0.0}
    calls = 0
    clock = time.perf_counter
    warm_until = clock() + warmup
    rounds = 0
    cpu = wall = 0.0
    while rounds == 0 or sum(spent.values()) < seconds:
        c0 = time.process_time()
        t0 = clock()
        batch = [game.copy() for game, _, _ in base]
        t1 = clock()
        for game, (_, seat, _) in zip(batch, base, strict=True):
            game.legal_actions(seat)
        t2 = clock()
        for game, (_, seat, action) in zip(batch, base, strict=True):
            game.apply(seat, action)
        t3 = clock()
        if t0 < warm_until:
            continue
        cpu += time.process_time() - c0
        wall += t3 - t0
        rounds += 1
        calls += len(base)
        spent["copy"] += t1 - t0
        spent["legal_actions"] += t2 - t1
        spent["apply"] += t3 - t2
    rates = {name: calls / elapsed for name, elapsed in spent.items()}
    rates["core share"] = cpu / wall
    return rates


def main(argv: list[str] | None = None) -> int:
    import argparse  # here, not at the top: Pyodide's standard library has neither (engine-pyodide.mjs)
    import platform

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="measuring time per figure (default 2)")
    parser.add_argument("--warmup", type=float, default=0.5, help="untimed warm-up per figure (default 0.5)")
    parser.add_argument("--players", type=int, nargs="+", default=[2, 6], help="player counts (default 2 6)")
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--floor", action="store_true",
                        help="also time the loop on a do-nothing engine: the ceiling for this API in this loop")
    args = parser.parse_args(argv)
    if args.seconds <= 0 or args.warmup < 0:
        parser.error("--seconds must be positive and --warmup not negative")

    print(f"durak engine benchmark: Python {platform.python_version()} ({platform.python_implementation()}), "
          f"one core, {args.seconds:g} s per figure after {args.warmup:g} s warm-up")
    print("\nrandom full games per second (Game.new + uniformly random legal moves to the end):")
    goal: float | None = None
    shares: list[float] = []
    for variant in args.variants:
        for players in args.players:
            rules = Rules(variant=variant, players=players)
            rate, moves, share = games_per_second(rules, args.seconds, args.warmup)
            shares.append(share)
            print(f"  {variant:<11} {players} players {rate:>9,.0f} games/s  {moves:6.1f} moves/game "
                  f"{rate * moves:>9,.0f} moves/s   core share {share:4.0%}", flush=True)
            if variant == "podkidnoy" and players == 2:
                goal = rate
            if args.floor:
                FloorGame.moves = round(moves)
                floor, _, share = games_per_second(rules, args.seconds, args.warmup, FloorGame.new)
                shares.append(share)
                print(f"  {'floor':<11} {players} players {floor:>9,.0f} games/s  {FloorGame.moves:6d} moves/game "
                      f"{floor * FloorGame.moves:>9,.0f} moves/s   core share {share:4.0%}   "
                      f"floor / engine {floor / rate:.1f}x", flush=True)
    print("\ncalls per second on positions from random 2-player games:")
    print(f"  {'':<11} {'legal_actions':>14} {'apply':>10} {'copy':>10}")
    for variant in args.variants:
        rates = per_call(Rules(variant=variant, players=2), args.seconds, args.warmup)
        shares.append(rates["core share"])
        print(f"  {variant:<11} {rates['legal_actions']:>14,.0f} {rates['apply']:>10,.0f} {rates['copy']:>10,.0f}"
              f"   core share {rates['core share']:4.0%}", flush=True)
    if goal is not None:
        verdict = "met" if goal >= GOAL_GAMES_PER_SECOND else "NOT met"
        print(f"\ngoal >= {GOAL_GAMES_PER_SECOND:,} random 2-player Podkidnoy games/s: {verdict} ({goal:,.0f})")
    if shares and min(shares) < 0.9:
        print(f"note: the machine was busy (this process got as little as {min(shares):.0%} of a core): "
              "the figures above are low by about that share")
    return 0


if __name__ == "__main__":
    sys.exit(main())
