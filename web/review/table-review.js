// The review and history screens of the table, between web/review/review.js (which draws them) and the engine
// worker (web/worker/bridge.py, web/review/review_page.py, which decides what they show).
//
// Worker -> page: `review` {op, ...}: open {data} and update {data} (JSON text for durakReviewUI.open and
// .update), close, history {html} ("" hides it), download {name, text, mime}, copy {text}.
// Page -> worker: `review` {action, args}, args exactly as web/review/review_page.py's MESSAGES names them. What
// only the page knows goes with the message that needs it: the step on show with play-on, the page's
// address with copy-link, and the player's yes with clear-history (asked here, the button's data-confirm,
// before anything is sent). The record files and the pasted text the new-game dialog and the history take are
// read here and go through window.durakReview (openText, importText, reviewSeat), which this module provides.
//
// web/review/review.js (window.durakReviewUI) and the rules pages' board renderer it draws with load on first
// use: when a game ends (its review may follow) or the worker first shows a screen. Until then the table's
// first deal does without them.

// The buttons whose message carries no more than what the button is.
const PLAIN = ["review", "history", "close-history", "export-history", "close-review", "download-record",
  "stop-grading", "resume-grading"];
const ACTIONS = [...PLAIN, "clear-history", "review-game", "copy-link", "play-on"];

// send: table.js's send (kept until the worker is ready). Returns what table.js calls.
export function reviewPort(send) {
  const ui = () => window.durakReviewUI;
  const ask = (action, args = {}) => send({ t: "review", action, args });
  let screens = null; // review.js, once asked for: the worker's ops wait for it, in the order they came
  const loaded = () => (screens ??= import("./review.js"));

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
      if (op) loaded().then(() => op(message));
      else console.error(`durak: no review op ${message.op}`);
    },
    // A game is over: the screens and the review's board styles load now rather than when it opens (a new
    // stylesheet restyles the whole page, which then came on top of the review's first frame).
    gameOver: () => loaded().then(() => ui().prepare()),
    // The worker is up: the screens can open ("History", "Open a record").
    ready() {
      for (const control of document.querySelectorAll('[data-action="history"], [data-action="open-record"]')) {
        control.disabled = false;
      }
    },
  };
}

// A record file chosen (the new-game dialog's "Open a record"), a history file to import, a record pasted.
async function readFile(input) {
  const file = input.files && input.files[0];
  input.value = "";
  return file ? await file.text() : null;
}

document.addEventListener("change", async (event) => {
  const input = event.target;
  if (!(input instanceof HTMLInputElement) || input.type !== "file") return;
  const action = input.dataset.action;
  if (action !== "open-record" && action !== "import-history") return;
  const text = await readFile(input);
  if (text === null || !window.durakReview) return;
  if (action === "open-record") window.durakReview.openText(text);
  else window.durakReview.importText(text);
});

document.addEventListener("submit", (event) => {
  const form = event.target.closest && event.target.closest('[data-form="paste-record"]');
  if (!form) return;
  event.preventDefault();
  const text = form.querySelector("textarea").value;
  if (text.trim() && window.durakReview) window.durakReview.openText(text);
});
