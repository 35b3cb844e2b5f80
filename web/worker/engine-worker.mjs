// The engine worker: one module worker per page runs the Python
// side, so the page's main thread never runs Pyodide. Started by a page as
//   new Worker(new URL("./engine-worker.mjs", import.meta.url), {type: "module"})
// it talks by postMessage only (no SharedArrayBuffer, no special headers). Every message has `t`.
//
// Page -> worker:
//   boot    {search, langs, store, embedded, viewport, controlled}   once: boot Pyodide (web/worker/engine-boot.mjs),
//           then web/worker/bridge.py's table, which may resume the save or deal the link's game
//   anything else goes to web/worker/bridge.py as it comes (kept until ready): gesture, start, dialog, lang,
//   speed, engine {id, method, args} (the calls of web/embed/engine_calls.py), and play with friends' address,
//   net, link, called, friends (web/friends/bridge_net.py)
// Worker -> page, from here:
//   progress {step, percent}       boot stages: "download", "start", "import", "snapshot"
//   ready    {ms, snapshot, boot}  after the table's boot (a resumed or linked game's first frame comes
//                                  before it); ms: from the boot message to ready; snapshot: a state of
//                                  web/worker/engine-boot.mjs ("used", "missing" when one is being saved,
//                                  "failed", "refused", "unsupported", "off"); boot: when each stage
//                                  began, {received, download, start, import, snapshot, ready} (import
//                                  and snapshot only when done), in ms since the epoch
//                                  (performance.timeOrigin + now: the page subtracts its own origin)
//   snapshot {state}               after ready, when one was made: "saved" or "failed"
//   error    {id: null, text}      the boot failed
//   refused  {id, code, params, text}   a malformed message, not obeyed (id: an engine call's, or
//                                  null); codes: bad_message, bad_boot, booted_twice, not_booted
// and from web/worker/bridge.py: frame, store, dialog, notice, refused, the calls' answer and error, and play
// with friends' net, call, panel.
//
// The boot message's shape is checked here, exactly (Python is not there yet): its keys, and
// search a string, langs a list of strings, store an object of strings (the page's durak.* entries),
// embedded a boolean, viewport {width, height} numbers, controlled a boolean: whether a service worker
// controls the page (a dedicated worker has no navigator.serviceWorker to ask; without one, the boot
// hands its largest files over to the service worker to come, web/worker/engine-boot.mjs).

import { engineHost } from "./engine-host.mjs";

const receive = engineHost((message) => self.postMessage(message));
self.onmessage = ({ data }) => receive(data);
