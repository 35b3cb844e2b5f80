// Offline support for the page: registers the service worker (../../sw.js, made by
// scripts/build_sw.py) once the game is ready, and offers a new release with a small
// "new version available — reload" notice, in the page's language (<html lang>) from the same
// catalogues as the rest of the page: web/shared/locale/strings.js (window.DURAK_I18N, made by
// scripts/build_catalogues.py), which index.html loads before this module.
//
// Loaded by index.html as <script type="module" src="./web/offline/pwa.js">. Does nothing where service
// workers are unavailable (old browsers, some private windows, plain http): the page works as
// before, just not offline. Registering after "ready" keeps the worker's precache from competing
// with the page's own downloads; those are then in the HTTP cache and the precache only revalidates.
//
// body[data-sw] tells tests where it stands: "unsupported", "registered", "update" (notice shown),
// "error".

const SW_URL = new URL("../../sw.js", import.meta.url);
const SCOPE = new URL("../..", import.meta.url); // the site root, where sw.js is
const STYLE = `
.update-notice { position: fixed; z-index: 1000; left: 50%; bottom: max(1rem, env(safe-area-inset-bottom));
  transform: translateX(-50%); display: flex; gap: .75rem; align-items: center; padding: .6rem .9rem;
  border-radius: .75rem; background: #fbf8f0; color: #1b1b1b; font: 15px/1.3 system-ui, sans-serif;
  box-shadow: 0 .3rem 1.2rem rgb(0 0 0 / .35); max-width: calc(100vw - 2rem); }
.update-notice button { font: inherit; border: 0; border-radius: .5rem; padding: .35rem .8rem; cursor: pointer; }
.update-notice [data-action=reload-update] { background: #0d4d32; color: #fff; }
.update-notice [data-action=dismiss-update] { background: transparent; color: inherit; text-decoration: underline; }
`;

const setState = (state) => {
  document.body.dataset.sw = state;
};

function offer(worker) {
  if (document.querySelector("[data-testid=update]")) return;
  const i18n = window.DURAK_I18N;
  const text = i18n.text[document.documentElement.lang] ?? i18n.text[i18n.default];
  const style = document.createElement("style");
  style.textContent = STYLE;
  const notice = document.createElement("div");
  notice.className = "update-notice";
  notice.dataset.testid = "update";
  notice.setAttribute("role", "status");
  const message = document.createElement("span");
  message.textContent = text.update_available;
  const reload = document.createElement("button");
  reload.type = "button";
  reload.dataset.action = "reload-update";
  reload.textContent = text.update_reload;
  const later = document.createElement("button");
  later.type = "button";
  later.dataset.action = "dismiss-update";
  later.textContent = text.update_later;
  reload.addEventListener("click", () => {
    reload.disabled = true;
    navigator.serviceWorker.addEventListener("controllerchange", () => location.reload());
    worker.postMessage({ type: "skip-waiting" });
  });
  notice.append(message, reload, later);
  document.head.append(style);
  const follow = keepAboveDialogs(notice);
  later.addEventListener("click", () => {
    follow.disconnect();
    notice.remove();
  });
  setState("update");
}

// A modal dialog covers the page and makes it inert, so while one is open the notice lives inside
// it (still fixed to the bottom of the screen) and goes back to the page when it closes. Returns
// the observer that follows the dialogs.
function keepAboveDialogs(notice) {
  const place = () => {
    const home = document.querySelector("dialog[open]") ?? document.body;
    if (notice.parentElement !== home) home.append(notice);
  };
  place();
  const observer = new MutationObserver(place);
  observer.observe(document.body, { subtree: true, attributes: true, attributeFilter: ["open"] });
  return observer;
}

// Offer `worker` once it is installed, if a page is controlled by an older release.
function watch(worker) {
  const check = () => {
    if (worker.state === "installed" && navigator.serviceWorker.controller) offer(worker);
  };
  worker.addEventListener("statechange", check);
  check();
}

async function register() {
  try {
    const registration = await navigator.serviceWorker.register(SW_URL, { scope: SCOPE.href, updateViaCache: "none" });
    setState("registered");
    if (registration.waiting) watch(registration.waiting);
    if (registration.installing) watch(registration.installing);
    registration.addEventListener("updatefound", () => watch(registration.installing));
    // A page left open for long still hears of new releases.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") registration.update().catch(() => {});
    });
  } catch (error) {
    setState("error");
    console.warn("durak: no offline support:", error);
  }
}

function whenSettled(callback) {
  const settled = () => document.body.dataset.state !== "loading";
  if (settled()) return callback();
  const observer = new MutationObserver(() => {
    if (settled()) {
      observer.disconnect();
      callback();
    }
  });
  observer.observe(document.body, { attributes: true, attributeFilter: ["data-state"] });
}

if ("serviceWorker" in navigator) {
  whenSettled(register);
} else {
  setState("unsupported");
}
