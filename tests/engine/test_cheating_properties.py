"""Cheat mode (RULES.md §7) under random play: hypothesis-drawn games and seeded fuzzing in which cheats and
accusations come at random moments. Cards are conserved, no view or event shows a hidden card, the cheat
bookkeeping follows the table, and records, saves and positions replay exactly."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from durak import Action, Event, Game, IllegalAction, Rules
from durak.cards import deck

from ..hidden_cards import secret_cards
from .test_properties import PROPERTY, rules_strategy

VARIANTS = ["podkidnoy", "perevodnoy", "prostoy"]


@st.composite
def cheating_games(draw: st.DrawFn) -> Game:
    rules = replace(draw(rules_strategy()), cheating=True)
    return Game.new(rules, seed=draw(st.integers(0, 2**40)), first_game=draw(st.booleans()))


def step(game: Game, pick) -> tuple[int, Action, list[Event]]:
    """One move: an accusation by some seat, a cheat or a legal action, as ``pick(n)`` (0..n-1) chooses."""
    n = game.players
    if pick(4) == 0:
        options = [(seat, a) for seat in range(n) for a in game.accusations(seat)]
        if options:
            seat, action = options[pick(len(options))]
            return seat, action, game.apply(seat, action)
    seat = game.to_act
    assert seat is not None
    legal, cheats = game.legal_actions(seat), game.cheats(seat)
    assert not set(legal) & set(cheats)
    options = cheats if cheats and pick(3) == 0 else legal
    action = options[pick(len(options))]
    return seat, action, game.apply(seat, action)


def moves(game: Game, pick, limit: int = 3000) -> Iterator[tuple[int, Action, list[Event]]]:
    for _ in range(limit):
        if game.result is not None:
            return
        yield step(game, pick)
    raise AssertionError(f"no end after {limit} moves")


def check(game: Game, before_table: set[str], seat: int, action: Action, events: list[Event]) -> None:
    """Invariants after one move."""
    places = [c for p in range(game.players) for c in game.hands[p]] + game.talon + game.discard
    places += [c for pair in game.table for c in pair if c is not None]
    assert sorted(places) == sorted(deck(game.rules.deck)), "cards are not conserved"
    on_table = {c for pair in game.table for c in pair if c is not None}
    assert set(game.played_by) == on_table and game.cheated <= on_table
    for p in range(game.players):
        secret = secret_cards(game, p)
        shown = json.dumps(game.view(p)) + json.dumps([e.seen_by(p).to_dict() for e in events])
        leaked = {c for c in secret if f'"{c}"' in shown}
        assert not leaked, f"seat {p} sees {leaked}"
        assert "cheats" not in game.view(p)
        assert all(game.played_by[a.cards[0]] != p for a in game.accusations(p))
    if action.kind == "accuse":
        kind = events[0].kind
        taker = events[0].target if kind == "caught" else seat
        assert kind in ("caught", "wrong") and events[1].kind == "pickup" and events[1].player == taker
        assert {str(c) for c in events[1].cards} == before_table


@PROPERTY
@given(game=cheating_games(), data=st.data())
def test_cheat_mode_invariants_hold_after_every_move(game: Game, data: st.DataObject) -> None:
    def pick(n: int) -> int:
        return data.draw(st.integers(0, n - 1))

    for _ in range(3000):
        if game.result is not None:
            break
        before = {str(c) for pair in game.table for c in pair if c is not None}
        seat, action, events = step(game, pick)
        check(game, before, seat, action, events)
    assert game.result is not None
    assert Game.from_record(game.record()).to_dict() == game.to_dict()


@PROPERTY
@given(game=cheating_games(), data=st.data())
def test_cheat_mode_positions_and_saves_round_trip_at_any_moment(game: Game, data: st.DataObject) -> None:
    def pick(n: int) -> int:
        return data.draw(st.integers(0, n - 1))

    for _ in moves(game, pick):
        again = Game.from_position(game.position())
        assert again.to_dict() | {"history": [], "seed": None} == game.to_dict() | {"history": [], "seed": None}
        assert Game.from_dict(json.loads(json.dumps(game.to_dict()))).to_dict() == game.to_dict()


@PROPERTY
@given(game=cheating_games(), data=st.data())
def test_refused_accusations_change_nothing(game: Game, data: st.DataObject) -> None:
    def pick(n: int) -> int:
        return data.draw(st.integers(0, n - 1))

    for _ in moves(game, pick):
        if game.result is not None:
            break
        seat = pick(game.players)
        allowed = {str(a) for a in game.accusations(seat)}
        card = deck(game.rules.deck)[pick(game.rules.deck)]
        if f"accuse {card}" in allowed:
            continue
        before = game.to_dict()
        with pytest.raises(IllegalAction) as refused:
            game.apply(seat, f"accuse {card}")
        assert refused.value.code.startswith("illegal.accuse_")
        assert game.to_dict() == before


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_fuzz_cheat_mode_games_end_and_replay(variant: str, players: int) -> None:
    options = [{}, {"throw_in": "everyone"} if variant != "prostoy" else {}]
    if players in (4, 6) and variant != "prostoy":
        options.append({"teams": "2v2" if players == 4 else "2v2v2"})
    for index, extra in enumerate(options):
        rules = Rules(variant=variant, players=players, cheating=True, **extra)
        for seed in range(12):
            rng = random.Random(seed * 7 + index)
            game = Game.new(rules, seed=seed)
            for _ in moves(game, rng.randrange):
                pass
            assert game.result is not None
            record = game.record()
            assert Game.from_record(record).to_dict() == game.to_dict()
            assert Game.from_dict(game.to_dict()).to_dict() == game.to_dict()


def test_fuzz_honest_play_in_cheat_mode_matches_the_plain_game() -> None:
    for seed in range(40):
        variant = VARIANTS[seed % 3]
        players = 2 + seed % 5
        plain = Game.new(Rules(variant=variant, players=players), seed=seed)
        cheat = Game.new(Rules(variant=variant, players=players, cheating=True), seed=seed)
        rng = random.Random(seed)
        while plain.result is None:
            seat = plain.to_act
            legal = plain.legal_actions(seat)
            assert cheat.legal_actions(seat) == legal
            action = legal[rng.randrange(len(legal))]
            assert plain.apply(seat, action) == cheat.apply(seat, action)
        assert plain.result == cheat.result
