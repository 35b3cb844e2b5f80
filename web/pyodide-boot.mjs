// PyScript's interpreter module (pyscript.toml: interpreter = "./web/pyodide-boot.mjs").
//
// It exports what PyScript expects of pyodide.mjs (loadPyodide, version) and boots the vendored
// Pyodide, from a memory snapshot when this browser made one for these exact files: the snapshot
// holds Python already started with the engine imported, which skips most of the boot. Without
// one (first visit, new release, no Cache Storage), it boots as usual, then makes the snapshot in
// a worker once the page is ready (web/snapshot-worker.mjs), for the next visit.
//
// body[data-snapshot] tells what happened: "used", "missing" (then "saved" or "failed" once the
// worker is done), "refused" (the snapshot did not load: deleted, booted without it) or
// "unsupported" (no Cache Storage or WebCrypto: not a secure context), "off" (the URL says
// snapshot=off: benchmarks/page.py measures the boot without it).

import { loadPyodide as loadVendored, version } from "./vendor/pyodide/pyodide.mjs";

export { version };

const INDEX_URL = new URL("./vendor/pyodide/", import.meta.url).href;
const MODULES_URL = new URL("./modules.zip", import.meta.url).href;
const WORKER_URL = new URL("./snapshot-worker.mjs", import.meta.url);
export const SNAPSHOT_CACHE = "durak-snapshot";

const mark = (state) => {
  if (document.body) document.body.dataset.snapshot = state;
};

// The cache key of the snapshot for this Pyodide and these Python modules (never fetched).
async function snapshotKey() {
  const response = await fetch(MODULES_URL);
  if (!response.ok) throw new Error(`${MODULES_URL}: HTTP ${response.status}`);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", await response.arrayBuffer()));
  const hex = [...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return new URL(`./snapshot-${version}-${hex}.bin`, import.meta.url).href;
}

async function cachedSnapshot(key) {
  const cache = await caches.open(SNAPSHOT_CACHE);
  const hit = await cache.match(key);
  return hit ? new Uint8Array(await hit.arrayBuffer()) : null;
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

function makeSnapshotLater(key) {
  whenReady(() => {
    // A second Pyodide boots in the worker: start once the page has settled.
    setTimeout(() => {
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

export async function loadPyodide(options = {}) {
  const config = { ...options, indexURL: INDEX_URL };
  if (new URLSearchParams(location.search).get("snapshot") === "off") {
    mark("off");
    return loadVendored(config);
  }
  let key = null;
  if ("caches" in globalThis && globalThis.crypto?.subtle) {
    try {
      key = await snapshotKey();
      const snapshot = await cachedSnapshot(key);
      if (snapshot) {
        const pyodide = await loadVendored({ ...config, _loadSnapshot: snapshot });
        pyodide.runPython("import random; random.seed()"); // not the worker's random state
        mark("used");
        return pyodide;
      }
    } catch (error) {
      console.warn("durak: memory snapshot not used:", error);
      if (key) await caches.delete(SNAPSHOT_CACHE).catch(() => {});
      mark("refused");
      return loadVendored(config);
    }
  }
  const pyodide = await loadVendored(config);
  mark(key ? "missing" : "unsupported");
  if (key) makeSnapshotLater(key);
  return pyodide;
}
