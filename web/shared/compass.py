"""Where the seats sit at a card table: the names the table, the review and the rules pages' examples give
the players ("You", "West", "North", "East"). Data only, so that scripts/build_catalogues.py reads it
before the catalogues that web/shared/i18n.py loads exist."""

from __future__ import annotations

#: Where the other seats sit, seen from South (the reader's own seat), in the order of play: the next seat
#: is the left-hand neighbour, West, the last one the right-hand neighbour, East. Per number of players;
#: each point is the message ``compass.<point>`` of the catalogues.
COMPASS: dict[int, tuple[str, ...]] = {
    2: ("north",),
    3: ("west", "east"),
    4: ("west", "north", "east"),
    5: ("west", "north_west", "north_east", "east"),
    6: ("west", "north_west", "north", "north_east", "east"),
}
