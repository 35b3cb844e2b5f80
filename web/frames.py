"""Frames: what an open-hands table shows at one step of a worked example, as JSON-safe data.

The rules pages' builder (scripts/build_rules.py, CPython) writes one frame per step of every example
record, and "try it yourself" (web/try_it.py, in Pyodide) writes frames of the live game it plays; one
renderer, web/stepper.js, draws both. A frame holds the state and the step's words, already in the page's
language; card names and labels travel once per page, not in every frame. docs/rules-pages.md lists the keys.
Pure Python, no browser import.
"""

from __future__ import annotations

from typing import Any

from durak import Game

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
