// The engine's boot and its memory snapshot, with no page in sight (no `document`): the engine
// worker's (web/worker/engine-worker.mjs), which every page that runs Python starts
// (the table, the rules pages' "try it", embed.html), so all of them share one snapshot.
//
// The snapshot holds Python already started with every module of web/modules.zip imported (the table's;
// web/features.zip's are imported after it, on first use: loadFeatures). Its
// cache key is a hash of web/modules.zip and of the standard library: a new release never restores
// an old interpreter. On a first visit the key is not computed before the boot (that would fetch
// both files twice): an empty cache says "no snapshot" at once.
//
// Snapshot states, as body[data-snapshot] and the worker's `ready` name them: "used" (restored),
// "missing" (none yet), "saved" / "failed" (made and stored, or not), "refused" (one was there but
// did not load: deleted, booted without it), "unsupported" (no Cache Storage or WebCrypto: not a
// secure context, or storage refused, as to a frame on another site with third-party storage
// blocked), "off" (the URL says snapshot=off: benchmarks/page.py measures the boot without it).

import { installStdlibFallback } from "./stdlib-fallback.mjs";
import { loadPyodide, version } from "../vendor/pyodide/pyodide.mjs";

export { installStdlibFallback, loadPyodide, version };

export const INDEX_URL = new URL("../vendor/pyodide/", import.meta.url).href;
export const MODULES_URL = new URL("../modules.zip", import.meta.url).href;
export const FEATURES_URL = new URL("../features.zip", import.meta.url).href;
export const STDLIB_URL = new URL("../vendor/pyodide/python_stdlib.zip", import.meta.url).href;
export const SNAPSHOT_CACHE = "durak-snapshot";
// Where web/modules.zip is unpacked: the interpreter's working folder, so its packages import as they are.
const MODULES_DIR = "/home/pyodide";

// ------------------------------------------------------------------ the key

async function digest(bytes) {
  const hash = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
  return [...hash.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

async function bytesOf(url, init) {
  const response = await fetch(url, init);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

// The cache key of the snapshot for this Pyodide, these Python modules and this standard library.
// init: {cache: "force-cache"} after a first load, whose files the HTTP cache has; `modules`: the
// bytes of web/modules.zip when the caller has them already.
export async function snapshotKey(init = {}, modules = null) {
  const [ofModules, ofStdlib] = await Promise.all([
    digest(modules ?? (await bytesOf(MODULES_URL, init))),
    bytesOf(STDLIB_URL, init).then(digest),
  ]);
  return new URL(`./snapshot-${version}-${ofModules}-${ofStdlib}.bin`, import.meta.url).href;
}

// Why no snapshot can be used here at all, or null: "off" or "unsupported".
export function snapshotsUnavailable(search) {
  if (new URLSearchParams(search).get("snapshot") === "off") return "off";
  if (!("caches" in globalThis && globalThis.crypto?.subtle)) return "unsupported";
  return null;
}

// The snapshots' cache, or null when this browser refuses this page its storage.
async function openSnapshots() {
  try {
    return await caches.open(SNAPSHOT_CACHE);
  } catch {
    return null;
  }
}

// {key, snapshot}: both null on a first visit (an empty cache), snapshot null when the cache holds
// only another release's.
async function cachedSnapshot(cache) {
  if ((await cache.keys()).length === 0) return { key: null, snapshot: null };
  const key = await snapshotKey();
  const hit = await cache.match(key);
  return { key, snapshot: hit ? new Uint8Array(await hit.arrayBuffer()) : null };
}

// Boots Pyodide from this browser's snapshot when it has one: {pyodide, state, key}, with state
// "used", "off", "unsupported", "refused" or "missing" (then `pyodide` is null: the caller boots
// its own way, with key the snapshot's if already known).
export async function restore(config, search) {
  const unavailable = snapshotsUnavailable(search);
  if (unavailable) return { pyodide: null, state: unavailable, key: null };
  const cache = await openSnapshots();
  if (!cache) return { pyodide: null, state: "unsupported", key: null };
  try {
    const { key, snapshot } = await cachedSnapshot(cache);
    if (!snapshot) return { pyodide: null, state: "missing", key };
    const pyodide = await loadPyodide({ ...config, _loadSnapshot: snapshot });
    pyodide.runPython("import random; random.seed()"); // not the snapshot maker's random state
    return { pyodide, state: "used", key };
  } catch (error) {
    console.warn("durak: memory snapshot not used:", error);
    await caches.delete(SNAPSHOT_CACHE).catch(() => {});
    return { pyodide: null, state: "refused", key: null };
  }
}

// Replaces any older snapshot with this one.
export async function storeSnapshot(key, snapshot) {
  const cache = await caches.open(SNAPSHOT_CACHE);
  for (const old of await cache.keys()) await cache.delete(old);
  await cache.put(key, new Response(snapshot, { headers: { "Content-Type": "application/octet-stream" } }));
}

// ------------------------------------------------------------------ the modules

export const fetchModules = () => bytesOf(MODULES_URL);

// Puts web/modules.zip's files where PyScript would (the modules, and the catalogues web/shared/i18n.py reads).
export function unpackModules(pyodide, zip) {
  pyodide.unpackArchive(zip, "zip", { extractDir: MODULES_DIR });
}

const IMPORT_ALL = (path) => `
import importlib, zipfile
with zipfile.ZipFile("${path}") as archive:
    # modules come as sourceless .pyc (as sources only when the build had no Node.js)
    names = sorted({n.rsplit(".", 1)[0].replace("/", ".").removesuffix(".__init__")
                    for n in archive.namelist() if n.endswith((".py", ".pyc"))})
failed = [] if names else ["${path} holds no module to import"]
for name in names:
    try:
        importlib.import_module(name)
    except Exception as error:
        failed.append(f"{name}: {error!r}")
import os
os.remove("${path}")
del importlib, zipfile, os, names
globals().pop("name", None)
failed
`;

// Imports every module of web/modules.zip, or of the archive named (pure Python: no JavaScript object
// is touched, so a memory snapshot may follow). Returns the failures, "module: error", empty when all went well.
export function importModules(pyodide, zip, name = "modules.zip") {
  const path = `/tmp/${name}`;
  pyodide.FS.writeFile(path, zip);
  const failed = pyodide.runPython(IMPORT_ALL(path));
  try {
    return failed.toJs();
  } finally {
    failed.destroy();
  }
}

// Fetches web/features.zip (play with friends, the review and history, the examples and try-it, the embed
// API: scripts/build_zip.py's FEATURES), unpacks it beside web/modules.zip's and imports its modules, after
// the boot: the memory snapshot never holds them. Throws when an import fails.
export async function loadFeatures(pyodide) {
  const zip = await bytesOf(FEATURES_URL);
  unpackModules(pyodide, zip);
  const failed = importModules(pyodide, zip, "features.zip");
  if (failed.length) throw new Error(`imports failed: ${failed.join("; ")}`);
}

// ------------------------------------------------------------------ handing files to the service worker

// On a first visit the service worker, registered once the page is ready, precaches the files the
// page has just loaded, from the HTTP cache. Browsers keep large responses out of a small (private
// window) HTTP cache, so the largest files the boot fetches are also put into this Cache Storage
// cache as they arrive; the service worker takes them from there (checking their hash) and deletes it.
export const HANDOVER_CACHE = "durak-handover";
const HANDED_OVER = new Set([new URL("pyodide.asm.wasm", INDEX_URL).href, STDLIB_URL]);

// Runs boot() with fetch() handing those files over, unless a service worker serves them already.
export async function whileHandingOver(boot, controlled) {
  if (!("caches" in globalThis) || controlled) return boot();
  const original = globalThis.fetch;
  const cache = caches.open(HANDOVER_CACHE);
  cache.catch(() => {}); // storage refused (a frame on another site, a private window): nothing handed over
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

// ------------------------------------------------------------------ the engine, in a worker

// Boots the engine in a worker: restored from the snapshot, else booted with `_makeSnapshot`, every
// module imported and the snapshot made (before any JavaScript object enters Python). Calls
// progress(step, percent) at each stage ("download", "start", "import", "snapshot"). Resolves to
// {pyodide, state, save}: save() stores the snapshot made now (call it after answering ready:
// it is off the critical path) and resolves to "saved" or "failed"; null when none was made.
export async function bootEngine({ search, controlled, progress }) {
  progress("download", 10);
  const config = { indexURL: INDEX_URL };
  const found = await whileHandingOver(() => restore(config, search), controlled);
  let { pyodide, state } = found;
  let save = null;
  if (state === "used") {
    // Every module is imported and every catalogue read (web/shared/i18n.py loads them all at import): the
    // snapshot needs no file of web/modules.zip.
    progress("start", 60);
  } else {
    const making = state === "missing";
    const modules = fetchModules();
    modules.catch(() => {}); // awaited below: not an unhandled rejection meanwhile
    pyodide = await whileHandingOver(() => loadPyodide({ ...config, _makeSnapshot: making }), controlled);
    progress("start", 60);
    const zip = await modules;
    unpackModules(pyodide, zip);
    progress("import", 75);
    // An import the cut standard library cannot serve needs the fallback finder, a JavaScript module:
    // that one is imported after the snapshot, which then holds the rest.
    let failed = importModules(pyodide, zip);
    if (making && failed.length === 0) {
      progress("snapshot", 90);
      const snapshot = pyodide.makeMemorySnapshot();
      const key = found.key;
      save = async () => {
        try {
          await storeSnapshot(key ?? (await snapshotKey({ cache: "force-cache" }, zip)), snapshot);
          return "saved";
        } catch (error) {
          console.warn("durak: no memory snapshot:", error);
          return "failed";
        }
      };
    } else if (making) {
      console.warn("durak: no memory snapshot: imports failed:", failed.join("; "));
      state = "failed";
    }
    if (failed.length) {
      installStdlibFallback(pyodide);
      failed = importModules(pyodide, zip);
      if (failed.length) throw new Error(`imports failed: ${failed.join("; ")}`);
    }
  }
  installStdlibFallback(pyodide);
  return { pyodide, state, save };
}
