"""Cheat mode between friends, through JSON both ways (RULES.md §7; DESIGN.md "Cheat mode"): a friend's
accusation goes to the host out of turn and the host decides in arrival order; a card that is not on the
table cannot be named; every seat hears the outcome; no message names a card its seat may not know."""

from __future__ import annotations

import random
from typing import Any

from durak import Game
from tests.hidden_cards import secret_cards
from tests.web.table.test_protocol import CARD_TOKEN, Clock, Guest, Port, act, refused, run
from web.table.host import Host
from web.table.params import Settings


def cheat_table(seats: tuple[str, ...] = ("human", "friend", "friend")) -> tuple[Host, Port]:
    port = Port()
    host = Host(port, speed="instant", clock=Clock())
    assert host.start(Settings(variant="podkidnoy", players=len(seats), seats=seats, seed=7, cheating=True)) is None
    return host, port


def cheat_on_table(host: Host) -> str:
    """Play first legal moves (the person at seat 0 included) until someone has cheated: the cheat's card."""
    game = host.game
    for _ in range(200):
        seat = game.to_act
        assert seat is not None and game.result is None
        cheats = game.cheats(seat)
        if cheats:
            host.apply(seat, cheats[0])
            return str(next(iter(game.cheated)))
        host.apply(seat, game.legal_actions(seat)[0])
    raise AssertionError("no chance to cheat")


def test_a_friend_accuses_out_of_turn_and_every_seat_hears_the_outcome() -> None:
    host, _port = cheat_table()
    ann, bob = Guest(host, "p1", 1), Guest(host, "p2", 2)
    ann.hello()
    bob.hello("Bob")
    card = cheat_on_table(host)
    cheater = host.game.played_by[next(iter(host.game.cheated))]
    accuser = next(g for g in (ann, bob) if g.client.seat != cheater)
    assert f"accuse {card}" in accuser.client.accusations
    accuser.send({"t": "act", "seat": accuser.client.seat, "seq": accuser.client.seq - 3, "action": f"accuse {card}"})
    for guest in (ann, bob):
        outcome = guest.client.accusation
        assert outcome == {"outcome": "caught", "accuser": accuser.client.seat, "card": card,
                           "target": cheater, "taker": cheater}, guest.client.seat
    assert not host.game.table


def test_the_first_of_two_accusations_decides_and_the_second_is_refused() -> None:
    host, _port = cheat_table(("human", "friend", "friend", "friend"))
    guests = [Guest(host, f"p{i}", i) for i in (1, 2, 3)]
    for guest in guests:
        guest.hello(f"G{guest.client.seat}")
    card = cheat_on_table(host)
    cheater = host.game.played_by[next(iter(host.game.cheated))]
    first, second = [g for g in guests if g.client.seat != cheater][:2]
    first.client.act(f"accuse {card}")
    assert first.client.accusation is not None and first.client.accusation["accuser"] == first.client.seat
    answer = refused(host, second, act(second, f"accuse {card}"))
    assert answer["code"] == "illegal" and answer["params"]["reason_code"] == "illegal.accuse_not_on_table"


def test_a_card_that_is_not_on_the_table_cannot_be_named() -> None:
    host, _port = cheat_table()
    ann = Guest(host, "p1", 1)
    ann.hello()
    cheat_on_table(host)
    on_table = {str(c) for pair in host.game.table for c in pair if c is not None}
    absent = next(str(c) for c in host.game.hands[0] if str(c) not in on_table)  # a card held by the host
    answer = refused(host, ann, act(ann, f"accuse {absent}"))
    assert answer["params"]["reason_code"] == "illegal.accuse_not_on_table"
    assert refused(host, ann, act(ann, "accuse"))["code"] in ("bad_shape", "illegal")


def test_an_honest_tables_friend_cannot_accuse() -> None:
    port = Port()
    host = Host(port, speed="instant", clock=Clock())
    assert host.start(Settings(variant="podkidnoy", players=2, seats=("human", "friend"), seed=7)) is None
    ann = Guest(host, "p1", 1)
    ann.hello()
    host.apply(host.game.to_act, host.game.legal_actions(host.game.to_act)[0])
    card = str(host.game.table[0][0])
    answer = refused(host, ann, act(ann, f"accuse {card}"))
    assert answer["params"]["reason_code"] == "illegal.accuse_off"


def test_no_message_of_a_cheat_mode_game_names_a_card_its_seat_may_not_know() -> None:
    host, port = cheat_table()
    rng = random.Random(5)
    checked: list[str] = []

    def watch(seat: int, text: str) -> None:
        if host.game.result is None:
            leaked = set(CARD_TOKEN.findall(text)) & secret_cards(host.game, seat)
            assert not leaked, f"seat {seat} was sent {leaked}"
            checked.append(text)

    guests = {1: Guest(host, "p1", 1, watch), 2: Guest(host, "p2", 2, watch)}
    for guest in guests.values():
        guest.hello()

    async def play() -> None:
        host.kick()
        game: Game = host.game
        for _ in range(3000):
            await port.settle()
            if game.result is not None:
                return
            for guest in guests.values():
                if guest.client.accusations and rng.random() < 0.15:
                    guest.client.act(rng.choice(guest.client.accusations))
            seat = game.to_act
            if seat is None or game.result is not None:
                continue
            options: list[Any] = game.legal_actions(seat)
            cheats = game.cheats(seat)
            if cheats and rng.random() < 0.3:
                options = cheats
            action = str(rng.choice(options))
            if seat in guests:
                guests[seat].client.act(action)
            else:
                host.apply(seat, action)
        raise AssertionError("the game did not end")

    run(play())
    assert host.game.result is not None and len(checked) > 50
    assert any("accusation" in text for text in checked)
