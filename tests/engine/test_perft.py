"""Perft: leaf counts of the full legal-action tree from fixed positions, as golden numbers.

``perft(position, d)`` is the number of action sequences of length ``d`` (a finished game is a leaf that
counts 0 below it). The engine's counts (``game.copy()`` + ``apply`` over ``legal_actions``) and those
of the independent reference referee of test_oracle.py (its own copy, legal set and apply, no engine code)
were computed separately and agreed; the numbers below are those counts. Any change of what is legal
anywhere in these trees (or of the deal of a seeded game) changes a number here.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

import pytest

from durak import Game, Rules

from .test_oracle import Ref

Position = tuple[Callable[[], Game], Callable[[Game], Ref]]


def new(rules: Rules, seed: int) -> Position:
    return (lambda: Game.new(rules, seed=seed)), (lambda game: Ref.from_game(game))


def scenario(data: dict[str, Any]) -> Position:
    return ((lambda: Game.from_scenario(data)),
            (lambda game: Ref.from_game(game, attacker=data["attacker"], first_round=data.get("first_round", False))))


POSITIONS: dict[str, Position] = {
    "podkidnoy 2 players": new(Rules(), 1),
    "podkidnoy 4 players, 2v2, everyone throws in": new(Rules(players=4, throw_in="everyone", teams="2v2"), 2),
    "perevodnoy 3 players": new(Rules(variant="perevodnoy", players=3), 3),
    "prostoy 2 players (exchange on)": new(Rules(variant="prostoy"), 4),
    "podkidnoy 6 players, first defence 5, exchange": new(
        Rules(players=6, first_defence_limit=5, trump_six_exchange=True), 5),
    "perevodnoy 6 players 2v2v2, 52 cards": new(Rules(variant="perevodnoy", players=6, teams="2v2v2", deck=52), 6),
    "podkidnoy worked example (seed 000 §07)": scenario(
        {"rules": {"variant": "podkidnoy", "players": 2}, "trump": "D", "talon": [],
         "hands": [["8H", "9S", "JH", "QS", "7C"], ["9H", "JD", "6C"]], "attacker": 0}),
    "prostoy worked example (seed 002 §06)": scenario(
        {"rules": {"variant": "prostoy", "players": 2}, "trump": "S", "talon": [],
         "hands": [["7C", "7D", "QH", "10S", "AH"], ["KC", "8D", "6C"]], "attacker": 0}),
    "prostoy 3 players, pairs and four of a kind": scenario(
        {"rules": {"variant": "prostoy", "players": 3}, "trump_card": "6H", "talon": ["AC", "KD", "6H"],
         "hands": [["9S", "9H", "9D", "9C", "QS"], ["6C", "7C", "8C", "JH", "QH"], ["10S", "10D", "JS", "JD", "AS"]],
         "attacker": 0}),
    "perevodnoy 3 players, transfers, first round": scenario(
        {"rules": {"variant": "perevodnoy", "players": 3}, "trump_card": "7D", "talon": ["AS", "6H", "7D"],
         "hands": [["8H", "8S", "9C", "KD", "6S", "QC"], ["8C", "8D", "10H", "JS", "6D", "AC"],
                   ["9S", "10C", "QH", "KS", "JH", "7S"]], "attacker": 0, "first_round": True}),
    "perevodnoy 2 players, transfers back and forth": scenario(
        {"rules": {"variant": "perevodnoy", "players": 2}, "trump_card": "6D", "talon": ["AS", "KH", "6D"],
         "hands": [["7S", "7H", "8S", "8H", "QC", "KC"], ["7D", "7C", "8D", "8C", "QS", "KS"]], "attacker": 0}),
    "podkidnoy 4 players, everyone, first defence 5, exchange": scenario(
        {"rules": {"variant": "podkidnoy", "players": 4, "throw_in": "everyone", "first_defence_limit": 5,
                   "trump_six_exchange": True}, "trump_card": "QH", "talon": ["AD", "QH"],
         "hands": [["7S", "7C", "7D", "6H", "9S", "10D"], ["8S", "8C", "KD", "KS", "JC", "AS"],
                   ["7H", "9C", "9D", "10S", "10C", "JS"], ["6S", "6C", "6D", "8D", "8H", "AH"]],
         "attacker": 0, "first_round": True}),
    "perevodnoy 2v2v2 endgame, a seat out": scenario(
        {"rules": {"variant": "perevodnoy", "players": 6, "teams": "2v2v2"}, "trump": "C", "talon": [],
         "hands": [["8S", "9S"], [], ["8H", "JC"], ["10S", "10H", "QD"], ["8D", "KH"], ["AS", "7C"]],
         "attacker": 0}),
    "podkidnoy 3 players, the round's draws empty the talon": scenario(
        {"rules": {"variant": "podkidnoy", "players": 3}, "trump": "D", "talon": ["QH", "AC"],
         "hands": [["9S", "8C"], ["10S"], ["7H", "KC", "JS"]], "attacker": 0}),
}

# name -> (digest of the deal, perft counts for depth 1, 2, ...)
GOLDEN: dict[str, tuple[str, list[int]]] = {
    "podkidnoy 2 players": ("3dd910628e5b", [6, 14, 21, 106, 458, 1128]),
    "podkidnoy 4 players, 2v2, everyone throws in": ("b77776cf7001", [7, 9, 14, 17, 82, 236, 482]),
    "perevodnoy 3 players": ("b4e6bed46b59", [7, 32, 85, 187, 467, 1371]),
    "prostoy 2 players (exchange on)": ("e6a49fcca152", [8, 36, 209, 897]),
    "podkidnoy 6 players, first defence 5, exchange": ("5f162aa83f42", [10, 29, 56, 97, 265, 880]),
    "perevodnoy 6 players 2v2v2, 52 cards": ("4eff8eb63ad5", [7, 28, 56, 97, 264, 742]),
    "podkidnoy worked example (seed 000 §07)": ("0d432c3e81c9", [5, 11, 16, 38, 74, 99, 241]),
    "prostoy worked example (seed 002 §06)": ("0e1ad39551b9", [8, 16, 48, 94, 232, 403, 799]),
    "prostoy 3 players, pairs and four of a kind": ("bfa02350127f", [16, 96, 471, 1984]),
    "perevodnoy 3 players, transfers, first round": ("2b70a00325e3", [7, 35, 89, 183, 469, 1157]),
    "perevodnoy 2 players, transfers back and forth": ("55287ed5b321", [8, 50, 139, 521, 1939]),
    "podkidnoy 4 players, everyone, first defence 5, exchange": ("f58e052576e4", [11, 47, 157, 414, 906, 1815]),
    "perevodnoy 2v2v2 endgame, a seat out": ("4cef632f14f1", [2, 5, 7, 9, 16, 27, 39]),
    # worked by hand too: 9S or 8C; beat or take; pass, pass; then seat 1 (no cards, talon empty) is out and
    # seat 2 leads one of 3 cards in each of the 3 lines; seat 0 answers 7H 2 ways, KC 2 ways, JS 1 way
    "podkidnoy 3 players, the round's draws empty the talon": ("b1e1ed003936", [2, 3, 3, 3, 9, 15]),
}

KNOWN_BUGS: dict[str, str] = {}  # position name -> docs/engine-bugs.md entry, while a bug is open


def engine_perft(game: Game, depth: int) -> int:
    if depth == 0:
        return 1
    seat = game.to_act
    if seat is None:
        return 0
    total = 0
    for action in game.legal_actions(seat):
        child = game.copy()
        child.apply(seat, action)
        total += engine_perft(child, depth - 1)
    return total


def reference_perft(ref: Ref, depth: int) -> int:
    if depth == 0:
        return 1
    seat = ref.to_act()
    if seat is None:
        return 0
    total = 0
    for key in ref.legal():
        child = ref.copy()
        child.apply(seat, key)
        total += reference_perft(child, depth - 1)
    return total


def deal_digest(game: Game) -> str:
    """A short fingerprint of the position (hands, talon, trump, attacker), so a changed deal is told apart
    from a changed rule."""
    position = [[sorted(str(c) for c in game.hand(p)) for p in range(game.rules.players)],
                [str(c) for c in game.talon], game.trump, game.attacker]
    return hashlib.sha256(json.dumps(position).encode()).hexdigest()[:12]


def mark(name: str) -> Any:
    if name in KNOWN_BUGS:
        return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=KNOWN_BUGS[name]))
    return name


@pytest.mark.parametrize("name", [mark(name) for name in POSITIONS])
def test_engine_perft_matches_the_golden_counts(name: str) -> None:
    build, _ = POSITIONS[name]
    game = build()
    digest, counts = GOLDEN[name]
    assert deal_digest(game) == digest, "the position itself changed (the deal of a seed?), not only legality"
    before = json.dumps(game.to_dict())
    assert [engine_perft(game, d) for d in range(1, len(counts) + 1)] == counts
    assert json.dumps(game.to_dict()) == before, "searching copies changed the original"


@pytest.mark.parametrize("name", list(POSITIONS))
def test_reference_perft_gives_the_same_golden_counts(name: str) -> None:
    """The golden numbers are the reference referee's (RULES.md) counts, not just the engine's."""
    build, reference = POSITIONS[name]
    game = build()
    ref = reference(game)
    _, counts = GOLDEN[name]
    assert [reference_perft(ref, d) for d in range(1, len(counts) + 1)] == counts
