// Renders worked examples to HTML with web/examples/stepper.js, the renderer the pages step with, so the
// static step 0 a page shows before any script runs is exactly what the stepper draws.
//
//   node scripts/render_examples.mjs < jobs.json > html.json
//
// stdin: {"jobs": [{"key": "...", "example": {...}, "labels": {...}, "step": 0}, ...],
//         "faces": {"labels": {...}, "cards": ["7H", ...]}}   (faces: optional, for tests)
// stdout: {"html": {"<key>": "<figure ...>"}, "faces": {"7H": "<span ...>"}, "names": {"7H": "7♥, seven of hearts"}}
// Run by scripts/build_rules.py (`make setup`).

import { cardFace, cardLabel, renderExample } from "../web/examples/stepper.js";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const input = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const html = {};
for (const job of input.jobs || []) html[job.key] = renderExample(job.example, job.labels, job.step || 0);
const faces = {};
const names = {};
for (const card of input.faces ? input.faces.cards : []) {
  faces[card] = cardFace(card, input.faces.labels);
  names[card] = cardLabel(card, input.faces.labels);
}
process.stdout.write(JSON.stringify({ html, faces, names }));
