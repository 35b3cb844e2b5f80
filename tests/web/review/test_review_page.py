"""The review and history screens' flow under CPython: games recorded at the end, reviews opened from the
table, the history, files and links, grading, play on, export, import and clear."""

from __future__ import annotations

import json
from collections.abc import Coroutine
from typing import Any

from durak import Game, parse_action
from durak.ai import make_player
from durak.record import parse_record, url_safe
from tests.web.running import run_coroutine
from tests.web.table.test_table_flow import FakePage, table
from web.review import history
from web.review.review_page import ReviewPage, play_on_snapshot
from web.shared.i18n import t, tn
from web.shared.storage import MemoryStore
from web.table.controller import Controller


class FakeScreens:
    """web/review/review.js and the window, as plain records of what was asked."""

    def __init__(self) -> None:
        self.reviews: list[dict[str, Any]] = []
        self.updates: list[dict[str, Any]] = []
        self.histories: list[str] = []
        self.downloads: list[tuple[str, str, str]] = []
        self.copied: list[str] = []
        self.closed = 0
        self.step: int | None = 0
        self.answer = True
        self.pending: list[Coroutine[Any, Any, None]] = []
        self.running = False
        self.time = "2026-12-01T10:00:00Z"

    def open_review(self, data: str) -> None:
        self.reviews.append(json.loads(data))

    def update_review(self, data: str) -> None:
        self.updates.append(json.loads(data))

    def close_review(self) -> None:
        self.closed += 1

    def show_history(self, html: str) -> None:
        self.histories.append(html)

    def shown_step(self) -> int | None:
        return self.step

    def download(self, name: str, text: str, mime: str) -> None:
        self.downloads.append((name, text, mime))

    def copy(self, text: str) -> None:
        self.copied.append(text)

    def confirm(self, text: str) -> bool:
        return self.answer

    def now(self) -> str:
        return self.time

    def page_url(self) -> str:
        return "https://example.org/durak/index.html"

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        """Run the task to its end at once (few worlds: see finished_table); one spawned meanwhile runs after."""
        self.pending.append(coro)
        if self.running:
            return
        self.running = True
        try:
            while self.pending:
                run_coroutine(self.pending.pop(0))
        finally:
            self.running = False

    async def sleep(self, seconds: float) -> None:
        return None


def finished_table(seed: int = 3) -> tuple[Controller, FakePage, ReviewPage, FakeScreens, list[str]]:
    """A table whose game is played to its end by the engine (the controller only redraws)."""
    controller, page = table(f"?variant=podkidnoy&players=2&level=easy&seed={seed}")
    screens, notices = FakeScreens(), []
    reviews = ReviewPage(controller, controller.store, screens, notices.append, worlds=4)
    normal = make_player("normal")
    game = controller.game
    while game.result is None:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, normal.choose(game.view(seat), game.legal_actions(seat)))
    controller.refresh()
    return controller, page, reviews, screens, notices


def test_a_finished_game_joins_the_history_once() -> None:
    controller, _, reviews, _, _ = finished_table()
    controller.refresh()
    controller.refresh()
    assert len(reviews.history.games) == 1
    entry = reviews.history.games[0]
    assert entry.levels == ("human", "easy") and entry.seat == 0 and entry.date == "2026-12-01T10:00:00Z"
    assert entry.record == controller.game.record()
    stored, _ = history.load(controller.store)
    assert [e.id for e in stored.games] == [entry.id]
    again = ReviewPage(controller, controller.store, FakeScreens(), print, worlds=4)  # a reload: not a new game
    controller.refresh()
    assert len(again.history.games) == 1


def test_the_game_over_review_grades_the_human_seat_and_publishes_verdicts() -> None:
    controller, _, reviews, screens, _ = finished_table()
    assert reviews.on_action("review")
    data = screens.reviews[-1]
    assert data["steps"] == len(controller.game.history) + 1 and data["seat"] == 0 and data["finished"]
    assert data["names"] == controller.names
    verdicts = [v for update in screens.updates for v in update["verdicts"]]
    assert [v["move"] for v in verdicts] == data["graded"]
    assert screens.updates[-1]["progress"]["complete"]


def test_play_on_continues_the_reviewed_game_from_the_shown_step() -> None:
    controller, page, reviews, screens, _ = finished_table()
    moves = list(controller.game.history)
    reviews.on_action("review")
    screens.step = 7

    async def play_on() -> None:
        reviews.on_action("play-on")
        await page.settle()  # the AI answers until the human's turn

    run_coroutine(play_on())
    assert controller.game.history[:7] == moves[:7] and controller.game.result is None
    assert controller.game.to_act == 0
    assert controller.settings.seats == ("human", "easy")
    assert screens.closed == 1 and reviews.session is None
    screens.step = len(moves)
    reviews.on_action("review-game", reviews.history.games[0].id)
    notices: list[str] = []
    reviews.notify = notices.append
    reviews.on_action("play-on")  # nothing to play on at the end of a finished game
    assert notices == [t("en", "review.play_on_done")]


def test_a_game_played_on_that_repeats_the_reviewed_one_move_for_move_is_a_new_game() -> None:
    controller, page, reviews, screens, _ = finished_table()
    moves = list(controller.game.history)
    reviews.on_action("review")
    screens.step = step = next(i for i in range(7, len(moves)) if moves[i][0] == 0)  # the human's turn
    run_coroutine(page_play_on(reviews, page))
    assert controller.game.history == moves[:step]
    screens.time = "2026-12-01T10:20:00Z"
    for seat, action in moves[step:]:
        controller.game.apply(seat, action)
        controller.refresh()
    assert controller.game.record() == reviews.history.games[0].record
    assert len(reviews.history.games) == 2
    again = ReviewPage(controller, controller.store, FakeScreens(), print, worlds=4)  # a reload: not a third
    controller.refresh()
    assert len(again.history.games) == 2


async def page_play_on(reviews: ReviewPage, page: FakePage) -> None:
    reviews.on_action("play-on")
    await page.settle()


def test_a_play_on_save_keeps_who_sat_where() -> None:
    game = Game.new(parse_record(finished_table()[0].game.record()).start(Game).rules, seed=1)
    snapshot = play_on_snapshot(game, 0, ["human", "hard"])
    assert snapshot["settings"]["seats"] == ["human", "hard"] and snapshot["viewer"] == 0
    assert play_on_snapshot(game, 1, None)["settings"]["seats"] == ["human", "human"]  # seat 0 is always human


def test_records_open_from_text_a_link_or_its_value_and_bad_ones_are_explained() -> None:
    controller, _, reviews, screens, notices = finished_table()
    text = controller.game.record()
    value = url_safe(text)
    for given in (text, value, f"https://example.org/index.html?record={value}&lang=fr"):
        reviews.open_text(given)
        assert screens.reviews[-1]["steps"] == len(controller.game.history) + 1
    reviews.open_text("1. s0 attack 6S")
    assert notices and notices[-1].startswith(t("en", "review.bad_record", reason="")[:20])
    reviews.on_action("copy-link")
    assert screens.copied == [f"https://example.org/durak/index.html?record={value}&lang=en"]


def test_a_record_link_in_the_address_opens_its_review_at_boot() -> None:
    controller, _, reviews, screens, _ = finished_table()
    reviews.boot(f"?record={url_safe(controller.game.record())}&lang=en")
    assert screens.reviews and screens.reviews[-1]["finished"]


def test_history_reviews_export_import_and_clear() -> None:
    controller, _, reviews, screens, _ = finished_table()
    entry = reviews.history.games[0]
    reviews.on_action("history")
    assert f'data-game="{entry.id}"' in screens.histories[-1]
    reviews.on_action("review-game", entry.id)
    assert screens.reviews[-1]["names"][0] == t("en", "seat_you")
    reviews.on_action("download-record")
    assert screens.downloads[-1][1] == entry.record and screens.downloads[-1][0].endswith(".durak")
    reviews.on_action("export-history")
    name, exported, mime = screens.downloads[-1]
    assert name == "durak-history-2026-12-01.json" and mime == "application/json"
    assert json.loads(exported)["games"][0]["id"] == entry.id
    reviews.import_text("{broken")
    assert t("en", "history.not_json") in screens.histories[-1] and len(reviews.history.games) == 1
    screens.answer = False
    reviews.on_action("clear-history")
    assert len(reviews.history.games) == 1
    screens.answer = True
    reviews.on_action("clear-history")
    assert reviews.history.games == [] and t("en", "history.cleared") in screens.histories[-1]
    reviews.import_text(exported)
    assert len(reviews.history.games) == 1 and tn("en", "history.imported", 1, known=0) in screens.histories[-1]
    assert history.load(controller.store)[0].games == reviews.history.games


def test_a_damaged_history_is_set_aside_and_said_at_boot() -> None:
    store = MemoryStore({history.HISTORY_KEY: "{not json"})
    controller, _ = table("?variant=podkidnoy&players=2&level=easy&seed=1", store)
    notices: list[str] = []
    reviews = ReviewPage(controller, store, FakeScreens(), notices.append, worlds=4)
    reviews.boot("")
    assert notices == [t("en", "history.set_aside")] and store.get(history.SET_ASIDE_KEY) == "{not json"


def test_other_buttons_are_left_to_the_table() -> None:
    _, _, reviews, _, _ = finished_table()
    assert not reviews.on_action("take") and not reviews.on_action("new-game")


def test_the_play_on_snapshot_restores_at_the_table() -> None:
    controller, _, _, _, _ = finished_table()
    record = parse_record(controller.game.record())
    start = record.start(Game)
    start.apply(record.moves[0].seat, parse_action(str(record.moves[0].action)))
    controller.restore(play_on_snapshot(start, 0, ["human", "easy"]))
    assert controller.game.history == [(record.moves[0].seat, record.moves[0].action)]


def test_the_seat_picker_grades_another_seat_of_a_finished_game() -> None:
    controller, _, reviews, screens, _ = finished_table()
    reviews.on_action("review")
    reviews.review_seat(1)
    assert screens.reviews[-1]["seat"] == 1 and reviews.session is not None and reviews.session.seat == 1
    assert screens.reviews[-1]["names"] == controller.names
