"""Play Durak in a terminal: ``python -m durak.cli [--variant perevodnoy] [--players 3] [--seed 7]``.

You see what your seat may see (your hand, the table, the trump, the talon's size, the others' hand sizes
and the cards everybody knows they hold), then the numbered legal actions. Type a number or an action in
notation (``attack 8H``, ``attack 8h 8d``, ``defend 8H 9H``, ``transfer 8D``, ``take``, ``pass``,
``exchange``; ``T`` or ``10``, letters or ♠♥♦♣, any case). ``help`` lists the commands, ``quit`` leaves.
The other seats play at random (``--opponents random``) or always their first legal action (``first``).
When ``pass`` is your only action (nothing to add) it is played for you.

``--script "attack 8H; take; 1; pass"`` types your moves for you (``;`` or new lines between them), for
non-interactive use; once the script is used up the game reads standard input. Exit status: 0 when the
game was played to its end, 1 when the input ended (or ``quit``) first, 2 for a rule set that cannot be played.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator, Sequence
from typing import Any, TextIO

from .actions import Action
from .cards import SUIT_SYMBOLS, SUITS
from .events import Event
from .game import Game
from .narrate import narrate
from .rules import FIRST_ATTACK, TEAMS, THROW_IN, VARIANTS, Rules, RulesError

HELP = """commands:
  <number>          play the action with that number
  attack 8H         an action in notation (attack 8H 8D, defend 8H 9H, transfer 8D, take, pass, exchange)
  show              show the table again
  help              this list
  quit              leave the game"""


def symbol(card: str) -> str:
    """``10H`` -> ``10♥`` for display (the notation you type stays ``10H``)."""
    return card[:-1] + SUIT_SYMBOLS[SUITS.index(card[-1])]


def cards_text(cards: Sequence[str]) -> str:
    return " ".join(symbol(c) for c in cards) if cards else "-"


def describe_view(view: dict[str, Any]) -> str:
    """The table as seen by ``view["seat"]``."""
    me = view["seat"]
    trump = SUIT_SYMBOLS[SUITS.index(view["trump"])]
    lines = []
    shown = view["trump_card"]
    where = " under the talon" if view["trump_exposed"] else ""
    trump_card = f" ({symbol(shown)}{where})" if shown else ""
    lines.append(f"--- round {view['round']} · {view['variant']} · trump {trump}{trump_card} · talon "
                 f"{view['talon']} card(s) · discard {len(view['discard'])}")
    for seat in range(view["players"]):
        if not view["active"][seat]:
            status = "out"
        else:
            status = f"{view['hand_sizes'][seat]} card(s)"
            known = list(view["known"][seat]) if seat != me else []
            if known:
                status += f", known: {cards_text(known)}"
        role = []
        if seat == view["attacker"]:
            role.append("attacker")
        if seat == view["defender"]:
            role.append("defender")
        team = f" team {view['teams'][seat]}" if view["teams"] is not None else ""
        who = "you" if seat == me else f"seat {seat}"
        lines.append(f"  {who:<7}{team} {status}" + (f" [{', '.join(role)}]" if role else ""))
    if view["table"]:
        pairs = [symbol(a) + ("/" + symbol(d) if d else "/?") for a, d in view["table"]]
        extra = ", defender takes" if view["taking"] else ""
        lines.append(f"  table: {'  '.join(pairs)}   (limit {view['limit']} attack card(s){extra})")
    else:
        lines.append("  table: empty")
    lines.append(f"  your hand: {cards_text(view['hand'])}")
    return "\n".join(lines)


#: The events the terminal tells after a move (the move itself is echoed as "seat 1: attack 8H").
TOLD = frozenset({"pickup", "discard", "draw", "exchange", "out", "round"})


def describe_event(event: Event, me: int) -> str | None:
    """One line about an event as ``me`` may see it, in the narrator's words (None: nothing worth a line)."""
    if event.kind not in TOLD:
        return None
    message = narrate(event, me)
    return None if message is None else message.text


def describe_result(game: Game, me: int) -> str:
    result = game.result
    assert result is not None
    if result.draw:
        outcome = "a draw: every hand emptied in the last round"
    elif me in result.losers:
        outcome = "you lose" + (f": seat {result.durak} is the durak" if result.durak not in (None, me) else
                                ": you are the durak" if result.durak == me else ": your team is left holding cards")
    else:
        outcome = "you win" + (f": seat {result.durak} is the durak" if result.durak is not None else
                               f": team of seats {', '.join(map(str, result.losers))} is left holding cards")
    order = ", ".join("you" if s == me else f"seat {s}" for s in result.out_order)
    return f"=== game over: {outcome}. Went out, in order: {order or 'nobody'}."


class Input:
    """Your moves: first the script's entries, then lines of ``stream``; None once both are used up."""

    def __init__(self, script: str | None, stream: TextIO, out: TextIO) -> None:
        entries = (script or "").replace("\n", ";").split(";")
        self.script: Iterator[str] = iter([e.strip() for e in entries if e.strip()])
        self.stream = stream
        self.out = out

    def read(self, prompt: str) -> str | None:
        entry = next(self.script, None)
        if entry is not None:
            print(f"{prompt}{entry}", file=self.out)
            return entry
        self.out.write(prompt)
        self.out.flush()
        line = self.stream.readline()
        if not line:
            print(file=self.out)
            return None
        if not self.stream.isatty():
            print(line.rstrip("\n"), file=self.out)
        return line.strip()


def choose(text: str, legal: list[Action]) -> Action | str:
    """The action ``text`` names (a number or notation), or a message saying why it names none."""
    if text.isdigit():
        number = int(text)
        if 1 <= number <= len(legal):
            return legal[number - 1]
        return f"no action number {number}: choose 1 to {len(legal)}"
    return Action.parse(text)


def your_turn(game: Game, me: int, legal: list[Action], moves: Input, out: TextIO) -> list[Event] | None:
    """List the legal actions and read until one is played; returns its events (None: input ended or quit)."""
    print("your move:", file=out)
    for number, option in enumerate(legal, start=1):
        print(f"  {number:>2}. {option}", file=out)
    while True:
        text = moves.read("> ")
        if text is None or text.lower() in ("quit", "q", "exit"):
            return None
        if not text:
            continue
        if text.lower() in ("help", "?", "h"):
            print(HELP, file=out)
            continue
        if text.lower() in ("show", "view", "s"):
            print(describe_view(game.view(me)), file=out)
            continue
        try:
            picked = choose(text, legal)
            if isinstance(picked, str):
                print(f"not accepted: {picked}", file=out)
                continue
            events = game.apply(me, picked)
        except ValueError as error:  # IllegalAction, NotationError: the message says why
            print(f"not accepted: {error}", file=out)
            continue
        print(f"you: {picked}", file=out)
        return events


def play(game: Game, me: int, opponents: str, seed: int, moves: Input, out: TextIO) -> int:
    """Run the game loop; returns the exit status."""
    rng = random.Random(f"{seed}/opponents")
    print(describe_view(game.view(me)), file=out)
    while game.result is None:
        seat = game.to_act
        assert seat is not None
        legal = game.legal_actions(seat)
        if seat != me:
            action = legal[0] if opponents == "first" else rng.choice(legal)
            events = game.apply(seat, action)
            print(f"seat {seat}: {action}", file=out)
        elif [str(a) for a in legal] == ["pass"]:
            events = game.apply(seat, legal[0])
            print("you: pass (nothing to add)", file=out)
        else:
            played = your_turn(game, me, legal, moves, out)
            if played is None:
                print("game left before its end", file=out)
                return 1
            events = played
        for event in events:
            line = describe_event(event, me)
            if line:
                print(line, file=out)
        new_round = any(e.kind == "round" for e in events)
        if game.result is None and game.to_act == me and (new_round or seat != me):
            print(describe_view(game.view(me)), file=out)
    print(describe_result(game, me), file=out)
    return 0


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m durak.cli", description=__doc__.splitlines()[0],
                                epilog=HELP, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--variant", choices=VARIANTS, default="podkidnoy")
    p.add_argument("--players", type=int, choices=range(2, 7), default=2, metavar="2..6")
    p.add_argument("--deck", type=int, choices=(24, 36, 52), default=36)
    p.add_argument("--throw-in", choices=THROW_IN, default="neighbours")
    p.add_argument("--first-defence-limit", type=int, choices=(6, 5), default=6)
    p.add_argument("--exchange", choices=("on", "off"), help="trump-six exchange (default: the variant's)")
    p.add_argument("--first-attack", choices=FIRST_ATTACK, default="loser_left")
    p.add_argument("--teams", choices=sorted(TEAMS))
    p.add_argument("--seed", type=int, help="the deal (default: a random one, printed)")
    p.add_argument("--seat", type=int, default=0, help="your seat (default 0)")
    p.add_argument("--opponents", choices=("random", "first"), default="random",
                   help="the other seats play a random legal action or the first one")
    p.add_argument("--script", help='your moves, separated by ";" (e.g. "attack 8H; take; 2; pass")')
    return p


def main(argv: Sequence[str] | None = None, stdin: TextIO | None = None, stdout: TextIO | None = None) -> int:
    out = stdout if stdout is not None else sys.stdout
    args = parser().parse_args(argv)
    exchange = None if args.exchange is None else args.exchange == "on"
    try:
        rules = Rules(variant=args.variant, players=args.players, deck=args.deck, throw_in=args.throw_in,
                      first_defence_limit=args.first_defence_limit, trump_six_exchange=exchange,
                      first_attack=args.first_attack, teams=args.teams)
    except RulesError as error:
        print(f"error: {error}", file=out)
        return 2
    if not 0 <= args.seat < rules.players:
        print(f"error: --seat must be a seat from 0 to {rules.players - 1}", file=out)
        return 2
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(10**9)
    game = Game.new(rules, seed=seed)
    print(f"Durak ({rules.variant}, {rules.players} players, {rules.deck} cards), seed {seed}: you are seat "
          f"{args.seat}; seat {game.to_act} attacks first. Type help for the commands.", file=out)
    moves = Input(args.script, stdin if stdin is not None else sys.stdin, out)
    try:
        return play(game, args.seat, args.opponents, seed, moves, out)
    except KeyboardInterrupt:
        print("\ngame left before its end", file=out)
        return 1
    except BrokenPipeError:  # the reader went away (e.g. piped into head): stop quietly
        return 1


if __name__ == "__main__":
    sys.exit(main())
