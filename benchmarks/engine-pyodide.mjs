// benchmarks/engine.py's random 2-player Podkidnoy games in the page's own Python: the vendored Pyodide in Node,
// the same loop, the same do-nothing floor and the same per-call figures as in CPython.
//
//   node benchmarks/engine-pyodide.mjs [seconds per figure, default 3]
//
// Needs `make setup` (web/vendor/pyodide). Wall-clock figures, as engine.py prints them.

import { loadPyodide } from "../web/vendor/pyodide/pyodide.mjs";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const py = await loadPyodide({ indexURL: path.join(ROOT, "web/vendor/pyodide/") });
for (const folder of ["durak", "benchmarks"]) {
  py.FS.mkdirTree(`/work/${folder}`);
  for (const name of fs.readdirSync(path.join(ROOT, folder))) {
    if (name.endsWith(".py")) py.FS.writeFile(`/work/${folder}/${name}`, fs.readFileSync(path.join(ROOT, folder, name)));
  }
}
py.globals.set("SECONDS", Number(process.argv[2] || 3));
py.runPython(`
import sys
sys.path.insert(0, "/work/benchmarks")
from engine import FloorGame, games_per_second, per_call
from durak import Rules

rules = Rules(variant="podkidnoy", players=2)
print(f"Pyodide {sys.version.split()[0]}: {SECONDS:g} s per figure after 0.5 s warm-up")
rate, moves, _ = games_per_second(rules, SECONDS, 0.5)
print(f"  podkidnoy 2 players {rate:>9,.0f} games/s  {moves:6.1f} moves/game")
FloorGame.moves = round(moves)
floor, _, _ = games_per_second(rules, SECONDS, 0.5, FloorGame.new)
print(f"  floor     2 players {floor:>9,.0f} games/s  floor / engine {floor / rate:.1f}x")
calls = per_call(rules, SECONDS, 0.5)
print(f"  calls/s: legal_actions {calls['legal_actions']:,.0f}  apply {calls['apply']:,.0f}  copy {calls['copy']:,.0f}")
`);
