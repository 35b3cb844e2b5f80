"""web/worker/bridge.py under CPython: whole games played by the page's gesture messages alone, read from the
frames the bridge posts (as a view port would read them), and the refusals of malformed or stale messages."""

from __future__ import annotations

import asyncio
import functools
import json
import re
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from tests.web.running import run_coroutine
from web.shared import storage
from web.table.params import Settings
from web.worker.bridge import MAX_MESSAGE, REFUSALS, Bridge, check

PLAYABLE = re.compile(r'data-card="([^"]+)" data-playable="true"')
LIT = re.compile(r'<[^>]*data-target="true"[^>]*>')


def in_loop(test: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """An async test run on its own event loop: the bridge's AIs play in tasks, as in the worker."""

    @functools.wraps(test)
    def run(*args: Any, **kwargs: Any) -> None:
        run_coroutine(test(*args, **kwargs))

    return run


def boot_message(search: str = "", store: dict[str, str] | None = None, **changes: Any) -> dict[str, Any]:
    return {"t": "boot", "search": search, "langs": ["en-GB", "en"], "store": store or {}, "embedded": False,
            "viewport": {"width": 360, "height": 640}, "controlled": False, **changes}


class Page:
    """The page's side: sends messages as JSON text, keeps what the worker posted."""

    def __init__(self) -> None:
        self.posted: list[dict[str, Any]] = []
        self.bridge = Bridge(self._receive)
        self.local: dict[str, str] = {}

    def _receive(self, message: dict[str, Any]) -> None:
        json.dumps(message)  # JSON-safe, as postMessage needs
        self.posted.append(message)
        if message["t"] == "store":
            if message["value"] is None:
                self.local.pop(message["key"], None)
            else:
                self.local[message["key"]] = message["value"]

    def send(self, message: object) -> list[dict[str, Any]]:
        """Post one message; what the worker answered at once."""
        before = len(self.posted)
        self.bridge.receive(json.dumps(message))
        return self.posted[before:]

    def of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.posted if m["t"] == kind]

    @property
    def frame(self) -> dict[str, Any]:
        return self.of("frame")[-1]

    def gesture(self, kind: str, card: str = "", target: str = "", action: str = "",
                frame: int | None = None) -> list[dict[str, Any]]:
        seq = self.frame["seq"] if frame is None else frame
        return self.send({"t": "gesture", "kind": kind, "card": card, "target": target, "action": action,
                          "frame": seq})

    async def settle(self) -> None:
        while self.bridge.port.tasks:
            await asyncio.gather(*list(self.bridge.port.tasks))


def target_key(tag: str) -> str:
    attack = re.search(r'data-attack="([^"]+)"', tag)
    if attack:
        return f"attack:{attack[1]}"
    drop = re.search(r'data-drop="([^"]+)"', tag)
    assert drop, tag
    return f"zone:{drop[1]}"


def enabled(frame: dict[str, Any], button: str) -> bool:
    state = frame["buttons"][button]
    return bool(state["enabled"]) and not state["hidden"]


def refused(answer: list[dict[str, Any]]) -> str:
    assert len(answer) == 1 and answer[0]["t"] == "refused", answer
    code: str = answer[0]["code"]
    assert code in REFUSALS, code
    return code


async def play_by_gestures(page: Page, limit: int = 900) -> None:
    """The browser tests' player (tests/browser/helpers.py click_a_move), on frames: the first playable card,
    then its first lit target or "play"; else pass or take; the cover is revealed."""
    for _ in range(limit):
        await page.settle()
        frame = page.frame
        if frame["over"]:
            return
        if frame["cover"]:
            refused_or_none = page.gesture("action", action="reveal")
            assert not [m for m in refused_or_none if m["t"] == "refused"], refused_or_none
            continue
        assert 'data-live="true"' in frame["hand"], "nobody to play, yet no AI is thinking"
        make_a_move(page)
        assert not page.of("refused"), page.of("refused")
    raise AssertionError("the game did not end")


def make_a_move(page: Any) -> None:
    """The browser tests' player on the page's latest frame: the first playable card (and the play button
    or the first lit target), else pass, else take."""
    frame = page.frame
    cards = PLAYABLE.findall(frame["hand"])
    if cards:
        page.gesture("card", card=cards[0])
        after = page.frame
        lit = LIT.findall(after["table"])
        if enabled(after, "play"):
            page.gesture("action", action="play")
        elif lit:
            page.gesture("target", target=target_key(lit[0]))
    elif enabled(frame, "pass"):
        page.gesture("action", action="pass")
    else:
        assert enabled(frame, "take"), frame["status"]
        page.gesture("action", action="take")


@pytest.mark.parametrize("search", [
    "?variant=podkidnoy&players=2&level=easy&seed=1&speed=instant",
    "?variant=perevodnoy&players=3&level=normal&seed=2&speed=instant",
    "?variant=prostoy&players=3&level=easy&seed=3&speed=instant",
    "?variant=podkidnoy&players=3&seats=human,easy&level=easy&seed=4&speed=instant",  # pass-and-play
])
@in_loop
async def test_a_whole_game_by_gesture_messages(search: str) -> None:
    page = Page()
    page.send(boot_message(search))
    assert page.of("frame"), "a link's game is dealt at boot"
    await play_by_gestures(page)
    frame = page.frame
    assert 'data-testid="game-over"' in frame["game_over"]
    seqs = [m["seq"] for m in page.of("frame")]
    assert seqs == list(range(1, len(seqs) + 1)), "frames are numbered one by one"
    assert "durak.save" in page.local, "the save went to the page's localStorage by store messages"


@in_loop
async def test_a_dealt_game_resumes_from_the_store_the_page_sends() -> None:
    first = Page()
    first.send(boot_message("?variant=podkidnoy&players=2&level=easy&seed=5&speed=instant"))
    await first.settle()  # the AI may lead
    first.gesture("card", card=PLAYABLE.findall(first.frame["hand"])[0])
    await first.settle()
    shown = first.frame

    again = Page()
    again.send(boot_message("?speed=instant", store=dict(first.local)))
    assert again.frame["hand"] == shown["hand"] and again.frame["table"] == shown["table"]
    assert again.frame["seq"] == 1


@in_loop
async def test_start_deals_and_unplayable_settings_are_refused() -> None:
    page = Page()
    page.send(boot_message("?speed=instant"))
    assert not page.of("frame"), "nothing to resume: the view port keeps its dialog"
    settings = Settings(players=3, seats=("human", "easy", "easy"), seed=9).to_dict()
    page.send({"t": "start", "settings": settings})
    assert page.frame["seq"] == 1
    await play_by_gestures(page)  # the AIs answer in tasks, as in the worker
    assert refused(page.send({"t": "start", "settings": {**settings, "deck": 24, "players": 6,
                                                         "seats": ["human"] + ["easy"] * 5}})) == "unplayable"
    assert refused(page.send({"t": "start", "settings": {"colour": "red"}})) == "bad_settings"


@in_loop
async def test_the_dialog_is_answered_with_its_problems_and_summary() -> None:
    page = Page()
    page.send(boot_message("?lang=fr"))
    fine = page.send({"t": "dialog", "settings": Settings().to_dict()})
    assert fine[0]["t"] == "dialog" and fine[0]["problems"] == [] and fine[0]["error"] == ""
    assert fine[0]["summary"]
    too_many = Settings(players=6, deck=24, seats=("human",) + ("easy",) * 5).to_dict()
    answer = page.send({"t": "dialog", "settings": too_many})[0]
    assert answer["problems"] and answer["error"]


@in_loop
async def test_language_and_speed_redraw_and_are_saved() -> None:
    page = Page()
    page.send(boot_message("?variant=podkidnoy&players=2&level=easy&seed=1&speed=instant"))
    english = page.frame["status"]
    page.send({"t": "lang", "value": "ru"})
    assert page.frame["status"] != english
    page.send({"t": "speed", "value": "slow"})
    prefs = json.loads(page.local[storage.PREFS_KEY])
    assert prefs == {"lang": "ru", "speed": "slow"}
    assert refused(page.send({"t": "lang", "value": "tlh"})) == "bad_value"
    assert refused(page.send({"t": "speed", "value": "warp"})) == "bad_value"


@in_loop
async def test_a_gesture_on_an_older_frame_is_refused() -> None:
    page = Page()
    page.send(boot_message("?variant=podkidnoy&players=2&level=easy&seed=1&speed=instant"))
    card = PLAYABLE.findall(page.frame["hand"])[0]
    old = page.frame["seq"]
    page.gesture("card", card=card)  # selects it (a new frame)
    assert page.frame["seq"] == old + 1
    answer = page.gesture("action", action="cancel", frame=old)
    assert refused(answer) == "stale_frame" and answer[0]["params"] == {"frame": old + 1}
    assert page.frame["seq"] == old + 1, "a refused gesture changes nothing"
    assert refused(page.gesture("action", action="cancel", frame=old + 5)) == "stale_frame"


@pytest.mark.parametrize(("message", "code"), [
    ({"t": "gesture", "kind": "card", "card": "6S", "target": "", "action": ""}, "bad_shape"),  # no frame
    ({"t": "gesture", "kind": "card", "card": "6S", "target": "", "action": "", "frame": "1"}, "bad_shape"),
    ({"t": "gesture", "kind": "card", "card": "6S", "target": "", "action": "", "frame": True}, "bad_shape"),
    ({"t": "gesture", "kind": "card", "card": "6S", "target": "", "action": "", "frame": 1, "x": 0}, "bad_shape"),
    ({"t": "gesture", "kind": "wave", "card": "", "target": "", "action": "", "frame": 1}, "bad_value"),
    ({"t": "gesture", "kind": "card", "card": "1Z", "target": "", "action": "", "frame": 1}, "bad_value"),
    ({"t": "gesture", "kind": "card", "card": "6S", "target": "zone:table", "action": "", "frame": 1}, "bad_value"),
    ({"t": "gesture", "kind": "target", "card": "", "target": "zone:moon", "action": "", "frame": 1}, "bad_value"),
    ({"t": "gesture", "kind": "action", "card": "", "target": "", "action": "resign", "frame": 1}, "bad_value"),
    ({"t": "gesture", "kind": "key", "card": "", "target": "", "action": "play", "frame": 1}, "bad_value"),
    ({"t": "lang", "value": 3}, "bad_shape"),
    ({"t": "start"}, "bad_shape"),
    ({"t": "teleport"}, "unknown_type"),
    ({"kind": "card"}, "bad_shape"),
    ([1, 2], "bad_shape"),
    ("boot", "bad_shape"),
])
@in_loop
async def test_malformed_messages_are_refused(message: object, code: str) -> None:
    page = Page()
    page.send(boot_message("?variant=podkidnoy&players=2&level=easy&seed=1&speed=instant"))
    before = page.frame
    assert refused(page.send(message)) == code
    assert page.frame is before, "a refused message changes nothing"


def test_text_that_is_no_message_is_refused() -> None:
    page = Page()
    page.bridge.receive("{not json")
    assert page.posted[-1]["code"] == "bad_json"
    page.bridge.receive(" " * (MAX_MESSAGE + 1))
    assert page.posted[-1]["code"] == "too_large"


@in_loop
async def test_boot_comes_first_and_once() -> None:
    page = Page()
    assert refused(page.send({"t": "lang", "value": "fr"})) == "not_booted"
    assert refused(page.send(boot_message(viewport=[360, 640]))) == "bad_shape"
    page.send(boot_message())
    assert refused(page.send(boot_message())) == "booted_twice"
    assert refused(page.gesture("action", action="pass", frame=0)) == "no_game"


@in_loop
async def test_engine_calls_go_through_the_bridge() -> None:
    page = Page()
    page.send(boot_message())
    answer = page.send({"t": "engine", "id": 3, "method": "deal", "args": [{"players": 2}, 1]})
    assert answer[0]["t"] == "answer" and answer[0]["id"] == 3 and answer[0]["result"]["legal"]
    answer = page.send({"t": "engine", "id": 4, "method": "deal"})
    assert refused(answer) == "bad_shape" and answer[0]["id"] == 4


def test_the_shape_check_names_the_key() -> None:
    message = check(json.dumps(boot_message()))
    assert message["t"] == "boot"
    with pytest.raises(ValueError, match="frame must be an integer"):
        check(json.dumps({"t": "gesture", "kind": "card", "card": "", "target": "", "action": "", "frame": 1.5}))


@in_loop
async def test_an_exception_while_obeying_is_posted_as_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    page = Page()
    page.send(boot_message("?variant=podkidnoy&players=2&level=easy&seed=1&speed=instant"))
    controller = page.bridge.controller
    assert controller is not None

    def broken(card: str) -> None:
        raise RuntimeError(f"no {card} today")

    controller.click_card = broken  # type: ignore[method-assign]
    card = PLAYABLE.findall(page.frame["hand"])[0]
    assert page.gesture("card", card=card) == [{"t": "error", "id": None, "text": f"RuntimeError: no {card} today"}]
    assert "Traceback" in capsys.readouterr().err
    page.send({"t": "speed", "value": "fast"})  # and it goes on obeying
    assert json.loads(page.local[storage.PREFS_KEY])["speed"] == "fast"



@in_loop
async def test_the_table_boots_and_deals_without_the_features() -> None:
    """Play with friends, the review and history and the embed (web/features.zip, which the worker loads on
    first use) are made on the first message that needs them, not at the boot, a deal or the page's address."""
    page = Page()
    page.send(boot_message("?speed=instant"))
    page.send({"t": "address", "href": "http://localhost/index.html"})
    frame = [m for m in page.send({"t": "start", "settings": Settings().to_dict()}) if m["t"] == "frame"]
    assert frame and page.bridge.reviews is None and page.bridge.friends is None
    page.send({"t": "review", "action": "history", "args": {}})
    assert page.bridge.reviews is not None and page.bridge.friends is not None
    assert page.bridge.friends.base_url == "http://localhost/index.html"  # the address kept for it
    assert not page.send({"t": "features"})  # the worker's word that web/features.zip is unpacked: obeyed silently


@in_loop
async def test_a_finished_game_loads_the_history() -> None:
    """A game that ends before any feature was used still joins the history: the bridge makes the review's
    objects then (in the browser, after asking the worker for web/features.zip with a ``features`` message)."""
    page = Page()
    page.send(boot_message("?variant=podkidnoy&players=2&level=easy&seed=1&speed=instant"))
    assert page.bridge.reviews is None
    await play_by_gestures(page)
    assert page.bridge.reviews is not None and len(page.bridge.reviews.history.games) == 1
