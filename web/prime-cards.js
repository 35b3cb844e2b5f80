// Lay out a few card faces, unseen, while the new-game dialog is open, so that the first deal does not
// pay for them (issue #14: no long task during play).
//
// The first time a page lays out a face-up card, Chromium builds an SVG document for each suit's pip
// mask (web/cards.css's data: images, upright and turned) and asks the browser process, synchronously,
// for the rendering settings of each new font size the card uses. At the first deal that was 20-30 ms
// of one task's layout (a third of the deal's drawing) on top of the drawing itself. Both stay cached
// for the page, so laying out one card of each suit once, in the regions that show cards (each sets its
// own card size), while the player chooses a game, takes that cost off the deal. It waits for the engine
// to be ready: while Pyodide compiles on every core, these few milliseconds of layout stretched to 50-90
// ms. Each piece is a short idle task of its own, inserted and removed within it: never painted, nothing
// moves; a frame drawn meanwhile (a deal made at once) stops it.

import { cardFace } from "./stepper.js";

const COURT = { 11: "J", 12: "Q", 13: "K", 14: "A" };
const RED = new Set(["H", "D"]);
// [region, the class of the box its cards are drawn in there, the cards' own class, cards]: each suit's
// pips (upright and turned), the court letter's size and the ace's symbol, at each region's card size
const PIECES = [
  ["hand", "hand-cards", "", ["6H"]], ["hand", "hand-cards", "", ["7S"]], ["hand", "hand-cards", "", ["8D"]],
  ["hand", "hand-cards", "", ["9C", "QS", "AH"]], ["table", "pair", "attack", ["QD"]], ["deck", "talon", "trump-card", ["KH"]],
];

const cardOf = (card, cls) =>
  `<div class="card ${RED.has(card.slice(-1)) ? "red" : "black"} ${cls}">${cardFace(card, { ranks: COURT })}</div>`;
const later = window.requestIdleCallback
  ? (callback) => window.requestIdleCallback(callback, { timeout: 200 })
  : (callback) => setTimeout(callback, 0);

/** Lay out PIECES one task each, until done or `drawn()` says the table has a frame (it paid already). */
export function primeCardFaces(drawn) {
  const next = (index) => {
    if (index >= PIECES.length || drawn()) return;
    const [regionId, box, cls, cards] = PIECES[index];
    const region = document.getElementById(regionId);
    if (region) {
      const html = cards.map((card) => cardOf(card, cls)).join("");
      region.insertAdjacentHTML("beforeend", `<div class="${box} card-primer" aria-hidden="true">${html}</div>`);
      const sample = region.lastElementChild;
      sample.getBoundingClientRect(); // laid out now, in this task
      sample.remove();
    }
    later(() => next(index + 1));
  };
  later(() => next(0));
}
