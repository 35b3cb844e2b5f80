"""How well hard reads the hidden hand: the sampler's odds for each unseen card against where it really is.

    python benchmarks/hand_reading.py [--against easy] [--variant podkidnoy] [--games 40] [--deals 48]

Normal plays seat 0 against ``--against`` in seeded heads-up games. At each of seat 0's real choices
while the talon is not empty, the sampler deals the cards seat 0 cannot see ``--deals`` times, once with
the history's evidence (durak/ai/inference.py) and once without (a uniform deal); each unseen card's share
of deals into the opponent's hand is scored against where the card is. Lower is better for both scores:
log loss (shares clipped to 2–98%) and the Brier score.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from random import Random

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak import Game, Rules
from durak.ai import make_player
from durak.ai.inference import likelihoods
from durak.ai.sampler import Sampler
from durak.ai.seen import Seen
from durak.cards import Card

CLIP = 0.02


class Score:
    """Log loss and Brier score summed over scored cards."""

    def __init__(self) -> None:
        self.log_loss = 0.0
        self.brier = 0.0
        self.cards = 0

    def add(self, share: float, held: bool) -> None:
        p = min(max(share, CLIP), 1 - CLIP)
        self.log_loss -= math.log(p if held else 1 - p)
        self.brier += (share - held) ** 2
        self.cards += 1

    def line(self, name: str) -> str:
        return f"{name:16s} log loss {self.log_loss / self.cards:.4f}   Brier {self.brier / self.cards:.4f}"


def shares(sampler: Sampler, seat: int, deals: int, rng: Random) -> dict[Card, float]:
    """Each unseen card's share of ``deals`` sampled deals that put it in ``seat``'s hand."""
    counts = dict.fromkeys(sampler.cards, 0)
    for _ in range(deals):
        for card in sampler.deal(rng)[0][seat]:
            if card in counts:
                counts[card] += 1
    return {card: count / deals for card, count in counts.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--against", default="easy", choices=["easy", "normal", "hard"])
    parser.add_argument("--variant", default="podkidnoy")
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--deals", type=int, default=48)
    parser.add_argument("--seed", type=int, default=500)
    args = parser.parse_args()
    rules = Rules(variant=args.variant, players=2)
    weighted, uniform = Score(), Score()
    for seed in range(args.seed, args.seed + args.games):
        game = Game.new(rules, seed=seed)
        players = [make_player("normal", seed=seed * 31), make_player(args.against, seed=seed * 31 + 1)]
        while game.result is None:
            seat = game.to_act
            assert seat is not None
            legal = game.legal_actions(seat)
            view = game.view(seat)
            if seat == 0 and len(legal) > 1 and view["talon"] > 0:
                seen = Seen.read(view)
                held = set(game.hands[1])
                none: list[dict[Card, float]] = [{}, {}]
                for score, weights in ((weighted, likelihoods(seen)), (uniform, none)):
                    rng = Random(seed * 1000 + len(seen.history))
                    for card, share in shares(Sampler(seen, weights), 1, args.deals, rng).items():
                        score.add(share, card in held)
            game.apply(seat, players[seat].choose(view, legal))
    print(f"{args.variant}, normal against {args.against}, {args.games} games from seed {args.seed}, "
          f"{weighted.cards} unseen cards scored at seat 0's choices, {args.deals} deals each")
    print(weighted.line("with evidence"))
    print(uniform.line("uniform deal"))


if __name__ == "__main__":
    main()
