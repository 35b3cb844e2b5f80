"""Lengths of records and positions, as text and URL-safe, over whole games between the AIs (docs/notation.md).

    python benchmarks/notation.py [--games 20]

Each game is dealt by ``Game.new(rules, seed=i)`` and played by bots of one level; the record carries the
players' names. The position measured is the one a third of the way through the game.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak import Game, Rules, url_safe
from durak.ai import make_player

CASES = [
    ("Podkidnoy, 2 players, normal", Rules(), "normal", 1.0),
    ("Perevodnoy, 2 players, normal", Rules(variant="perevodnoy"), "normal", 1.0),
    ("Podkidnoy, 4 players, normal", Rules(players=4), "normal", 0.5),
    ("Podkidnoy, 6 players, 52 cards, easy", Rules(players=6, deck=52), "easy", 0.25),
]


def measure(rules: Rules, level: str, games: int) -> dict[str, list[int]]:
    sizes: dict[str, list[int]] = {"moves": [], "record": [], "record_url": [], "position": [], "position_url": []}
    for seed in range(games):
        game = Game.new(rules, seed=seed)
        bots = [make_player(level, seed=seed + 7 * seat) for seat in range(rules.players)]
        positions = []
        while game.to_act is not None:
            seat = game.to_act
            game.apply(seat, bots[seat].choose(game.view(seat), game.legal_actions(seat)))
            positions.append(game.position())
        record = game.record(names=[f"Player {seat}" for seat in range(rules.players)])
        middle = positions[len(positions) // 3]
        for key, value in (("moves", len(game.history)), ("record", len(record)),
                           ("record_url", len(url_safe(record))), ("position", len(middle)),
                           ("position_url", len(url_safe(middle)))):
            sizes[key].append(value)
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20, help="games of the two-player cases (fewer for more players)")
    args = parser.parse_args()
    print("| game | moves | record | URL-safe record | position a third of the way in | URL-safe position |")
    print("| --- | --- | --- | --- | --- | --- |")
    for name, rules, level, share in CASES:
        games = max(1, round(args.games * share))
        sizes = measure(rules, level, games)
        median = {key: round(statistics.median(values)) for key, values in sizes.items()}
        print(f"| {name} ({games} games) | {median['moves']} | {median['record']:,} | {median['record_url']:,} "
              f"(max {max(sizes['record_url']):,}) | {median['position']} | {median['position_url']} "
              f"(max {max(sizes['position_url'])}) |")


if __name__ == "__main__":
    main()
