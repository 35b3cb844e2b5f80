"""Sampled worlds agree with the view, and decisions depend on the view only."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from durak import Game, Rules
from durak.ai import make_player
from durak.ai.inference import likelihoods
from durak.ai.sampler import Sampler
from durak.ai.seen import Seen
from durak.cards import Card

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


def held_by_seat_1(game: Game, wanted: Callable[[Card], bool]) -> tuple[float, float]:
    """How many ``wanted`` cards seat 0's sampler deals seat 1 on average: with the history's evidence, without."""
    seen = Seen.read(game.view(0))
    rng = random.Random(1)

    def share(sampler: Sampler) -> float:
        return sum(sum(map(wanted, sampler.deal(rng)[0][1])) for _ in range(400)) / 400

    return share(Sampler(seen, likelihoods(seen))), share(Sampler(seen, [{} for _ in range(2)]))


def test_a_take_makes_cheap_beaters_unlikely() -> None:
    """After seat 1 took 7H, the hearts just above it are sampled into seat 1's hand less often."""
    game = position(["7H 6S 6C KD QS QC", "AS AC 10S 10C 9S 9C"], trump="D", talon="8H 9H 10H JH 6H 7D")
    act(game, "attack 7H", "take", "pass")
    weighted, plain = held_by_seat_1(game, lambda c: c.rank in (8, 9, 10) and c.suit == "H")
    assert weighted < 0.6 * plain


def test_a_take_makes_all_but_the_top_trumps_unlikely() -> None:
    """Taking a plain card when a low trump would have beaten it: a player keeps back only its best two."""
    game = position(["7H 6S 6C KS QS QC", "AS AC 10S 10C 9S 9C"], trump="D", talon="6D 9D QD KD AD 8H")
    act(game, "attack 7H", "take", "pass")
    low, plain_low = held_by_seat_1(game, lambda c: c.suit == "D" and c.rank <= 12)
    top, plain_top = held_by_seat_1(game, lambda c: c.suit == "D" and c.rank > 12)
    assert low < 0.7 * plain_low
    assert top > 0.8 * plain_top


def test_a_defence_makes_cheaper_beaters_unlikely() -> None:
    """Seat 1 beat 7H with JH: it probably held no 8H, 9H or 10H, which beat it more cheaply."""
    game = position(["7H 6S 6C KS QS QC", "JH AC 10S 10C 9S 9C"], trump="D", talon="8H 9H 10H 6H 8D AD")
    act(game, "attack 7H", "defend 7H JH")
    weighted, plain = held_by_seat_1(game, lambda c: c.suit == "H" and 7 < c.rank < 11)
    assert weighted < 0.5 * plain


def test_a_lead_makes_cheaper_cards_unlikely() -> None:
    """Seat 1 opened with 9S: it probably held no plain card below a nine, or it would have led that."""
    game = position(["7H 6S 6C KS QS QC", "9S AS AC 10C JC QH"], trump="D", attacker=1,
                    talon="6H 7C 8S 8C JH 10H")
    act(game, "attack 9S")
    weighted, plain = held_by_seat_1(game, lambda c: c.suit != "D" and c.rank < 9)
    assert weighted < 0.7 * plain


def test_only_the_latest_lead_counts() -> None:
    """A seat that drew cards since its last lead is judged by the latest one: 6H after 10S says nothing of nines."""
    game = position(["7H 6S QD 8D QS QC", "10S 6H AC KC KH AH"], trump="D", attacker=1,
                    talon="6D 7S 8S 8C 9H 9C JH JC")
    act(game, "attack 10S", "take", "pass", "attack 6H")
    weighted, plain = held_by_seat_1(game, lambda c: c.suit != "D" and 7 <= c.rank <= 9)
    assert weighted > 0.8 * plain


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
