// The review and history screens of the table, between web/review/review.js (which draws them) and the engine
// worker (web/worker/bridge.py, web/review/review_page.py, which decides what they show).
//
// Worker -> page: `review` {op, ...}: open {data} and update {data} (JSON text for durakReviewUI.open and
// .update), close, history {html} ("" hides it), download {name, text, mime}, copy {text}.
// Page -> worker: `review` {action, args}, args exactly as web/review/review_page.py's MESSAGES names them. What
// only the page knows goes with the message that needs it: the step on show with play-on, the page's
// address with copy-link, and the player's yes with clear-history (asked here, the button's data-confirm,
// before anything is sent). The files and the pasted text web/review/review.js reads come through
// window.durakReview (openText, importText, reviewSeat), which this module provides.

import "./review.js"; // window.durakReviewUI

// The buttons whose message carries no more than what the button is.
const PLAIN = ["review", "history", "close-history", "export-history", "close-review", "download-record",
  "stop-grading", "resume-grading"];
const ACTIONS = [...PLAIN, "clear-history", "review-game", "copy-link", "play-on"];

// send: table.js's send (kept until the worker is ready). Returns what table.js calls.
export function reviewPort(send) {
  const ui = () => window.durakReviewUI;
  const ask = (action, args = {}) => send({ t: "review", action, args });

  window.durakReview = {
    openText: (text) => ask("open-text", { text: String(text) }),
    importText: (text) => ask("import-history", { text: String(text) }),
    reviewSeat(seat) {
      if (Number.isInteger(seat)) ask("review-seat", { seat });
    },
  };

  const ops = {
    open: ({ data }) => ui().open(data),
    update: ({ data }) => ui().update(data),
    close: () => ui().close(),
    history: ({ html }) => ui().history(html),
    download: ({ name, text, mime }) => ui().download(name, text, mime),
    copy: ({ text }) => ui().copy(text),
  };

  return {
    handles: (action) => ACTIONS.includes(action),
    // A button of the screens (or the game over's review and history), pressed.
    press(action, element) {
      if (PLAIN.includes(action)) return ask(action);
      if (action === "clear-history") {
        const question = element.closest("[data-confirm]")?.dataset.confirm;
        if (question && window.confirm(question)) ask(action, { confirmed: true });
      } else if (action === "review-game") {
        const game = element.closest("[data-game]")?.dataset.game;
        if (game) ask(action, { game });
      } else if (action === "copy-link") ask(action, { url: location.origin + location.pathname });
      else if (action === "play-on") {
        const step = ui().step();
        if (Number.isInteger(step)) ask(action, { step });
      }
    },
    receive(message) {
      const op = ops[message.op];
      if (op) op(message);
      else console.error(`durak: no review op ${message.op}`);
    },
    // A game is over: the review's board styles load now rather than when it opens (a new stylesheet
    // restyles the whole page, which then came on top of the review's first frame).
    gameOver: () => ui().prepare(),
    // The worker is up: the screens can open ("History", "Open a record").
    ready() {
      for (const control of document.querySelectorAll('[data-action="history"], [data-action="open-record"]')) {
        control.disabled = false;
      }
    },
  };
}
