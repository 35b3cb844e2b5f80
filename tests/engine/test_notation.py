"""Card and action notation (RULES.md's notation, DESIGN.md's action texts): every card and every action
writes one canonical text and reads back from it, and from the other forms a person may type, whether or
not the text was read before (the canonical ones are looked up, the others parsed)."""

from __future__ import annotations

import pytest

from durak.actions import (
    ACCUSE_ONE,
    ATTACK_ONE,
    DEFEND_PAIR,
    EXCHANGE_ACTION,
    PASS_ACTION,
    TAKE_ACTION,
    TRANSFER_ONE,
    Action,
    NotationError,
    make,
    parse_action,
)
from durak.cards import CARDS, CardError, parse_card

RANK_TEXTS = {2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10", 11: "J", 12: "Q",
              13: "K", 14: "A"}


def test_every_card_writes_its_rank_and_suit_letter_and_reads_back_from_every_form() -> None:
    for index, card in enumerate(CARDS):
        rank, suit = RANK_TEXTS[index // 4 + 2], "SHDC"[index % 4]
        symbol = "♠♥♦♣"[index % 4]
        assert str(card) == rank + suit
        forms = [rank + suit, rank + symbol, (rank + suit).lower(), f" {rank}{suit.lower()} "]
        if rank == "10":
            forms += ["T" + suit, "t" + symbol]
        for _ in range(2):  # read before or not: the same card
            assert {parse_card(form) for form in forms} == {card}, forms


@pytest.mark.parametrize("text", ["1H", "11H", "10X", "H", "", "QQ", "10♥♥"])
def test_a_text_that_is_no_card_is_refused_every_time(text: str) -> None:
    for _ in range(2):
        with pytest.raises(CardError):
            parse_card(text)


def test_every_action_reads_back_from_its_text_as_the_same_object() -> None:
    actions = [TAKE_ACTION, PASS_ACTION, EXCHANGE_ACTION, *ATTACK_ONE, *TRANSFER_ONE, *ACCUSE_ONE,
               *(pair for row in DEFEND_PAIR for pair in row if pair.cards[0] != pair.cards[1]),
               make("attack", (CARDS[4], CARDS[5], CARDS[7]))]
    for action in actions:
        for _ in range(2):
            assert parse_action(str(action)) is action


def test_an_action_written_with_plain_numbers_reads_as_with_cards() -> None:
    with_cards = make("defend", (CARDS[25], CARDS[30]))
    assert str(Action("defend", (25, 30))) == str(with_cards) == "defend 8H 9D"


def test_other_forms_of_an_action_read_as_its_canonical_text() -> None:
    canonical = parse_action("attack 8H 8D")
    for text in ("ATTACK 8d 8h", "attack 8♦ 8♥", "  attack   8h 8d "):
        for _ in range(2):
            assert parse_action(text) is canonical
            assert str(parse_action(text)) == "attack 8H 8D"


@pytest.mark.parametrize(("text", "code"), [("attack 1H", "notation.card"), ("defend 8H", "notation.card_count"),
                                            ("attack 8H 8H", "notation.card_twice"), ("fly 8H", "notation.kind")])
def test_a_malformed_action_is_refused_every_time_with_its_code(text: str, code: str) -> None:
    parse_action("attack 8H")  # canonical texts read before change nothing for the others
    for _ in range(2):
        with pytest.raises(NotationError) as refused:
            parse_action(text)
        assert refused.value.code == code
