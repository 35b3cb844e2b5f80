// PyScript's interpreter module (pyscript.toml: interpreter = "./web/pyodide-boot.mjs").
//
// It exports what PyScript expects of pyodide.mjs (loadPyodide, version) and boots the vendored
// Pyodide, from a memory snapshot when this browser made one for these exact files (web/engine-boot.mjs
// finds, makes and stores it, for the engine worker too). Without one (first visit, new release, no
// Cache Storage), it boots as usual, then makes the snapshot in a worker once the page is ready
// (web/snapshot-worker.mjs), for the next visit.
//
// A first visit fetches nothing twice: the snapshot's key (a hash of web/modules.zip and of the
// standard library) is computed only when a snapshot exists (later visits, from the service
// worker's cache), or after the page is ready, from the HTTP cache.
//
// The standard library is the site's cut one (scripts/build_stdlib.py). If an import asks for a
// module it left out, the finder of web/stdlib-fallback.mjs mounts the archive that has it (for
// Pyodide's full one, with a console warning "durak: stdlib fallback for <module>").
//
// startBoot() (called from index.html's <head>) begins the boot as soon as the first frame is
// painted, rather than when PyScript asks for the interpreter after loading its own modules.
//
// body[data-snapshot] tells what happened (the states of web/engine-boot.mjs): "used", "missing"
// (then "saved" or "failed" once the worker is done), "refused", "unsupported" or "off".

import {
  HANDOVER_CACHE,
  INDEX_URL,
  SNAPSHOT_CACHE,
  installStdlibFallback,
  loadPyodide as loadVendored,
  restore,
  snapshotKey,
  version,
  whileHandingOver,
} from "./engine-boot.mjs";

export { HANDOVER_CACHE, SNAPSHOT_CACHE, version };

const WORKER_URL = new URL("./snapshot-worker.mjs", import.meta.url);

const mark = (state) => {
  if (document.body) document.body.dataset.snapshot = state;
};

// ------------------------------------------------------------------ the memory snapshot

function whenReady(callback) {
  const check = () => {
    const state = document.body.dataset.state;
    if (state === "ready") callback();
    return state !== "loading";
  };
  if (check()) return;
  const observer = new MutationObserver(() => check() && observer.disconnect());
  observer.observe(document.body, { attributes: true, attributeFilter: ["data-state"] });
}

// Resolves once the service worker controls the page (or after `ms` without one): the snapshot
// worker's files then come from its cache instead of being fetched again.
function controlled(ms) {
  const container = navigator.serviceWorker;
  if (!container || container.controller) return Promise.resolve();
  return new Promise((resolve) => {
    container.addEventListener("controllerchange", resolve, { once: true });
    setTimeout(resolve, ms);
  });
}

function makeSnapshotLater(knownKey) {
  whenReady(() => {
    // A second Pyodide boots in the worker: start once the page has settled.
    setTimeout(async () => {
      let key = knownKey;
      await controlled(30000);
      try {
        key = key || (await snapshotKey({ cache: "force-cache" }));
      } catch (error) {
        mark("failed");
        console.warn("durak: no memory snapshot:", error);
        return;
      }
      const worker = new Worker(WORKER_URL, { type: "module" });
      worker.onmessage = ({ data }) => {
        mark(data.ok ? "saved" : "failed");
        if (!data.ok) console.warn("durak: no memory snapshot:", data.error);
        worker.terminate();
      };
      worker.onerror = (event) => {
        mark("failed");
        console.warn("durak: snapshot worker failed:", event.message);
        worker.terminate();
      };
      worker.postMessage({ key });
    }, 1000);
  });
}

// ------------------------------------------------------------------ the boot

async function boot(config) {
  const found = await restore(config, location.search);
  mark(found.state);
  if (found.pyodide) return found.pyodide;
  const pyodide = await loadVendored(config);
  if (found.state === "missing") makeSnapshotLater(found.key);
  return pyodide;
}

let started = null; // the boot startBoot() began, before PyScript asked for it

async function bootWithFallback(config) {
  const pyodide = await whileHandingOver(() => boot(config), navigator.serviceWorker?.controller);
  installStdlibFallback(pyodide);
  return pyodide;
}

// Starts Pyodide's boot now, once the first frame is painted, instead of when PyScript gets round
// to it (it loads its core, its config and its plugins first: about 0.3 s on a fast machine, seconds
// on a phone). index.html calls it from <head>; loadPyodide() then takes over the boot under way.
export function startBoot() {
  if (started) return started;
  let begin;
  started = new Promise((resolve) => {
    begin = resolve;
  }).then(() => bootWithFallback({ indexURL: INDEX_URL }));
  if (document.visibilityState === "visible") requestAnimationFrame(() => setTimeout(begin, 0));
  else begin();
  started.begin = begin;
  return started;
}

export async function loadPyodide(options = {}) {
  const { stdout, stderr, indexURL, ...rest } = options;
  if (!started || Object.keys(rest).length) return bootWithFallback({ ...options, indexURL: INDEX_URL });
  started.begin(); // PyScript came first: no need to wait for the frame
  const pyodide = await started;
  if (stdout) pyodide.setStdout({ batched: stdout });
  if (stderr) pyodide.setStderr({ batched: stderr });
  return pyodide;
}
