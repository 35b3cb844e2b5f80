"""The exact endgame solver's speed: proofs of positions met in seeded heads-up games, processor time.

    .venv/bin/python benchmarks/endgame.py [--positions 60] [--rounds 3] [--save FILE | --compare FILE]

The positions are those of normal players' games (Podkidnoy, Perevodnoy and Prostoy in turn) once the
talon is empty, where the side to act has a choice: every card is known, so hard proves its move there
(durak/ai/endgame.py). Each is solved with the node budget hard has in iteration mode. Prints the nodes
searched, how many proofs finished, and the processor time of a round (median of the rounds) and per node.
``--save`` writes every proof's values and node count, ``--compare`` checks another build gives the very
same: a faster solver must search the same tree.
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak import Game, Rules
from durak.ai import make_player
from durak.ai.endgame import OutOfBudget, Solver
from durak.ai.hard import ENDGAME_NODES

VARIANTS = ("podkidnoy", "perevodnoy", "prostoy")
Proof = tuple[tuple[tuple[str, int], ...] | None, int]


def positions(count: int) -> list[Game]:
    """Heads-up positions with every card known and a choice to make, from seeded games of normal players."""
    found: list[Game] = []
    normal = make_player("normal")
    rng = random.Random(0)
    deal = 0
    while len(found) < count:
        game = Game.new(Rules(variant=VARIANTS[deal % 3], players=2), seed=1000 + deal)
        deal += 1
        while game.result is None and len(found) < count:
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions(seat)
            if not game.talon and sum(game.active) == 2 and len(legal) > 1 and rng.random() < 0.5:
                found.append(game.copy())
            game.apply(seat, normal.choose(game.view(seat), legal))
    return found


def prove_all(games: list[Game]) -> tuple[list[Proof], float]:
    """Each position's proof (None when the budget ran out) and nodes, and the round's processor time."""
    proofs: list[Proof] = []
    started = time.process_time()
    for game in games:
        assert game.to_act is not None
        solver = Solver(game.rules.team_of(game.to_act))
        try:
            values = solver.solve(game, ENDGAME_NODES)
            proofs.append((tuple((str(action), value) for action, value in values), solver.nodes))
        except OutOfBudget:
            proofs.append((None, solver.nodes))
    return proofs, time.process_time() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--save", type=Path, help="write the proofs here")
    parser.add_argument("--compare", type=Path, help="check the proofs are those written here by --save")
    args = parser.parse_args(argv)
    games = positions(args.positions)
    rounds = [prove_all(games) for _ in range(args.rounds)]
    proofs = rounds[0][0]
    seconds = statistics.median(spent for _, spent in rounds)
    nodes = sum(count for _, count in proofs)
    print(f"{len(games)} positions, {nodes:,} nodes, {sum(v is not None for v, _ in proofs)} proofs finished; "
          f"{seconds:.2f} s of processor time a round (median of {args.rounds}: "
          f"{', '.join(f'{spent:.2f}' for _, spent in rounds)}), {seconds / nodes * 1e6:.1f} µs a node")
    if args.save:
        args.save.write_bytes(pickle.dumps(proofs))
    if args.compare:
        same = pickle.loads(args.compare.read_bytes()) == proofs
        print("the same proofs and node counts as " + str(args.compare) if same else "DIFFERENT proofs")
        return 0 if same else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
