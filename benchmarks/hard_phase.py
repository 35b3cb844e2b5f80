"""Where in a game hard's thinking pays: the arena with hard's budget scaled by the cards left in the talon.

    python benchmarks/hard_phase.py --scale 0,1.3,1.6 [--b normal] [--deals 200] [--seed 7000] [--budget 0.025]

``--scale EARLY,MID,LATE`` multiplies hard's per-decision budget while the talon holds 15 cards or more,
5 to 14, and fewer than 5 (0: normal's pick, no search). The budget defaults to the phone stand-in of
docs/ai.md (an eighth of the page's 0.2 s). Prints the arena's report (score with its 95% interval).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from durak import arena
from durak.ai import hard

EARLY_TALON, LATE_TALON = 15, 5


def scale_by_talon(early: float, mid: float, late: float) -> None:
    """Make every hard decision from now on scale its budget by the talon's size."""
    plain_init = hard.HardThinker.__init__

    def scaled_init(thinker: hard.HardThinker, *args: Any, **kwargs: Any) -> None:
        plain_init(thinker, *args, **kwargs)
        talon = thinker.seen.talon
        thinker.budget *= early if talon >= EARLY_TALON else mid if talon >= LATE_TALON else late

    hard.HardThinker.__init__ = scaled_init  # type: ignore[method-assign]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scale", default="1,1,1", help="EARLY,MID,LATE multipliers of the budget")
    parser.add_argument("--b", default="normal", help="hard's opponent")
    parser.add_argument("--deals", default="200")
    parser.add_argument("--seed", default="7000")
    parser.add_argument("--budget", default="0.025", help="hard's seconds per decision before scaling")
    parser.add_argument("--variant", default="podkidnoy")
    args = parser.parse_args()
    early, mid, late = (float(x) for x in args.scale.split(","))
    scale_by_talon(early, mid, late)
    print(f"hard's budget x{early} while the talon holds {EARLY_TALON}+ cards, x{mid} from {LATE_TALON}, x{late} below")
    return arena.main(["--a", "hard", "--b", args.b, "--deals", args.deals, "--seed", args.seed,
                       "--time-budget", args.budget, "--variant", args.variant])


if __name__ == "__main__":
    sys.exit(main())
