// The rules pages' script: turns every worked example into a live one, keeps the reader's place
// across the language switch, and starts the engine worker for "try it yourself" in idle time.
//
// Loaded as <script type="module" src="../../../web/rules.js"> by the pages scripts/build_rules.py
// writes. Their data is one <script type="application/json" id="rules-data">: {labels, examples}.
// Stepping needs no Python; the engine worker (Pyodide, off the main thread) starts after the page is
// shown and idle (or on the first "try it" / "show the odds", whichever comes first), except on a
// connection that asks to save data.
//
// body[data-state] is "ready" once every example steps; body[data-steppable-ms] is when that was
// (performance.now()), for benchmarks/page.py. body[data-engine]: loading | ready | failed.
// body[data-examples-drawn] is "true" once every example is drawn (after load, in idle time).
// A page address may hold ?step=<example id>:<step>,... (the language switch writes it) and a
// #section anchor; the switch carries both to the same place in the other language.

import "../shared/deck-style.js"; // the examples' cards in the reader's deck style
import { Stepper, loadWorkerEngine } from "./stepper.js";

const IDLE_BOOT_MS = 1500; // after the page is shown, before the engine starts if nothing else happens

const data = JSON.parse(document.getElementById("rules-data").textContent);
const steppers = new Map();

function wantedSteps() {
  const wanted = new Map();
  const text = new URLSearchParams(location.search).get("step") || "";
  for (const item of text.split(",")) {
    const [id, step] = item.split(":");
    if (id && /^\d+$/.test(step || "")) wanted.set(id, Number(step));
  }
  return wanted;
}

let engine = null;
const engineProxy = {
  then(resolve, reject) {
    engine = engine || loadWorkerEngine();
    return engine.then(resolve, reject);
  },
};

function mountAll() {
  const wanted = wantedSteps();
  for (const element of document.querySelectorAll("[data-example]")) {
    const example = data.examples[element.dataset.example];
    if (!example) continue;
    const stepper = new Stepper(element, example, data.labels, { engine: engineProxy });
    steppers.set(example.id, stepper);
    if (wanted.has(example.id)) stepper.go(wanted.get(example.id));
  }
}

// The section the reader is in: the last heading above the top third of the window.
function currentAnchor() {
  let found = "";
  for (const section of document.querySelectorAll("main section[id]")) {
    if (section.getBoundingClientRect().top <= innerHeight / 3) found = section.id;
  }
  return found;
}

function placeQuery() {
  const steps = [...steppers.values()].filter((s) => s.step > 0).map((s) => `${s.example.id}:${s.step}`);
  return steps.length ? `?step=${steps.join(",")}` : "";
}

function keepPlaceOnSwitch() {
  const update = (link) => {
    const base = link.getAttribute("href").split(/[?#]/)[0];
    const anchor = currentAnchor();
    link.setAttribute("href", base + placeQuery() + (anchor ? `#${anchor}` : ""));
  };
  for (const link of document.querySelectorAll("a[data-lang-switch]")) {
    for (const type of ["pointerdown", "focus", "click"]) link.addEventListener(type, () => update(link));
  }
}

// The examples are drawn only near the viewport (content-visibility), with an estimated height until then:
// the ones above an anchor are drawn at once, so that the anchor lands where it belongs and stays there.
function scrollToAnchor() {
  const target = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
  if (!target) return;
  for (const example of document.querySelectorAll(".example")) {
    if (example.compareDocumentPosition(target) & Node.DOCUMENT_POSITION_FOLLOWING) {
      example.style.contentVisibility = "visible";
    }
  }
  target.scrollIntoView();
}

// The examples are drawn only near the viewport (web/examples/rules.css: content-visibility), so the page's top
// paints first. Once the page is idle they are drawn for good, one an idle period (each is a few
// milliseconds of layout): tools that read the rendered page, such as axe's and Lighthouse's contrast
// checks, then see each example's felt behind its text instead of the page's paper.
function drawExamplesWhenIdle() {
  const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 1));
  const left = [...document.querySelectorAll(".example")];
  const next = () => {
    const example = left.shift();
    if (!example) {
      document.body.dataset.examplesDrawn = "true";
      return;
    }
    example.style.contentVisibility = "visible";
    idle(next);
  };
  idle(next);
}

function bootWhenIdle() {
  const saveData = navigator.connection && navigator.connection.saveData;
  if (saveData || new URLSearchParams(location.search).get("engine") === "on-demand") return;
  const start = () => engineProxy.then(() => {}, () => {});
  const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 1));
  setTimeout(() => idle(start, { timeout: 2000 }), IDLE_BOOT_MS);
}

mountAll();
keepPlaceOnSwitch();
scrollToAnchor();
document.body.dataset.steppableMs = String(Math.round(performance.now()));
document.body.dataset.state = "ready";
const afterLoad = () => {
  drawExamplesWhenIdle();
  bootWhenIdle();
};
if (document.readyState === "complete") afterLoad();
else addEventListener("load", afterLoad, { once: true });
