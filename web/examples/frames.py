"""Frames: what an open-hands table shows at one step of a worked example, as JSON-safe data.

The rules pages' builder (scripts/build_rules.py, CPython) writes one frame per step of every example
record, and "try it yourself" (web/examples/tryout.py, in the engine worker) writes frames of the live game it plays;
one renderer, web/examples/stepper.js, draws both. ``record_frames`` replays a record into frames, for the builder and
for a record embedded by its link (web/embed/embedding.py) alike. A frame holds the state and the step's words,
already in the page's language; card names and labels travel once per page, not in every frame.
docs/rules-pages.md lists the keys.
Pure Python, no browser import.
"""

from __future__ import annotations

from typing import Any

from durak import Game
from durak.cards import CARDS, RANKS
from durak.record import Record
from web.examples.narration import said
from web.shared.i18n import rank_label, suit_name, t, tn, translate_comment
from web.shared.i18n import seat_names as i18n_seat_names

#: The keys of every frame, in the order docs/rules-pages.md describes them.
FRAME_KEYS = ("hands", "talon", "trump", "trump_card", "trump_exposed", "table", "discard", "attacker",
              "defender", "to_act", "taking", "limit", "out", "result", "position", "said", "comment")


def frame(game: Game, *, said: str = "", comment: str = "") -> dict[str, Any]:
    """The frame of ``game`` as it stands: every hand open, the talon's size, the trump, the table
    (attack, defence or None), the discard pile's size, the roles, and the position text that "try it"
    resumes from. ``said`` is what the step did, in words; ``comment`` is why it matters."""
    view = game.open_view()
    result = view["result"]
    return {
        "hands": [list(hand) for hand in view["hands"]],
        "talon": view["talon"],
        "trump": view["trump"],
        "trump_card": view["trump_card"],
        "trump_exposed": view["trump_exposed"],
        "table": [[attack, defence] for attack, defence in view["table"]],
        "discard": len(view["discard"]),
        "attacker": view["attacker"],
        "defender": view["defender"],
        "to_act": view["to_act"],
        "taking": view["taking"],
        "limit": view["limit"],
        "out": list(view["out_order"]),
        "result": None if result is None else {"durak": result["durak"], "draw": result["draw"]},
        "position": game.position(),
        "said": said,
        "comment": comment,
    }


#: The fields web/examples/stepper.js fills in its messages.
TEMPLATE_FIELDS = ("i", "n", "name", "percent", "suit")


def label_template(lang: str, key: str) -> str:
    """A message with its {fields} left in, for web/examples/stepper.js to fill ("Step {i} of {n}")."""
    return t(lang, key, **{name: "{" + name + "}" for name in TEMPLATE_FIELDS})


#: The counts a board says in words (its name in the labels: its catalogue message).
COUNTED = {"cards": "cards_count", "talon": "talon", "discard": "discard"}


def count_forms(lang: str, key: str) -> tuple[list[str], str]:
    """``key``'s plural message for 0 to 52 cards as web/examples/stepper.js reads it: its distinct texts with
    the number as ``{n}``, and a string whose n-th character is the index of n's text. Every rules page
    carries these for three messages, so they travel as a language's few forms rather than 53 texts each."""
    forms: list[str] = []
    pattern = []
    for n in range(len(CARDS) + 1):
        form = tn(lang, key, n).replace(str(n), "{n}", 1)
        if form not in forms:
            forms.append(form)
        pattern.append(forms.index(form))
    if len(forms) > 10:
        raise ValueError(f"{lang} {key}: {len(forms)} plural forms, more than one digit can index")
    return forms, "".join(map(str, pattern))


def card_words(lang: str) -> dict[str, Any]:
    """What web/examples/stepper.js's ``cardLabel`` names a card with ("6♠, six of spades"): the label and name
    messages with their fields left in, and the words they take, rather than every card's name written out."""
    return {
        "label": t(lang, "card_label", symbol="{symbol}", name="{name}"),
        "name": t(lang, "card_name", rank="{rank}", suit="{suit}"),
        "rank_words": {str(rank): t(lang, f"rank_word_{rank}") for rank in RANKS},
        "suit_words": {suit: t(lang, f"card_suit_{suit}") for suit in "SHDC"},
    }


def board_labels(lang: str, *extra_ui: str) -> dict[str, Any]:
    """The words web/examples/stepper.js's board needs (card names, rank letters, suits, counts, marks), plus the
    ``example_<key>`` messages named in ``extra_ui`` (the rules pages' try-it and odds controls)."""
    keys = ("step", "first", "prev", "next", "last", "controls", "table_empty", "discard_short", "no_cards")
    ui = {key: label_template(lang, f"example_{key}") for key in keys + extra_ui}
    ui.update(attacker=t(lang, "mark_attacker"), defender=t(lang, "mark_defender"), to_act=t(lang, "mark_turn"),
              out=t(lang, "mark_out"), taking=t(lang, "btn_take"), talon_empty=t(lang, "talon_empty"),
              discard_empty=t(lang, "discard_empty"), table=t(lang, "table"),
              hand_of=label_template(lang, "hand_of"), trump=label_template(lang, "trump"))
    return {
        "lang": lang,
        "ranks": {str(rank): rank_label(lang, f"{rank}S") for rank in (11, 12, 13, 14)},
        "cards": card_words(lang),
        "suits": {suit: suit_name(lang, suit) for suit in "SHDC"},
        "counts": {name: list(count_forms(lang, key)) for name, key in COUNTED.items()},
        "ui": ui,
    }


def seat_names(header: dict[str, str], lang: str, players: int) -> list[str]:
    """The record's player names (Player0.. tags), else their compass points, seat 0 in the South ("South",
    "West", "Nord"...), as a card table names them."""
    compass = i18n_seat_names(lang, players)
    return [header.get(f"Player{seat}") or compass[seat] for seat in range(players)]


def record_frames(record: Record, lang: str) -> tuple[list[str], list[dict[str, Any]]]:
    """The seat names and the frames of a record in ``lang``, the engine replaying it: each step says what
    its move did, and its comment is in ``lang`` where the catalogues translate it (the site's own worked
    examples, embedded by their records as by their ids), else as the record wrote it."""
    game = record.start(Game)
    names = seat_names(dict(record.header), lang, game.players)
    comments = [translate_comment(lang, comment) for comment in record.comments]
    frames = [frame(game, comment=comments[0])]
    for step, move in enumerate(record.moves, 1):
        throw_in = bool(game.table)
        events = game.apply(move.seat, move.action)
        frames.append(frame(game, said=said(lang, events, names, throw_in=throw_in), comment=comments[step]))
    return names, frames
