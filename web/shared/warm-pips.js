// The cards' pips are SVG masks (web/shared/cards.css), and Chromium parses an SVG image on the page's main
// thread the first time a page uses it. Left to the first deal, the eight of them (four suits, upright and
// upside down) land in the task that lays the first cards out, already the longest of a game.
// warmPips() has them parsed while the page waits for the engine: one suit per idle moment, by a hidden card
// of that suit in a rack that stays in the page, so that the parsed images stay in use.

const SUITS = ["S", "H", "D", "C"];
const idle = window.requestIdleCallback || ((callback) => setTimeout(callback, 50));

/** Add a hidden rack to `parent` and fill it with one two-pip card of each suit, a suit per idle moment. */
export function warmPips(parent = document.body) {
  const rack = document.createElement("div");
  rack.className = "pip-rack";
  rack.setAttribute("aria-hidden", "true");
  parent.append(rack);
  const suits = [...SUITS];
  const next = () => {
    const suit = suits.shift();
    if (!suit) return;
    const card = document.createElement("span");
    card.className = "card";
    card.innerHTML = `<span class="pips" data-n="2" data-suit="${suit}"></span>`;
    rack.append(card);
    idle(next);
  };
  idle(next);
}
