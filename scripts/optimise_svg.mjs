// Optimise SVG files with SVGO (run by scripts/build_deck.py): the card faces' paths and attributes
// written shorter, the same picture.
//
//     node scripts/optimise_svg.mjs < files.json > optimised.json
//
// stdin:  {"classic/KH.svg": "<svg ...>", ...}
// stdout: the same names, each with its optimised text.
//
// SVGO's default preset, in several passes, but for two rewrites of a path's end: dropping a closing
// "z", and turning a last line back to the start into one. Both are safe only for a path drawn without a
// stroke, and SVGO judges that from the path's own attributes; a face's symbols get their stroke from the
// <use> that draws them, where SVGO does not look, so the ace of spades' tip would come out rounded and a
// king's outline joined where it was capped. With both kept, every face draws as before but for
// antialiasing along a few edges (tests/browser/table/test_card_art.py compares them).

import { optimize } from "svgo";

const CONFIG = {
  multipass: true,
  plugins: [{ name: "preset-default", params: { overrides: { convertPathData: { removeUseless: false, convertToZ: false } } } }],
};

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const files = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const optimised = {};
for (const [name, text] of Object.entries(files)) optimised[name] = optimize(text, { ...CONFIG, path: name }).data;
process.stdout.write(JSON.stringify(optimised));
