"""The worked examples' words: what a move did (the narrator's line) and why the engine refused one.

The rules pages' builder and "try it yourself" both speak through these, in the page's language and with
the example's seat names: durak/narrate.py puts each event into a coded message, web/shared/i18n.py ``say``s it.
Pure Python, no browser import.
"""

from __future__ import annotations

from durak import Event
from durak.messages import CodedError
from durak.narrate import narrate
from web.shared.i18n import capitalised, say

#: The events a reader is told about, in the order they happen (the end of the game shows on the board).
TOLD = frozenset({"attack", "defend", "transfer", "take", "pass", "exchange", "caught", "wrong", "pickup", "discard",
                  "draw", "out", "round"})


def said(lang: str, events: list[Event], names: list[str], *, throw_in: bool = False) -> str:
    """The events of one move as sentences: "Seat 0 attacks with 8♥." ``throw_in``: the move added a card to a
    table that already held some. Nobody is "you": the reader watches every seat."""
    lines = []
    for event in events:
        message = narrate(event, None, throw_in=throw_in) if event.kind in TOLD else None
        if message is not None:
            lines.append(capitalised(say(lang, message, names)) + ".")
    return " ".join(lines)


def refusal(lang: str, error: Exception, names: list[str], me: int | None = None) -> str:
    """Why the engine refused a move, from the refusal's code in ``lang`` (its English text if it has none);
    said to ``me`` if that seat tried it."""
    if isinstance(error, CodedError):
        return capitalised(say(lang, error.message, names, me=me)) + "."
    return capitalised(str(error))
