// The engine the embeds of a host page share: web/embed/embed-frame.js asks web/examples/stepper.js's loadWorkerEngine
// for a shared engine, and every frame of this site on one page (and in one tab's
// storage partition) connects to this one SharedWorker, so three record embeds boot one Pyodide, not
// three side by side, and keep one in memory.
//
// Each frame speaks the engine worker's protocol on its port, as to a worker of its own
// (web/worker/engine-worker.mjs's header; web/worker/engine-host.mjs answers it):
// - boot: the first boots the engine; a frame that comes later gets the same `ready` (or the boot's
//   error) at once, without a second boot. Progress, ready and snapshot messages go to every frame.
// - engine calls: renumbered here, so that frames' ids cannot clash, and each answer goes back to the
//   port that asked, under its own id. The "try it" sessions, which web/embed/engine_calls.py keys by the
//   example's id, are keyed by the frame too: two frames trying the same example play two games.
// - anything else (the table's messages: no embed frame sends them) is refused to its sender, and what
//   the table's controller posts besides (frames, stores: web/worker/bridge.py) goes to no frame.
// A malformed message is refused to the frame that sent it, changing nothing for the others.

import { bootProblem, engineHost, refusal } from "./engine-host.mjs";

// The calls whose first argument names a try-it session (web/embed/engine_calls.py).
const SESSION_CALLS = new Set(["start", "card", "target", "press", "reply", "embed_play"]);
const TO_EVERY_FRAME = new Set(["progress", "ready", "snapshot"]);

const ports = new Set();
const calls = new Map(); // the id the engine sees -> {port, id: that port's own}
let lastCall = 0;
let frames = 0;
let booted = false; // a boot message was taken
let ready = null; // the engine's ready message, for frames that come later
let failed = null; // the boot's error, likewise

const engine = engineHost((message) => {
  const call = Number.isInteger(message.id) ? calls.get(message.id) : undefined;
  if (call) {
    calls.delete(message.id); // each call has one answer: an answer, an error or a refusal
    call.port.postMessage({ ...message, id: call.id });
  } else if (message.t === "error" && message.id === null) {
    failed = message;
    for (const port of ports) port.postMessage(message);
  } else if (TO_EVERY_FRAME.has(message.t)) {
    if (message.t === "ready") ready = message;
    for (const port of ports) port.postMessage(message);
  }
});

// Refused here, to the frame that sent it: the engine only ever sees well-formed messages, so each of its
// messages either answers a call (and goes to the caller) or is about the boot (and goes to every frame).
const refuse = (port, ...why) => refusal((message) => port.postMessage(message), ...why);

function receive(port, frame, data) {
  if (typeof data !== "object" || data === null || typeof data.t !== "string") {
    return refuse(port, "bad_message", "a message is an object with a string t");
  }
  if (data.t === "boot") {
    if (failed) return port.postMessage(failed);
    if (ready) return port.postMessage(ready);
    if (booted) return; // booting: its progress and ready come to every frame
    const problem = bootProblem(data);
    if (problem) return refuse(port, "bad_boot", problem);
    booted = true;
    return engine(data);
  }
  if (data.t !== "engine") return refuse(port, "bad_message", "the shared engine takes boot and engine calls");
  if (!Number.isInteger(data.id)) return refuse(port, "bad_message", "an engine call has an integer id");
  if (!booted) return refuse(port, "not_booted", "send boot first", data.id);
  lastCall += 1;
  calls.set(lastCall, { port, id: data.id });
  const args = Array.isArray(data.args) && SESSION_CALLS.has(data.method) && typeof data.args[0] === "string"
    ? [`${frame}/${data.args[0]}`, ...data.args.slice(1)]
    : data.args;
  engine({ ...data, id: lastCall, args });
}

self.onconnect = ({ ports: [port] }) => {
  frames += 1;
  const frame = frames;
  ports.add(port);
  port.onmessage = ({ data }) => receive(port, frame, data);
};
