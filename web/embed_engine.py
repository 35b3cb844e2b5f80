"""Browser entry of embed.html: the engine of "try it yourself" (web/try_it.py) plus what an embed adds.

embed.html holds ``<script type="py" src="./web/embed_engine.py" config="./pyscript.toml">``; PyScript runs it
once web/stepper.js's ``loadEngine`` has imported PyScript, which web/embed-frame.js does only when needed (a
record or position link, "try it", a ``durak:play`` from the host). Importing web.try_it publishes
``window.durakEngine``; this module then sets, on that same object and before any script can use it:

- ``embed_frames(kind, value, lang)``: {labels, example} of a URL-safe record or position (web/embedding.py);
- ``start``: a "try it" game that also plays moves named in notation, ``play(example, text)``;
- ``card``, ``target``, ``press``, ``reply``: as try_it's, plus the ``moves`` they played, for durak:move.

Every method takes and returns text (JSON), as try_it's do; errors come back as {"error": text}.
"""

from __future__ import annotations

import json
from collections.abc import Callable

from pyodide.ffi import create_proxy
from pyscript import window

from web import try_it
from web.embedding import EmbedTryout, link_frames, moves_since


@try_it.reported
def embed_frames(kind: str, value: str, lang: str) -> str:
    try:
        return json.dumps(link_frames(str(kind), str(value), str(lang)))
    except ValueError as error:
        return json.dumps({"error": str(error), "code": str(getattr(error, "code", "") or "")})


@try_it.reported
def start(example: str, position: str, names: str, lang: str) -> str:
    session = EmbedTryout(str(position), [str(n) for n in json.loads(str(names))], str(lang))
    try_it.SESSIONS[str(example)] = session
    return json.dumps(session.frame())


@try_it.reported
def play(example: str, text: str) -> str:
    session = try_it.SESSIONS[str(example)]
    if not isinstance(session, EmbedTryout):
        raise TypeError("this game was not started by the embed")
    return json.dumps(session.play(str(text)))


def with_moves(gesture: Callable[..., str]) -> Callable[..., str]:
    """try_it's gesture, its answer extended with the moves it played."""

    def call(example: str, *args: str) -> str:
        session = try_it.SESSIONS.get(str(example))
        before = len(session.game.history) if session is not None else 0
        answer = json.loads(gesture(example, *args))
        session = try_it.SESSIONS.get(str(example))
        if "error" not in answer and session is not None:
            answer["moves"] = moves_since(session.game, before)
        return json.dumps(answer)

    return call


def extend() -> None:
    engine = window.durakEngine
    methods = {"embed_frames": embed_frames, "start": start, "play": play, "card": with_moves(try_it.card),
               "target": with_moves(try_it.target), "press": with_moves(try_it.press),
               "reply": with_moves(try_it.reply)}
    for name, function in methods.items():
        setattr(engine, name, create_proxy(function))


extend()
