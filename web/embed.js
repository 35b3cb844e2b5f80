// The one-line loader for other sites: put Durak examples, records, positions or games on any page.
//
//   <script src="https://example.org/durak/web/embed.js" defer></script>
//   <div data-durak-example="podkidnoy-limit-take" data-lang="fr"></div>
//   <div data-durak-record="…url-safe record…"></div>
//   <div data-durak-position="…url-safe position…"></div>
//   <div data-durak-game="variant=perevodnoy&players=3&level=easy"></div>
//
// Each such div gets one iframe of ../embed.html (found from this script's own URL, so the site may
// live in a sub-path or on another origin), lazy-loaded, with a title, full width, and a height that
// follows its content (the frame posts {type: "durak:resize", height}). The embed in view loads first,
// the others once it has drawn (see startNext). Options, as data-attributes of the div: data-lang,
// data-theme (light|dark), data-step, data-controls="0", data-try="0", data-autoplay (ms),
// data-height (px before the frame reports its own), data-title.
//
// The host page is left alone: no global, no style sheet, nothing outside the divs it was given; a
// div is filled once (divs added later are found too). docs/embed.md has the message API.
(function () {
  "use strict";

  // This script's own URL (also when it was loaded without defer, or by another loader).
  var script = document.currentScript || document.querySelector('script[src$="/web/embed.js"]');
  if (!script || !script.src) return;
  var EMBED = new URL("../embed.html", script.src);
  var KINDS = [
    ["durakExample", "example"],
    ["durakRecord", "record"],
    ["durakPosition", "position"],
    ["durakGame", "game"],
  ];
  var OPTIONS = [
    ["lang", "lang"],
    ["theme", "theme"],
    ["step", "step"],
    ["controls", "controls"],
    ["try", "try"],
    ["autoplay", "autoplay"],
  ];
  var SELECTOR = "div[data-durak-example],div[data-durak-record],div[data-durak-position],div[data-durak-game]";
  var DEFAULT_HEIGHT = { example: 440, record: 440, position: 440, game: 620 };
  var TITLES = {
    en: { example: "Durak: a worked example", record: "Durak: a game record", position: "Durak: a position",
          game: "Durak: a game to play" },
    fr: { example: "Durak\u00a0: un exemple commenté", record: "Durak\u00a0: une partie", position: "Durak\u00a0: une position",
          game: "Durak\u00a0: une partie à jouer" },
    ru: { example: "Дурак: разбор примера", record: "Дурак: запись партии", position: "Дурак: позиция",
          game: "Дурак: сыграть партию" },
  };
  var FIRST_MS = 150; // the longest the other frames wait for the first one to draw
  var frames = []; // [{div, frame, url}]: the divs this loader filled and their iframes
  var waiting = []; // those whose frame has no src yet
  var leader = null; // the frame loading first, then false once it has drawn (or FIRST_MS passed)
  var leaderTimer = null;

  function kindOf(div) {
    for (var i = 0; i < KINDS.length; i++) {
      var value = div.dataset[KINDS[i][0]];
      if (value !== undefined) return { kind: KINDS[i][1], value: value };
    }
    return null;
  }

  function frameUrl(found, data) {
    var url = new URL(EMBED.href);
    if (found.kind === "game") {
      new URLSearchParams(found.value).forEach(function (value, key) { url.searchParams.set(key, value); });
      url.searchParams.set("game", "1");
    } else {
      url.searchParams.set(found.kind, found.value);
    }
    OPTIONS.forEach(function (pair) {
      var value = data[pair[0]];
      if (value !== undefined && value !== "") url.searchParams.set(pair[1], value);
    });
    return url.href;
  }

  function fill(div) {
    if (frames.some(function (entry) { return entry.div === div; })) return;
    var found = kindOf(div);
    if (!found) return;
    var data = div.dataset;
    var lang = String(data.lang || document.documentElement.lang || "en").slice(0, 2).toLowerCase();
    var frame = document.createElement("iframe");
    frame.loading = "lazy"; // before src: the frame loads when it comes near the screen
    frame.title = data.title || (TITLES[lang] || TITLES.en)[found.kind];
    frame.setAttribute("sandbox", "allow-scripts allow-same-origin allow-popups allow-popups-to-escape-sandbox");
    frame.setAttribute("referrerpolicy", "strict-origin-when-cross-origin");
    var height = parseInt(data.height, 10);
    frame.style.cssText = "display:block;width:100%;max-width:100%;border:0;color-scheme:normal;height:" +
      (height > 0 ? height : DEFAULT_HEIGHT[found.kind]) + "px";
    var entry = { div: div, frame: frame, url: frameUrl(found, data) };
    frames.push(entry);
    div.appendChild(frame);
    waiting.push(entry);
  }

  // The frames of one page share the renderer's main thread: all at once, the one the reader looks at
  // is drawn only when every other one is. So one frame goes first, the first in view (else the
  // first on the page), and the others follow once it has drawn (its first message) or after FIRST_MS.
  function inView(entry) {
    var box = entry.div.getBoundingClientRect();
    return box.bottom > 0 && box.top < (window.innerHeight || document.documentElement.clientHeight);
  }

  function startNext() {
    if (!waiting.length) return;
    if (leader === null) {
      var first = waiting.filter(inView)[0] || waiting[0];
      waiting.splice(waiting.indexOf(first), 1);
      leader = first;
      first.frame.src = first.url;
      leaderTimer = setTimeout(leaderDone, FIRST_MS);
      return;
    }
    waiting.splice(0).forEach(function (entry) { entry.frame.src = entry.url; });
  }

  function leaderDone() {
    clearTimeout(leaderTimer);
    leaderTimer = null;
    leader = false; // from now on every frame loads at once
    startNext();
  }

  function scan(root) {
    if (root.matches && root.matches(SELECTOR)) fill(root);
    if (root.querySelectorAll) Array.prototype.forEach.call(root.querySelectorAll(SELECTOR), fill);
    if (!leader) startNext(); // unless the first frame is still loading
  }

  // The frame tells its height (and, once ready, its title); only our frames, from the embed's origin.
  window.addEventListener("message", function (event) {
    if (event.origin !== EMBED.origin) return;
    var data = event.data;
    if (!data || typeof data !== "object" || typeof data.type !== "string") return;
    for (var i = 0; i < frames.length; i++) {
      var frame = frames[i].frame;
      if (frame.contentWindow !== event.source) continue;
      if (frames[i] === leader) leaderDone();
      if (data.type === "durak:resize" && typeof data.height === "number" && data.height > 0 &&
          data.height < 20000) {
        frame.style.height = Math.ceil(data.height) + "px";
      } else if (data.type === "durak:ready" && typeof data.title === "string" && data.title &&
                 !frames[i].div.dataset.title) {
        frame.title = data.title.slice(0, 200);
      }
      return;
    }
  });

  function start() {
    scan(document);
    if (typeof MutationObserver === "function") {
      new MutationObserver(function (records) {
        records.forEach(function (record) {
          Array.prototype.forEach.call(record.addedNodes, function (node) {
            if (node.nodeType === 1) scan(node);
          });
        });
      }).observe(document.documentElement, { childList: true, subtree: true });
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
