"""Sampled worlds agree with the view, and decisions depend on the view only."""

from __future__ import annotations

import random

import pytest

from durak import Rules
from durak.ai import make_player
from durak.ai.inference import likelihoods
from durak.ai.sampler import Sampler
from durak.ai.seen import Seen

from .helpers import RULE_SETS, act, position, positions


@pytest.mark.parametrize("options", RULE_SETS, ids=lambda o: "-".join(map(str, o.values())))
def test_sampled_worlds_show_the_same_view(options: dict[str, object]) -> None:
    rules = Rules(**options)  # type: ignore[arg-type]
    rng = random.Random(5)
    for game in positions(rules, seed=2, every=9):
        seat = game.to_act
        assert seat is not None
        view = game.view(seat)
        seen = Seen.read(view)
        sampler = Sampler(seen, likelihoods(seen))
        for _ in range(3):
            world = sampler.world(rng)
            assert world.view(seat) == view
            assert set(world.legal_actions(seat)) == set(game.legal_actions(seat))


def test_decision_ignores_how_hidden_cards_lie() -> None:
    """Re-deal the hidden cards consistently with the view: the same seed gives the same decision."""
    rng = random.Random(7)
    changed = 0
    for options in ({"variant": "podkidnoy"}, {"variant": "perevodnoy", "players": 3}, {"variant": "prostoy"}):
        rules = Rules(**options)  # type: ignore[arg-type]
        for game in positions(rules, seed=4, every=11):
            seat = game.to_act
            assert seat is not None
            view = game.view(seat)
            seen = Seen.read(view)
            redealt = Sampler(seen, likelihoods(seen)).world(rng)
            changed += redealt.hands != game.hands or redealt.talon != game.talon
            legal = game.legal_actions(seat)
            first = make_player("hard", seed=9, iterations=3).choose(view, legal)
            again = make_player("hard", seed=9, iterations=3).choose(redealt.view(seat), redealt.legal_actions(seat))
            assert first == again
    assert changed > 5  # the re-deals really moved hidden cards


def test_a_take_makes_cheap_beaters_unlikely() -> None:
    """After seat 1 took 7H, the hearts just above it are sampled into seat 1's hand less often."""
    game = position(["7H 6S 6C KD QS QC", "AS AC 10S 10C 9S 9C"], trump="D", talon="8H 9H 10H JH 6H 7D")
    act(game, "attack 7H", "take", "pass")
    view = game.view(0)
    seen = Seen.read(view)
    weighted = Sampler(seen, likelihoods(seen))
    plain = Sampler(seen, [{} for _ in range(2)])
    rng = random.Random(1)

    def share(sampler: Sampler) -> float:
        hits = sum(sum(c.rank in (8, 9, 10) and c.suit == "H" for c in sampler.deal(rng)[0][1]) for _ in range(400))
        return hits / 400

    assert share(weighted) < 0.6 * share(plain)


def test_a_known_hand_with_a_hidden_talon_is_not_certain() -> None:
    """Every hand known but three talon cards hidden: their order still makes many worlds."""
    game = position(["7H 6S", "AS AC"], trump="D", talon="8H 9H 10H JD")
    view = game.view(0)
    view["known"][1] = ["AC", "AS"]  # as if seat 1 had picked up both cards from the table
    seen = Seen.read(view)
    assert not Sampler(seen, likelihoods(seen)).certain
    game = position(["7H 6S", "AS AC"], trump="D")
    seen = Seen.read(game.view(0))
    assert Sampler(seen, likelihoods(seen)).certain
