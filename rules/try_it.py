"""Browser entry of "try it yourself" on the rules pages: publishes ``window.durakEngine`` for web/stepper.js.

The pages hold ``<script type="py" src="../try_it.py" config="pyscript.toml">``; PyScript runs it once
web/stepper.js's ``loadEngine`` has imported PyScript (in idle time, or on the first "try it"). It lives here,
not in web/, so that web/modules.zip (and the memory snapshot made from it) holds no module that imports
``pyscript``. Each method takes and returns text (JSON), so nothing but strings crosses between JavaScript and
Python; the work is web/tryout.py's, tested under CPython. "durak:engine" on window says the engine is ready.
"""

from __future__ import annotations

import asyncio
import json
import sys
import traceback

from pyodide.ffi import create_proxy
from pyscript import window

from web.tryout import Tryout, odds, reported

SESSIONS: dict[str, Tryout] = {}


@reported
def start(example: str, position: str, names: str, lang: str) -> str:
    session = Tryout(str(position), [str(n) for n in json.loads(str(names))], str(lang))
    SESSIONS[str(example)] = session
    return json.dumps(session.frame())


@reported
def card(example: str, value: str) -> str:
    return json.dumps(SESSIONS[str(example)].card(str(value)))


@reported
def target(example: str, value: str) -> str:
    return json.dumps(SESSIONS[str(example)].target(str(value)))


@reported
def press(example: str, action: str) -> str:
    return json.dumps(SESSIONS[str(example)].press(str(action)))


@reported
def reply(example: str) -> str:
    return json.dumps(SESSIONS[str(example)].reply())


async def weigh(position: str, names: str, lang: str) -> str:
    try:
        found = await odds(str(position), [str(n) for n in json.loads(str(names))], str(lang), asyncio.sleep)
    except Exception as error:
        print("".join(traceback.format_exception(error)), file=sys.stderr)
        return json.dumps({"name": "", "moves": [], "error": str(error)})
    return json.dumps(found)


def publish() -> None:
    engine = window.Object.new()
    for name, function in (("start", start), ("card", card), ("target", target), ("press", press),
                           ("reply", reply), ("odds", weigh)):
        setattr(engine, name, create_proxy(function))
    window.durakEngine = engine
    window.dispatchEvent(window.CustomEvent.new("durak:engine"))


publish()
