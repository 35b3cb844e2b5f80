// The table's view port: the page's main thread runs no Python.
// The engine worker (web/worker/engine-worker.mjs, web/worker/bridge.py) holds the game and renders; this module
// writes the frames it sends (focus rules included), turns clicks, keys
// and pointer drags into `gesture` messages naming the frame they were made on, writes `store` messages
// to localStorage at once, shows notices, drives the loading bar, and runs the new-game dialog, the
// language and speed menus, and the help and rules links from the first frame on, before the worker is
// ready: a "Deal" (or a first visit's "Play") pressed while loading is kept and sent on `ready`.
//
// It needs index.html's markup and its two inline scripts (the head's: what the boot will show,
// window.durakBoot; the body's: the language picked, window.durakFail, a first visit's "Play" and its game,
// window.durakBoot.quick and window.durakDescribe), and
// web/shared/locale/strings.js (window.DURAK_I18N: the static words and the dialog's in every language).
// Play with friends is web/friends/table-net.js (the links stay on this thread, the host and seats in the worker).
// The review and history screens go through web/review/table-review.js (`review` messages both ways); the table
// embed (index.html?embed=1) relays the host window's commands and the worker's `embed` messages through
// web/embed/embed-frame.js (see "the table embed" below).

import { friendsView } from "../friends/table-net.js";
import { reviewPort } from "../review/table-review.js";
import { deckStyle, setDeckStyle } from "../shared/deck-style.js";
import { morph } from "../shared/morph.js";
import { warmPips } from "../shared/warm-pips.js";

const REGIONS = ["opponents", "me", "deck", "discard", "table", "hand", "status", "hint", "log"];
const OVERLAYS = { game_over: "over", cover: "cover" };
const DRAG_THRESHOLD = 8; // pixels before a pressed card becomes a drag
const TABLE_ACTIONS = ["take", "pass", "transfer", "exchange", "hint", "play", "cancel", "accuse", "reveal", "play-again"];
// the keys of a link naming a game, which the worker deals on boot (index.html's head script)
const LINK_KEYS = window.durakBoot.linkKeys;
const TEAM_PLAYERS = { "2v2": 4, "3v3": 6, "2v2v2": 6 }; // durak's team layouts and the players each needs
const $ = (id) => document.getElementById(id);

const i18n = window.DURAK_I18N;
const body = document.body;
const dialog = $("new-game");
const form = $("ng-form");
const startButton = form.querySelector('[data-action="start"]');
const playNow = document.querySelector('#welcome [data-action="quick-start"]');
const query = new URLSearchParams(location.search);
const embedded = query.get("embed") === "1";
// An embedded table keeps its save and preferences under durak.embed.* (web/embed/embed_table.py's EmbedStore).
const ownKey = (key) => (embedded ? key.replace(/^durak\./, "durak.embed.") : key);

const state = {
  lang: document.documentElement.lang || i18n.default,
  seq: 0, // the last frame drawn; gestures name it
  pending: null, // the latest frame come, drawn at the next animation frame
  ready: false,
  dealing: false, // a start was sent (or kept): the next frame closes the dialog
  choice: null, // the dialog's settings of that start, kept once dealt (keepChoice)
  kept: [], // messages pressed before ready, sent on ready in order
  bootNotices: [], // the boot's notices (a link's problems, a save set aside): said together, as one
  written: {},
  buttons: {},
  drag: null,
  suppressClickUntil: 0,
  seatKinds: ["human", "normal"],
  expected: false, // the boot should draw a game (a save, a link's game): if it does not, the dialog opens
  storeRefused: false, // a localStorage write was refused (and said once in the console)
};

// ------------------------------------------------------------------ the worker
// Started by startWorker at the end of this module, in a task of its own: see there.
let worker = null;

function send(message) {
  if (state.ready) worker.postMessage(message);
  else state.kept.push(message);
}

const reviews = reviewPort(send); // the review and history screens (web/review/table-review.js)

function storeEntries() {
  const entries = {};
  try {
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      if (key.startsWith("durak.")) entries[key] = localStorage.getItem(key);
    }
  } catch {
    // storage refused (private mode, an embed's partition): the table plays without saves
  }
  return entries;
}

const friends = friendsView({ send, field, showNotice, updateDialog, seatKinds: () => state.seatKinds });

const receivers = {
  ...friends.receivers,
  progress({ step, percent }) {
    $("progress-bar").style.transform = `scaleX(${percent / 100})`;
    $("progress").setAttribute("aria-valuenow", String(percent));
    const text = i18n.text[state.lang];
    if (step === "start") $("loading-text").textContent = text.loading_python;
    if (step === "import" || step === "snapshot") $("loading-text").textContent = text.loading_dealing;
  },
  ready({ snapshot, boot }) {
    $("loading").hidden = true;
    const now = performance.now();
    const since = (epochMs) => Math.round(epochMs - performance.timeOrigin);
    body.dataset.readyMs = String(Math.round(now));
    // where the boot went (ms since navigation): Python started, the modules imported, ready
    body.dataset.boot = `${since(boot.start)} ${since(boot.import || boot.snapshot || boot.start)} ${Math.round(now)}`;
    body.dataset.snapshot = snapshot;
    drawPending(); // a resumed or linked game is on the table when the page says ready
    state.ready = true;
    for (const message of state.kept.splice(0)) worker.postMessage(message);
    reviews.ready();
    if (state.expected && !state.seq && !state.dealing && !dialog.open) { // the link's game or the save could not be played
      const notice = $("notice").hidden ? "" : $("notice-text").textContent;
      openDialog();
      if (notice) {
        $("notice").hidden = true;
        showNotice(notice);
      }
    }
    body.dataset.state = "ready";
  },
  snapshot({ state: saved }) {
    body.dataset.snapshot = saved;
  },
  frame(frame) {
    // frames that come faster than the screen refreshes (an instant AI) are drawn once, the latest
    if (!state.pending) requestAnimationFrame(drawPending);
    state.pending = frame;
  },
  store({ key, value }) {
    try {
      if (value === null) localStorage.removeItem(key);
      else localStorage.setItem(key, value);
    } catch (error) {
      // said once: a frame on another site with its storage blocked is refused every write
      if (!state.storeRefused) console.warn("durak: localStorage refused: this visit keeps nothing", key, error);
      state.storeRefused = true;
    }
  },
  dialog({ error, problems, summary }) {
    $("ng-error").textContent = error;
    $("ng-summary").textContent = summary;
    if (!state.dealing) startButton.disabled = problems.length > 0;
  },
  notice({ text }) {
    if (state.ready) return showNotice(text);
    state.bootNotices.push(text);
    showNotice(state.bootNotices.join(" "));
  },
  refused({ code, text }) {
    if (code === "stale_frame") return; // the newer frame is on its way or drawn: the player sees it
    if ((code === "unplayable" || code === "bad_settings") && state.dealing && !dialog.open) {
      // a first visit's game that cannot be dealt (a last choice kept by an older page): the dialog says why
      state.dealing = false;
      playNow.disabled = false;
      $("welcome-note").textContent = "";
      openDialog();
      showNotice(text);
      return;
    }
    if (code === "unplayable" && state.dealing) {
      state.dealing = false;
      state.choice = null;
      startButton.disabled = false;
      $("ng-notice").hidden = true;
      $("ng-error").textContent = text;
      return;
    }
    if (code === "unplayable" || code === "no_game") return showNotice(text);
    console.error(`durak: the engine refused a message of the page (${code}): ${text}`);
  },
  review: (message) => reviews.receive(message),
  embed: ({ message }) => relayToHost(message),
  error({ text }) {
    console.error(`durak: the engine failed: ${text}`);
    if (body.dataset.state === "loading") window.durakFail(text);
    else showNotice(text);
  },
};

/** The engine worker, booted. Its thread's start (a JavaScript engine of its own, its modules) and
 * then Pyodide's WebAssembly compile take both cores of a small phone for a while: started inside this
 * module's task, they stretched that task (the dialog filled and laid out, 11 ms of processor time)
 * past 50 ms; started in a task after it, they overlap only the first frames' short tasks. */
function startWorker() {
  worker = new Worker(new URL("../worker/engine-worker.mjs", import.meta.url), { type: "module" });
  worker.onmessage = ({ data }) => {
    const receive = receivers[data.t];
    if (receive) receive(data);
  };
  worker.onerror = (event) => window.durakFail(event.message || "the engine worker did not start");
  worker.postMessage({
    t: "boot",
    search: location.search,
    langs: [...(navigator.languages || [navigator.language || "en"])],
    store: friends.bootStore(storeEntries()),
    embedded,
    viewport: { width: innerWidth, height: innerHeight },
    controlled: Boolean(navigator.serviceWorker && navigator.serviceWorker.controller),
  });
  worker.postMessage({ t: "address", href: location.href }); // invites are made from it; #join= makes a friend's page
}

function drawPending() {
  const frame = state.pending;
  if (!frame) return;
  state.pending = null;
  state.seq = frame.seq;
  show(frame);
  $("welcome").hidden = true; // a game is on the table
  if (state.dealing) {
    state.dealing = false;
    startButton.disabled = false;
    playNow.disabled = false;
    if (state.choice) keepChoice(state.choice);
    state.choice = null;
    dialog.close();
    hideNotice();
    forgetLinkGame();
  }
}

// ------------------------------------------------------------------ frames
function show(frame) {
  const focusKey = currentFocusKey();
  let changed = false;
  for (const name of REGIONS) {
    if (state.written[name] !== frame[name]) {
      morph($(name), frame[name]);
      state.written[name] = frame[name];
      changed = true;
    }
  }
  for (const [name, id] of Object.entries(OVERLAYS)) {
    const html = frame[name];
    if (state.written[name] === html) continue;
    const element = $(id);
    element.innerHTML = html;
    element.hidden = !html;
    state.written[name] = html;
    if (html) element.querySelector("button")?.focus();
  }
  for (const [name, button] of Object.entries(frame.buttons)) {
    const element = document.querySelector(`.actions [data-action="${name}"]`);
    const key = JSON.stringify([button.enabled, button.hidden, button.label, button.hinted]);
    if (!element || state.buttons[name] === key) continue;
    state.buttons[name] = key;
    element.disabled = !button.enabled;
    element.hidden = button.hidden;
    (element.querySelector("span") || element).textContent = button.label;
    if (button.hinted) element.dataset.hint = "true";
    else element.removeAttribute("data-hint");
  }
  const stats = frame.stats;
  body.setAttribute("data-ai", [stats.ai_moves, stats.ai_ms, stats.step_max_ms, stats.frame_max_ms]
    .map((n) => Math.round(n)).join(" "));
  body.setAttribute("data-speed", frame.speed);
  body.setAttribute("data-over", frame.over ? "true" : "false");
  if (frame.over) reviews.gameOver();
  if (changed) restoreFocus(focusKey);
  body.dataset.frame = String(frame.seq); // the frame on screen (a gesture's answer is a later one)
}

function currentFocusKey() {
  const active = document.activeElement;
  if (!active || active === body || !active.getAttribute) return null;
  for (const attr of ["data-card", "data-attack", "data-drop"]) {
    const value = active.getAttribute(attr);
    if (value) return [attr, value];
  }
  return null;
}

// After a redraw, keep keyboard play where it was: same card, else a target, else a playable card.
function restoreFocus(key) {
  const active = document.activeElement;
  if (key === null && active && active !== body) return;
  const target = document.querySelector('#table [data-target="true"], #hand [data-target="true"]');
  if (target && key !== null) return target.focus();
  if (key === null) return;
  const [attr, value] = key;
  const same = document.querySelector(`[${attr}="${CSS.escape(value)}"]`);
  if (same && attr === "data-card" && same.dataset.playable === "true") return same.focus();
  const playable = document.querySelector('#hand [data-playable="true"]');
  if (playable) playable.focus();
  else if (same) same.focus();
}

// ------------------------------------------------------------------ notices
// A message for the player: at the top of the page, or inside the new-game dialog while it is open
// (a modal dialog makes the rest of the page inert).
function showNotice(text) {
  const inside = dialog.open;
  const box = inside ? $("ng-notice") : $("notice");
  (inside ? box : $("notice-text")).textContent = text;
  box.hidden = false;
}

function hideNotice() {
  $("notice").hidden = true;
  $("ng-notice").hidden = true;
}

// ------------------------------------------------------------------ language and speed
function setLang(lang) {
  if (!i18n.page[lang] || lang === state.lang) return;
  state.lang = lang;
  applyLang();
  send({ t: "lang", value: lang });
  if (!state.ready) savePrefs({ lang }); // after ready the worker saves the preferences (a store message)
}

// The static page's words in the page's language (from strings.js).
function applyLang() {
  const lang = state.lang;
  const page = i18n.page[lang];
  document.documentElement.lang = lang;
  $("lang-select").value = lang;
  $("ng-lang").value = lang;
  for (const element of document.querySelectorAll("[data-i18n]")) element.textContent = page.words[element.dataset.i18n];
  for (const element of document.querySelectorAll("[data-i18n-label]")) {
    element.setAttribute("aria-label", page.words[element.dataset.i18nLabel]);
  }
  for (const element of document.querySelectorAll("[data-i18n-count]")) element.textContent = page.decks[element.value];
  for (const option of $("speed-select").options) option.textContent = page.speeds[option.value];
  document.title = page.title;
  if (body.dataset.state === "loading") $("loading-text").textContent = i18n.text[lang].loading;
  if (state.dealing) $("ng-notice").textContent = page.deal_when_ready;
  if (state.dealing && !state.ready) $("welcome-note").textContent = page.deal_when_ready;
  window.durakDescribe(lang);
  updateDialog();
}

function savePrefs(changes) {
  try {
    const prefs = JSON.parse(localStorage.getItem(ownKey("durak.prefs")) || "{}") || {};
    localStorage.setItem(ownKey("durak.prefs"), JSON.stringify({ ...prefs, ...changes }));
  } catch {
    // storage refused: the choice holds for this visit
  }
}

// ------------------------------------------------------------------ the new-game dialog
function field(name) {
  return form.elements.namedItem(name);
}

// The dialog's choices as web/table/params.py's Settings.to_dict (the worker checks them again).
function dialogSettings() {
  const players = Number(field("players").value);
  const exchange = field("exchange").value;
  const seats = ["human"];
  for (let seat = 1; seat < players; seat++) seats.push($(`ng-seat-${seat}`)?.value || "normal");
  const seed = field("seed").value.trim();
  return {
    variant: form.querySelector('input[name="variant"]:checked').value,
    players,
    deck: Number(field("deck").value),
    throw_in: field("throw_in").value,
    first_defence_limit: Number(field("first_defence_limit").value),
    exchange: exchange === "default" ? null : exchange === "on",
    first_attack: field("first_attack").value,
    teams: field("teams").value === "none" ? null : field("teams").value,
    seats: friends.dialog.seats(seats),
    seed: /^\d+$/.test(seed) ? Number(seed) : null,
    timer: friends.dialog.timer(),
    cheating: field("cheating").checked,
  };
}

// Seat rows for the player count and options that do not apply greyed out; the worker explains problems.
function updateDialog() {
  const page = i18n.page[state.lang];
  const players = Number(field("players").value);
  const kinds = state.seatKinds;
  for (let seat = 1; seat < players; seat++) {
    const select = $(`ng-seat-${seat}`);
    if (select && seat < kinds.length) kinds[seat] = select.value;
  }
  while (kinds.length < players) kinds.push(friends.dialog.fill());
  const rows = $("ng-seats");
  rows.replaceChildren();
  for (let seat = 1; seat < players; seat++) {
    const label = document.createElement("label");
    label.className = "seat-row";
    const name = document.createElement("span");
    name.textContent = page.compass[players][seat - 1]; // where that seat sits: West, North, East...
    const select = document.createElement("select");
    Object.assign(select, { id: `ng-seat-${seat}`, className: "select" });
    select.dataset.seat = select.dataset.seatKind = String(seat);
    for (const kind of friends.dialog.kinds()) {
      select.add(new Option(page.kinds[kind], kind, false, kinds[seat] === kind));
    }
    label.append(name, select);
    rows.append(label);
  }
  const variant = form.querySelector('input[name="variant"]:checked').value;
  const prostoy = variant === "prostoy";
  for (const [name, plain] of [["throw_in", "neighbours"], ["first_defence_limit", "6"], ["first_attack", "loser_left"]]) {
    field(name).disabled = prostoy;
    if (prostoy) field(name).value = plain;
  }
  const teams = field("teams");
  teams.disabled = prostoy;
  for (const option of teams.options) {
    option.disabled = option.value !== "none" && (prostoy || TEAM_PLAYERS[option.value] !== players);
  }
  if (teams.value !== "none" && teams.selectedOptions[0].disabled) teams.value = "none";
  friends.dialog.update();
  if (state.ready) send({ t: "dialog", settings: dialogSettings() });
  else $("ng-summary").textContent = page.summaries[variant];
}

function openDialog() {
  field("seed").value = "";
  friends.dialog.open();
  updateDialog();
  if (!dialog.open) dialog.showModal();
  startButton.focus();
}

function startFromDialog() {
  if (state.dealing) return;
  state.dealing = true;
  startButton.disabled = true;
  $("ng-error").textContent = "";
  const settings = dialogSettings();
  send({ t: "start", settings });
  state.choice = settings;
  if (!state.ready) showNotice(i18n.page[state.lang].deal_when_ready); // inside the dialog, which stays open
}

// A first visit's one tap: the game under "Play" (index.html's window.durakBoot.quick), kept until ready.
function quickStart() {
  if (state.dealing) return;
  state.dealing = true;
  playNow.disabled = true;
  send({ t: "start", settings: window.durakBoot.quick });
  if (!state.ready) $("welcome-note").textContent = i18n.page[state.lang].deal_when_ready;
}

// The dialog's game without its deal number, as the next first-visit game ("Play" when no save is left);
// a table with friends is not kept (their seats need the dialog).
const SOLO_KINDS = ["human", "easy", "normal", "hard"];
function keepChoice(settings) {
  if (!settings.seats.every((kind) => SOLO_KINDS.includes(kind))) return;
  const kept = { ...settings, seed: null, timer: 0 };
  Object.assign(window.durakBoot.quick, kept);
  window.durakDescribe(state.lang);
  try {
    localStorage.setItem(ownKey("durak.last"), JSON.stringify(kept));
  } catch {
    // storage refused: this visit's choice only
  }
}

// A game chosen in the dialog replaces the one the link named: the link's game keys leave the address
// (lang, speed, embed and the table's signalling relays stay), so that a reload resumes the saved game,
// not the link's, and meets its friends on the same relays.
function forgetLinkGame() {
  const current = new URLSearchParams(location.search);
  if (!LINK_KEYS.some((key) => current.has(key))) return;
  const kept = new URLSearchParams();
  for (const key of ["lang", "speed", "embed", "relays"]) if (current.get(key)) kept.set(key, current.get(key));
  const search = kept.toString();
  history.replaceState(null, "", location.pathname + (search ? `?${search}` : ""));
}

// ------------------------------------------------------------------ gestures
function gesture(kind, fields) {
  if (!state.seq) return; // no table yet: the skeleton has no cards
  send({ t: "gesture", kind, card: "", target: "", action: "", ...fields, frame: state.seq });
}

function targetKey(element) {
  const accused = element.getAttribute("data-accuse"); // cheat mode: a table card named as a cheat
  if (accused) return `accuse:${accused}`;
  const attack = element.getAttribute("data-attack");
  if (attack) return `attack:${attack}`;
  const drop = element.getAttribute("data-drop");
  if (drop) return `zone:${drop}`;
  const card = element.getAttribute("data-card");
  return card ? `hand:${card}` : "";
}

function onAction(action, event) {
  if (action === "new-game" || action === "settings" || action === "options") openDialog();
  else if (action === "quick-start") quickStart();
  else if (action === "close-dialog") dialog.close();
  else if (action === "start") {
    event.preventDefault();
    startFromDialog();
  } else if (action === "dismiss") hideNotice();
  else if (action === "invites") $("net").hidden = !$("net").hidden;
  else if (action === "close-net") $("net").hidden = true;
  else if (friends.onAction(action, event.target.closest("[data-action]"))) event.preventDefault();
  else if (TABLE_ACTIONS.includes(action)) gesture("action", { action });
  else if (reviews.handles(action)) reviews.press(action, event.target);
}

body.addEventListener("click", (event) => {
  if (performance.now() < state.suppressClickUntil) { // the click that ends a drag
    state.suppressClickUntil = 0;
    return;
  }
  const target = event.target;
  if (!target.closest) return;
  const menu = $("tools-menu");
  if (target.closest("#tools-menu .btn:not(.file-btn)") && menu.matches(":popover-open")) menu.hidePopover(); // its choice made
  const actionElement = target.closest("[data-action]");
  if (actionElement) {
    if (!actionElement.disabled) onAction(actionElement.dataset.action, event);
    return;
  }
  const lit = target.closest('[data-target="true"]');
  if (lit && !lit.closest("#hand")) return gesture("target", { target: targetKey(lit) });
  const card = target.closest("#hand [data-card]");
  if (card) return gesture("card", { card: card.dataset.card });
  if (target.closest("#table") || target.closest("#hand")) gesture("action", { action: "cancel" });
});

body.addEventListener("keydown", (event) => {
  const { key, target } = event;
  if (key === "Escape") {
    if (!dialog.open) gesture("key", { action: "Escape" });
    return;
  }
  if ((key === "Enter" || key === " ") && target.closest) {
    const lit = target.closest('[role="button"][data-target="true"]');
    if (lit && target.tagName !== "BUTTON") {
      event.preventDefault();
      gesture("target", { target: targetKey(lit) });
      return;
    }
  }
  if (key.startsWith("Arrow") && target.closest && target.closest("#hand [data-card]")) {
    const cards = [...document.querySelectorAll("#hand [data-card]")];
    const index = cards.indexOf(target);
    if (index < 0) return;
    const step = key === "ArrowLeft" || key === "ArrowUp" ? -1 : 1;
    cards[(index + step + cards.length) % cards.length].focus();
    event.preventDefault();
  }
});

// Drag and drop: pointer events, mouse, pen and touch alike.
$("hand").addEventListener("pointerdown", (event) => {
  if (event.button !== 0) return;
  const card = event.target.closest && event.target.closest("#hand [data-card]");
  if (!card || card.dataset.playable !== "true") return;
  state.drag = { card, x: event.clientX, y: event.clientY, moving: false, over: null };
});

// The table element under the pointer that accepts a card: an attack card or a play zone.
function dropTarget(x, y, dragged) {
  dragged.style.pointerEvents = "none";
  const under = document.elementFromPoint(x, y);
  dragged.style.pointerEvents = "";
  if (!under) return null;
  const found = under.closest("#table [data-attack]:not([data-beaten-by]), #table [data-drop]");
  if (!found && under.closest("#table")) return document.querySelector('#table [data-drop="table"]');
  return found;
}

body.addEventListener("pointermove", (event) => {
  const drag = state.drag;
  if (!drag) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.moving) {
    if (dx * dx + dy * dy < DRAG_THRESHOLD * DRAG_THRESHOLD) return;
    drag.moving = true;
    drag.card.classList.add("dragging");
    body.classList.add("dragging");
  }
  drag.card.style.transform = `translate(${dx}px, ${dy}px) rotate(${Math.max(-12, Math.min(12, dx / 20))}deg)`;
  const over = dropTarget(event.clientX, event.clientY, drag.card);
  if (over !== drag.over) {
    drag.over?.classList.remove("drop-over");
    over?.classList.add("drop-over");
    drag.over = over;
  }
  event.preventDefault();
});

function endDrag() {
  const drag = state.drag;
  state.drag = null;
  if (!drag || !drag.moving) return null;
  drag.card.classList.remove("dragging");
  drag.card.style.transform = "";
  body.classList.remove("dragging");
  drag.over?.classList.remove("drop-over");
  return drag;
}

body.addEventListener("pointerup", () => {
  const drag = endDrag();
  if (!drag) return;
  state.suppressClickUntil = performance.now() + 400;
  if (drag.over) gesture("drop", { card: drag.card.dataset.card, target: targetKey(drag.over) });
});
body.addEventListener("pointercancel", endDrag);

// ------------------------------------------------------------------ the table embed
// web/embed/embed-frame.js (TableEmbed) checks the host window's messages and calls window.durakTable; the
// worker's `embed` messages go back to it as `durak:table-event` (detail: the message as JSON text).
function relayToHost(message) {
  dispatchEvent(new CustomEvent("durak:table-event", { detail: JSON.stringify(message) }));
}

if (embedded) {
  window.durakTable = {
    play: (action) => send({ t: "embed", type: "durak:play", action }),
    reset: () => send({ t: "embed", type: "durak:reset", action: "" }),
  };
}

// ------------------------------------------------------------------ menus and the dialog's form
$("lang-select").addEventListener("change", (event) => setLang(event.target.value));
$("ng-lang").addEventListener("change", (event) => {
  event.stopPropagation(); // the dialog stays open, in the new language
  setLang(event.target.value);
});
$("ng-deck-style").value = deckStyle();
$("ng-deck-style").addEventListener("change", (event) => {
  event.stopPropagation(); // a look, not a game setting: the cards on the table change at once
  setDeckStyle(event.target.value);
});
$("speed-select").addEventListener("change", (event) => {
  body.dataset.speed = event.target.value;
  send({ t: "speed", value: event.target.value });
  if (!state.ready) savePrefs({ speed: event.target.value });
});
form.addEventListener("change", updateDialog);
form.addEventListener("submit", (event) => {
  event.preventDefault();
  startFromDialog();
});

// The first visit (no save, no link's game) shows "Play" from the first frame (index.html); otherwise the
// worker draws the table, and opens the dialog only when the save or the link cannot be played (see ready).
// The dialog is filled now, ready for "New game" or "Game options".
$("speed-select").value = body.dataset.speed;
const newGame = document.querySelector('[data-action="new-game"]');
newGame.disabled = false;
state.expected = window.durakBoot.expected;
updateDialog();
setTimeout(startWorker, 0);
warmPips(); // the pips' images parsed while the engine boots, not in the first deal's frame
