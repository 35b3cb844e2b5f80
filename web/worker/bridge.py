"""The engine worker's side of the page protocol: the table's Python,
driven by messages instead of the DOM.

The page (its thin view port) posts JSON-safe messages; each is checked before anything reads it, as
web/table/protocol.py checks a seat's: exact keys, their types, then the values (a card's text, a known
action, a known language). A message that fails is not obeyed: it is answered ``refused`` with a code
(``REFUSALS``) and an English ``text`` for the developer's console, since only a bug in the view port
sends one. The controller (web/table/controller.py) then runs exactly as on the page today, with a port
(``FramePort``) whose ``show`` posts each frame with a sequence number; a gesture names the frame it
was made on, and one made on an older frame is refused ``stale_frame`` (the page has the newer one).

Page -> worker (``t`` names the type):
  ``boot``     {search, langs, store, embedded, viewport, controlled}   once, first
  ``gesture``  {kind, card, target, action, frame}   kind ``card`` (card), ``target`` (target),
               ``drop`` (card, target), ``action`` (action: a table button), ``key`` (action: the key);
               the fields a kind does not use are ""
  ``start``    {settings}   deal (Settings.to_dict's fields); a frame follows, or ``refused``
  ``dialog``   {settings}   the dialog changed: answered by ``dialog`` {problems, error, summary}
  ``lang``, ``speed``  {value}
  ``engine``   {id, method, args}   web/embed/engine_calls.py's calls
  ``address``, ``net``, ``link``, ``called``, ``friends``   play with friends: web/friends/bridge_net.py
  ``review``   {action, args}   the review and history screens' buttons, files and pasted records
               (web/review/review_page.py's ``MESSAGES``: each action's args, exactly)
  ``embed``    {type, action}   the host window's ``durak:play`` {action} and ``durak:reset`` (action ""), for
               a table booted ``embedded`` (web/embed/embed_table.py)
Worker -> page: ``frame`` {seq, ...Controller.refresh()'s frame}, ``store`` {key, value} (value null:
removed), ``dialog``, ``notice`` {code, params, text}, ``refused`` {code, params, text}, ``review`` {op, ...}
(web/review/review_page.py's ``PostedScreens``), ``embed`` {message} (a ``durak:*`` message for the host window),
the engine calls' ``answer`` / ``error`` / ``refused``, and play with friends' ``net``, ``call``, ``panel``.
Pure Python (no ``pyscript``): the memory snapshot imports it; the worker (web/worker/engine-worker.mjs) passes
JSON text both ways.

Play with friends, the review and history, and the embed API come in web/features.zip, which the worker unpacks
on their first use (web/worker/engine-host.mjs holds back the messages that need them until it has; an internal
``features`` message says it did): this module imports them inside ``Bridge._features``, and the table works
without them until then.
"""

from __future__ import annotations

import asyncio
import json
import re
import sys
import traceback
from collections.abc import Awaitable, Callable
from importlib.util import find_spec
from typing import Any

from web.shared import storage
from web.shared.i18n import LANGS, pick_lang, t
from web.table.controller import Controller
from web.table.params import SPEEDS, Settings, parse_query, problems
from web.table.seat import CARD, TARGET

#: Characters of one page message the worker reads at most (a boot with a long save is the largest).
MAX_MESSAGE = 262_144
REFUSALS = ("too_large", "bad_json", "bad_shape", "unknown_type", "not_booted", "booted_twice", "bad_value",
            "no_game", "stale_frame", "bad_settings", "unplayable", "not_embedded",
            "bad_peer", "no_call", "not_online", "not_a_guest")  # the last: web/friends/bridge_net.py's REFUSALS
GESTURES = ("card", "target", "drop", "action", "key")
#: The table's buttons a gesture may press (web/table/render.py's BUTTONS and the cover's and game over's).
ACTIONS = ("take", "pass", "transfer", "exchange", "hint", "play", "cancel", "accuse", "reveal", "play-again")
#: Keys whose meaning is the table's (Enter on a target is a ``target`` gesture; arrows move focus only).
KEYS = {"Escape": "cancel"}
#: A page's address as ``copy-link`` sends it (location.origin + location.pathname).
PAGE_URL = re.compile(r"https?://[^\s?#]{1,2000}")
#: The page's own address (``address``), checked as web/friends/bridge_net.py checks it, when kept for it.
PAGE_ADDRESS = re.compile(r"https?://[^\s#?]+(?:\?[^\s#]*)?(?:#\S*)?")
MAX_HREF = 4096
MAX_EMBED_ACTION = 120  # characters of a host's move (web/embed/embed-frame.js checks the same)

_FIELDS: dict[str, dict[str, type]] = {
    "boot": {"search": str, "langs": list, "store": dict, "embedded": bool, "viewport": dict, "controlled": bool},
    "gesture": {"kind": str, "card": str, "target": str, "action": str, "frame": int},
    "start": {"settings": dict},
    "dialog": {"settings": dict},
    "lang": {"value": str},
    "speed": {"value": str},
    "review": {"action": str, "args": dict},
    "embed": {"type": str, "action": str},
    "features": {},  # from the worker itself: web/features.zip is unpacked
    "address": {"href": str},  # kept until play with friends is loaded, unless it is a friend's invite
}
#: The dialog's empty STUN/TURN field, sent whenever it redraws (web/friends/table-net.js), online or not.
NO_ICE = {"t": "friends", "action": "ice", "seat": -1, "text": ""}
#: Play with friends' other messages, whose fields web/friends/bridge_net.py's ``FIELDS`` gives.
FRIENDS_TYPES = ("net", "link", "called", "friends")
#: Message types checked by the module that answers them: ``engine`` calls by web/embed/engine_calls.py, whose
#: refusals give the call's ``id`` back.
CHECKED_ELSEWHERE = ("engine",)

_JSON_NAMES = {str: "a string", int: "an integer", bool: "a boolean", list: "a list", dict: "an object"}


class Refusal(ValueError):
    """A page message that is not obeyed: its code and what was wrong."""

    def __init__(self, code: str, text: str, **params: Any) -> None:
        super().__init__(text)
        self.code = code
        self.params = params


def check(text: str) -> dict[str, Any]:
    """The page's message read from its JSON text, with exactly its type's keys of their types (but for
    the types of ``CHECKED_ELSEWHERE``)."""
    if len(text) > MAX_MESSAGE:
        raise Refusal("too_large", f"a message may have {MAX_MESSAGE} characters, this one {len(text)}")
    try:
        message = json.loads(text)
    except ValueError as error:
        raise Refusal("bad_json", f"not JSON: {error}") from None
    if not isinstance(message, dict) or type(message.get("t")) is not str:
        raise Refusal("bad_shape", "a message is an object with a string t")
    if message["t"] in CHECKED_ELSEWHERE or message == NO_ICE:  # NO_ICE: of the right shape, without web/friends
        return message
    fields = _friends_fields().get(message["t"]) if message["t"] in FRIENDS_TYPES else _FIELDS.get(message["t"])
    if fields is None:
        raise Refusal("unknown_type", f"no message type {message['t'][:40]!r}", type=message["t"][:40])
    if set(message) != {"t", *fields}:
        raise Refusal("bad_shape", f"{message['t']} has exactly {sorted(fields)}", type=message["t"])
    for key, kind in fields.items():
        if type(message[key]) is not kind:
            raise Refusal("bad_shape", f"{message['t']}.{key} must be {_JSON_NAMES[kind]}", type=message["t"], key=key)
    return message


def _friends_fields() -> dict[str, dict[str, type]]:
    # A function-level import: web/friends comes in web/features.zip, unpacked before these messages are passed on.
    from web.friends import bridge_net

    return bridge_net.FIELDS


def _invites(href: str) -> bool:
    """Whether a page's address is a friend's invite (``#join=``) or an answer to one (``#reply=``)."""
    fragment = href.split("#", 1)[1] if "#" in href else ""
    return "join=" in fragment or "reply=" in fragment


class WorkerStore(storage.MemoryStore):
    """The page's ``durak.*`` localStorage entries, sent with ``boot``; each write goes back as ``store``
    for the page to make at once (a worker has no localStorage)."""

    def __init__(self, entries: dict[str, Any], post: Callable[[dict[str, Any]], None]) -> None:
        super().__init__({k: v for k, v in entries.items() if k.startswith("durak.") and isinstance(v, str)})
        self.post = post

    def set(self, key: str, value: str) -> None:
        super().set(key, value)
        self.post({"t": "store", "key": key, "value": value})

    def remove(self, key: str) -> None:
        if self.get(key) is not None:
            super().remove(key)
            self.post({"t": "store", "key": key, "value": None})


class FramePort:
    """The controller's port in the worker: frames become numbered ``frame`` messages; tasks run on the
    worker's event loop (Pyodide's, or asyncio's under CPython)."""

    def __init__(self, post: Callable[[dict[str, Any]], None]) -> None:
        self.post = post
        self.seq = 0
        self.tasks: set[asyncio.Future[None]] = set()

    def show(self, frame: dict[str, Any]) -> None:
        self.seq += 1
        self.post({"t": "frame", "seq": self.seq, **frame})

    def spawn(self, coro: Awaitable[None]) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Future[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            error = task.exception()
            assert error is not None
            print("".join(traceback.format_exception(error)), file=sys.stderr)
            self.post({"t": "error", "id": None, "text": f"{type(error).__name__}: {error}"})

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


def _settings(data: dict[str, Any]) -> Settings:
    try:
        return Settings.from_dict(data)
    except (TypeError, ValueError) as error:
        raise Refusal("bad_settings", f"settings: {error}") from None


class Bridge:
    """One page's table in the worker: the controller, its store, and the page's messages."""

    def __init__(self, post: Callable[[dict[str, Any]], None], *, worlds: int | None = None) -> None:
        self.post = post
        self.port = FramePort(post)
        self.controller: Controller | None = None
        self.store: storage.Store | None = None
        self.prefs: dict[str, Any] = {}
        self.search = ""
        self.embedded = False
        self.booted = False  # the boot's end came: features made later say a history set aside themselves
        self.address: dict[str, Any] | None = None  # the page's address, for play with friends once loaded
        # web/features.zip's objects, made on first use (``_features``): web/friends/bridge_net.py's Friends,
        # web/review/review_page.py's ReviewPage, web/embed/embed_table.py's TableBridge
        self.friends: Any = None
        self.worlds = worlds  # sampled worlds per graded decision of a review (fewer in tests; None: the default)
        self.reviews: Any = None
        self.screens: Any = None  # the review and history screens' messages to the page
        self.table_embed: Any = None  # a table booted embedded: its host's messages

    def receive(self, text: str) -> None:
        """One message of the page, as JSON text: obeyed, or answered ``refused`` (or ``error``, when
        obeying it raised)."""
        try:
            message = check(text)
            if message["t"] == "engine":
                # A function-level import: the embed API comes in web/features.zip, unpacked before an engine
                # call is passed on.
                from web.embed import engine_calls

                answered = engine_calls.answer(text)
                if isinstance(answered, dict):
                    self.post(answered)
                else:  # an async call (odds): answered when done, the others meanwhile
                    self.port.spawn(self._post_when_done(answered))
            elif message["t"] == "boot":
                self.boot(message)
            elif message["t"] == "address" and self.friends is None and not _invites(message["href"]):
                self._keep_address(message)
            elif message == NO_ICE and self.friends is None:
                self._booted()  # the dialog offline: play with friends, once made, starts with that empty field
            elif message["t"] in (*FRIENDS_TYPES, "address"):
                self._booted()
                self._features()
                self._to_friends(message)
            else:
                getattr(self, "on_" + message["t"])(message)
        except Refusal as refusal:
            self.post({"t": "refused", "code": refusal.code, "params": refusal.params, "text": str(refusal)})
        except Exception as error:  # a bug: the page shows its readable failure, the worker answers on
            print("".join(traceback.format_exception(error)), file=sys.stderr)
            self.post({"t": "error", "id": None, "text": f"{type(error).__name__}: {error}"})

    async def _post_when_done(self, answered: Awaitable[dict[str, Any]]) -> None:
        self.post(await answered)

    # ------------------------------------------------------------------ boot
    def boot(self, message: dict[str, Any]) -> None:
        """Prefer the link's language and speed, then the saved ones; resume the save or deal the link's
        game. Without either no frame follows: the view port keeps its new-game dialog open."""
        if self.controller is not None:
            raise Refusal("booted_twice", "the table boots once")
        store: storage.Store = WorkerStore(message["store"], self.post)
        if message["embedded"]:
            # A function-level import: the embed comes in web/features.zip, which the worker unpacks before it
            # passes on an embedded table's boot.
            from web.embed import embed_table

            store = embed_table.EmbedStore(store)  # the embed's own save and preferences (durak.embed.*)
        self.store = store
        self.search, self.embedded = message["search"], message["embedded"]
        self.prefs = storage.load_prefs(store)
        query = parse_query(message["search"])
        wanted = [query.lang or self.prefs.get("lang") or ""] + [x for x in message["langs"] if isinstance(x, str)]
        lang = pick_lang([x for x in wanted if x])
        speed = query.speed or self.prefs.get("speed") or "normal"
        self.controller = controller = Controller(self.port, store, lang=lang, speed=speed if speed in SPEEDS else
                                                  "normal")
        controller.on_change = self._changed
        if message["embedded"] or "record=" in message["search"]:
            self._features()  # the embed's host, a record to review: needed at once (the worker has them already)
        drawn = self.port.seq
        restored, set_aside = storage.load(store, self._restore)
        if restored and controller.host.online:
            self._features()  # an online series resumed: its friends reconnect (the worker loaded them for it)
        notices = ["save_set_aside"] if set_aside else []
        started = bool(restored)
        if query.opened is not None and not (restored and controller.source == query.source):
            controller.play_from(query.opened, source=query.source)
            started = True
        elif query.settings is not None and not (restored and controller.source == query.source):
            error = controller.start(query.settings, source=query.source)
            if error:
                self.post({"t": "notice", "code": "unplayable", "params": {}, "text": error})
            started = started or not error
        if query.ignored:
            self.post({"t": "notice", "code": "err_url", "params": {"items": ", ".join(query.ignored)},
                       "text": t(lang, "err_url", items=", ".join(query.ignored))})
        for code in notices:
            self.post({"t": "notice", "code": code, "params": {}, "text": t(lang, code)})
        if started:
            self._go_on(drawn)
        self.booted = True
        if self.reviews is not None:
            self.reviews.boot(message["search"])  # a history set aside is said; a ?record= link opens its review

    def _go_on(self, drawn: int) -> None:
        """After a deal or a restore: draw the table unless that drew it already (frame ``drawn`` was the
        last before), then let the AIs play."""
        assert self.controller is not None
        if self.port.seq == drawn:
            self.controller.refresh()
        self.controller.kick()

    def _restore(self, data: dict[str, Any]) -> bool:
        assert self.controller is not None
        self.controller.restore(data)
        return True

    def _booted(self) -> Controller:
        if self.controller is None:
            raise Refusal("not_booted", "send boot first")
        return self.controller

    # ------------------------------------------------------------------ messages
    def on_gesture(self, message: dict[str, Any]) -> None:
        controller = self._booted()
        kind, card, target, action = message["kind"], message["card"], message["target"], message["action"]
        uses = {"card": (True, False, False), "target": (False, True, False), "drop": (True, True, False),
                "action": (False, False, True), "key": (False, False, True)}.get(kind)
        if uses is None:
            raise Refusal("bad_value", f"a gesture's kind is one of {', '.join(GESTURES)}", key="kind")
        for key, used, value, pattern in (("card", uses[0], card, CARD), ("target", uses[1], target, TARGET)):
            if (used and not pattern.fullmatch(value)) or (not used and value):
                raise Refusal("bad_value", f"{kind} gesture: {key} {value[:20]!r}", key=key)
        if (uses[2] and action not in (KEYS if kind == "key" else ACTIONS)) or (not uses[2] and action):
            raise Refusal("bad_value", f"{kind} gesture: action {action[:20]!r}", key="action")
        if controller.client is None or controller.client.view is None:
            raise Refusal("no_game", "no game is on the table")
        if message["frame"] != self.port.seq:
            raise Refusal("stale_frame", f"made on frame {message['frame']}, the table is at {self.port.seq}",
                          frame=self.port.seq)
        if kind == "card":
            controller.click_card(card)
        elif kind == "target":
            controller.click_target(target)
        elif kind == "drop":
            controller.drop(card, target)
        else:
            controller.press(KEYS.get(action, action))

    def on_start(self, message: dict[str, Any]) -> None:
        controller = self._booted()
        drawn = self.port.seq
        settings = _settings(message["settings"])
        if "friend" in settings.seats:
            self._features()  # an online table (the worker loaded play with friends before passing this on)
        if self.friends is not None:
            self.friends.stop()
        error = controller.start(settings)
        if error:
            raise Refusal("unplayable", error)
        self._go_on(drawn)
        if self.friends is not None:
            self.friends.started()

    def on_dialog(self, message: dict[str, Any]) -> None:
        lang = self._booted().lang
        settings = _settings(message["settings"])
        found = problems(settings) or (self.friends.dialog_problems() if self.friends is not None else [])
        self.post({"t": "dialog", "problems": [[code, params] for code, params in found],
                   "error": t(lang, found[0][0], **found[0][1]) if found else "",
                   "summary": t(lang, f"summary_{settings.variant}")})

    def on_lang(self, message: dict[str, Any]) -> None:
        controller = self._booted()
        if message["value"] not in LANGS:
            raise Refusal("bad_value", f"no language {message['value'][:10]!r}: {', '.join(LANGS)}", key="value")
        controller.set_lang(message["value"])
        if self.reviews is not None:
            self.reviews.set_lang()
        self._save_prefs()

    def on_speed(self, message: dict[str, Any]) -> None:
        controller = self._booted()
        if message["value"] not in SPEEDS:
            raise Refusal("bad_value", f"no speed {message['value'][:10]!r}: {', '.join(SPEEDS)}", key="value")
        controller.set_speed(message["value"])
        self._save_prefs()

    def _save_prefs(self) -> None:
        assert self.controller is not None and self.store is not None
        self.prefs.update(lang=self.controller.lang, speed=self.controller.speed)
        storage.save_prefs(self.store, self.prefs)

    # ------------------------------------------------------------------ friends, review, history and the embed
    def _features(self) -> None:
        """Play with friends, the review and history screens, and for an embedded table its host's bridge, made
        once, on the first message that needs them (or a finished game, which joins the history): each is then
        told of every frame (the controller's ``on_change``), and the game on the table now is looked at."""
        if self.reviews is not None:
            return
        controller, store = self._booted(), self.store
        assert store is not None
        # Function-level imports: these modules come in web/features.zip, which the worker unpacks on their
        # first use (web/worker/engine-host.mjs), so that the table's boot neither fetches nor imports them.
        from web.embed import embed_table
        from web.friends import bridge_net
        from web.review import review_page

        self.friends = bridge_net.Friends(self.post, controller, self.port.spawn, self.port.sleep, store, self.prefs)
        screens = review_page.PostedScreens(self.post, self.port.spawn, self.port.sleep)
        worlds = {} if self.worlds is None else {"worlds": self.worlds}
        self.reviews = review_page.ReviewPage(controller, store, screens, self._notify, **worlds)
        self.screens = screens
        if self.embedded:
            self.table_embed = embed_table.attach(controller, self.post)
        if controller.series is not None:
            self.reviews.changed()  # a game that ended before: it joins the history
            self.friends.resume()  # a restored online series shows its invites
        if self.address is not None:
            address, self.address = self.address, None
            self._to_friends(address)
        if self.booted:
            self.reviews.boot(self.search)  # a history set aside is said

    def _keep_address(self, message: dict[str, Any]) -> None:
        """The page's address, not an invite: kept for play with friends, which takes it when it is loaded."""
        self._booted()
        href = message["href"]
        if self.address is not None:
            raise Refusal("booted_twice", "the page's address comes once")
        if not PAGE_ADDRESS.fullmatch(href) or len(href) > MAX_HREF:
            raise Refusal("bad_value", f"not a page's address: {href[:60]!r}", key="href")
        self.address = message

    def _to_friends(self, message: dict[str, Any]) -> None:
        from web.friends import bridge_net  # loaded (``_features``): a function-level import as there

        try:
            self.friends.receive(message)
        except bridge_net.Refused as refused:
            raise Refusal(refused.code, str(refused), **refused.params) from None

    def _changed(self) -> None:
        """After each frame, before the review's own look: play with friends redraws who is connected; a game
        that has just ended loads the review and history (web/features.zip), or asks the worker for them."""
        if self.friends is not None:
            self.friends.render()
        elif self.controller is not None and self.controller.series is not None \
                and self.controller.game.result is not None:
            if find_spec("web.review") is not None:
                self._features()
            else:
                self.post({"t": "features"})  # the worker loads them, then answers with a ``features`` message

    def on_features(self, message: dict[str, Any]) -> None:
        """The worker has unpacked web/features.zip, which a finished game asked for."""
        self._booted()
        self._features()

    def _notify(self, text: str) -> None:
        self.post({"t": "notice", "code": "review", "params": {}, "text": text})

    def on_review(self, message: dict[str, Any]) -> None:
        self._booted()
        self._features()
        from web.review import review_page  # loaded by _features: a function-level import as there

        action, args = message["action"], message["args"]
        fields = review_page.MESSAGES.get(action)
        if fields is None:
            raise Refusal("bad_value", f"no review action {action[:40]!r}", key="action")
        if set(args) != set(fields):
            raise Refusal("bad_shape", f"review {action}: args has exactly {sorted(fields)}", key="args")
        for key, kind in fields.items():
            if type(args[key]) is not kind:
                raise Refusal("bad_shape", f"review {action}: {key} must be {_JSON_NAMES[kind]}", key=key)
        if any(key in args and args[key] < 0 for key in ("step", "seat")):
            raise Refusal("bad_value", f"review {action}: a step or seat is 0 or more", key="args")
        if action == "copy-link" and not PAGE_URL.fullmatch(args["url"]):
            raise Refusal("bad_value", "review copy-link: url is the page's address, without query or fragment",
                          key="url")
        review_page.obey(self.reviews, self.screens, action, args)

    def on_embed(self, message: dict[str, Any]) -> None:
        self._booted()
        if self.table_embed is None:
            raise Refusal("not_embedded", "the table was not booted embedded")
        kind, action = message["type"], message["action"]
        if kind == "durak:play" and action.strip() and len(action) <= MAX_EMBED_ACTION:
            reply = self.table_embed.play(action.strip())
        elif kind == "durak:reset" and not action:
            reply = self.table_embed.reset()
        else:
            raise Refusal("bad_value", f"embed: {kind[:20]!r} with action {action[:20]!r}", key="type")
        if "error" in reply:
            error = {"type": "durak:error", "reason": reply["error"], "code": reply["code"]}
            self.post({"t": "embed", "message": error})


def start(post_text: Callable[[str], None]) -> Callable[[str], None]:
    """The worker's entry: a bridge whose messages leave as JSON text; returns its ``receive``."""
    bridge = Bridge(lambda message: post_text(json.dumps(message, separators=(",", ":"))))
    return bridge.receive
