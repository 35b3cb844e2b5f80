// The deck style the reader chose, "classic" (spades and clubs black, hearts and diamonds red) or
// "four-colour" (diamonds blue, clubs green: suits told apart at a glance on a small screen), as
// <html data-deck="…">, which web/shared/cards.css draws. Importing this module applies the saved style;
// the table, its review and the rules pages import it. Kept under its own localStorage key, read and
// written only here: the preferences JSON ("durak.prefs") is rewritten whole by the engine worker from
// its own copy, which would undo a choice made on the page in the meantime.

export const DECK_STYLES = ["classic", "four-colour"];
const KEY = "durak.deck";

export function deckStyle() {
  try {
    const saved = localStorage.getItem(KEY);
    return DECK_STYLES.includes(saved) ? saved : DECK_STYLES[0];
  } catch {
    return DECK_STYLES[0]; // storage refused: the classic deck
  }
}

function apply(style) {
  document.documentElement.dataset.deck = style;
}

/** Draw every card in ``style`` from now on, on this page and on the next visit. */
export function setDeckStyle(style) {
  if (!DECK_STYLES.includes(style)) return;
  try {
    localStorage.setItem(KEY, style);
  } catch {
    // storage refused: the choice holds for this visit
  }
  apply(style);
}

apply(deckStyle());
// another tab of the site (a rules page beside the table) changed it
addEventListener("storage", (event) => { if (event.key === KEY) apply(deckStyle()); });
