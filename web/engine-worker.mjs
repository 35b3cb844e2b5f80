// The engine worker (issue #14, docs/worker-plan.md): one module worker per page runs the Python
// side, so the page's main thread never runs Pyodide. Started by a page as
//   new Worker(new URL("./engine-worker.mjs", import.meta.url), {type: "module"})
// it talks by postMessage only (no SharedArrayBuffer, no special headers). Every message has `t`.
//
// Page -> worker:
//   boot    {search, langs, store, embedded, viewport, controlled}   once: boot Pyodide (web/engine-boot.mjs),
//           then web/bridge.py's table, which may resume the save or deal the link's game
//   anything else goes to web/bridge.py as it comes (kept until ready): gesture, start, dialog, lang,
//   speed, engine {id, method, args} (the calls of web/engine_calls.py), and play with friends' address,
//   net, link, called, friends (web/bridge_net.py)
// Worker -> page, from here:
//   progress {step, percent}       boot stages: "download", "start", "import", "snapshot"
//   ready    {ms, snapshot, boot}  after the table's boot (a resumed or linked game's first frame comes
//                                  before it); ms: from the boot message to ready; snapshot: a state of
//                                  web/engine-boot.mjs ("used", "missing" when one is being saved,
//                                  "failed", "refused", "unsupported", "off"); boot: when each stage
//                                  began, {received, download, start, import, snapshot, ready} (import
//                                  and snapshot only when done), in ms since the epoch
//                                  (performance.timeOrigin + now: the page subtracts its own origin)
//   snapshot {state}               after ready, when one was made: "saved" or "failed"
//   error    {id: null, text}      the boot failed
//   refused  {id, code, params, text}   a malformed message, not obeyed (id: an engine call's, or
//                                  null); codes: bad_message, bad_boot, booted_twice, not_booted
// and from web/bridge.py: frame, store, dialog, notice, refused, the calls' answer and error, and play
// with friends' net, call, panel.
//
// The boot message's shape is checked here, exactly (Python is not there yet): its keys, and
// search a string, langs a list of strings, store an object of strings (the page's durak.* entries),
// embedded a boolean, viewport {width, height} numbers, controlled a boolean: whether a service worker
// controls the page (a dedicated worker has no navigator.serviceWorker to ask; without one, the boot
// hands its largest files over to the service worker to come, web/engine-boot.mjs).

import { bootEngine } from "./engine-boot.mjs";

const now = () => performance.timeOrigin + performance.now();
let booted = null; // Promise of web/bridge.py's receive(text), once a boot message came

const isObject = (value) => typeof value === "object" && value !== null && !Array.isArray(value);
const hasExactly = (value, keys) =>
  Object.keys(value).length === keys.length && keys.every((key) => Object.hasOwn(value, key));

function refuse(code, text, id = null) {
  self.postMessage({ t: "refused", id, code, params: {}, text });
}

// What is wrong with a boot message, or "".
function bootProblem(message) {
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

async function boot(message) {
  const times = { received: now() };
  const progress = (step, percent) => {
    times[step] = now();
    self.postMessage({ t: "progress", step, percent });
  };
  const { pyodide, state, save } = await bootEngine({
    search: message.search,
    controlled: message.controlled,
    progress,
  });
  // web/bridge.py: the table's controller and the page protocol; messages cross as JSON text
  const receive = pyodide.pyimport("web.bridge").start((text) => self.postMessage(JSON.parse(text)));
  receive(JSON.stringify(message)); // resumes the save or deals the link's game: its frame comes before ready
  times.ready = now();
  self.postMessage({ t: "ready", ms: Math.round(times.ready - times.received), snapshot: state, boot: times });
  if (save) save().then((saved) => self.postMessage({ t: "snapshot", state: saved }));
  return receive;
}

self.onmessage = ({ data }) => {
  if (!isObject(data) || typeof data.t !== "string") return refuse("bad_message", "a message is an object with a string t");
  if (data.t === "boot") {
    if (booted) return refuse("booted_twice", "the worker boots once");
    const problem = bootProblem(data);
    if (problem) return refuse("bad_boot", problem);
    booted = boot(data);
    booted.catch((error) => self.postMessage({ t: "error", id: null, text: String((error && error.stack) || error) }));
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
    (error) => self.postMessage({ t: "error", id, text: `the engine did not boot: ${error}` }),
  );
};
