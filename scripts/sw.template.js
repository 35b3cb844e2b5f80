// The offline service worker. scripts/build_sw.py fills in VERSION and FILES (every file the game
// loads, found from index.html, each with a hash of its content) and writes the result to sw.js at
// the site root, so that its scope is the whole site. All paths are relative to that root: the
// site works from any sub-path.
//
// - install: stores every file of FILES in the cache "durak-v-<VERSION>". A file whose hash is the
//   same as in an older release's cache is copied from there; the others are taken from the HTTP
//   cache when it has them (`cache: "force-cache"`: the page registers the worker once it is ready,
//   so on a first visit every file it loaded is there, and nothing goes over the network twice;
//   the largest, which a small HTTP cache does not keep, the page put into the Cache Storage cache
//   "durak-handover" as they arrived), else fetched. Each is checked against its hash; a stale
//   copy is fetched again with `cache: "no-cache"`, and a file that still does not match (a
//   half-done deploy) fails the install, so the old release stays. The server may send any file compressed (.br, .gz beside
//   it, see scripts/compress.py): the cache holds what the browser decoded.
// - activate: deletes the caches of older releases, then controls the open pages.
// - fetch: same-origin GETs are answered from the cache (query strings ignored, a folder URL is
//   its index.html); anything else goes to the network. A file of ON_DEMAND ({path: hash}: the full
//   standard library, fetched only when a module left out of the cut one is imported, and the files
//   few visitors use, build_sw.py's DEFERRED) is cached when it is first fetched, and a new release
//   keeps the copy while its hash is the same. A navigation the network cannot answer gets the cached
//   index.html.
// - a new release waits until the page asks for it ({type: "skip-waiting"}, sent by web/offline/pwa.js
//   when the player clicks "reload"), so a game in progress is never swapped under the player.

/* global VERSION, FILES, ON_DEMAND */
const CACHE_PREFIX = "durak-v-";
const CACHE = CACHE_PREFIX + VERSION;
const ROOT = new URL("./", self.location.href);
const FILES_KEY = new URL("__files__.json", ROOT).href; // FILES as stored with a release
const ON_DEMAND_KEY = new URL("__on_demand__.json", ROOT).href; // ON_DEMAND, likewise
const INDEX = new URL("index.html", ROOT).href;

const urlOf = (path) => new URL(path, ROOT).href;
const ON_DEMAND_URLS = Object.keys(ON_DEMAND).map(urlOf);

async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

// {url: Response} of files of `files` ({path: hash}) that an older release cached with the same hash,
// listed there under `key`.
async function reusable(files = FILES, key = FILES_KEY) {
  const found = new Map();
  for (const name of await caches.keys()) {
    if (!name.startsWith(CACHE_PREFIX) || name === CACHE) continue;
    const cache = await caches.open(name);
    const listed = await cache.match(key);
    if (!listed) continue;
    const oldFiles = await listed.json();
    for (const [path, hash] of Object.entries(files)) {
      if (oldFiles[path] !== hash || found.has(urlOf(path))) continue;
      const response = await cache.match(urlOf(path));
      if (response) found.set(urlOf(path), response);
    }
  }
  return found;
}

// The URLs with a query string under which open pages loaded this file (a shared link:
// index.html?variant=...): the HTTP cache holds the page under that URL, not under the bare one.
async function openedAs(url) {
  const found = [];
  for (const client of await self.clients.matchAll({ type: "window", includeUncontrolled: true })) {
    const opened = new URL(client.url);
    opened.hash = "";
    if (opened.search && opened.origin + opened.pathname === url) found.push(opened.href);
  }
  return found;
}

// Large files the engine worker put aside for this install (web/worker/engine-boot.mjs: private windows keep them
// out of the HTTP cache).
const HANDOVER_CACHE = "durak-handover";

async function handedOver(url, hash) {
  const handed = await (await caches.open(HANDOVER_CACHE)).match(url);
  return handed && (await sha256(await handed.clone().arrayBuffer())).startsWith(hash) ? handed : null;
}

// The file of this release: handed over by the page, or from the HTTP cache if it holds that
// version, else from the network.
async function download(path, hash) {
  const url = urlOf(path);
  const handed = await handedOver(url, hash);
  if (handed) return handed;
  const attempts = [...(await openedAs(url)).map((u) => [u, "force-cache"]), [url, "force-cache"], [url, "no-cache"]];
  for (const [from, cache] of attempts) {
    const response = await fetch(from, { cache, credentials: "same-origin" });
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    const body = await response.clone().arrayBuffer();
    if ((await sha256(body)).startsWith(hash)) return response;
  }
  throw new Error(`${path}: not the file of release ${VERSION}`);
}

async function precache() {
  const cache = await caches.open(CACHE);
  const old = await reusable();
  await Promise.all(
    Object.entries(FILES).map(async ([path, hash]) => {
      const url = urlOf(path);
      await cache.put(url, old.get(url) || (await download(path, hash)));
    }),
  );
  // The files cached on first use that this release has unchanged stay cached: what worked offline still does.
  for (const [url, response] of await reusable(ON_DEMAND, ON_DEMAND_KEY)) await cache.put(url, response);
  const json = { headers: { "Content-Type": "application/json" } };
  await cache.put(FILES_KEY, new Response(JSON.stringify(FILES), json));
  await cache.put(ON_DEMAND_KEY, new Response(JSON.stringify(ON_DEMAND), json));
  await caches.delete(HANDOVER_CACHE);
}

self.addEventListener("install", (event) => {
  event.waitUntil(
    precache().catch(async (error) => {
      await caches.delete(CACHE);
      throw error;
    }),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(CACHE_PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await self.clients.claim();
    })(),
  );
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") self.skipWaiting();
  if (event.data && event.data.type === "version" && event.ports[0]) event.ports[0].postMessage(VERSION);
});

async function respond(request) {
  const url = new URL(request.url);
  url.search = "";
  url.hash = "";
  const key = url.href.endsWith("/") ? url.href + "index.html" : url.href;
  const cache = await caches.open(CACHE);
  const hit = await cache.match(key, { ignoreVary: true });
  if (hit) return hit;
  try {
    const response = await fetch(request);
    if (response.ok && ON_DEMAND_URLS.includes(key)) await cache.put(key, response.clone());
    return response;
  } catch (error) {
    if (request.mode === "navigate") {
      const page = await cache.match(INDEX);
      if (page) return page;
    }
    throw error;
  }
}

self.addEventListener("fetch", (event) => {
  const { request } = event;
  if (request.method !== "GET" || !request.url.startsWith(ROOT.href)) return;
  if (request.headers.has("range")) return;
  event.respondWith(respond(request));
});
