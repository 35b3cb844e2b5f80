"""What each level does in the textbook situations of RULES.md §6."""

from __future__ import annotations

from typing import Any

from durak import Game
from durak.ai import make_player
from durak.cards import deck

from .helpers import act, position


def early(hands: list[str], trump: str = "D", **rules: Any) -> Game:
    """A position early in a heads-up game: a long talon of the cards no hand holds (trumps last)."""
    held = {c for hand in hands for c in hand.split()}
    rest = [str(c) for c in deck(36) if str(c) not in held]
    rest.sort(key=lambda c: c.endswith(trump))
    return position(hands, trump=trump, talon=" ".join(rest[:20]), **rules)


def choice(level: str, game: Game) -> str:
    seat = game.to_act
    assert seat is not None
    return str(make_player(level, seed=1, iterations=8).choose(game.view(seat), game.legal_actions(seat)))


def test_easy_attacks_with_its_lowest_card_trumps_last() -> None:
    game = early(["QS 9D KH 8C AC QD", "AS KS QH QC KC KD"])
    assert choice("easy", game) == "attack 8C"


def test_easy_beats_with_the_lowest_card_that_beats_even_a_trump() -> None:
    game = early(["8H AS AC QS KS KC", "9D 10H QH 8D JC 10C"])
    act(game, "attack 8H")
    assert choice("easy", game) == "defend 8H 10H"
    game = early(["8S AS AC QS KH KC", "9D 10H QH 8D JC 10C"])
    act(game, "attack 8S")
    assert choice("easy", game) == "defend 8S 8D"


def test_easy_throws_in_only_cheap_cards() -> None:
    game = early(["8H 8C AH AS QS KS", "9H 10S QH 8D JC 10C"])
    act(game, "attack 8H", "defend 8H 9H")
    assert choice("easy", game) == "attack 8C"
    game = early(["8H QS AH KS KC AS", "QH 10S 9C 8D JC 10C"])
    act(game, "attack 8H", "defend 8H QH")
    assert choice("easy", game) == "pass"


def test_normal_takes_a_cheap_card_early_rather_than_spend_its_best_trump() -> None:
    game = early(["7H AS AC QS KS KC", "AD KD 9C JC 10C 6S"])
    act(game, "attack 7H")
    assert choice("normal", game) == "take"
    assert choice("easy", game) == "defend 7H KD"


def test_normal_beats_with_a_trump_once_the_talon_is_empty() -> None:
    game = position(["7H AS", "AD KD 9C"], trump="D")
    act(game, "attack 7H")
    assert choice("normal", game) == "defend 7H KD"


def test_normal_throws_in_a_rank_the_defender_cannot_beat() -> None:
    # Talon empty, so every card is known: seat 1 can beat 8C with KC but has no spade and no trump.
    game = position(["8H 8S 8C QC", "10H JH QH KC"], trump="D")
    act(game, "attack 8H", "defend 8H 10H")
    assert choice("normal", game) == "attack 8S"


def test_normal_transfers_with_a_plain_card() -> None:
    game = early(["7H AS AC QS KS KC", "7C KD 9C JC 10C QH"], variant="perevodnoy")
    act(game, "attack 7H")
    assert choice("normal", game) == "transfer 7C"


def test_normal_attacks_prostoy_with_a_set_of_cheap_cards() -> None:
    game = early(["7H 7C 8S 9S 9H", "AS KS QH QC KC"], variant="prostoy")
    assert choice("normal", game) == "attack 7H 7C 8S 9S 9H"
    assert choice("easy", game) == "attack 7H"


def test_every_level_exchanges_the_trump_six() -> None:
    game = position(["6D 7H 8C QS KS KC", "AS AC 9C JC 10C QH"], trump_card="JD", talon="7S 8S 9S JD",
                    trump_six_exchange=True)
    for level in ("easy", "normal", "hard"):
        assert choice(level, game) == "exchange"
