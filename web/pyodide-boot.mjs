// PyScript's interpreter module (pyscript.toml: interpreter = "./web/pyodide-boot.mjs").
//
// It exports what PyScript expects of pyodide.mjs (loadPyodide, version) and boots the vendored
// Pyodide, from a memory snapshot when this browser made one for these exact files: the snapshot
// holds Python already started with the engine imported, which skips most of the boot. Without
// one (first visit, new release, no Cache Storage), it boots as usual, then makes the snapshot in
// a worker once the page is ready (web/snapshot-worker.mjs), for the next visit.
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
// body[data-snapshot] tells what happened: "used", "missing" (then "saved" or "failed" once the
// worker is done), "refused" (the snapshot did not load: deleted, booted without it) or
// "unsupported" (no Cache Storage or WebCrypto: not a secure context), "off" (the URL says
// snapshot=off: benchmarks/page.py measures the boot without it).

import { installStdlibFallback } from "./stdlib-fallback.mjs";
import { loadPyodide as loadVendored, version } from "./vendor/pyodide/pyodide.mjs";

export { version };

const INDEX_URL = new URL("./vendor/pyodide/", import.meta.url).href;
const MODULES_URL = new URL("./modules.zip", import.meta.url).href;
const STDLIB_URL = new URL("./vendor/pyodide/python_stdlib.zip", import.meta.url).href;
const WORKER_URL = new URL("./snapshot-worker.mjs", import.meta.url);
export const SNAPSHOT_CACHE = "durak-snapshot";

const mark = (state) => {
  if (document.body) document.body.dataset.snapshot = state;
};

// ------------------------------------------------------------------ the memory snapshot

async function digestOf(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await response.arrayBuffer()));
  return [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// The cache key of the snapshot for this Pyodide, these Python modules and this standard library
// (never fetched). init: {cache: "force-cache"} after a first load, whose files the HTTP cache has.
async function snapshotKey(init = {}) {
  const [modules, stdlib] = await Promise.all([digestOf(MODULES_URL, init), digestOf(STDLIB_URL, init)]);
  return new URL(`./snapshot-${version}-${modules}-${stdlib}.bin`, import.meta.url).href;
}

async function cachedSnapshot() {
  const cache = await caches.open(SNAPSHOT_CACHE);
  if ((await cache.keys()).length === 0) return { key: null, snapshot: null }; // a first visit
  const key = await snapshotKey();
  const hit = await cache.match(key);
  return { key, snapshot: hit ? new Uint8Array(await hit.arrayBuffer()) : null };
}

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
      worker.postMessage({ key, indexURL: INDEX_URL, modulesURL: MODULES_URL, cacheName: SNAPSHOT_CACHE });
    }, 1000);
  });
}

// ------------------------------------------------------------------ handing files to the service worker

// On a first visit the service worker, registered once the page is ready, precaches the files the
// page has just loaded, from the HTTP cache. Browsers keep large responses out of a small (private
// window) HTTP cache, so the largest files the boot fetches are also put into this Cache Storage
// cache as they arrive; the worker takes them from there (checking their hash) and deletes it.
export const HANDOVER_CACHE = "durak-handover";
const HANDED_OVER = new Set([new URL("pyodide.asm.wasm", INDEX_URL).href, STDLIB_URL]);

async function whileHandingOver(boot) {
  if (!("caches" in globalThis) || navigator.serviceWorker?.controller) return boot();
  const original = globalThis.fetch;
  const cache = caches.open(HANDOVER_CACHE);
  globalThis.fetch = async function (input, init) {
    const response = await original.call(this, input, init);
    const url = new URL(input instanceof Request ? input.url : String(input), location.href).href;
    if (response.ok && HANDED_OVER.has(url)) {
      const copy = response.clone();
      cache.then((opened) => opened.put(url, copy)).catch(() => {});
    }
    return response;
  };
  try {
    return await boot();
  } finally {
    globalThis.fetch = original;
  }
}

// ------------------------------------------------------------------ the boot

async function boot(config) {
  if (new URLSearchParams(location.search).get("snapshot") === "off") {
    mark("off");
    return loadVendored(config);
  }
  if (!("caches" in globalThis && globalThis.crypto?.subtle)) {
    mark("unsupported");
    return loadVendored(config);
  }
  let key = null;
  try {
    const found = await cachedSnapshot();
    key = found.key;
    if (found.snapshot) {
      const pyodide = await loadVendored({ ...config, _loadSnapshot: found.snapshot });
      pyodide.runPython("import random; random.seed()"); // not the worker's random state
      mark("used");
      return pyodide;
    }
  } catch (error) {
    console.warn("durak: memory snapshot not used:", error);
    await caches.delete(SNAPSHOT_CACHE).catch(() => {});
    mark("refused");
    return loadVendored(config);
  }
  const pyodide = await loadVendored(config);
  mark("missing");
  makeSnapshotLater(key);
  return pyodide;
}

let started = null; // the boot startBoot() began, before PyScript asked for it

async function bootWithFallback(config) {
  const pyodide = await whileHandingOver(() => boot(config));
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
