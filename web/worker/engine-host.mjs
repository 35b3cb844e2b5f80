// The engine worker's protocol (its messages: web/worker/engine-worker.mjs's header), apart from how the messages
// travel: a dedicated worker (web/worker/engine-worker.mjs) and the embeds' shared one
// (web/worker/engine-shared-worker.mjs) both serve it. engineHost(post) answers through `post` and returns the
// function that takes each message the page sent.

import { bootEngine } from "./engine-boot.mjs";

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

async function boot(post, message) {
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
  // web/worker/bridge.py: the table's controller and the page protocol; messages cross as JSON text
  const receive = pyodide.pyimport("web.worker.bridge").start((text) => post(JSON.parse(text)));
  receive(JSON.stringify(message)); // resumes the save or deals the link's game: its frame comes before ready
  times.ready = now();
  post({ t: "ready", ms: Math.round(times.ready - times.received), snapshot: state, boot: times });
  if (save) save().then((saved) => post({ t: "snapshot", state: saved }));
  return receive;
}

/** The protocol's receiving end: `post(message)` sends to the page; the result takes each message from it. */
export function engineHost(post) {
  let booted = null; // Promise of web/worker/bridge.py's receive(text), once a boot message came
  const refuse = (...args) => refusal(post, ...args);
  return (data) => {
    if (!isObject(data) || typeof data.t !== "string") return refuse("bad_message", "a message is an object with a string t");
    if (data.t === "boot") {
      if (booted) return refuse("booted_twice", "the worker boots once");
      const problem = bootProblem(data);
      if (problem) return refuse("bad_boot", problem);
      booted = boot(post, data);
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
    booted.then(
      (receive) => receive(text),
      (error) => post({ t: "error", id, text: `the engine did not boot: ${error}` }),
    );
  };
}
