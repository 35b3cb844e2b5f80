"""Browser entry of embed.html: publishes ``window.durakEngine`` for web/stepper.js and web/embed-frame.js.

embed.html holds ``<script type="py" src="./web/embed_engine.py" config="./pyscript.toml">``; PyScript runs it
once web/stepper.js's ``loadEngine`` has imported PyScript, which web/embed-frame.js does only when needed (a
record or position link, "try it", a ``durak:play`` from the host). It is a page's script, kept out of
web/modules.zip (which holds no module that imports ``pyscript``); the work is web/tryout.py's and
web/embedding.py's, tested under CPython. The methods are the rules pages' engine (start, card, target,
press, reply, odds) and what an embed adds:

- ``embed_frames(kind, value, lang)``: the frames of a URL-safe record or position (web/embedding.py);
- ``play(example, text)``: a move named in notation (durak:play);
- every answer that played moves lists them (``moves``), for durak:move.

Each method takes and returns text (JSON); errors come back as {"error": text}. "durak:engine" on window
says the engine is ready.
"""

from __future__ import annotations

import asyncio
import json
import sys
import traceback
from collections.abc import Callable
from typing import Any

from pyodide.ffi import create_proxy
from pyscript import window

from web.embedding import EmbedTryout, link_frames, moves_since
from web.tryout import odds, reported

SESSIONS: dict[str, EmbedTryout] = {}


def answered(gesture: Callable[[EmbedTryout, str], dict[str, Any]]) -> Callable[..., str]:
    """A gesture on one example's game, its answer with the moves it played."""

    @reported
    def call(example: str, *args: str) -> str:
        session = SESSIONS[str(example)]
        before = len(session.game.history)
        answer = gesture(session, *(str(a) for a in args))
        if "error" not in answer:
            answer["moves"] = moves_since(session.game, before)
        return json.dumps(answer)

    return call


@reported
def start(example: str, position: str, names: str, lang: str) -> str:
    session = EmbedTryout(str(position), [str(n) for n in json.loads(str(names))], str(lang))
    SESSIONS[str(example)] = session
    return json.dumps(session.frame())


@reported
def embed_frames(kind: str, value: str, lang: str) -> str:
    try:
        return json.dumps(link_frames(str(kind), str(value), str(lang)))
    except ValueError as error:  # RecordError: a link that does not read
        return json.dumps({"error": str(error), "code": str(getattr(error, "code", "") or "")})


async def weigh(position: str, names: str, lang: str) -> str:
    try:
        found = await odds(str(position), [str(n) for n in json.loads(str(names))], str(lang), asyncio.sleep)
    except Exception as error:
        print("".join(traceback.format_exception(error)), file=sys.stderr)
        return json.dumps({"name": "", "moves": [], "error": str(error)})
    return json.dumps(found)


def publish() -> None:
    engine = window.Object.new()
    methods: dict[str, Callable[..., Any]] = {
        "start": start, "embed_frames": embed_frames, "odds": weigh,
        "card": answered(lambda session, card: session.card(card)),
        "target": answered(lambda session, target: session.target(target)),
        "press": answered(lambda session, action: session.press(action)),
        "reply": answered(lambda session: session.reply()),
        "play": answered(lambda session, text: session.play(text)),
    }
    for name, function in methods.items():
        setattr(engine, name, create_proxy(function))
    window.durakEngine = engine
    window.dispatchEvent(window.CustomEvent.new("durak:engine"))


publish()
