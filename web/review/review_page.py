"""The table's review and history screens: what their buttons do, and the bookkeeping behind them.

``ReviewPage`` joins the table's controller (web/table/controller.py), the history store (web/review/history.py) and
the review model (web/review/model.py) to the browser side, web/review/review.js, through a ``Screens`` port, so the
whole flow runs under CPython in tests. It records every finished game into the history (from the
controller's ``on_change``), opens reviews (of the game just played, of a history game, of a record file,
pasted text or a ``?record=`` link), grades them in slices, and plays on from a reviewed step. In the
engine worker (web/worker/bridge.py) its ``Screens`` are ``PostedScreens``, messages to the page, and the page's
``review`` messages (``MESSAGES``) are obeyed by ``obey``: nothing here imports the browser.
"""

from __future__ import annotations

import json
import random
from collections.abc import Awaitable, Callable, Coroutine
from datetime import UTC, datetime
from typing import Any, Protocol
from urllib.parse import parse_qsl, urlsplit

from durak import Game, review
from durak.messages import CodedError
from durak.record import RecordError, from_url_safe, url_safe
from durak.series import Series
from web.review import history
from web.review.history import HistoryError
from web.review.history_screen import history_html
from web.review.model import Session
from web.shared.i18n import say, seat_names, t, tn
from web.shared.storage import Store
from web.table.controller import Controller
from web.table.params import Settings, normalise_seats

#: The buttons this module answers (the page's ``review`` messages, ``MESSAGES``, name them).
ACTIONS = frozenset({"review", "history", "close-history", "review-game", "export-history", "clear-history",
                     "import-history", "open-record", "open-pasted", "close-review", "download-record",
                     "copy-link", "play-on", "stop-grading", "resume-grading"})
#: How many recent history games are checked before recording a game, so a reload never counts it twice.
RECENT = 20


class Screens(Protocol):
    """The browser side: web/review/review.js's ``durakReviewUI`` and a few window services (``PostedScreens`` in the
    engine worker)."""

    def open_review(self, data: str) -> None: ...
    def update_review(self, data: str) -> None: ...
    def close_review(self) -> None: ...
    def show_history(self, html: str) -> None: ...
    def shown_step(self) -> int | None: ...
    def download(self, name: str, text: str, mime: str) -> None: ...
    def copy(self, text: str) -> None: ...
    def confirm(self, text: str) -> bool: ...
    def now(self) -> str: ...
    def page_url(self) -> str: ...
    def spawn(self, coro: Coroutine[Any, Any, None]) -> None: ...
    def sleep(self, seconds: float) -> Awaitable[None]: ...


class ReviewPage:
    """The review and history screens of one table."""

    def __init__(self, controller: Controller, store: Store, screens: Screens,
                 notify: Callable[[str], None], *, worlds: int = review.WORLDS) -> None:
        self.controller = controller
        self.worlds = worlds  # sampled worlds per graded decision (fewer in tests)
        self.store = store
        self.screens = screens
        self.notify = notify
        self.history, set_aside = history.load(store)
        self.set_aside = set_aside
        self.session: Session | None = None
        self.kinds: list[str] | None = None  # who sat where in the reviewed game, to play on against the same
        self.history_open = False
        self.grading = False
        self.seen_over: Game | None = None  # the last finished game looked at, so each is written once
        self.seen_playing: Game | None = None  # the last game seen before its end: one that ended here
        before = controller.on_change

        def changed() -> None:
            if before is not None:
                before()
            self.changed()

        controller.on_change = changed

    @property
    def lang(self) -> str:
        return self.controller.lang

    # ------------------------------------------------------------------ the table's side
    def boot(self, query: str) -> None:
        """After the table is ready: say if the history was set aside; review a ``?record=`` link."""
        if self.set_aside:
            self.notify(t(self.lang, "history.set_aside"))
        value = dict(parse_qsl(query.lstrip("?"))).get("record")
        if value:
            self.open_text(value)

    def changed(self) -> None:
        """After each frame of the table: a game that has just ended joins the history."""
        if self.controller.series is None:
            return
        game = self.controller.game
        if game.result is None:
            self.seen_playing = game
            return
        if game is self.seen_over:
            return
        self.seen_over = game
        try:
            text = game.record()
        except RecordError:
            return  # a game whose start is unknown (an old save) cannot be written: nothing to review
        # A game already over when first seen may be a reload of one in the history; a game that ended here
        # is new, even one that repeats another move for move (played on from its review, say).
        if game is not self.seen_playing and any(entry.record == text for entry in self.history.games[-RECENT:]):
            return
        settings = self.controller.settings
        seat = settings.humans[0]
        self.history.add(history.entry_of(game, seat, settings.seats, self.screens.now()))
        if not history.save(self.store, self.history):
            self.notify(t(self.lang, "history.save_failed"))
        if self.history_open:
            self.show_history()

    def set_lang(self) -> None:
        """The page's language changed: redraw what is open in the new one."""
        if self.history_open:
            self.show_history()
        if self.session is not None:
            self.screens.open_review(json.dumps(self.session.data(self.lang)))
            self.screens.update_review(json.dumps({"verdicts": self.session.verdicts(self.lang),
                                                   "progress": self.session.progress(self.lang)}))

    def on_action(self, action: str, target: Any = None) -> bool:
        """Do what the button ``action`` asks; False when it is not one of ours. ``target`` is the clicked
        element's ``data-game`` for a history game."""
        if action not in ACTIONS:
            return False
        if action == "review":
            self.review_current()
        elif action == "history":
            self.show_history()
        elif action == "close-history":
            self.history_open = False
            self.screens.show_history("")
        elif action == "review-game":
            self.review_entry(str(target or ""))
        elif action == "export-history":
            name = f"durak-history-{self.screens.now()[:10]}.json"
            self.screens.download(name, history.export_text(self.history, self.screens.now()), "application/json")
        elif action == "clear-history":
            if self.screens.confirm(t(self.lang, "history.confirm_clear")):
                self.history.clear()
                history.save(self.store, self.history)
                self.show_history(t(self.lang, "history.cleared"))
        elif action == "close-review":
            self.close_review()
        elif action == "download-record" and self.session is not None:
            self.screens.download(f"durak-{self.screens.now()[:10]}.durak", str(self.session.record), "text/plain")
        elif action == "copy-link" and self.session is not None:
            self.screens.copy(self.link())
            self.notify(t(self.lang, "review.copied"))
        elif action == "play-on":
            self.play_on()
        elif action == "stop-grading" and self.session is not None:
            self.session.stop()
        elif action == "resume-grading":
            self.start_grading()
        return True  # open-record, import-history, open-pasted: their files and text come through review.js

    # ------------------------------------------------------------------ history
    def show_history(self, notice: str = "") -> None:
        self.history_open = True
        self.screens.show_history(history_html(self.history, self.lang, notice))

    def import_text(self, text: str) -> None:
        """A history file chosen for import: merged, or refused with the reason (the history unchanged)."""
        try:
            merged = self.history.merge(text)
        except HistoryError as error:
            self.show_history(say(self.lang, error.message))
            return
        history.save(self.store, self.history)
        self.show_history(tn(self.lang, "history.imported", merged.added, known=merged.known))

    # ------------------------------------------------------------------ reviews
    def review_current(self) -> None:
        controller = self.controller
        if controller.series is None:
            return
        settings = controller.settings
        self.kinds = list(settings.seats)
        seat = settings.humans[0]
        self.open(Session.from_text(controller.game.record(), seat, controller.names, you=seat, worlds=self.worlds))

    def review_entry(self, game_id: str) -> None:
        entry = self.history.find(game_id)
        if entry is None or entry.record is None:
            return
        self.kinds = list(entry.levels)
        self.open_record(entry.record, entry.seat, self.names_for(entry.levels, entry.seat), you=entry.seat)

    def names_for(self, kinds: list[str] | tuple[str, ...], seat: int) -> list[str]:
        """"You" for the reviewer, the others by their compass point seen from there ("West", "North")."""
        return seat_names(self.lang, len(kinds), seat)

    def open_text(self, text: str) -> None:
        """A record from a file, a paste or a link: its text, a ``?record=`` link, or the link's value."""
        self.kinds = None
        self.open_record(_record_text(text), 0, None)

    def open_record(self, text: str, seat: int, names: list[str] | None, you: int | None = None) -> None:
        try:
            session = Session.from_text(text, seat, names, you=you, worlds=self.worlds)
        except (CodedError, ValueError) as error:
            reason = say(self.lang, error.message) if isinstance(error, CodedError) else str(error)
            self.notify(t(self.lang, "review.bad_record", reason=reason))
            return
        self.open(session)

    def review_seat(self, seat: int) -> None:
        """Grade another seat's moves of the game on show (a finished game only)."""
        if self.session is None or seat == self.session.seat:
            return
        try:
            session = self.session.for_seat(seat)
        except ValueError:
            return
        self.open(session)

    def open(self, session: Session) -> None:
        """Show ``session`` and grade it: its frames are built in slices, then drawn, then graded."""
        if self.session is not None:
            self.session.stop()
        self.session = session
        self.screens.spawn(self._show(session))

    async def _show(self, session: Session) -> None:
        pieces = session.data_in_pieces(self.lang)
        while True:
            try:
                next(pieces)
            except StopIteration as built:
                data = built.value
                break
            await self.screens.sleep(0)
        if session is not self.session:
            return  # another review (or none) was asked for meanwhile
        self.screens.open_review(json.dumps(data))
        await self.screens.sleep(0)
        self.start_grading()

    def start_grading(self) -> None:
        session = self.session
        if session is None or self.grading:
            return
        self.grading = True
        self.screens.spawn(self._grade(session))

    async def _grade(self, session: Session) -> None:
        def publish(verdicts: list[dict[str, Any]], progress: dict[str, Any]) -> None:
            if session is self.session:
                self.screens.update_review(json.dumps({"verdicts": verdicts, "progress": progress}))

        try:
            await session.grade(self.screens.sleep, publish, lambda: self.lang)
        finally:
            self.grading = False

    def close_review(self) -> None:
        if self.session is not None:
            self.session.stop()
        self.session = None
        self.screens.close_review()

    def link(self) -> str:
        """A link to this page that opens the review of the record."""
        assert self.session is not None
        return f"{self.screens.page_url()}?record={url_safe(str(self.session.record))}&lang={self.lang}"

    def play_on(self) -> None:
        """Continue the reviewed game from the shown step at the table, the AIs taking the other seats."""
        session = self.session
        step = self.screens.shown_step()
        if session is None or step is None:
            return
        game = session.game_at(step)
        if game.result is not None:
            self.notify(t(self.lang, "review.play_on_done"))
            return
        self.controller.restore(play_on_snapshot(game, session.seat, self.kinds))
        self.close_review()
        self.history_open = False
        self.screens.show_history("")
        self.controller.save()
        self.controller.refresh()
        self.controller.kick()


def _record_text(text: str) -> str:
    """The record a pasted text or link holds: a link's ``record=`` value or a bare url-safe value, decoded."""
    stripped = text.strip()
    if "record=" in stripped:
        query = urlsplit(stripped).query or stripped.split("?", 1)[-1]
        value = dict(parse_qsl(query)).get("record", "")
        return from_url_safe(value, "record") if value else stripped
    if stripped.startswith("r1") and not any(c.isspace() for c in stripped):
        return from_url_safe(stripped, "record")
    return text


def play_on_snapshot(game: Game, seat: int, kinds: list[str] | None) -> dict[str, Any]:
    """A table save that continues ``game``: ``seat`` human, the others the AIs (or people) they were."""
    rules = game.rules
    seats = list(kinds) if kinds and len(kinds) == rules.players else ["normal"] * rules.players
    seats[seat] = "human"
    seats = [kind if kind in ("human", "easy", "normal", "hard") else "normal" for kind in seats]
    settings = normalise_seats(Settings(
        variant=rules.variant, players=rules.players, deck=rules.deck, throw_in=rules.throw_in,
        first_defence_limit=rules.first_defence_limit, exchange=rules.trump_six_exchange,
        first_attack=rules.first_attack, teams=rules.teams, seats=tuple(seats)))
    series = Series(rules, seed=random.SystemRandom().randrange(10**9))
    series.game = game
    return {"settings": settings.to_dict(), "source": "", "series": series.to_dict(), "viewer": seat,
            "covered": False, "log": []}


#: The page's ``review`` messages {action, args} (web/worker/bridge.py checks them): each action's args, exactly. What
#: only the page knows comes with the message that needs it: the step on show (``play-on``), the player's yes
#: to the history button's ``data-confirm`` question (``clear-history``), the page's address (``copy-link``).
MESSAGES: dict[str, dict[str, type]] = {
    **{action: {} for action in ("review", "history", "close-history", "export-history", "close-review",
                                 "download-record", "stop-grading", "resume-grading")},
    "clear-history": {"confirmed": bool},
    "review-game": {"game": str},
    "copy-link": {"url": str},
    "play-on": {"step": int},
    "open-text": {"text": str},  # a record file chosen, a record or link pasted
    "import-history": {"text": str},  # a history file chosen
    "review-seat": {"seat": int},  # the seat picker of a finished game
}


class PostedScreens:
    """The ``Screens`` of the engine worker: what web/review/review.js is to show leaves as ``review`` messages
    {op, ...} (``open``/``update`` {data}, ``close``, ``history`` {html}, ``download`` {name, text, mime},
    ``copy`` {text}); the answers only the page has are the args of the message being obeyed."""

    def __init__(self, post: Callable[[dict[str, Any]], None], spawn: Callable[[Coroutine[Any, Any, None]], None],
                 sleep: Callable[[float], Awaitable[None]]) -> None:
        self.post = post
        self._spawn = spawn  # the bridge's tasks: a failure is posted as an ``error``
        self._sleep = sleep
        self.args: dict[str, Any] = {}

    def _op(self, op: str, **fields: Any) -> None:
        self.post({"t": "review", "op": op, **fields})

    def open_review(self, data: str) -> None:
        self._op("open", data=data)

    def update_review(self, data: str) -> None:
        self._op("update", data=data)

    def close_review(self) -> None:
        self._op("close")

    def show_history(self, html: str) -> None:
        self._op("history", html=html)

    def download(self, name: str, text: str, mime: str) -> None:
        self._op("download", name=name, text=text, mime=mime)

    def copy(self, text: str) -> None:
        self._op("copy", text=text)

    def shown_step(self) -> int | None:
        step = self.args.get("step")
        return step if type(step) is int else None

    def confirm(self, text: str) -> bool:
        return self.args.get("confirmed") is True  # the page asked the player before sending

    def now(self) -> str:
        return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")

    def page_url(self) -> str:
        return str(self.args.get("url", ""))

    def spawn(self, coro: Coroutine[Any, Any, None]) -> None:
        self._spawn(coro)

    def sleep(self, seconds: float) -> Awaitable[None]:
        return self._sleep(seconds)


def obey(reviews: ReviewPage, screens: PostedScreens, action: str, args: dict[str, Any]) -> None:
    """One of the page's ``review`` messages, already checked against ``MESSAGES``."""
    screens.args = args
    try:
        if action == "open-text":
            reviews.open_text(args["text"])
        elif action == "import-history":
            reviews.import_text(args["text"])
        elif action == "review-seat":
            reviews.review_seat(args["seat"])
        else:
            reviews.on_action(action, args.get("game"))
    finally:
        screens.args = {}
