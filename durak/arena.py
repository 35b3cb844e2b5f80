"""Bot tournaments with honest numbers: ``python -m durak.arena --a hard --b easy --deals 500``.

With ``--cheating`` (RULES.md §7) the bots may cheat, and after every move each seat in turn, starting after
the one that moved, may accuse a table card; the report adds how often each level cheats, is caught and catches.
Every deal is played once per rotation of the line-up (heads-up: twice, seats swapped), so luck of the
deal and of the seat cancels out; scores carry a 95% Wilson interval; runaway games are stopped by a
move cap and reported as defects rather than silently dropped.
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from . import Game, Rules
from . import events as ev
from .ai import LEVELS, Player, make_player

Z95 = 1.959964


def wilson(successes: float, trials: int) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (draws may count as half a success)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + Z95**2 / trials
    centre = (p + Z95**2 / (2 * trials)) / denominator
    half = Z95 * math.sqrt(p * (1 - p) / trials + Z95**2 / (4 * trials**2)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


@dataclass
class Tally:
    """Outcomes of one line-up position (or level) over many games."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    @property
    def score(self) -> float:
        """Wins plus half the draws: the usual tournament score."""
        return self.wins + self.draws / 2


@dataclass
class CheatTally:
    """Cheat mode, for one level: its chances to cheat, its cheats, and its accusations."""

    chances: int = 0  # decisions at which some cheat was possible
    cheats: int = 0
    caught: int = 0  # its cheats that somebody named
    catches: int = 0  # its right accusations
    wrong: int = 0  # its wrong accusations


@dataclass
class Report:
    """What a tournament measured."""

    lineup: list[str]
    games: int = 0
    tallies: dict[int, Tally] = field(default_factory=lambda: defaultdict(Tally))
    times: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    defects: list[str] = field(default_factory=list)
    cheating: dict[str, CheatTally] = field(default_factory=lambda: defaultdict(CheatTally))


def play(
    rules: Rules, deal_seed: int, lineup: Sequence[str], rotation: int, report: Report,
    *, iterations: int | None, time_budget: float, move_cap: int,
) -> None:
    """Play one game: seat ``s`` gets line-up entry ``(s + rotation) % n``; record it in ``report``."""
    game = Game.new(rules, seed=deal_seed)
    n = rules.players
    entry = [(seat + rotation) % n for seat in range(n)]
    bots = [
        make_player(lineup[entry[seat]], seed=deal_seed * 31 + seat, iterations=iterations,
                    time_budget=time_budget)
        for seat in range(n)
    ]
    moves = 0
    while game.result is None:
        if moves >= move_cap:
            report.defects.append(f"deal seed {deal_seed}, rotation {rotation}: no result after {move_cap} moves")
            return
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        if not legal:
            report.defects.append(f"deal seed {deal_seed}, rotation {rotation}: seat {seat} to act has no legal action")
            return
        cheats = game.cheats(seat)
        start = time.perf_counter()
        action = bots[seat].choose(game.view(seat), legal, cheats)
        report.times[lineup[entry[seat]]].append(time.perf_counter() - start)
        if cheats:
            cheat = report.cheating[lineup[entry[seat]]]
            cheat.chances += 1
            cheat.cheats += action not in legal
        game.apply(seat, action)
        moves += 1
        if rules.cheating:
            _accusations(game, seat, bots, [lineup[e] for e in entry], report)
    report.games += 1
    for seat in range(n):
        tally = report.tallies[entry[seat]]
        if game.result.draw:
            tally.draws += 1
        elif seat in game.result.losers:
            tally.losses += 1
        else:
            tally.wins += 1


def _accusations(game: Game, mover: int, bots: list[Player], levels: list[str], report: Report) -> None:
    """Each seat in turn after ``mover`` (``mover`` last) may accuse; the first accusation ends the bout."""
    n = game.players
    for step in range(1, n + 1):
        seat = (mover + step) % n
        options = game.accusations(seat)
        if not options:
            continue
        choice = bots[seat].accuse(game.view(seat), options)
        if choice is None:
            continue
        outcome = game.apply(seat, choice)[0]
        if outcome.kind == ev.CAUGHT:
            report.cheating[levels[seat]].catches += 1
            assert outcome.target is not None
            report.cheating[levels[outcome.target]].caught += 1
        else:
            report.cheating[levels[seat]].wrong += 1
        return


def tournament(
    rules: Rules, lineup: Sequence[str], deals: int, seed: int, *,
    iterations: int | None = None, time_budget: float = 0.2, move_cap: int = 3000, progress: bool = False,
) -> Report:
    """Play ``deals`` deals, each once per rotation of ``lineup``."""
    report = Report(list(lineup))
    for deal in range(deals):
        for rotation in range(len(lineup)):
            play(rules, seed + deal, lineup, rotation, report,
                 iterations=iterations, time_budget=time_budget, move_cap=move_cap)
        if progress and (deal + 1) % 10 == 0:
            print(f"... {deal + 1}/{deals} deals", file=sys.stderr, flush=True)
    return report


def percent(x: float) -> str:
    return f"{100 * x:.1f}%"


def summary(report: Report, rules: Rules) -> list[str]:
    """The report as text lines: per-position results, decision times, defects."""
    n = len(report.lineup)
    lines = [f"{report.games} games"]
    if n == 2 and not rules.teams:
        tally = report.tallies[0]
        low, high = wilson(tally.score, tally.games)
        lines.append(
            f"{report.lineup[0]} vs {report.lineup[1]}: {tally.wins} wins, {tally.losses} losses, "
            f"{tally.draws} draws; score {percent(tally.score / max(1, tally.games))} "
            f"(95% CI {percent(low)}-{percent(high)})"
        )
    else:
        baseline = 1 / rules.team_count
        lines.append(f"loss rate baseline (one side in {rules.team_count}): {percent(baseline)}")
        for level in dict.fromkeys(report.lineup):
            pooled = Tally()
            for position, entry in enumerate(report.lineup):
                if entry == level:
                    tally = report.tallies[position]
                    pooled.wins += tally.wins
                    pooled.losses += tally.losses
                    pooled.draws += tally.draws
            low, high = wilson(pooled.losses, pooled.games)
            lines.append(
                f"{level}: lost {pooled.losses} of {pooled.games} seat-games = "
                f"{percent(pooled.losses / max(1, pooled.games))} (95% CI {percent(low)}-{percent(high)}), "
                f"draws {pooled.draws}"
            )
    for level, times in sorted(report.times.items()):
        lines.append(
            f"decision time {level}: median {1000 * statistics.median(times):.2f} ms, "
            f"worst {1000 * max(times):.1f} ms over {len(times)} decisions"
        )
    for level, cheat in sorted(report.cheating.items()):
        lines.append(
            f"cheating {level}: cheated {cheat.cheats} times at {cheat.chances} chances "
            f"({percent(cheat.cheats / max(1, cheat.chances))}), caught {cheat.caught} "
            f"({percent(cheat.caught / max(1, cheat.cheats))} of its cheats); "
            f"caught others {cheat.catches} times, wrong accusations {cheat.wrong}"
        )
    lines.append(f"defects (runaway or stuck games): {len(report.defects)}")
    lines.extend("  " + defect for defect in report.defects)
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m durak.arena", description=__doc__.splitlines()[0])
    parser.add_argument("--a", choices=LEVELS, help="first bot (heads-up, or alternating seats)")
    parser.add_argument("--b", choices=LEVELS, help="second bot")
    parser.add_argument("--lineup", help="comma-separated levels, one per seat, e.g. hard,normal,normal,normal")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--variant", default="podkidnoy")
    parser.add_argument("--players", type=int, help="default: the line-up's length, else 2")
    parser.add_argument("--deck", type=int, default=36)
    parser.add_argument("--throw-in", default="neighbours")
    parser.add_argument("--teams", default=None)
    parser.add_argument("--first-defence-limit", type=int, default=6)
    parser.add_argument("--cheating", action="store_true", help="cheat mode: bots cheat and accuse")
    parser.add_argument("--iterations", type=int, help="hard: sampled worlds per decision (reproducible)")
    parser.add_argument("--time-budget", type=float, default=0.2, help="hard: seconds per decision")
    parser.add_argument("--move-cap", type=int, default=3000)
    parser.add_argument("--progress", action="store_true", help="a line on stderr every 10 deals")
    args = parser.parse_args(argv)
    if args.lineup:
        lineup = args.lineup.split(",")
        unknown = [level for level in lineup if level not in LEVELS]
        if unknown:
            parser.error(f"unknown level(s) {', '.join(unknown)}: choose from {', '.join(LEVELS)}")
    elif args.a and args.b:
        players = args.players or 2
        lineup = [args.a if seat % 2 == 0 else args.b for seat in range(players)]
    else:
        parser.error("give --a and --b, or --lineup")
    rules = Rules(
        variant=args.variant, players=args.players or len(lineup), deck=args.deck, throw_in=args.throw_in,
        teams=args.teams, first_defence_limit=args.first_defence_limit, cheating=args.cheating,
    )
    if rules.players != len(lineup):
        parser.error(f"the line-up has {len(lineup)} seats but the rules have {rules.players} players")
    setting = f"iterations {args.iterations}" if args.iterations else f"time budget {args.time_budget} s"
    print(f"{rules.variant}, {rules.players} players, {rules.deck} cards"
          f"{', teams ' + rules.teams if rules.teams else ''}{', cheat mode' if rules.cheating else ''}; "
          f"line-up {','.join(lineup)}; "
          f"{args.deals} deals x {len(lineup)} rotations, seed {args.seed}; hard: {setting}")
    started = time.perf_counter()
    report = tournament(rules, lineup, args.deals, args.seed, iterations=args.iterations,
                        time_budget=args.time_budget, move_cap=args.move_cap, progress=args.progress)
    for line in summary(report, rules):
        print(line)
    print(f"wall time {time.perf_counter() - started:.0f} s")
    return 1 if report.defects else 0


if __name__ == "__main__":
    raise SystemExit(main())
