"""Speed of the engine's text forms: saves, views, records and positions written and read back.

    python benchmarks/saves.py [--games 40] [--seed 1]

The page saves the game after every move, the engine worker sends a view per move to each seat, and the
review and the history read whole records: all of them write and read card and action texts. Random
heads-up and four-player Podkidnoy games (seeded, so every run plays the same moves); at every move the
game is saved (``to_dict``), read back (``from_dict``), viewed by each seat, and its position written and
read; each finished game's record is written and replayed. Prints microseconds per call and the total.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak import Game, Rules

T = TypeVar("T")


def timed(totals: dict[str, list[float]], name: str, call: Callable[[], T]) -> T:
    started = time.perf_counter()
    value = call()
    spent = time.perf_counter() - started
    entry = totals.setdefault(name, [0.0, 0])
    entry[0] += spent
    entry[1] += 1
    return value


def play(rules: Rules, seed: int, totals: dict[str, list[float]]) -> None:
    game = Game.new(rules, seed=seed)
    rng = random.Random(seed)
    while game.result is None and game.to_act is not None:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, rng.choice(game.legal_actions(seat)))
        saved = timed(totals, "save (to_dict)", game.to_dict)
        timed(totals, "read a save (from_dict)", partial(Game.from_dict, saved))
        for viewer in range(rules.players):
            timed(totals, "a seat's view", partial(game.view, viewer))
        position = timed(totals, "position written", game.position)
        timed(totals, "position read", partial(Game.from_position, position))
    record = timed(totals, "record written", game.record)
    timed(totals, "record replayed", partial(Game.from_record, record))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40, help="games per player count (default 40)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    totals: dict[str, list[float]] = {}
    started = time.perf_counter()
    for players in (2, 4):
        for index in range(args.games):
            play(Rules(players=players), args.seed + index, totals)
    print(f"{'call':28} {'calls':>8} {'µs per call':>12}")
    for name, (spent, calls) in totals.items():
        print(f"{name:28} {int(calls):8,} {spent / calls * 1e6:12.1f}")
    print(f"total {time.perf_counter() - started:.2f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
