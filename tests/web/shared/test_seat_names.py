"""Seats named as a card table names them (web/shared/i18n.py seat_names, compass_name; web/table/seat.py
display_names): "You", then the compass points in the order of play, West on your left; no numbers."""

from __future__ import annotations

import pytest

from web.shared.compass import COMPASS
from web.shared.i18n import LANGS, compass_name, seat_names, t
from web.table.seat import display_names


@pytest.mark.parametrize(("players", "names"), [
    (2, ["You", "North"]),
    (3, ["You", "West", "East"]),
    (4, ["You", "West", "North", "East"]),
    (5, ["You", "West", "North-West", "North-East", "East"]),
    (6, ["You", "West", "North-West", "North", "North-East", "East"]),
])
def test_you_sit_in_the_south_and_the_next_seat_on_your_left_is_west(players: int, names: list[str]) -> None:
    assert seat_names("en", players, 0) == names


def test_the_compass_turns_with_your_seat() -> None:
    assert seat_names("en", 4, 2) == ["North", "East", "You", "West"]
    assert seat_names("en", 3, 1) == ["East", "You", "West"]


def test_without_you_seat_0_is_in_the_south() -> None:
    assert seat_names("en", 3) == ["South", "West", "East"]
    assert seat_names("fr", 4) == ["Sud", "Ouest", "Nord", "Est"]
    assert seat_names("ru", 2) == ["Юг", "Север"]
    assert seat_names("ru", 2, 1) == ["Север", "Вы"]


def test_every_language_names_every_point_without_a_number() -> None:
    for lang in LANGS:
        for players in COMPASS:
            names = seat_names(lang, players)
            assert len(set(names)) == players, (lang, names)
            assert not any(ch.isdigit() for name in names for ch in name), (lang, names)
            assert names[0] == t(lang, "compass.south")


def test_more_players_than_the_compass_has_points_are_numbered_from_one() -> None:
    assert compass_name("en", 7, 3) == "Player 4"


def test_the_table_names_you_friends_by_their_names_and_the_ais_by_compass_point() -> None:
    seats = [{"kind": "human"}, {"kind": "easy"}, {"kind": "friend", "name": "Masha"}, {"kind": "hard", "name": "x"}]
    assert display_names(seats, "en", [0]) == ["You", "West", "Masha", "East"]
    assert display_names(seats, "fr", [0]) == ["Vous", "Ouest", "Masha", "Est"]
    # pass-and-play: nobody is "you", the first seat sits in the South
    hot_seat = [{"kind": "human"}, {"kind": "human"}, {"kind": "normal"}]
    assert display_names(hot_seat, "ru", [0, 1]) == ["Юг", "Запад", "Восток"]
    # a friend's page: its own seat is "you", the host across the table
    assert display_names([{"kind": "friend", "name": "Host"}, {"kind": "human"}], "en", [1]) == ["Host", "You"]
