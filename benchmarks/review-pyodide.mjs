// The game review's cost in the page's own Python: the vendored Pyodide in Node, timed in processor time
// (process.cpuUsage), so other jobs on a shared machine do not count (a browser's long-task timings do).
//
//   node benchmarks/review-pyodide.mjs [games]      (after `make setup`: web/vendor/pyodide, web/shared/locale/*.mo)
//
// The same seeded games as benchmarks/review.py (normal at the graded seat, hard at 30 worlds against it);
// per game: opening the review (the record read, the game replayed and its frames built in pieces, the JSON), the
// whole grading in web/review/model.py's SLICE steps with the heap frozen as the page grades (frozen_heap), the first
// estimate and the first verdict, the longest step and the longest garbage collection. docs/review.md has the figures.

import { loadPyodide } from "../web/vendor/pyodide/pyodide.mjs";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const games = Number(process.argv[2] || 5);
const py = await loadPyodide({ indexURL: path.join(ROOT, "web/vendor/pyodide/") });
for (const [folder, suffix] of [["durak", ".py"], ["durak/ai", ".py"], ["web", ".py"], ["web/shared/locale", ".mo"]]) {
  py.FS.mkdirTree(`/work/${folder}`);
  for (const name of fs.readdirSync(path.join(ROOT, folder))) {
    if (name.endsWith(suffix)) py.FS.writeFile(`/work/${folder}/${name}`, fs.readFileSync(path.join(ROOT, folder, name)));
  }
}
globalThis.cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
py.globals.set("GAMES", games);
const rows = JSON.parse(py.runPython(`
import gc, json, sys
sys.path.insert(0, "/work")
from js import cpuMs
from durak import Game, Rules
from durak.ai import make_player
from web.review.model import SLICE, Session, frozen_heap

collections = []
def timed(phase, info):
    if phase == "start":
        collections.append(cpuMs())
    else:
        collections[-1] = cpuMs() - collections[-1]
gc.callbacks.append(timed)

rows = []
for seed in range(GAMES):
    game = Game.new(Rules(), seed=seed)
    players = [make_player("normal", seed=seed), make_player("hard", seed=seed, iterations=30)]
    while game.result is None:
        seat = game.to_act
        game.apply(seat, players[seat].choose(game.view(seat), game.legal_actions(seat)))
    began = cpuMs()
    session = Session.from_text(game.record(), 0)  # the click's own task: the record read and checked
    pieces, longest_piece = session.data_in_pieces("en"), cpuMs() - began
    while True:
        start = cpuMs()
        try:
            next(pieces)
        except StopIteration as built:
            data = built.value
            break
        finally:
            longest_piece = max(longest_piece, cpuMs() - start)
    json.dumps(data)
    opened = cpuMs() - began
    collections.clear()
    steps, first, estimate, began = [], None, None, cpuMs()
    with frozen_heap():  # as Session.grade does in the page
        while True:
            start = cpuMs()
            done = session.grader.step(SLICE)
            steps.append(cpuMs() - start)
            if estimate is None and (session.grader.verdicts or session.grader.estimate()):
                estimate = cpuMs() - began
            if first is None and session.grader.verdicts:
                first = cpuMs() - began
            if done:
                break
    rows.append({"seed": seed, "decisions": len(session.decisions), "open_ms": round(opened),
                 "open_piece_ms": round(longest_piece), "grade_s": round((cpuMs() - began) / 1000, 2),
                 "first_ms": round(first or 0), "estimate_ms": round(estimate or 0), "step_max_ms": round(max(steps)),
                 "gc_max_ms": round(max(collections, default=0))})
json.dumps(rows)
`));
for (const row of rows) {
  console.log(`game ${row.seed}: ${row.decisions} decisions graded in ${row.grade_s} s (first estimate ${row.estimate_ms} ms, ` +
    `first verdict ${row.first_ms} ms); ` +
    `opening ${row.open_ms} ms (longest piece ${row.open_piece_ms} ms); longest step ${row.step_max_ms} ms, ` +
    `longest garbage collection ${row.gc_max_ms} ms`);
}
const sorted = (key) => rows.map((row) => row[key]).sort((a, b) => a - b);
const median = (key) => sorted(key)[Math.floor((rows.length - 1) / 2)];
const max = (key) => sorted(key)[rows.length - 1];
console.log(`Pyodide (processor time), ${rows.length} games: whole game median ${median("grade_s")} s, max ${max("grade_s")} s; ` +
  `first estimate median ${median("estimate_ms")} ms, max ${max("estimate_ms")} ms; ` +
  `first verdict median ${median("first_ms")} ms, max ${max("first_ms")} ms; longest step ${max("step_max_ms")} ms`);
