// embed.html's own script: reads the frame's URL options, shows an example (or a record, or a
// position) with web/examples/stepper.js, and speaks the message API to the page that embeds it.
//
// URL options (docs/embed.md): example=<id> | record=<url-safe> | position=<url-safe>, plus lang,
// theme=light|dark, step=N, controls=0, try=0, autoplay=<ms>. An example is drawn from its built
// frames (rules/frames/<lang>/<id>.json, made by scripts/build_rules.py): visible and steppable
// without Python. A record or position needs the engine: the engine worker boots (web/worker/engine-worker.mjs,
// started by web/examples/stepper.js's loadWorkerEngine, so Python never runs on this frame's main thread) and
// builds the same frames (web/embed/embedding.py), drawn by the same stepper; "try it" and durak:play start
// it too. Given the table's own game parameters instead, embed.html opens the table itself
// (index.html?embed=1), which loads this module too (TableEmbed).
//
// Messages (plain objects with a `type`; ../shared/DESIGN.md, "Embeds"). From the parent window
// only: durak:next, durak:prev, durak:goto {step}, durak:reset, durak:play {action}. Anything else,
// of another shape or from another window, is ignored. To the parent: durak:ready {steps, step,
// title}, durak:step {step, steps, comment}, durak:move {seat, action}, durak:resize {height},
// durak:gameover {result}, durak:error {reason, code}.
//
// body[data-state]: loading | ready | error, as on the table; body[data-engine] from the stepper.

import { Stepper, loadWorkerEngine, renderExample } from "../examples/stepper.js";

const SITE = new URL("../../", import.meta.url);
const FRAMES = new URL("../../rules/frames/", import.meta.url);
const LABELS_FROM = "podkidnoy-limit-take"; // a worked example (../../shared/DESIGN.md) whose labels serve any frame
const SW_URL = new URL("../../sw.js", import.meta.url);
const PARENT = window.parent !== window ? window.parent : null;
const MIN_AUTOPLAY_MS = 300;
const OFFLINE_DELAY_MS = 3000; // after load, before the service worker's first install may start
const MAX_ACTION_LENGTH = 120;
const ID = /^[a-z0-9-]{1,60}$/;
const URL_SAFE = /^[pr]1[A-Za-z0-9_-]{1,16000}$/;

const I18N = window.DURAK_I18N;

/** The frame's options from its query string, checked; bad values fall back to the defaults. */
export function readOptions(search, languages = I18N.languages.map((l) => l.code), fallback = I18N.default) {
  const query = new URLSearchParams(search);
  const wanted = [query.get("lang"), ...(navigator.languages || [navigator.language])]
    .filter(Boolean).map((code) => String(code).slice(0, 2).toLowerCase());
  const lang = wanted.find((code) => languages.includes(code)) || fallback;
  const number = (key, low, high) => {
    const value = Number(query.get(key));
    return query.has(key) && Number.isInteger(value) && value >= low && value <= high ? value : null;
  };
  let mode = null;
  let value = null;
  if (query.has("example")) [mode, value] = ["example", query.get("example")];
  else if (query.has("record")) [mode, value] = ["record", query.get("record")];
  else if (query.has("position")) [mode, value] = ["position", query.get("position")];
  const valid = mode === "example" ? ID.test(value) : mode ? URL_SAFE.test(value) : false;
  const autoplay = number("autoplay", 1, 3600000);
  return {
    mode: valid ? mode : null,
    value: valid ? value : null,
    lang,
    theme: query.get("theme") === "light" ? "light" : "dark",
    step: number("step", 0, 10000),
    controls: query.get("controls") !== "0",
    tryIt: query.get("try") !== "0",
    autoplay: autoplay === null ? null : Math.max(MIN_AUTOPLAY_MS, autoplay),
  };
}

/** A message from the parent, if it is one of the commands in a valid shape; else null. */
export function readCommand(data) {
  if (!data || typeof data !== "object" || Array.isArray(data) || typeof data.type !== "string") return null;
  switch (data.type) {
    case "durak:next":
    case "durak:prev":
    case "durak:reset":
      return { type: data.type };
    case "durak:goto":
      return Number.isInteger(data.step) && data.step >= 0 ? { type: data.type, step: data.step } : null;
    case "durak:play":
      return typeof data.action === "string" && data.action.trim() && data.action.length <= MAX_ACTION_LENGTH
        ? { type: data.type, action: data.action.trim() } : null;
    default:
      return null;
  }
}

function text(lang, key) {
  return (I18N.text[lang] && I18N.text[lang][key]) || I18N.text[I18N.default][key] || key;
}

function post(type, payload = {}) {
  if (PARENT) PARENT.postMessage({ ...payload, type }, "*");
}

/** Commands from the parent window, in a valid shape; every other message is ignored. */
function listenToParent(run) {
  addEventListener("message", (event) => {
    if (!PARENT || event.source !== PARENT) return;
    const command = readCommand(event.data);
    if (command) run(command);
  });
}

/** The URL-safe form of a position, as durak.links.url_safe writes it ("p1" + base64url of raw
 * deflate); compressed here without the preset dictionary, which the decoder does not need. */
export async function urlSafePosition(position) {
  const stream = new Blob([position]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return "p1" + btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

class Embed {
  constructor(options) {
    this.options = options;
    this.root = document.getElementById("embed");
    this.link = document.getElementById("open-full");
    this.stepper = null;
    this.ready = false; // durak:ready sent: from then on every step is reported
    this.autoplay = null;
    this.over = false;
    this.engine = null; // a promise of the engine worker, once something needed it
  }

  async start() {
    const { mode, lang } = this.options;
    document.documentElement.lang = lang;
    document.body.dataset.theme = this.options.theme;
    document.body.dataset.controls = this.options.controls ? "1" : "0";
    document.body.dataset.try = this.options.tryIt ? "1" : "0";
    this.link.textContent = text(lang, "embed_open_full");
    if (!mode) return this.fail(text(lang, "embed_bad_options"), "embed.bad_options");
    let data;
    try {
      data = mode === "example" ? await this.exampleData() : await this.builtData();
    } catch (error) {
      console.warn("durak embed:", error);
      if (error.engineFailed) return this.fail(text(lang, "embed_engine_failed"), "embed.engine_failed");
      const key = mode === "example" ? "embed_unknown_example" : "embed_bad_link";
      return this.fail(text(lang, key), mode === "example" ? "embed.unknown_example" : "embed.bad_link");
    }
    this.show(data);
  }

  async exampleData() {
    const url = new URL(`${this.options.lang}/${this.options.value}.json`, FRAMES);
    const early = window.durakEarlyFrames; // asked for by embed.html's first script, if it guessed right
    const asked = early && early.id === this.options.value && early.lang === this.options.lang;
    const response = await (asked ? early.response : fetch(url));
    if (!response.ok) throw new Error(`${url.pathname}: HTTP ${response.status}`);
    return response.json();
  }

  /** Frames of a record or position, built by the engine worker (web/embed/embedding.py; a link that does not
   * read is refused); the words to draw them with are the built examples' (any one's labels name every card). */
  async builtData() {
    const words = fetch(new URL(`${this.options.lang}/${LABELS_FROM}.json`, FRAMES)).then((r) => r.json());
    const engine = await this.withEngine().catch((error) => {
      throw Object.assign(new Error(`the engine did not start: ${error.message}`), { engineFailed: true });
    });
    const example = JSON.parse(await engine.embed_frames(this.options.mode, this.options.value, this.options.lang));
    return { labels: (await words).labels, example };
  }

  /** The engine, started once: the one the host page's other embeds of this site share (one Pyodide for
   * all of them; web/worker/engine-shared-worker.mjs), else this frame's own worker. Its store writes (none: it
   * deals nothing) would be the embed's own. */
  withEngine() {
    this.engine = this.engine || loadWorkerEngine({ embedded: true, shared: true });
    return this.engine;
  }

  /** The engine as the stepper speaks to it, booted on first use; every move it plays (the reader's
   * clicks, the other seats' replies) is passed on to the host as durak:move. */
  relayEngine() {
    const relay = (name) => async (...args) => {
      const engine = await this.withEngine();
      const text = await engine[name](...args);
      const answer = JSON.parse(text);
      for (const move of answer.moves || []) post("durak:move", { seat: move.seat, action: move.action });
      return text;
    };
    const names = ["start", "card", "target", "press", "reply", "odds", "play"];
    return Object.fromEntries(names.map((name) => [name, relay(name)]));
  }

  show({ labels, example }) {
    const { step, tryIt, autoplay } = this.options;
    const start = Math.min(step ?? 0, example.frames.length - 1);
    this.root.innerHTML = renderExample(example, labels, start);
    this.root.removeAttribute("aria-busy");
    const element = this.root.querySelector("[data-example]");
    this.relay = this.relayEngine();
    this.stepper = new Stepper(element, example, labels, {
      engine: tryIt ? this.relay : null,
      onStep: (i, n, frame) => this.stepped(i, n, frame),
    });
    this.updateLink(this.stepper.frame);
    document.title = `${example.title} — Durak`;
    document.body.dataset.state = "ready";
    document.body.dataset.readyMs = String(Math.round(performance.now()));
    this.watchSize();
    post("durak:ready", { steps: this.stepper.steps, step: this.stepper.step, title: document.title });
    this.ready = true;
    if (autoplay) this.startAutoplay(autoplay);
    listenToParent((command) => this.run(command));
    registerOffline();
  }

  stepped(step, steps, frame) {
    if (!this.ready) return;
    if (!frame.try) post("durak:step", { step, steps, comment: frame.comment });
    this.updateLink(frame);
    if (frame.result && !this.over) {
      this.over = true;
      post("durak:gameover", { result: frame.result });
    } else if (!frame.result) {
      this.over = false;
    }
  }

  async updateLink(frame) {
    const query = new URLSearchParams({ lang: this.options.lang });
    try {
      query.set("position", await urlSafePosition(frame.position));
    } catch (error) {
      console.warn("durak embed: no link to the position:", error);
    }
    if (this.stepper && this.stepper.frame === frame) this.link.href = new URL(`index.html?${query}`, SITE).href;
  }

  startAutoplay(ms) {
    const stop = () => {
      clearInterval(this.autoplay);
      this.autoplay = null;
    };
    this.autoplay = setInterval(() => {
      if (this.stepper.live || this.stepper.step >= this.stepper.steps - 1) return stop();
      this.stepper.next();
    }, ms);
    for (const type of ["pointerdown", "keydown"]) addEventListener(type, stop, { once: true });
  }

  run(command) {
    const stepper = this.stepper;
    switch (command.type) {
      case "durak:next": return stepper.next();
      case "durak:prev": return stepper.prev();
      case "durak:goto": return stepper.go(command.step);
      case "durak:reset": return stepper.go(0);
      case "durak:play": return this.play(command.action);
    }
  }

  /** Play an action (notation) for the seat to act at the shown step; the other seats answer. */
  async play(action) {
    const stepper = this.stepper;
    const engine = this.relay;
    try {
      const id = stepper.example.id;
      if (!stepper.live) {
        await this.withEngine(); // a failed boot is engine_failed, below; a refused start is no_move_now
        const frame = stepper.frame;
        try {
          await engine.start(id, frame.position, JSON.stringify(stepper.example.names), this.options.lang);
        } catch (error) {
          return post("durak:error", { reason: error.message, code: "embed.no_move_now" });
        }
      }
      const reply = JSON.parse(await engine.play(id, action));
      if (reply.error) return post("durak:error", { reason: reply.error, code: reply.code || "" });
      stepper.element.dataset.try = "ready";
      stepper.show(reply.frame);
      await stepper.replies(engine, reply.waiting);
    } catch (error) {
      console.warn("durak embed: play failed:", error);
      post("durak:error", { reason: text(this.options.lang, "embed_engine_failed"), code: "embed.engine_failed" });
    }
  }

  fail(message, code) {
    this.root.removeAttribute("aria-busy");
    this.root.innerHTML = `<p class="embed-error" role="alert"></p>`;
    this.root.firstChild.textContent = message;
    this.watchSize();
    document.body.dataset.state = "error";
    post("durak:error", { reason: message, code });
  }

  /** durak:resize whenever the content's height changes (the loader sizes the iframe to it), from the
   * moment the example or the error is drawn: a height of the empty frame would resize the iframe once
   * more for nothing (a layout of the host page and one of this frame, each embed). */
  watchSize() {
    const page = document.querySelector(".embed-page");
    let last = 0;
    const report = () => {
      const height = Math.ceil(page.getBoundingClientRect().height);
      if (height && height !== last) {
        last = height;
        post("durak:resize", { height });
      }
    };
    new ResizeObserver(report).observe(page);
    report();
  }
}

/** Offline once visited: the site's service worker, as the table registers it (without its update
 * notice: a new release waits until the table itself is reloaded). Its first install downloads the
 * whole site, so it starts a while after this frame has loaded and when the browser is idle: the
 * other embeds of the host page load first. */
function registerOffline() {
  if (!("serviceWorker" in navigator) || !window.isSecureContext) return;
  const register = () => navigator.serviceWorker.register(SW_URL, { scope: SITE.href }).catch((error) => {
    console.warn("durak embed: no offline copy:", error);
  });
  const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 0));
  const later = () => setTimeout(() => idle(register, { timeout: OFFLINE_DELAY_MS }), OFFLINE_DELAY_MS);
  if (document.readyState === "complete") later();
  else addEventListener("load", later, { once: true });
}

/** The table itself as an embed (index.html?embed=1, which embed.html opens for a game; web/embed/embed_table.py):
 * durak:ready once it has dealt, its moves and its game's end, the host's durak:play and durak:reset.
 * A live game has no steps: durak:next, durak:prev and durak:goto are ignored. The iframe keeps the
 * height the loader gave it (the table fills its frame). */
class TableEmbed {
  start() {
    // A link of the table (the rules, a licence) opens beside the host page, not inside its frame.
    for (const link of document.querySelectorAll("a[href]")) {
      link.target = "_blank";
      link.rel = "noopener";
    }
    addEventListener("durak:table-event", (event) => {
      const message = JSON.parse(event.detail);
      post(message.type, message);
    });
    const ready = () => {
      post("durak:ready", { steps: 0, step: 0, title: document.title });
      listenToParent((command) => this.run(command));
    };
    if (document.body.dataset.state === "ready") return ready();
    const observer = new MutationObserver(() => {
      if (document.body.dataset.state !== "ready") return;
      observer.disconnect();
      ready();
    });
    observer.observe(document.body, { attributes: true, attributeFilter: ["data-state"] });
  }

  // The table's engine worker answers (web/table/table.js relays): a refused move comes back as durak:error.
  run(command) {
    const table = window.durakTable;
    if (!table) return;
    if (command.type === "durak:play") table.play(command.action);
    else if (command.type === "durak:reset") table.reset();
  }
}

if (document.getElementById("embed")) new Embed(readOptions(location.search)).start();
else if (document.body.dataset.embed === "1") new TableEmbed().start();
