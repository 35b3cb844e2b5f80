// The worked-example widget: an open-hands Durak table that steps through an example's frames.
//
// One renderer for every frame: the rules pages' builder runs renderExample() in Node for the static
// step 0 (scripts/render_examples.mjs), the page steps with Stepper, and "try it yourself" draws the
// live game's frames with the same functions. Nothing here needs Python: stepping works with Pyodide
// blocked. The embed page (embed.html) and the game review reuse it.
//
//   import { Stepper, renderExample } from "./stepper.js";
//   const html = renderExample(example, labels, step);     // the whole widget, as HTML text
//   const stepper = new Stepper(element, example, labels, { engine, onStep });
//   stepper.go(3); stepper.next(); stepper.prev(); stepper.first(); stepper.last();
//   stepper.step, stepper.steps                             // the current step, the number of frames
//   stepper.show(frame)                                     // draw any frame (try mode) in the same widget
//
// `example`: {id, title, names: ["Anna", ...], frames: [frame, ...]}; a frame is what web/examples/frames.py
// writes (docs/rules-pages.md lists its keys). `labels`: the page's words, {lang, ranks, cards, counts,
// ui} (scripts/build_rules.py writes them from the catalogues). `engine` (optional): an object whose
// async methods start, card, target, press, reply, odds speak to the Python side of "try it"
// (web/examples/tryout.py), each answering JSON text: loadWorkerEngine() below starts it in the engine worker
// (the rules pages and embed.html).
// `onStep(step, steps, frame)` is called after each step.
//
// Hooks (../../shared/DESIGN.md, "Rules pages and examples"): the element is [data-example=<id>] with
// data-step and data-steps; controls [data-control=first|prev|next|last|try|odds] (and back in try
// mode); the comment in [data-testid=comment]; each seat [data-seat=<i>] holds its cards [data-card];
// the table's attacks are [data-attack] with data-beaten-by; [data-testid=refusal] shows a refused card.
// Only the current frame's cards are in the DOM.

const SUITS = "SHDC";
const SUIT_SYMBOL = { S: "♠", H: "♥", D: "♦", C: "♣" };
const RED = new Set(["H", "D"]);
const RANK_OF = { J: 11, Q: 12, K: 13, A: 14, T: 10 };
const SWIPE_PX = 40;
const REPLY_PAUSE_MS = 650;
const ENGINE_TIMEOUT_MS = 120_000;

/** Text safe inside HTML elements and double-quoted attributes. */
export function escape(text) {
  return String(text ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]);
}

/** "Step {i} of {n}" with its fields filled in. */
export function fill(template, values) {
  return String(template).replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));
}

const rankOf = (card) => {
  const text = card.slice(0, -1).toUpperCase();
  return RANK_OF[text] ?? Number(text);
};

const suitSvg = (suit, cls = "sym") => `<svg class="${cls}" aria-hidden="true"><use href="#suit-${suit}"/></svg>`;

/** The inside of a face-up card: two corner indices and the pips or the court letter (web/table/render.py's
 * card_face, so the table's stylesheet draws it; tests/web/examples/test_build_rules.py holds the two equal). */
export function cardFace(card, labels) {
  const suit = card.slice(-1).toUpperCase();
  const rank = rankOf(card);
  const label = escape(rank > 10 ? labels.ranks[rank] : String(rank));
  const corner = `<span class="rk">${label}</span>${suitSvg(suit)}`;
  // The top-left index is the card's only text, so its name can hold all it shows (WCAG 2.5.3); the court
  // letter and the bottom-right index repeat it from a data-rk attribute, drawn by the CSS.
  const drawn = `<span class="rk" data-rk="${label}"></span>${suitSvg(suit)}`;
  let middle;
  if (rank <= 10) {
    middle = `<span class="pips" data-n="${rank}" data-suit="${suit}"></span>`; // drawn by web/shared/cards.css
  } else if (rank === 14) {
    middle = `<span class="ace" data-face="A${suit}">${suitSvg(suit, "big")}</span>`;
  } else {
    // data-face: the picture web/shared/cards.css lays over the letter once the deck's art has loaded
    middle = `<span class="court" data-face="${"JQK"[rank - 11]}${suit}" aria-hidden="true">` +
      `<span class="court-letter" data-rk="${label}"></span>${suitSvg(suit, "court-sym")}</span>`;
  }
  return `<span class="corner tl">${corner}</span>${middle}<span class="corner br" aria-hidden="true">${drawn}</span>`;
}

/** A face-up card; its accessible name holds its visible text ("7♥, seven of hearts", WCAG 2.5.3). */
/** A card's accessible name, its visible index first ("6♠, six of spades": web/shared/i18n.py's card_label, from
 * the words web/examples/frames.py's card_words gives; tests/web/examples/test_build_rules.py holds the two equal). */
export function cardLabel(card, labels) {
  const words = labels.cards;
  const suit = card.slice(-1).toUpperCase();
  const rank = rankOf(card);
  const symbol = (rank > 10 ? labels.ranks[rank] : String(rank)) + SUIT_SYMBOL[suit];
  return fill(words.label, { symbol, name: fill(words.name, { rank: words.rank_words[rank], suit: words.suit_words[suit] }) });
}

export function cardHtml(card, labels, { tag = "div", cls = "", attrs = "" } = {}) {
  const suit = card.slice(-1).toUpperCase();
  const colour = RED.has(suit) ? "red" : "black";
  const role = tag === "button" ? ' type="button"' : ' role="img"';
  // suit-x: the four-colour deck's ink for diamonds and clubs (web/shared/cards.css)
  return `<${tag} class="card ${colour} suit-${suit.toLowerCase()}${cls ? " " + cls : ""}"${role} aria-label="${escape(cardLabel(card, labels))}"${attrs ? " " + attrs : ""}>` +
    `${cardFace(card, labels)}</${tag}>`;
}

// A count's words ("3 cards"): `labels.counts[key]` is [forms, pattern], the pattern's n-th character the
// index of n's form (web/examples/frames.py's count_forms); beyond the pattern, its last.
const count = (labels, key, n) => {
  const [forms, pattern] = labels.counts[key];
  return fill(forms[Number(pattern[Math.min(n, pattern.length - 1)])], { n });
};

function marks(frame, seat, labels) {
  const ui = labels.ui;
  const out = [];
  if (frame.out.includes(seat)) out.push(`<span class="mark out">${escape(ui.out)}</span>`);
  if (frame.attacker === seat) {
    out.push(`<span class="mark attacker"><svg aria-hidden="true"><use href="#icon-sword"/></svg>${escape(ui.attacker)}</span>`);
  }
  if (frame.defender === seat) {
    out.push(`<span class="mark defender"><svg aria-hidden="true"><use href="#icon-shield"/></svg>${escape(ui.defender)}</span>`);
  }
  if (frame.taking && frame.defender === seat) out.push(`<span class="mark taking">${escape(ui.taking)}</span>`);
  if (frame.to_act === seat) out.push(`<span class="mark turn">${escape(ui.to_act)}</span>`);
  return out.join("");
}

function seatHtml(frame, example, labels, seat) {
  const hand = frame.hands[seat];
  const name = example.names[seat] ?? String(seat + 1);
  const trying = frame.try && frame.try.live && frame.try.seat === seat ? frame.try : null;
  const cards = hand.map((card) => {
    const classes = card.slice(-1) === frame.trump ? "trump" : "";
    if (!trying) return cardHtml(card, labels, { cls: classes, attrs: `data-card="${card}"` });
    const state = trying.cards[card] ?? {};
    const attrs = [`data-card="${card}"`, `data-playable="${state.playable ? "true" : "false"}"`];
    if (state.selected) attrs.push('data-selected="true" aria-pressed="true"');
    if (state.target) attrs.push('data-target="true"');
    return cardHtml(card, labels, { tag: "button", cls: classes, attrs: attrs.join(" ") });
  }).join("");
  // frame.hidden (optional): cards of each seat the viewer cannot see, drawn face down (the game review
  // shows one seat's knowledge that way)
  const hidden = frame.hidden ? frame.hidden[seat] || 0 : 0;
  const backs = '<span class="card back" aria-hidden="true"></span>'.repeat(hidden);
  const label = `${name}: ${count(labels, "cards", hand.length + hidden)}`;
  const attrs = [`data-seat="${seat}"`];
  if (frame.to_act === seat) attrs.push('data-turn="true"');
  if (frame.attacker === seat) attrs.push('data-role="attacker"');
  else if (frame.defender === seat) attrs.push('data-role="defender"');
  if (frame.out.includes(seat)) attrs.push('data-out="true"');
  return `<section class="ex-seat" ${attrs.join(" ")} aria-label="${escape(label)}">` +
    `<div class="ex-seat-head"><span class="ex-seat-name">${escape(name)}</span>` +
    `<span class="ex-count" aria-hidden="true">${hand.length + hidden}</span>` +
    `<span class="ex-marks">${marks(frame, seat, labels)}</span></div>` +
    `<div class="ex-hand"${trying ? ` role="group" aria-label="${escape(fill(labels.ui.hand_of, { name }))}"` : ""}>` +
    `${cards + backs || `<span class="ex-empty">${escape(labels.ui.no_cards)}</span>`}</div></section>`;
}

function deckHtml(frame, labels) {
  const ui = labels.ui;
  const parts = [];
  const talonText = frame.talon ? count(labels, "talon", frame.talon) : ui.talon_empty;
  if (frame.trump_exposed && frame.trump_card && frame.talon) {
    parts.push(cardHtml(frame.trump_card, labels, { cls: "trump-card", attrs: `data-trump-card="${frame.trump_card}"` }));
  }
  parts.push(frame.talon
    ? `<span class="ex-stack" aria-hidden="true"><span class="card back"></span><span class="ex-badge">${frame.talon}</span></span>`
    : '<span class="ex-stack empty" aria-hidden="true"></span>');
  const suit = frame.trump;
  const trumpText = fill(ui.trump, { suit: labels.suits[suit] });
  return `<div class="ex-deck"><div class="ex-talon" role="img" aria-label="${escape(talonText)}" data-talon="${frame.talon}">` +
    `${parts.join("")}</div><div class="trump-badge ${RED.has(suit) ? "red" : "black"}" data-trump="${suit}">` +
    `${suitSvg(suit)}<span>${escape(trumpText)}</span></div></div>`;
}

function tableHtml(frame, labels) {
  const targets = new Set(frame.try && frame.try.live ? frame.try.targets : []);
  const pairs = frame.table.map(([attack, defence]) => {
    const attrs = [`data-attack="${attack}"`];
    if (defence) attrs.push(`data-beaten-by="${defence}"`);
    const lit = targets.has(`attack:${attack}`);
    if (lit) attrs.push('data-target="true"');
    const attackHtml = cardHtml(attack, labels, { tag: lit ? "button" : "div", cls: "attack", attrs: attrs.join(" ") });
    const defenceHtml = defence ? cardHtml(defence, labels, { cls: "defence", attrs: `data-defence="${defence}"` }) : "";
    return `<div class="pair${defence ? " beaten" : ""}">${attackHtml}${defenceHtml}</div>`;
  }).join("");
  const empty = frame.table.length ? "" : `<p class="ex-table-empty">${escape(labels.ui.table_empty)}</p>`;
  return `<div class="ex-table" data-testid="table" role="group" aria-label="${escape(labels.ui.table)}">${pairs}${empty}</div>`;
}

function discardHtml(frame, labels) {
  const text = frame.discard ? count(labels, "discard", frame.discard) : labels.ui.discard_empty;
  return `<div class="ex-discard" role="img" aria-label="${escape(text)}" data-count="${frame.discard}">` +
    `<span class="ex-pile${frame.discard ? "" : " empty"}" aria-hidden="true">${frame.discard ? `<span class="ex-badge">${frame.discard}</span>` : ""}</span>` +
    `<span class="ex-pile-label" aria-hidden="true">${escape(labels.ui.discard_short)}</span></div>`;
}

/** The board of one frame: seats with their open hands, then talon and trump, the table, the discard pile. */
export function renderBoard(frame, example, labels) {
  const seats = frame.hands.map((_, seat) => seatHtml(frame, example, labels, seat)).join("");
  return `<div class="ex-seats" style="--seats:${frame.hands.length}">${seats}</div>` +
    `<div class="ex-centre">${deckHtml(frame, labels)}${tableHtml(frame, labels)}${discardHtml(frame, labels)}</div>`;
}

/** The words under the board: what the step did, why it matters, and (try mode) what the engine said. */
function renderWords(frame, step, steps, labels) {
  const ui = labels.ui;
  const counter = frame.try ? ui.trying : fill(ui.step, { i: step + 1, n: steps });
  const said = frame.said ? `<p class="ex-said">${escape(frame.said)}</p>` : "";
  return `<span class="sr-only">${escape(counter)}. </span>${said}` +
    `<p class="ex-comment" data-testid="comment">${escape(frame.comment)}</p>`;
}

function renderTry(frame, labels) {
  const ui = labels.ui;
  const info = frame.try;
  if (!info) return "";
  // every button may be pressed, legal or not (data-legal tells which): the engine answers, as for cards
  const buttons = Object.entries(info.buttons || {}).map(([action, state]) =>
    `<button type="button" class="btn" data-action="${action}" data-legal="${state.legal ? "true" : "false"}">` +
    `${escape(state.label)}</button>`).join("");
  // the refusal already says it is refused ("Cannot transfer with 9♠: ..."); role=alert reads it out at once
  return `<p class="ex-refusal" data-testid="refusal" role="alert"${info.refusal ? "" : " hidden"}>${escape(info.refusal)}</p>` +
    `<div class="ex-actions" role="group" aria-label="${escape(ui.actions)}">${buttons}</div>`;
}

function renderOdds(odds, labels) {
  if (!odds) return "";
  const ui = labels.ui;
  if (odds.pending) return `<p class="ex-odds-note">${escape(ui.odds_wait)}</p>`;
  if (!odds.moves.length) return `<p class="ex-odds-note">${escape(ui.odds_none)}</p>`;
  const rows = odds.moves.map((move) =>
    `<li data-move="${escape(move.action)}"><span class="ex-odds-move">${escape(move.label)}</span>` +
    `<span class="ex-odds-bar" aria-hidden="true"><span style="width:${Math.round(move.chance * 100)}%"></span></span>` +
    `<span class="ex-odds-value">${escape(fill(ui.odds_value, { percent: Math.round(move.chance * 100) }))}</span></li>`).join("");
  return `<p class="ex-odds-note">${escape(fill(ui.odds_for, { name: odds.name }))}</p><ol class="ex-odds-list">${rows}</ol>`;
}

function controlButton(control, label, icon, disabled) {
  return `<button type="button" class="btn ex-btn" data-control="${control}" aria-label="${escape(label)}" title="${escape(label)}"` +
    `${disabled ? " disabled" : ""}><svg aria-hidden="true" viewBox="0 0 24 24"><path d="${icon}"/></svg></button>`;
}

export const ICONS = {
  first: "M5 5h2.5v14H5zM19 5l-10 7 10 7z",
  prev: "M17 5l-10 7 10 7z",
  next: "M7 5l10 7-10 7z",
  last: "M16.5 5H19v14h-2.5zM5 5l10 7-10 7z",
};

/** The controls: first, previous, the step counter, next, last; try it and the odds toggle. */
function renderControls(step, steps, frame, labels, state = {}) {
  const ui = labels.ui;
  const trying = Boolean(frame.try);
  const canTry = frame.to_act !== null && frame.to_act !== undefined && !frame.result;
  const nav = trying
    ? `<button type="button" class="btn primary" data-control="back">${escape(ui.back)}</button>`
    : controlButton("first", ui.first, ICONS.first, step === 0) + controlButton("prev", ui.prev, ICONS.prev, step === 0) +
      `<span class="ex-step" aria-hidden="true">${escape(fill(ui.step, { i: step + 1, n: steps }))}</span>` +
      controlButton("next", ui.next, ICONS.next, step >= steps - 1) + controlButton("last", ui.last, ICONS.last, step >= steps - 1);
  const tryButton = trying ? "" :
    `<button type="button" class="btn primary ex-try" data-control="try"${canTry ? "" : " disabled"}>${escape(ui.try)}</button>`;
  const odds = `<button type="button" class="btn ghost ex-odds" data-control="odds" aria-pressed="${state.odds ? "true" : "false"}"` +
    `${canTry || trying ? "" : " disabled"}>${escape(ui.odds)}</button>`;
  return `<div class="ex-nav">${nav}</div><div class="ex-extra">${tryButton}${odds}</div>`;
}

/** The inside of the widget for one frame (everything below its caption). */
export function renderInner(example, labels, step, frame = example.frames[step], state = {}) {
  const steps = example.frames.length;
  return `<div class="ex-board">${renderBoard(frame, example, labels)}</div>` +
    `<div class="ex-words" aria-live="polite" aria-atomic="true">${renderWords(frame, step, steps, labels)}</div>` +
    `<div class="ex-try-panel"${frame.try ? "" : " hidden"}>${renderTry(frame, labels)}</div>` +
    `<div class="ex-odds-panel" aria-live="polite"${state.odds ? "" : " hidden"}>${renderOdds(state.odds, labels)}</div>` +
    `<div class="ex-controls" role="toolbar" aria-label="${escape(labels.ui.controls)}">${renderControls(step, steps, frame, labels, state)}</div>`;
}

/** The whole widget as HTML text, at `step`: what the builder writes into the page for step 0. */
export function renderExample(example, labels, step = 0) {
  const steps = example.frames.length;
  const titleId = `${example.id}-title`;
  return `<figure class="example" id="${example.id}" data-example="${example.id}" data-step="${step}" data-steps="${steps}" ` +
    `aria-labelledby="${titleId}" tabindex="-1"><figcaption id="${titleId}" class="ex-title">` +
    `<span class="ex-kicker">${escape(labels.ui.example)}</span> ${escape(example.title)}</figcaption>` +
    `<div class="ex-inner">${renderInner(example, labels, step)}</div></figure>`;
}

/** Steps one [data-example] element through its frames; see the header for the API. */
export class Stepper {
  constructor(element, example, labels, { engine = null, onStep = null } = {}) {
    this.element = element;
    this.example = example;
    this.labels = labels;
    this.engine = engine;
    this.onStep = onStep;
    this.step = Number(element.dataset.step || 0);
    this.steps = example.frames.length;
    this.live = null; // the try-mode frame on show, or null
    this.odds = null; // {pending} | {name, moves} while the odds toggle is on
    this.busy = false;
    this.inner = element.querySelector(".ex-inner");
    element.addEventListener("click", (event) => this.onClick(event));
    element.addEventListener("keydown", (event) => this.onKey(event));
    this.bindSwipe();
  }

  get frame() {
    return this.live ?? this.example.frames[this.step];
  }

  go(step) {
    const target = Math.max(0, Math.min(this.steps - 1, Number(step) || 0));
    const left = Boolean(this.live);
    if (left) this.leaveTry();
    if (target === this.step && this.inner.dataset.drawn && !left) return;
    this.step = target;
    this.draw();
    if (this.odds) this.refreshOdds();
  }

  next() { this.go(this.step + 1); }
  prev() { this.go(this.step - 1); }
  first() { this.go(0); }
  last() { this.go(this.steps - 1); }

  /** Draw `frame` (a try-mode frame) in this widget; the recorded step stays where it was. */
  show(frame) {
    this.live = frame;
    this.draw();
  }

  draw() {
    const focused = this.element.contains(document.activeElement) ? focusKey(document.activeElement) : null;
    this.element.dataset.step = String(this.step);
    this.inner.innerHTML = renderInner(this.example, this.labels, this.step, this.frame, { odds: this.odds });
    this.inner.dataset.drawn = "true";
    if (focused) restoreFocus(this.element, focused);
    if (this.onStep) this.onStep(this.step, this.steps, this.frame);
  }

  onClick(event) {
    const control = event.target.closest("[data-control]");
    if (control && !control.disabled) {
      const name = control.dataset.control;
      if (name in { first: 1, prev: 1, next: 1, last: 1 }) this[name]();
      else if (name === "try") this.enterTry();
      else if (name === "back") this.go(this.step);
      else if (name === "odds") this.toggleOdds();
      return;
    }
    if (!this.live || this.busy) return;
    const action = event.target.closest("[data-action]");
    if (action && !action.disabled) return this.ask("press", action.dataset.action);
    const target = event.target.closest('.ex-table [data-target="true"]');
    if (target) return this.ask("target", `attack:${target.dataset.attack}`);
    const card = event.target.closest(".ex-hand [data-card]");
    if (card && card.tagName === "BUTTON") return this.ask("card", card.dataset.card);
  }

  onKey(event) {
    if (event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
    if (this.live && event.key === "Escape") {
      event.preventDefault();
      this.go(this.step);
      return;
    }
    if (this.live) return;
    const moves = { ArrowRight: "next", ArrowLeft: "prev", Home: "first", End: "last" };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    this[move]();
  }

  bindSwipe() {
    let start = null;
    const board = () => this.element.querySelector(".ex-board");
    this.element.addEventListener("pointerdown", (event) => {
      start = event.pointerType === "mouse" || !board().contains(event.target) ? null : [event.clientX, event.clientY];
    });
    this.element.addEventListener("pointerup", (event) => {
      if (!start || this.live) return;
      const dx = event.clientX - start[0];
      const dy = event.clientY - start[1];
      start = null;
      if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > 2 * Math.abs(dy)) (dx < 0 ? this.next() : this.prev());
    });
    this.element.addEventListener("pointercancel", () => { start = null; });
  }

  // ------------------------------------------------------------------ try it yourself
  async withEngine() {
    if (!this.engine) throw new Error("no engine");
    return typeof this.engine.then === "function" ? await this.engine : this.engine;
  }

  async enterTry() {
    if (this.busy) return;
    this.busy = true;
    this.element.dataset.try = "loading";
    this.setStatus(this.labels.ui.engine_loading);
    try {
      const engine = await this.withEngine();
      const frame = answer(await engine.start(this.example.id, this.frame.position, JSON.stringify(this.example.names),
        this.labels.lang));
      this.element.dataset.try = "ready";
      this.setStatus("");
      this.busy = false;
      this.show(frame);
      this.focusFirst(".ex-hand button[data-card], [data-control=back]");
      if (this.odds) this.refreshOdds();
    } catch (error) {
      this.busy = false;
      this.element.dataset.try = "failed";
      this.setStatus(this.labels.ui.engine_failed);
      console.warn("durak: try it is unavailable:", error);
    }
  }

  leaveTry() {
    this.live = null;
    delete this.element.dataset.try;
    this.busy = false;
  }

  async ask(method, value) {
    this.busy = true;
    const token = this.live;
    try {
      const engine = await this.withEngine();
      const reply = answer(await engine[method](this.example.id, value));
      if (this.live !== token) return; // the reader went back meanwhile
      this.show(reply.frame);
      if (!reply.frame.try.refusal) this.focusFirst(".ex-table [data-target=true], .ex-hand [data-target=true]");
      await this.replies(engine, reply.waiting);
    } catch (error) {
      this.setStatus(`${this.labels.ui.engine_failed} (${error.message})`);
      console.warn("durak: try it:", error);
    } finally {
      this.busy = false;
    }
  }

  /** The other seats answer with the AI, one move at a time, until the reader's turn comes back. */
  async replies(engine, waiting) {
    let more = waiting;
    while (more && this.live) {
      const token = this.live;
      await new Promise((resolve) => setTimeout(resolve, REPLY_PAUSE_MS));
      if (this.live !== token) return;
      const reply = answer(await engine.reply(this.example.id));
      if (this.live !== token) return;
      this.show(reply.frame);
      more = reply.waiting;
    }
    if (this.live) {
      this.focusFirst(".ex-hand button[data-card], [data-control=back]");
      if (this.odds) this.refreshOdds();
    }
  }

  async toggleOdds() {
    if (this.odds) {
      this.odds = null;
      this.draw();
      return;
    }
    this.odds = { pending: true };
    this.draw();
    await this.refreshOdds();
  }

  async refreshOdds() {
    const frame = this.frame;
    this.odds = { pending: true };
    this.draw();
    try {
      const engine = await this.withEngine();
      const odds = JSON.parse(await engine.odds(frame.position, JSON.stringify(this.example.names), this.labels.lang));
      if (this.frame !== frame || !this.odds) return;
      this.odds = odds;
    } catch (error) {
      console.warn("durak: no odds:", error);
      if (!this.odds) return;
      this.odds = { name: "", moves: [] };
    }
    this.draw();
    this.element.dataset.odds = "ready";
  }

  setStatus(text) {
    let status = this.element.querySelector(".ex-engine-status");
    if (!status) {
      status = document.createElement("p");
      status.className = "ex-engine-status";
      status.setAttribute("role", "status");
      this.element.append(status);
    }
    status.textContent = text;
    status.hidden = !text;
  }

  focusFirst(selector) {
    const found = this.element.querySelector(selector);
    if (found) found.focus({ preventScroll: true });
  }
}

// The engine's answer (JSON text); one that reports an error becomes an exception.
function answer(text) {
  const value = JSON.parse(text);
  if (value && value.error) throw new Error(value.error);
  return value;
}

// Keep the keyboard where it was across a redraw: the same control, card or target.
function focusKey(element) {
  for (const attr of ["data-control", "data-action", "data-card", "data-attack"]) {
    const value = element.getAttribute && element.getAttribute(attr);
    if (value) return [attr, value];
  }
  return null;
}

function restoreFocus(root, [attr, value]) {
  const same = root.querySelector(`[${attr}="${value}"]`);
  if (same && !same.disabled) return same.focus({ preventScroll: true });
  const fallback = attr === "data-control" ? root.querySelector("[data-control]:not(:disabled)") : null;
  (fallback ?? root).focus({ preventScroll: true });
}

// ------------------------------------------------------------------ the engine for "try it"
let enginePromise = null;

// body[data-engine]: loading until the engine is there, then ready or failed.
function marked(promise) {
  document.body.dataset.engine = "loading";
  promise.then(
    () => { document.body.dataset.engine = "ready"; },
    () => { document.body.dataset.engine = "failed"; },
  );
  return promise;
}

/** A worker of the engine and its port: with `shared`, the one SharedWorker all the site's frames of this
 * page (and tab) connect to (web/worker/engine-shared-worker.mjs: the embeds of a host page boot one Pyodide, not
 * one each), else this page's own dedicated worker (web/worker/engine-worker.mjs). */
function engineWorker(shared) {
  if (shared && typeof SharedWorker === "function") {
    try {
      const url = new URL("../worker/engine-shared-worker.mjs", import.meta.url);
      const worker = new SharedWorker(url, { type: "module", name: "durak-engine" });
      return { kind: "shared", events: worker, port: worker.port, close: () => worker.port.close() };
    } catch (error) {
      console.warn("durak: no shared engine worker, this frame's own:", error);
    }
  }
  const worker = new Worker(new URL("../worker/engine-worker.mjs", import.meta.url), { type: "module" });
  return { kind: "dedicated", events: worker, port: worker, close: () => worker.terminate() };
}

/** Start the engine worker (web/worker/engine-worker.mjs) once, so that Python never runs on
 * the page's main thread; resolves, once it is ready, to the "try it" engine: start, card, target, press,
 * reply, odds, and embed.html's embed_frames (kind, value, lang) and play (example, text), the calls of
 * web/embed/engine_calls.py, each a Promise of the answer's JSON text (rejected with the engine's error or
 * refusal). The boot has no save and no link: the worker deals nothing, and the `store` writes it may
 * post are not made (`embedded`: it keeps them under the embed's keys besides). A call goes only once the
 * worker is ready, so each is answered or rejected. `shared` (embed.html): the engine is the one the
 * page's other embeds use, where the browser allows one (a worker of its own if the shared one cannot
 * start). body[data-engine-worker] then says which ("shared" or "dedicated") and body[data-engine-boot]
 * when that engine's boot began (ms since the epoch): frames with the same one share an engine. */
export function loadWorkerEngine({ timeoutMs = ENGINE_TIMEOUT_MS, embedded = false, shared = false } = {}) {
  if (enginePromise) return enginePromise;
  enginePromise = marked(new Promise((resolve, reject) => {
    const waiting = new Map(); // call id -> {resolve, reject}
    let lastId = 0;
    let ready = false;
    let dead = null; // the error once the worker is gone
    let worker = null;
    // The boot failed, or the worker died: no call will be answered any more.
    const fail = (why) => {
      clearTimeout(timer);
      worker.close();
      dead = new Error(String(why));
      for (const pending of waiting.values()) pending.reject(dead);
      waiting.clear();
      reject(dead);
    };
    const timer = setTimeout(() => fail("the engine did not start in time"), timeoutMs);
    const call = (method, args) => new Promise((resolveCall, rejectCall) => {
      if (dead) return rejectCall(dead);
      lastId += 1;
      waiting.set(lastId, { resolve: resolveCall, reject: rejectCall });
      worker.port.postMessage({ t: "engine", id: lastId, method, args });
    });
    const engine = {
      start: (example, position, names, lang) => call("start", [example, position, JSON.parse(names), lang]),
      card: (example, card) => call("card", [example, card]),
      target: (example, target) => call("target", [example, target]),
      press: (example, action) => call("press", [example, action]),
      reply: (example) => call("reply", [example]),
      odds: (position, names, lang) => call("odds", [position, JSON.parse(names), lang]),
      embed_frames: (kind, value, lang) => call("embed_frames", [kind, value, lang]),
      play: (example, text) => call("embed_play", [example, text]),
    };
    const settle = (id, settles) => {
      const pending = waiting.get(id);
      waiting.delete(id);
      if (pending) settles(pending);
      return Boolean(pending);
    };
    const receive = ({ data }) => {
      if (data.t === "ready") {
        ready = true;
        clearTimeout(timer);
        document.body.dataset.engineWorker = worker.kind;
        document.body.dataset.engineBoot = String(data.boot.received);
        resolve(engine);
      } else if (data.t === "answer") {
        settle(data.id, ({ resolve: done }) => done(JSON.stringify(data.result)));
      } else if (data.t === "error" || data.t === "refused") {
        if (settle(data.id, ({ reject: refuse }) => refuse(new Error(data.text)))) return;
        if (!ready) return fail(data.text); // the boot failed
        console.error(`durak: the engine worker (${data.t}): ${data.text}`);
      }
    };
    const connect = (wantShared) => {
      worker = engineWorker(wantShared);
      worker.port.onmessage = receive;
      worker.events.onerror = (event) => {
        // A shared worker this browser will not start for this frame (third-party storage blocked, say): its own.
        if (worker.kind === "shared" && !ready) {
          console.warn("durak: the shared engine worker did not start; this frame's own:", event.message || event);
          worker.close();
          return connect(false);
        }
        fail(event.message || "the engine worker did not start");
      };
      worker.port.postMessage({
        t: "boot",
        search: new URLSearchParams(location.search).get("snapshot") === "off" ? "?snapshot=off" : "",
        langs: [document.documentElement.lang || "en"],
        store: {},
        embedded,
        viewport: { width: innerWidth, height: innerHeight },
        controlled: Boolean(navigator.serviceWorker && navigator.serviceWorker.controller),
      });
    };
    connect(shared);
  }));
  return enginePromise;
}
