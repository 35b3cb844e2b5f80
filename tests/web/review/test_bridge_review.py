"""The review and history screens through web/worker/bridge.py under CPython, by messages only: a finished game's
review opened, graded, played on from a step and closed; the history, its files and records; a link's
review at boot; and malformed ``review`` messages refused with a code, nothing changed."""

from __future__ import annotations

import json
from typing import Any

import pytest

from durak.record import url_safe
from tests.web.worker.test_bridge import PLAYABLE, Page, boot_message, in_loop, play_by_gestures, refused
from web.review import history
from web.shared.i18n import t
from web.shared.storage import MemoryStore
from web.worker.bridge import Bridge

GAME = "?variant=podkidnoy&players=2&level=easy&seed=1&speed=instant"


class ReviewPage(Page):
    """The page's side, grading with few worlds (a whole game's verdicts in a second or so)."""

    def __init__(self) -> None:
        super().__init__()
        self.bridge = Bridge(self._receive, worlds=3)

    def review(self, action: str, **args: Any) -> list[dict[str, Any]]:
        return self.send({"t": "review", "action": action, "args": args})

    def ops(self, op: str) -> list[dict[str, Any]]:
        return [m for m in self.of("review") if m["op"] == op]

    def opened(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.ops("open")[-1]["data"])
        return data


async def finished(search: str = GAME) -> ReviewPage:
    page = ReviewPage()
    page.send(boot_message(search))
    await play_by_gestures(page)
    await page.settle()
    return page


@in_loop
async def test_a_finished_game_is_reviewed_graded_played_on_and_closed_by_messages() -> None:
    page = await finished()
    stored, _ = history.load(MemoryStore(dict(page.local)))
    assert len(stored.games) == 1, "the game joined the history (store messages)"

    page.review("review")
    await page.settle()
    data = page.opened()
    assert data["finished"] and data["seat"] == 0 and data["steps"] > 10
    updates = [json.loads(m["data"]) for m in page.ops("update")]
    assert updates[-1]["progress"]["complete"], "graded to the end in the worker's tasks"
    assert sorted(v["move"] for u in updates for v in u["verdicts"]) == sorted(data["graded"])

    page.review("stop-grading")  # graded already: nothing to stop, nothing refused
    page.review("download-record")
    name = page.ops("download")[-1]
    assert name["name"].endswith(".durak") and name["mime"] == "text/plain" and name["text"].startswith("[Rules ")
    page.review("copy-link", url="https://example.org/durak/index.html")
    link = page.ops("copy")[-1]["text"]
    assert link.startswith("https://example.org/durak/index.html?record=r1") and link.endswith("&lang=en")
    assert page.of("notice")[-1]["text"] == t("en", "review.copied")

    played = saved_moves(page)
    frames = len(page.of("frame"))
    page.review("play-on", step=3)  # the step the page shows, sent with the message
    assert page.ops("close"), "the review closed"
    assert len(page.of("frame")) > frames and not page.frame["over"], "the game goes on at the table"
    assert saved_moves(page)[:3] == played[:3]
    assert not page.of("refused")


def saved_moves(page: Page) -> list[Any]:
    moves: list[Any] = json.loads(page.local["durak.save"])["series"]["game"]["history"]
    return moves


@in_loop
async def test_the_history_its_games_files_and_clearing_by_messages() -> None:
    page = await finished()
    page.review("history")
    html = page.ops("history")[-1]["html"]
    game = json.loads(page.local["durak.history"])["games"][0]["id"]
    assert f'data-game="{game}"' in html and "data-confirm=" in html

    page.review("review-game", game=game)
    await page.settle()
    assert page.opened()["steps"] > 10
    page.review("close-review")
    assert page.ops("close")

    page.review("export-history")
    export = page.ops("download")[-1]
    assert export["mime"] == "application/json" and json.loads(export["text"])["games"][0]["id"] == game

    page.review("import-history", text='{"format": "something", "version": 1}')
    assert t("en", "history.foreign") in page.ops("history")[-1]["html"]

    page.review("clear-history", confirmed=False)  # the player said no on the page
    assert len(json.loads(page.local["durak.history"])["games"]) == 1
    page.review("clear-history", confirmed=True)
    assert json.loads(page.local["durak.history"])["games"] == []
    assert t("en", "history.cleared") in page.ops("history")[-1]["html"]
    page.review("close-history")
    assert page.ops("history")[-1]["html"] == ""
    assert not page.of("refused")


@in_loop
async def test_records_open_from_text_and_a_link_and_bad_ones_are_said() -> None:
    page = await finished()
    record = json.loads(page.local["durak.history"])["games"][0]["record"]
    page.review("open-text", text=record)
    await page.settle()
    assert page.opened()["finished"]
    opened = len(page.ops("open"))
    page.review("open-text", text="not a record")
    await page.settle()
    assert len(page.ops("open")) == opened and page.of("notice")[-1]["code"] == "review"

    linked = ReviewPage()
    linked.send(boot_message(f"?record={url_safe(record)}&lang=fr"))
    await linked.settle()
    assert linked.opened()["title"] == t("fr", "review.title"), "a ?record= link opens its review at boot"
    linked.send({"t": "lang", "value": "ru"})
    assert linked.opened()["title"] == t("ru", "review.title"), "the review follows the page's language"
    linked.review("review-seat", seat=1)
    await linked.settle()
    assert linked.opened()["seat"] == 1


@pytest.mark.parametrize(("args", "action", "code"), [
    ({}, "resign", "bad_value"),
    ({"x": 1}, "review", "bad_shape"),
    ({}, "play-on", "bad_shape"),
    ({"step": "3"}, "play-on", "bad_shape"),
    ({"step": True}, "play-on", "bad_shape"),
    ({"step": 1.5}, "play-on", "bad_shape"),
    ({"step": -1}, "play-on", "bad_value"),
    ({"seat": -2}, "review-seat", "bad_value"),
    ({"confirmed": 1}, "clear-history", "bad_shape"),
    ({"url": "javascript:alert(1)"}, "copy-link", "bad_value"),
    ({"url": "https://example.org/?record=x"}, "copy-link", "bad_value"),
    ({"game": 7}, "review-game", "bad_shape"),
    ({"text": None}, "open-text", "bad_shape"),
])
@in_loop
async def test_malformed_review_messages_are_refused_and_change_nothing(args: dict[str, Any], action: str,
                                                                          code: str) -> None:
    page = ReviewPage()
    page.send(boot_message(GAME))
    local = dict(page.local)
    assert refused(page.review(action, **args)) == code
    await page.settle()
    assert not page.of("review") and page.local == local


@in_loop
async def test_review_messages_have_exactly_their_keys_and_come_after_boot() -> None:
    page = ReviewPage()
    assert refused(page.review("history")) == "not_booted"
    page.send(boot_message(GAME))
    assert refused(page.send({"t": "review", "action": "history"})) == "bad_shape"
    assert refused(page.send({"t": "review", "action": "history", "args": []})) == "bad_shape"
    assert refused(page.send({"t": "review", "action": "history", "args": {}, "step": 1})) == "bad_shape"
    assert not page.of("review")
    card = PLAYABLE.findall(page.frame["hand"])[0]
    assert not [m for m in page.gesture("card", card=card) if m["t"] == "refused"], "the table plays on"
