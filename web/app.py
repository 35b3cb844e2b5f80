"""Browser entry point: binds the page (pyscript.web, when) to the controller. The only module that
imports ``pyscript``; everything it calls is plain Python tested under CPython.

Jobs: find the page regions, write each frame (a region only when its markup changed), turn clicks,
keys and drags into controller calls, run the new-game dialog, keep preferences and the save in
localStorage, and flip ``body[data-state]`` from loading to ready (or error).
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
import traceback
from typing import Any

from pyscript import document, web, when, window

STARTED_MS = window.performance.now()  # app.py begins: Python is up and PyScript loaded

try:
    from pyodide.ffi import jsnull
except ImportError:  # older Pyodide converted null to None
    jsnull = None

from durak.messages import CodedError  # noqa: E402 - timed after STARTED_MS
from web import embed_table, review_page, storage  # noqa: E402 - timed after STARTED_MS
from web.controller import Controller  # noqa: E402 - timed after STARTED_MS
from web.i18n import LANGS, pick_lang, say, t, tn  # noqa: E402 - timed after STARTED_MS
from web.invite import InviteError  # noqa: E402 - timed after STARTED_MS
from web.netpage import GuestNet, HostNet  # noqa: E402 - timed after STARTED_MS
from web.params import SPEEDS, TEAMS, TIMERS, Settings, normalise_seats, parse_query, problems  # noqa: E402 - timed after STARTED_MS
from web.render import BUTTONS  # noqa: E402 - timed after STARTED_MS

IMPORTED_MS = window.performance.now()  # the engine and the UI modules are imported

REGIONS = {"opponents": "opponents", "me": "me", "deck": "deck", "discard": "discard", "table": "table",
           "hand": "hand", "status": "status", "hint": "hint", "log": "log"}
OVERLAYS = {"game_over": "over", "cover": "cover"}
DRAG_THRESHOLD = 8  # pixels before a pressed card becomes a drag


def js(value: Any) -> Any:
    """JavaScript ``null`` (``jsnull`` in Pyodide) as ``None``, so DOM look-ups read naturally."""
    return None if value is None or value is jsnull else value


class LocalStore:
    """localStorage as a ``storage.Store``; any browser refusal becomes a no-op."""

    def get(self, key: str) -> str | None:
        try:
            value = js(window.localStorage.getItem(key))
        except Exception:
            return None
        return None if value is None else str(value)

    def set(self, key: str, value: str) -> None:
        window.localStorage.setItem(key, value)

    def remove(self, key: str) -> None:
        window.localStorage.removeItem(key)


class Page:
    """The controller's port onto the DOM."""

    def __init__(self) -> None:
        self.el = {name: web.page[ident]._dom_element for name, ident in REGIONS.items()}
        self.overlays = {name: web.page[ident]._dom_element for name, ident in OVERLAYS.items()}
        self.buttons = {name: js(document.querySelector(f'.actions [data-action="{name}"]')) for name in BUTTONS}
        self.written: dict[str, str] = {}
        self.button_state: dict[str, tuple[Any, ...]] = {}
        self.tasks: set[asyncio.Task[None]] = set()

    # -- Port
    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        self.tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            report(task.exception())

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)

    def show(self, frame: dict[str, Any]) -> None:
        focus_key = _focus_key()
        changed = False
        for name, element in self.el.items():
            html = frame[name]
            if self.written.get(name) != html:
                element.innerHTML = html
                self.written[name] = html
                changed = True
        for name, element in self.overlays.items():
            html = frame[name]
            if self.written.get(name) != html:
                element.innerHTML = html
                element.hidden = not html
                self.written[name] = html
                if html:
                    _focus_first(element, "button")
        for name, state in frame["buttons"].items():
            button = self.buttons.get(name)
            if button is None:
                continue
            key = (state["enabled"], state["hidden"], state["label"], state["hinted"])
            if self.button_state.get(name) == key:
                continue
            self.button_state[name] = key
            button.disabled = not state["enabled"]
            button.hidden = state["hidden"]
            label = js(button.querySelector("span")) or button
            label.textContent = state["label"]
            if state["hinted"]:
                button.dataset.hint = "true"
            else:
                button.removeAttribute("data-hint")
        body = document.body
        stats = frame["stats"]
        body.setAttribute("data-ai", f'{stats["ai_moves"]:.0f} {stats["ai_ms"]:.0f} {stats["step_max_ms"]:.0f} '
                                     f'{stats["frame_max_ms"]:.0f}')
        for attr, value in (("data-speed", frame["speed"]), ("data-over", "true" if frame["over"] else "false")):
            if self.written.get(attr) != value:
                body.setAttribute(attr, value)
                self.written[attr] = value
        if changed:
            _restore_focus(focus_key)


def _focus_key() -> tuple[str, str] | None:
    active = js(document.activeElement)
    if active is None or active == document.body:
        return None
    for attr in ("data-card", "data-attack", "data-drop"):
        value = js(active.getAttribute(attr)) if hasattr(active, "getAttribute") else None
        if value:
            return attr, str(value)
    return None


def _restore_focus(key: tuple[str, str] | None) -> None:
    """After a redraw, keep keyboard play where it was: same card, else a target, else a playable card."""
    active = js(document.activeElement)
    if key is None and active is not None and active != document.body:
        return
    target = js(document.querySelector('#table [data-target="true"], #hand [data-target="true"]'))
    if target is not None and key is not None:
        target.focus()
        return
    if key is None:
        return
    attr, value = key
    same = js(document.querySelector(f'[{attr}="{value}"]'))
    if same is not None and attr == "data-card" and same.dataset.playable == "true":
        same.focus()
        return
    playable = js(document.querySelector('#hand [data-playable="true"]'))
    if playable is not None:
        playable.focus()
    elif same is not None:
        same.focus()


def _focus_first(root: Any, selector: str) -> None:
    element = js(root.querySelector(selector))
    if element is not None:
        element.focus()


# ---------------------------------------------------------------------------- errors
def report(error: BaseException) -> None:
    """Show a readable message instead of a crash; keep the traceback in the console for developers."""
    text = "".join(traceback.format_exception(error))
    print(text, file=sys.stderr)
    lang = APP.controller.lang if APP else "en"
    reason = say(lang, error.message) if isinstance(error, CodedError) else str(error)
    show_notice(t(lang, "illegal", reason=reason))


def show_notice(text: str) -> None:
    """A message for the player: at the top of the page, or inside the new-game dialog while it is open
    (a modal dialog makes the rest of the page inert)."""
    if document.getElementById("new-game").open:
        inside = document.getElementById("ng-notice")
        inside.textContent = text
        inside.hidden = False
        return
    document.getElementById("notice-text").textContent = text
    document.getElementById("notice").hidden = False


def hide_notice() -> None:
    document.getElementById("notice").hidden = True
    document.getElementById("ng-notice").hidden = True


# ---------------------------------------------------------------------------- the app
class App:
    def __init__(self) -> None:
        self.embedded = embed_table.embedded(str(window.location.search))  # in another site's frame
        self.store = embed_table.EmbedStore(LocalStore()) if self.embedded else LocalStore()
        self.prefs = storage.load_prefs(self.store)
        self.query = parse_query(str(window.location.search))
        langs = [self.query.lang or self.prefs.get("lang") or ""]
        langs += [str(x) for x in (window.navigator.languages or [window.navigator.language or "en"])]
        lang = pick_lang([x for x in langs if x])
        speed = self.query.speed or self.prefs.get("speed") or "normal"
        if speed not in SPEEDS:
            speed = "normal"
        self.page = Page()
        self.controller = Controller(self.page, self.store, lang=lang, speed=speed)
        self.dialog = js(document.getElementById("new-game"))
        self.form = js(document.getElementById("ng-form"))
        self.drag: dict[str, Any] | None = None
        self.reviews: review_page.ReviewPage | None = None  # the review and history screens, once attached
        self.suppress_click_until = 0.0
        self.online = False  # the new-game dialog's seats are "friend | AI level | you"
        base = str(window.location.href).split("#", 1)[0].split("?", 1)[0]
        self.host_net = HostNet(self.controller, window.durakNet, document, base, self.page.spawn, self.ice)
        self.controller.on_change = self.host_net.render  # who is connected changes with the host's messages
        self.guest_net: GuestNet | None = None

    def ice(self) -> str:
        """The STUN/TURN setting the player typed (empty: none, for one local network)."""
        value = self.prefs.get("ice", "")
        return value if isinstance(value, str) else ""

    # -- start
    def boot(self) -> None:
        self.apply_lang()
        js(document.getElementById("speed-select")).value = self.controller.speed
        if self.boot_network():
            self.ready()
            return
        notice = ""
        query = self.query
        restored, set_aside = storage.load(self.store, self._restore)
        if set_aside:
            notice = t(self.controller.lang, "save_set_aside")
        started = False
        if query.opened is not None and not (restored and self.controller.source == query.source):
            self.controller.play_from(query.opened, source=query.source)
            started = True
        elif query.settings is not None and not (restored and self.controller.source == query.source):
            error = self.controller.start(query.settings, source=query.source)
            if error:
                notice = (notice + " " if notice else "") + error
            else:
                started = True
        elif restored:
            started = True
        if query.ignored:
            extra = t(self.controller.lang, "err_url", items=", ".join(query.ignored))
            notice = (notice + " " if notice else "") + extra
        js(document.querySelector('[data-action="new-game"]')).disabled = False
        if started:
            self.controller.refresh()
            self.controller.kick()
            if self.controller.host.online:
                self.host_net.start()  # a host reload: the same invites, answered by new replies
        else:
            self.open_dialog(Settings())
        if notice:
            show_notice(notice)
        self.ready()

    def boot_network(self) -> bool:
        """A page opened from an invite link plays that seat; a reply link goes to the table's tab (which holds
        the game: this page neither resumes nor deals one). True when the page is one of those."""
        fragment = str(window.location.hash)
        if "reply=" in fragment:
            self.page.spawn(self.forward_reply(fragment))
            return True
        try:
            invite = GuestNet.from_fragment(fragment)
        except InviteError:
            show_notice(t(self.controller.lang, "join_bad"))
            return False
        if invite is None:
            return False
        name = self.prefs.get("name", "")
        self.guest_net = GuestNet(self.controller, window.durakNet, document,
                                  str(window.location.href).split("#", 1)[0].split("?", 1)[0], invite,
                                  self.page.spawn, self.ice, name if isinstance(name, str) else "", self.save_name,
                                  self.page.sleep)
        self.page.spawn(self.guest_net.start())
        return True

    async def forward_reply(self, fragment: str) -> None:
        taken = await window.durakNet.forwardReply(fragment)
        show_notice(t(self.controller.lang, "reply_forwarded" if taken else "reply_no_table"))

    def save_name(self, name: str) -> None:
        self.prefs["name"] = name
        storage.save_prefs(self.store, self.prefs)

    def ready(self) -> None:
        js(document.getElementById("loading")).hidden = True
        now = window.performance.now()
        document.body.dataset.readyMs = str(round(now))
        # where the boot went (ms since navigation): app.py start, imports done, first frame drawn
        document.body.dataset.boot = f"{STARTED_MS:.0f} {IMPORTED_MS:.0f} {now:.0f}"
        document.body.dataset.state = "ready"
        if self.reviews is not None:
            self.reviews.boot(str(window.location.search))  # a ?record= link opens its review

    def _restore(self, data: dict[str, Any]) -> bool:
        self.controller.restore(data)
        return True

    # -- language and preferences
    def apply_lang(self) -> None:
        lang = self.controller.lang
        document.documentElement.lang = lang
        js(document.getElementById("lang-select")).value = lang
        js(document.getElementById("ng-lang")).value = lang
        for element in document.querySelectorAll("[data-i18n]"):
            element.textContent = t(lang, element.dataset.i18n)
        for element in document.querySelectorAll("[data-i18n-label]"):
            element.setAttribute("aria-label", t(lang, element.dataset.i18nLabel))
        for element in document.querySelectorAll("[data-i18n-count]"):  # "36 cards": the count is the value
            element.textContent = tn(lang, element.dataset.i18nCount, int(element.value))
        for option in js(document.getElementById("speed-select")).options:  # "Speed: Normal", not just "Normal"
            option.textContent = t(lang, "speed_option", speed=t(lang, f"speed_{option.value}"))
        document.title = f"{t(lang, 'title')} — {t(lang, 'tagline')}"
        self.update_dialog()
        if self.reviews is not None:
            self.reviews.set_lang()

    def save_prefs(self) -> None:
        self.prefs.update(lang=self.controller.lang, speed=self.controller.speed)
        storage.save_prefs(self.store, self.prefs)

    def set_lang(self, lang: str) -> None:
        if lang not in LANGS:
            return
        self.controller.set_lang(lang)
        self.apply_lang()
        self.save_prefs()

    # -- new-game dialog
    def open_dialog(self, settings: Settings) -> None:
        form = self.form
        js(form.querySelector(f'input[name="variant"][value="{settings.variant}"]')).checked = True
        for name, value in (("players", settings.players), ("deck", settings.deck), ("throw_in", settings.throw_in),
                            ("first_defence_limit", settings.first_defence_limit),
                            ("exchange", {None: "default", True: "on", False: "off"}[settings.exchange]),
                            ("first_attack", settings.first_attack),
                            ("teams", settings.teams or "none")):
            form.elements.namedItem(name).value = str(value)
        form.elements.namedItem("seed").value = ""
        form.elements.namedItem("timer").value = str(settings.timer)
        form.elements.namedItem("ice").value = self.ice()
        self.seat_kinds = list(settings.seats)
        self.set_online("friend" in settings.seats, switch=False)
        if not self.dialog.open:
            self.dialog.showModal()
        start = js(form.querySelector('[data-action="start"]'))
        if start is not None:
            start.focus()

    def dialog_settings(self) -> Settings:
        form = self.form
        elements = form.elements
        variant = str(js(form.querySelector('input[name="variant"]:checked')).value)
        players = int(elements.namedItem("players").value)
        exchange_text = str(elements.namedItem("exchange").value)
        exchange = None if exchange_text == "default" else exchange_text == "on"
        teams_text = str(elements.namedItem("teams").value)
        seats = ["human"]
        for seat in range(1, players):
            select = js(document.getElementById(f"ng-seat-{seat}"))
            seats.append(str(select.value) if select is not None else "normal")
        seed_text = str(elements.namedItem("seed").value).strip()
        seed = int(seed_text) if seed_text.isdigit() else None
        timer = int(elements.namedItem("timer").value) if self.online else 0
        if not self.online:
            seats = [kind if kind != "friend" else "normal" for kind in seats]
        return normalise_seats(Settings(timer=timer if timer in TIMERS else 0,
            variant=variant, players=players, deck=int(elements.namedItem("deck").value),
            throw_in=str(elements.namedItem("throw_in").value),
            first_defence_limit=int(elements.namedItem("first_defence_limit").value), exchange=exchange,
            first_attack=str(elements.namedItem("first_attack").value),
            teams=None if teams_text == "none" else teams_text, seats=tuple(seats), seed=seed))

    def update_dialog(self) -> None:
        """Seat rows for the player count, options that do not apply greyed out, problems explained."""
        form = self.form
        lang = self.controller.lang
        try:
            settings = self.dialog_settings()
        except Exception:
            settings = Settings()
        kinds = getattr(self, "seat_kinds", list(settings.seats))
        for seat in range(1, settings.players):
            select = js(document.getElementById(f"ng-seat-{seat}"))
            if select is not None and seat < len(kinds):
                kinds[seat] = str(select.value)
        while len(kinds) < settings.players:
            kinds.append("friend" if self.online else "normal")
        self.seat_kinds = kinds
        button = js(form.querySelector('[data-action="online"]'))
        button.setAttribute("aria-pressed", "true" if self.online else "false")
        js(document.getElementById("ng-online")).hidden = not self.online
        rows = []
        choices = ("friend", "easy", "normal", "hard", "human") if self.online else ("easy", "normal", "hard", "human")
        for seat in range(1, settings.players):
            chosen = kinds[seat] if kinds[seat] in choices else ("friend" if self.online else "normal")
            options = "".join(
                f'<option value="{kind}"{" selected" if chosen == kind else ""}>{_kind_label(lang, kind)}</option>'
                for kind in choices)
            rows.append(f'<label class="seat-row"><span>{t(lang, "seat_n", n=seat + 1)}</span>'
                        f'<select id="ng-seat-{seat}" class="select" data-seat="{seat}" data-seat-kind="{seat}">'
                        f'{options}</select></label>')
        js(document.getElementById("ng-seats")).innerHTML = "".join(rows)
        prostoy = settings.variant == "prostoy"
        form.elements.namedItem("throw_in").disabled = prostoy
        form.elements.namedItem("first_defence_limit").disabled = prostoy
        form.elements.namedItem("first_attack").disabled = prostoy
        if prostoy:
            form.elements.namedItem("throw_in").value = "neighbours"
            form.elements.namedItem("first_defence_limit").value = "6"
            form.elements.namedItem("first_attack").value = "loser_left"
        form.elements.namedItem("teams").disabled = prostoy
        for option in form.elements.namedItem("teams").options:
            value = str(option.value)
            option.disabled = value != "none" and (prostoy or TEAMS.get(value) != settings.players)
        teams = form.elements.namedItem("teams")
        if str(teams.value) != "none" and teams.selectedOptions[0].disabled:
            teams.value = "none"
        try:
            settings = self.dialog_settings()
        except Exception:
            settings = Settings()
        js(document.getElementById("ng-summary")).textContent = t(lang, f"summary_{settings.variant}")
        found = problems(settings)
        ice_problem = str(window.durakNet.checkIce(str(form.elements.namedItem("ice").value))) if self.online else ""
        if ice_problem and not found:
            found = [("ice_servers_bad", {"text": ice_problem})]
        error = t(lang, found[0][0], **found[0][1]) if found else ""
        js(document.getElementById("ng-error")).textContent = error
        js(form.querySelector('[data-action="start"]')).disabled = bool(found)

    def set_online(self, online: bool, switch: bool = True) -> None:
        """The dialog's "Play with friends" switch: seats become friend | AI level | you, with a turn timer
        (``switch``: the player flipped it, so the normal-level seats become friends, or back)."""
        self.online = online
        if switch:
            fill = "friend" if online else "normal"
            self.seat_kinds = ["human"] + [kind if kind in ("human", "easy", "hard") else fill
                                           for kind in self.seat_kinds[1:]]
        for seat in range(1, 6):
            select = js(document.getElementById(f"ng-seat-{seat}"))
            if select is not None:
                select.remove()
        self.update_dialog()

    def start_from_dialog(self) -> None:
        settings = self.dialog_settings()
        if self.online:
            self.prefs["ice"] = str(self.form.elements.namedItem("ice").value).strip()
            storage.save_prefs(self.store, self.prefs)
        self.host_net.stop()
        error = self.controller.start(settings)
        if error:
            js(document.getElementById("ng-error")).textContent = error
            return
        self.dialog.close()
        hide_notice()
        self.forget_link_game()
        self.controller.refresh()
        self.controller.kick()
        if self.controller.host.online:
            self.host_net.start()

    def forget_link_game(self) -> None:
        """A game chosen in the dialog replaces the one the link named: drop the link's game keys from the
        address (keeping lang and speed), so that a reload resumes the saved game, not the link's."""
        if not self.query.source:
            return
        kept = (("lang", self.query.lang), ("speed", self.query.speed), ("embed", "1" if self.embedded else ""))
        keep = [f"{key}={value}" for key, value in kept if value]
        window.history.replaceState(None, "", str(window.location.pathname) + ("?" + "&".join(keep) if keep else ""))
        self.query = parse_query("?" + "&".join(keep))

    # -- gestures
    def on_click(self, event: Any) -> None:
        if time.monotonic() < self.suppress_click_until:  # the click that ends a drag
            self.suppress_click_until = 0.0
            return
        target = event.target
        if target is None or not hasattr(target, "closest"):
            return
        action_el = js(target.closest("[data-action]"))
        if action_el is not None:
            if action_el.disabled:
                return
            self.on_action(str(action_el.dataset.action), event)
            return
        lit = js(target.closest('[data-target="true"]'))
        if lit is not None and js(lit.closest("#hand")) is None:
            self.controller.click_target(_target_key(lit))
            return
        card = js(target.closest("#hand [data-card]"))
        if card is not None:
            self.controller.click_card(str(card.dataset.card))
            return
        if js(target.closest("#table")) is None and js(target.closest("#hand")) is None:
            return
        self.controller.cancel()

    def on_action(self, action: str, event: Any) -> None:
        if self.reviews is not None:
            game = js(event.target.closest("[data-game]")) if hasattr(event.target, "closest") else None
            if self.reviews.on_action(action, game.dataset.game if game is not None else None):
                return
        if action == "new-game":
            self.open_dialog(self.controller.settings_for_dialog() if self.controller.series else Settings())
        elif action == "settings":
            self.open_dialog(self.controller.settings_for_dialog())
        elif action == "close-dialog":
            self.dialog.close()
        elif action == "start":
            event.preventDefault()
            self.start_from_dialog()
        elif action == "dismiss":
            hide_notice()
        elif action in NET_ACTIONS:
            self.on_net_action(action, event)
        else:
            self.controller.press(action)

    def on_net_action(self, action: str, event: Any) -> None:
        """The buttons of play with friends: the dialog's switch, the invites panel, quick messages."""
        element = js(event.target.closest("[data-action]"))
        seat = int(element.dataset.seat) if element is not None and js(element.getAttribute("data-seat")) else -1
        if action == "online":
            self.set_online(not self.online)
        elif action == "connect":
            self.page.spawn(self.host_net.connect(seat, self.host_net.reply_text(seat)))
        elif action == "copy":
            window.navigator.clipboard.writeText(str(element.dataset.copy))
            element.textContent = t(self.controller.lang, "copied")
        elif action == "scan":
            self.page.spawn(self.scan(seat, element))
        elif action == "close-net":
            js(document.getElementById("net")).hidden = True
        elif action == "invites":
            net = js(document.getElementById("net"))
            net.hidden = not net.hidden
        elif action in ("hand-to-ai", "wait-friend"):
            self.controller.host.hand_to_ai(seat, action == "hand-to-ai")
            self.host_net.render()
        elif action == "quick":
            self.controller.say(str(element.dataset.quick))

    async def scan(self, seat: int, button: Any) -> None:
        """Read the friend's reply QR code with the camera, then connect."""
        lang = self.controller.lang
        video = js(document.querySelector(f'#net video[data-seat="{seat}"]'))
        if window.durakNet.scanning:
            window.durakNet.stopScan()
            return
        try:
            video.hidden = False
            button.textContent = t(lang, "btn_scan_stop")
            text = str(await window.durakNet.scan(video) or "")
        except Exception:
            text = ""
            show_notice(t(lang, "scan_unavailable"))
        finally:
            video.hidden = True
            button.textContent = t(lang, "btn_scan")
        if text:
            textarea = js(document.querySelector(f'#net textarea[data-seat="{seat}"]'))
            if textarea is not None:
                textarea.value = text
            await self.host_net.connect(seat, text)

    def on_key(self, event: Any) -> None:
        key = str(event.key)
        target = event.target
        if key == "Escape":
            if self.dialog.open:
                return
            self.controller.cancel()
            return
        if key in ("Enter", " ") and hasattr(target, "closest"):
            lit = js(target.closest('[role="button"][data-target="true"]'))
            if lit is not None and target.tagName != "BUTTON":
                event.preventDefault()
                self.controller.click_target(_target_key(lit))
                return
        if key in ("ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown") and hasattr(target, "closest"):
            if js(target.closest("#hand [data-card]")) is None:
                return
            cards = list(document.querySelectorAll("#hand [data-card]"))
            index = next((i for i, c in enumerate(cards) if c == target), -1)
            if index < 0:
                return
            step = -1 if key in ("ArrowLeft", "ArrowUp") else 1
            cards[(index + step) % len(cards)].focus()
            event.preventDefault()

    # -- drag and drop (pointer events: mouse, pen and touch alike)
    def on_pointer_down(self, event: Any) -> None:
        if event.button != 0:
            return
        card = js(event.target.closest("#hand [data-card]")) if hasattr(event.target, "closest") else None
        if card is None or card.dataset.playable != "true":
            return
        self.drag = {"card": card, "x": event.clientX, "y": event.clientY, "moving": False, "over": None,
                     "pointer": event.pointerId}

    def on_pointer_move(self, event: Any) -> None:
        drag = self.drag
        if drag is None:
            return
        dx, dy = event.clientX - drag["x"], event.clientY - drag["y"]
        if not drag["moving"]:
            if dx * dx + dy * dy < DRAG_THRESHOLD * DRAG_THRESHOLD:
                return
            drag["moving"] = True
            drag["card"].classList.add("dragging")
            document.body.classList.add("dragging")
        drag["card"].style.transform = f"translate({dx}px, {dy}px) rotate({max(-12, min(12, dx / 20))}deg)"
        over = _drop_target(event.clientX, event.clientY, drag["card"])
        if over is not drag["over"]:
            if drag["over"] is not None:
                drag["over"].classList.remove("drop-over")
            if over is not None:
                over.classList.add("drop-over")
            drag["over"] = over
        event.preventDefault()

    def on_pointer_up(self, event: Any) -> None:
        drag = self.drag
        self.drag = None
        if drag is None or not drag["moving"]:
            return
        self.suppress_click_until = time.monotonic() + 0.4
        card = drag["card"]
        card.classList.remove("dragging")
        card.style.transform = ""
        document.body.classList.remove("dragging")
        over = drag["over"]
        if over is not None:
            over.classList.remove("drop-over")
            self.controller.drop(str(card.dataset.card), _target_key(over))

    def on_pointer_cancel(self, event: Any) -> None:
        drag = self.drag
        self.drag = None
        if drag is not None and drag["moving"]:
            drag["card"].classList.remove("dragging")
            drag["card"].style.transform = ""
            document.body.classList.remove("dragging")
            if drag["over"] is not None:
                drag["over"].classList.remove("drop-over")


NET_ACTIONS = ("online", "connect", "copy", "scan", "close-net", "invites", "hand-to-ai", "wait-friend", "quick")


def _kind_label(lang: str, kind: str) -> str:
    """A seat choice in the new-game dialog: a level, a friend elsewhere, or a person at this device."""
    if kind == "friend":
        return t(lang, "seat_kind_friend")
    if kind == "human":
        return t(lang, "human")
    return t(lang, "level_" + kind).capitalize()


def _target_key(element: Any) -> str:
    attack = js(element.getAttribute("data-attack"))
    if attack:
        return f"attack:{attack}"
    drop = js(element.getAttribute("data-drop"))
    if drop:
        return f"zone:{drop}"
    card = js(element.getAttribute("data-card"))
    return f"hand:{card}" if card else ""


def _drop_target(x: float, y: float, dragged: Any) -> Any:
    """The table element under the pointer that accepts a card: an attack card or a play zone."""
    dragged.style.pointerEvents = "none"
    try:
        under = js(document.elementFromPoint(x, y))
    finally:
        dragged.style.pointerEvents = ""
    if under is None:
        return None
    found = js(under.closest("#table [data-attack]:not([data-beaten-by]), #table [data-drop]"))
    if found is None and js(under.closest("#table")) is not None:
        found = js(document.querySelector('#table [data-drop="table"]'))
    return found


APP: App | None = None


def main() -> None:
    global APP
    APP = App()
    app = APP
    when("click", "body")(app.on_click)
    when("keydown", "body")(app.on_key)
    when("pointerdown", "#hand")(app.on_pointer_down)
    when("pointermove", "body")(app.on_pointer_move)
    when("pointerup", "body")(app.on_pointer_up)
    when("pointercancel", "body")(app.on_pointer_cancel)

    @when("change", "#lang-select")
    def _lang(event: Any) -> None:
        app.set_lang(str(event.target.value))

    @when("change", "#ng-lang")
    def _dialog_lang(event: Any) -> None:  # the dialog stays open, in the new language
        event.stopPropagation()
        app.set_lang(str(event.target.value))

    @when("change", "#speed-select")
    def _speed(event: Any) -> None:
        app.controller.set_speed(str(event.target.value))
        document.body.dataset.speed = app.controller.speed
        app.save_prefs()

    @when("change", "#ng-form")
    def _form(event: Any) -> None:
        app.update_dialog()

    @when("submit", "#ng-form")
    def _submit(event: Any) -> None:
        event.preventDefault()
        app.start_from_dialog()

    @when("input", "#net")
    def _net_input(event: Any) -> None:
        if app.guest_net is not None and js(event.target.closest('[data-testid="player-name"]')) is not None:
            app.guest_net.set_name(str(event.target.value))

    if app.embedded:
        embed_table.attach(app.controller)
    app.reviews = review_page.attach(app.controller, app.store, show_notice)
    app.boot()


try:
    main()
except Exception as error:  # a readable page instead of a stack trace
    print("".join(traceback.format_exception(error)), file=sys.stderr)
    fail = getattr(window, "durakFail", None)
    if fail is not None:
        fail(json.dumps(str(error)))
    else:
        document.body.dataset.state = "error"
