// The engine worker's protocol (its messages: web/worker/engine-worker.mjs's header), apart from how the messages
// travel: a dedicated worker (web/worker/engine-worker.mjs) and the embeds' shared one
// (web/worker/engine-shared-worker.mjs) both serve it. engineHost(post) answers through `post` and returns the
// function that takes each message the page sent.
//
// Play with friends, the review and history, the examples' try-it and the embed API come in web/features.zip,
// which the boot leaves out: the first message that needs them (needsFeatures) waits, and those after it,
// while it is fetched, unpacked and imported (loadFeatures in web/worker/engine-boot.mjs); a boot that needs them
// at once (an embedded table, a ?record= link to review) has them before ready; and web/worker/bridge.py asks
// for them with a `features` message (a game has ended: it joins the history), answered in kind once loaded.

import { bootEngine, loadFeatures } from "./engine-boot.mjs";

const now = () => performance.timeOrigin + performance.now();

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const hasExactly = (value, keys) =>
  Object.keys(value).length === keys.length && keys.every((key) => Object.hasOwn(value, key));

export function refusal(post, code, text, id = null) {
  post({ t: "refused", id, code, params: {}, text });
}

// What is wrong with a boot message, or "".
export function bootProblem(message) {
  if (!hasExactly(message, ["t", "search", "langs", "store", "embedded", "viewport", "controlled"])) {
    return "a boot message is exactly {t, search, langs, store, embedded, viewport, controlled}";
  }
  const { search, langs, store, embedded, viewport, controlled } = message;
  if (typeof search !== "string") return "search is the page's location.search, a string";
  if (!Array.isArray(langs) || !langs.every((lang) => typeof lang === "string")) return "langs is a list of strings";
  if (!isObject(store) || !Object.values(store).every((value) => typeof value === "string")) {
    return "store is an object of strings (the page's durak.* localStorage entries)";
  }
  if (typeof embedded !== "boolean") return "embedded is a boolean";
  if (typeof controlled !== "boolean") return "controlled is a boolean";
  const sized = isObject(viewport) && hasExactly(viewport, ["width", "height"]);
  if (!sized || !Number.isFinite(viewport.width) || !Number.isFinite(viewport.height)) {
    return "viewport is {width, height}, two numbers";
  }
  return "";
}

// Page messages answered by web/features.zip's modules (web/worker/bridge.py makes their objects on the first).
const FEATURE_TYPES = new Set(["engine", "review", "embed", "net", "link", "called", "friends"]);
const invites = (href) => /#.*\b(join|reply)=/.test(href); // a friend's invite, or the answer to one

// Whether the page's message (or its boot) needs web/features.zip loaded before web/worker/bridge.py takes it.
export function needsFeatures(message) {
  if (message.t === "boot") {
    // an embedded table, a record to review, a saved online series (a seat of kind "friend") to resume
    const save = message.store["durak.save"] ?? "";
    return message.embedded || new URLSearchParams(message.search).has("record") || save.includes('"friend"');
  }
  if (message.t === "address") return typeof message.href === "string" && invites(message.href);
  if (message.t === "start") return Array.isArray(message.settings?.seats) && message.settings.seats.includes("friend");
  // the dialog's empty STUN/TURN field, sent whenever it redraws: web/worker/bridge.py's NO_ICE
  if (message.t === "friends" && message.action === "ice" && message.seat === -1 && message.text === "") return false;
  return FEATURE_TYPES.has(message.t);
}

async function boot(post, message, features) {
  const times = { received: now() };
  const progress = (step, percent) => {
    times[step] = now();
    post({ t: "progress", step, percent });
  };
  const { pyodide, state, save } = await bootEngine({
    search: message.search,
    controlled: message.controlled,
    progress,
  });
  features.pyodide = pyodide;
  if (needsFeatures(message)) await features.load();
  // web/worker/bridge.py: the table's controller and the page protocol; messages cross as JSON text
  const receive = pyodide.pyimport("web.worker.bridge").start((text) => {
    const sent = JSON.parse(text);
    if (sent.t !== "features") return post(sent);
    features.load().then(
      () => receive(text), // the bridge makes the features' objects
      (error) => post({ t: "error", id: null, text: `the features did not load: ${error}` }),
    );
  });
  receive(JSON.stringify(message)); // resumes the save or deals the link's game: its frame comes before ready
  times.ready = now();
  post({ t: "ready", ms: Math.round(times.ready - times.received), snapshot: state, boot: times });
  if (save) save().then((saved) => post({ t: "snapshot", state: saved }));
  return receive;
}

// web/features.zip, loaded once, on demand (load() resolves when its modules are imported).
function featureLoader() {
  let loading = null;
  const features = {
    pyodide: null,
    load: () => (loading ??= loadFeatures(features.pyodide)),
  };
  return features;
}

/** The protocol's receiving end: `post(message)` sends to the page; the result takes each message from it. */
export function engineHost(post) {
  let booted = null; // Promise of web/worker/bridge.py's receive(text), once a boot message came
  let passed = Promise.resolve(); // the page's messages reach the bridge in order, one held for the features
  const features = featureLoader();
  const refuse = (...args) => refusal(post, ...args);
  return (data) => {
    if (!isObject(data) || typeof data.t !== "string") return refuse("bad_message", "a message is an object with a string t");
    if (data.t === "boot") {
      if (booted) return refuse("booted_twice", "the worker boots once");
      const problem = bootProblem(data);
      if (problem) return refuse("bad_boot", problem);
      booted = boot(post, data, features);
      booted.catch((error) => post({ t: "error", id: null, text: String((error && error.stack) || error) }));
      return;
    }
    const id = data.t === "engine" && Number.isInteger(data.id) ? data.id : null;
    if (!booted) return refuse("not_booted", "send boot first", id);
    let text;
    try {
      text = JSON.stringify(data);
    } catch (error) {
      return refuse("bad_message", `not JSON-safe: ${error}`, id);
    }
    passed = passed.then(async () => {
      let receive;
      try {
        receive = await booted;
      } catch (error) {
        return post({ t: "error", id, text: `the engine did not boot: ${error}` });
      }
      try {
        if (data.t === "features" || needsFeatures(data)) await features.load();
      } catch (error) {
        return post({ t: "error", id, text: `the features did not load: ${error}` });
      }
      receive(text);
    });
  };
}
