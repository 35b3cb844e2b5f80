// The game review and the history screens of the table (index.html). Python (web/review/review_page.py) decides
// what to show; this module draws it and steps through the game without Python.
//
//   window.durakReviewUI.open(json)      a review: web/review/model.py's Session.data() as JSON text
//   window.durakReviewUI.update(json)    {verdicts: [...], progress: {..., estimate}} as grading goes on
//   window.durakReviewUI.close()         hide the review
//   window.durakReviewUI.history(html)   show the history panel (web/review/history_screen.py), or hide it with ""
//   window.durakReviewUI.download(name, text, type), .copy(text)   files and the clipboard
//
// The board is web/examples/stepper.js's renderBoard (the rules pages' renderer), fed the review's frames: every
// hand open for a finished game ("open hands" toggle), else the reviewing seat's own knowledge, other
// cards face down. The reader steps with [data-control=first|prev|next|last], the arrow keys, Home/End,
// or a click in the move list ([data-move=<i>] shows the position after move i). Buttons with a
// data-action (close-review, play-on, download-record, ...) bubble to web/table/table.js, whose
// web/review/table-review.js sends them to the engine worker (web/review/review_page.py); that module also
// reads the record files and pasted records, and imports this one on first use.
// Hooks: ../shared/DESIGN.md "Review and history".

import { morph } from "../shared/morph.js";
import { ICONS, escape, fill, renderBoard } from "../examples/stepper.js";

const GRADE_ORDER = ["blunder", "mistake", "inaccuracy"];
let board = null; // the review on show: {data, step, open, verdicts, progress}

function overlay(id) {
  let element = document.getElementById(id);
  if (!element) {
    element = document.createElement("div");
    element.id = id;
    element.className = "overlay review-overlay";
    element.hidden = true;
    document.body.append(element);
  }
  return element;
}

// The board's stylesheet (the rules pages' worked examples), loaded before the table's own so that the
// table keeps its colours; fetched the first time a review opens.
function boardStyles() {
  if (document.querySelector("link[data-review-styles]")) return;
  const link = document.createElement("link");
  link.rel = "stylesheet";
  link.href = new URL("../examples/rules.css", import.meta.url).href;
  link.dataset.reviewStyles = "true";
  const table = document.querySelector('link[rel="stylesheet"][href*="style.css"]');
  document.head.insertBefore(link, table ?? document.head.firstChild);
}

function frames() {
  const { data } = board;
  return board.open && data.open ? data.open : data.seen;
}

// A move's verdict, or the first estimate of the decision being graded (marked `estimate`) until its verdict.
function verdictFor(move) {
  const estimate = board.estimate;
  return board.verdicts.get(move) ?? (estimate && estimate.move === move ? estimate : null);
}

function gradeBadge(verdict, words) {
  if (!verdict) return "";
  const estimate = verdict.estimate ? ' data-estimate="true"' : "";
  return `<span class="grade-badge" data-grade="${verdict.grade}"${estimate}>${verdict.estimate ? "≈ " : ""}` +
    `${escape(words["grade_" + verdict.grade])}</span>`;
}

// A move-list item's marks in place: its verdict or estimate, or pending.
function markItem(item, verdict, graded) {
  for (const badge of item.querySelectorAll(".grade-badge")) badge.remove();
  item.removeAttribute("data-estimate");
  if (verdict) {
    item.dataset.verdict = verdict.grade;
    if (verdict.estimate) item.dataset.estimate = "true";
    item.removeAttribute("data-pending");
    const mark = item.querySelector(".turning-mark");
    if (mark) mark.insertAdjacentHTML("beforebegin", gradeBadge(verdict, board.data.words));
    else item.insertAdjacentHTML("beforeend", gradeBadge(verdict, board.data.words));
  } else {
    item.removeAttribute("data-verdict");
    if (graded) item.dataset.pending = "true";
  }
}

function moveItem(move, data) {
  const words = data.words;
  const verdict = verdictFor(move.move);
  const graded = data.graded.includes(move.move);
  const attrs = [`data-move="${move.move}"`, `data-seat="${move.seat}"`];
  if (verdict) attrs.push(`data-verdict="${verdict.grade}"`, ...(verdict.estimate ? ['data-estimate="true"'] : []));
  else if (graded) attrs.push('data-pending="true"');
  const turning = board.progress && board.progress.turning === move.move;
  if (turning) attrs.push('data-turning="true"');
  if (board.step === move.move + 1) attrs.push('aria-current="step"');
  const mark = turning ? `<span class="turning-mark">${escape(words.turning_point)}</span>` : "";
  return `<li><button type="button" class="move" ${attrs.join(" ")}${cheatAttrs(move)}${move.seat === data.seat ? ' data-mine="true"' : ""}>` +
    `<span class="move-number">${move.move + 1}.</span><span class="move-text">${escape(move.text)}</span>` +
    `${cheatMarks(move, words)}${gradeBadge(verdict, words)}${mark}</button></li>`;
}

// Cheat mode: a cheat is marked as such; an accusation says whether it caught a cheat or was wrong, and who
// took the table (the narrator's sentence).
function cheatAttrs(move) {
  if (move.cheat) return ' data-cheat="true"';
  if (move.accusation) return ` data-accusation="${move.accusation.outcome}" data-taker="${move.accusation.taker}"`;
  return "";
}

function cheatMarks(move, words) {
  if (move.cheat) return `<span class="cheat-badge">${escape(words.cheat)}</span>`;
  if (!move.accusation) return "";
  const outcome = move.accusation.outcome;
  return `<span class="accusation-badge" data-outcome="${outcome}">${escape(words[outcome])}</span>` +
    `<span class="move-outcome">${escape(move.accusation.text)}</span>`;
}

function verdictPanel() {
  const { data, step } = board;
  const words = data.words;
  const move = step - 1;
  const verdict = move >= 0 ? verdictFor(move) : null;
  if (!verdict) {
    if (move >= 0 && data.graded.includes(move) && !(board.progress && board.progress.complete)) {
      return `<p class="verdict-wait">${escape(fill(words.grading, { percent: board.progress ? board.progress.percent : 0 }))}</p>`;
    }
    return "";
  }
  const proven = verdict.proven ? ` <span class="muted">(${escape(words.proven_note)})</span>` : "";
  const note = verdict.estimate ? `<p class="verdict-note">${escape(verdict.note)}</p>` : "";
  const turning = board.progress && board.progress.turning === move
    ? ` <span class="turning-mark">${escape(words.turning_point)}</span>` : "";
  return `<div class="verdict" data-grade="${verdict.grade}">${gradeBadge(verdict, words)}${turning}` +
    `<p class="verdict-line">${escape(verdict.line)}</p><p class="verdict-chances">${escape(verdict.chances)}${proven}</p>${note}</div>`;
}

function gradingBar() {
  const { data } = board;
  const words = data.words;
  const progress = board.progress ?? { done: 0, total: data.graded.length, percent: 0, complete: !data.graded.length };
  if (!data.graded.length) return `<p class="grading-note">${escape(words.nothing)}</p>`;
  if (progress.complete) {
    const counts = GRADE_ORDER.map((grade) => [grade, [...board.verdicts.values()].filter((v) => v.grade === grade).length])
      .filter(([, n]) => n).map(([grade, n]) => `${n} × ${escape(words["grade_" + grade])}`).join(" · ");
    return `<p class="grading-note">${escape(words.graded)}${counts ? " " + counts : ""}</p>`;
  }
  const text = progress.stopped ? fill(words.stopped, { done: progress.done, total: progress.total })
    : fill(words.grading, { percent: progress.percent });
  const button = progress.stopped
    ? `<button type="button" class="btn small" data-action="resume-grading">${escape(words.btn_resume)}</button>`
    : `<button type="button" class="btn small ghost" data-action="stop-grading">${escape(words.btn_stop)}</button>`;
  return `<div class="grading"><div class="grading-bar" role="progressbar" aria-valuemin="0" aria-valuemax="100" ` +
    `aria-valuenow="${progress.percent}" aria-label="${escape(text)}"><span style="width:${progress.percent}%"></span></div>` +
    `<p class="grading-text">${escape(text)}</p>${button}</div>`;
}

// Whose moves are graded: any seat of a finished game (an unfinished one only lists the reviewer's).
function seatPicker() {
  const { data } = board;
  if (data.seats.length < 2) return "";
  const options = data.seats.map((seat) =>
    `<option value="${seat}"${seat === data.seat ? " selected" : ""}>${escape(data.names[seat])}</option>`).join("");
  return `<label class="review-seat"><span>${escape(data.words.seat)}</span>` +
    `<select class="select" data-review-seat>${options}</select></label>`;
}

function controls() {
  const { data, step } = board;
  const labels = data.labels.ui;
  const last = data.steps - 1;
  const button = (control, label, disabled) =>
    `<button type="button" class="btn ex-btn" data-control="${control}" aria-label="${escape(label)}" title="${escape(label)}"` +
    `${disabled ? " disabled" : ""}><svg aria-hidden="true" viewBox="0 0 24 24"><path d="${ICONS[control]}"/></svg></button>`;
  const toggle = data.open
    ? `<button type="button" class="btn ghost" data-control="open-hands" aria-pressed="${board.open ? "true" : "false"}">` +
      `${escape(data.words.open_hands)}</button>` : "";
  return `<div class="review-nav" role="toolbar" aria-label="${escape(labels.controls)}">` +
    button("first", labels.first, step === 0) + button("prev", labels.prev, step === 0) +
    `<span class="ex-step" aria-hidden="true">${escape(fill(labels.step, { i: step + 1, n: data.steps }))}</span>` +
    button("next", labels.next, step >= last) + button("last", labels.last, step >= last) + `</div>${toggle}`;
}

function actions() {
  const { data } = board;
  const words = data.words;
  const over = Boolean(frames()[board.step].result);
  return `<div class="review-actions">` +
    `<button type="button" class="btn primary" data-action="play-on"${over ? ` disabled title="${escape(words.play_on_done)}"` : ""}>` +
    `${escape(words.btn_play_on)}</button>` +
    `<button type="button" class="btn" data-action="download-record">${escape(words.btn_download)}</button>` +
    `<button type="button" class="btn ghost" data-action="copy-link">${escape(words.btn_copy)}</button></div>`;
}

function moveListHtml() {
  const { data, step } = board;
  return `<li><button type="button" class="move" data-control="first"${step === 0 ? ' aria-current="step"' : ""}>` +
    `<span class="move-text">${escape(data.words.deal)}</span></button></li>` +
    data.moves.map((move) => moveItem(move, data)).join("");
}

function isComplete() {
  return Boolean(board.progress && board.progress.complete) || !board.data.graded.length;
}

// `listLater`: the move list's items are left for a later task (a review's opening), so that the screen's
// first frame lays out and paints the board alone.
function draw(focusControl, listLater = false) {
  const { data, step } = board;
  const root = overlay("review");
  const frame = frames()[step];
  const example = { id: "review", names: data.names };
  const note = data.finished ? "" : `<p class="review-note">${escape(data.words.unfinished)}</p>`;
  const list = root.querySelector(".move-list");
  const scroll = list ? list.scrollTop : 0;
  const html =
    `<div class="panel wide review" data-testid="review" data-step="${step}" data-steps="${data.steps}" ` +
    `data-graded="${isComplete() ? "true" : "false"}" data-open="${board.open ? "true" : "false"}" role="dialog" aria-modal="true" ` +
    `aria-labelledby="review-title" tabindex="-1">` +
    `<div class="panel-head"><h2 id="review-title">${escape(data.title)}</h2>${seatPicker()}` +
    `<button type="button" class="btn ghost" data-action="close-review">${escape(data.words.btn_close)}</button></div>` +
    `${note}<div class="review-grading" aria-live="polite">${gradingBar()}</div>` +
    `<div class="review-body"><div class="review-main">` +
    `<div class="example review-example" data-example="review"><div class="ex-board">${renderBoard(frame, example, data.labels)}</div>` +
    `<div class="ex-words" aria-live="polite" aria-atomic="true"><span class="sr-only">${escape(fill(data.labels.ui.step, { i: step + 1, n: data.steps }))}. </span>` +
    `<p class="ex-said">${escape(frame.said || data.words.deal)}</p></div></div>` +
    `<div class="review-verdict" aria-live="polite">${verdictPanel()}</div>` +
    `<div class="review-controls">${controls()}</div>${actions()}</div>` +
    `<nav class="review-moves" aria-label="${escape(data.words.moves)}"><h3>${escape(data.words.moves)}</h3>` +
    `<ol class="move-list" data-testid="move-list">${listLater ? "" : moveListHtml()}</ol></nav></div></div>`;
  // a new screen is written at once, a redrawn one in place (a step changes the board and a mark)
  if (list) morph(root, html);
  else root.innerHTML = html;
  root.hidden = false;
  if (list || step) {
    // Scrolling the list lays the screen out at once (in this task): a new list at the deal needs none,
    // so a review opens without a forced layout of its whole screen.
    const moves = root.querySelector(".move-list");
    moves.scrollTop = scroll;
    showInList(moves, moves.querySelector('[aria-current="step"]'));
  }
  if (focusControl) {
    const again = root.querySelector(focusControl);
    (again && !again.disabled ? again : root.querySelector(".review")).focus({ preventScroll: true });
  }
}

// Grading news changes only what it must: the progress, the verdict of the step shown, and the move-list
// items it concerns, in place (an item rebuilt under the pointer would lose the click on it).
function refresh(changedMoves, turning) {
  const root = overlay("review");
  const panel = root.querySelector(".review");
  if (!panel) return draw(null);
  panel.dataset.graded = isComplete() ? "true" : "false";
  root.querySelector(".review-grading").innerHTML = gradingBar();
  const words = board.data.words;
  const waiting = root.querySelector(".verdict-wait");
  if (waiting) waiting.textContent = fill(words.grading, { percent: board.progress.percent });
  for (const move of changedMoves) {
    const item = root.querySelector(`.move-list [data-move="${move}"]`);
    if (item) markItem(item, verdictFor(move), board.data.graded.includes(move));
  }
  if (turning.changed) {
    for (const old of root.querySelectorAll(".move-list [data-turning]")) {
      old.removeAttribute("data-turning");
      for (const mark of old.querySelectorAll(".turning-mark")) mark.remove();
    }
    const item = turning.move === null ? null : root.querySelector(`.move-list [data-move="${turning.move}"]`);
    if (item) {
      item.dataset.turning = "true";
      item.insertAdjacentHTML("beforeend", `<span class="turning-mark">${escape(words.turning_point)}</span>`);
    }
  }
  const shown = board.step - 1;
  if (changedMoves.has(shown) || (turning.changed && [turning.move, turning.before].includes(shown))) {
    root.querySelector(".review-verdict").innerHTML = verdictPanel();
  }
}

// Keep the current move in view by scrolling the list alone (scrollIntoView would scroll the whole screen
// away from the board on a phone, where the list is below it).
function showInList(list, item) {
  if (!item) return;
  const top = item.offsetTop; // the list is positioned: offsets are inside it
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = top + item.offsetHeight - list.clientHeight;
  }
}

function go(step, focusControl) {
  if (!board) return;
  board.step = Math.max(0, Math.min(board.data.steps - 1, step));
  draw(focusControl);
}

function focusSelector(element) {
  if (!element || !element.closest) return null;
  const control = element.closest("[data-control]");
  if (control) return `[data-control="${control.dataset.control}"]`;
  const move = element.closest("[data-move]");
  if (move) return `[data-move="${move.dataset.move}"]`;
  const action = element.closest("[data-action]");
  return action ? `[data-action="${action.dataset.action}"]` : null;
}

function onReviewClick(event) {
  const control = event.target.closest("[data-control]");
  const move = event.target.closest("[data-move]");
  if (!control && !move) return; // data-action buttons go on to web/table/table.js
  event.stopPropagation();
  if (control && control.disabled) return;
  const keep = focusSelector(event.target);
  if (move) return go(Number(move.dataset.move) + 1, keep);
  const name = control.dataset.control;
  const steps = { first: 0, prev: board.step - 1, next: board.step + 1, last: board.data.steps - 1 };
  if (name in steps) return go(steps[name], keep);
  if (name === "open-hands") {
    board.open = !board.open;
    draw(keep);
  }
}

function onReviewKey(event) {
  if (!board || event.target.closest("input, select, textarea") || event.altKey || event.ctrlKey || event.metaKey) return;
  const keys = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 };
  if (event.key in keys) go(board.step + keys[event.key], focusSelector(document.activeElement) ?? ".review");
  else if (event.key === "Home") go(0, focusSelector(document.activeElement) ?? ".review");
  else if (event.key === "End") go(board.data.steps - 1, focusSelector(document.activeElement) ?? ".review");
  else if (event.key === "Escape") {
    const close = overlay("review").querySelector('[data-action="close-review"]');
    if (close) close.click();
  } else return;
  event.preventDefault();
  event.stopPropagation();
}

function engine() {
  return window.durakReview; // web/review/table-review.js: messages to the engine worker
}

// ------------------------------------------------------------------ files
function download(name, text, type) {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch (error) {
    console.warn("durak: the clipboard refused:", error);
    return false;
  }
}

// A review or the history asked for (a record opened from the new-game dialog's page) comes first: a modal
// dialog would stay above it.
function closeDialogs() {
  for (const dialog of document.querySelectorAll("dialog[open]")) dialog.close();
}

// While a screen is open, the table behind it is inert: Tab stays in the screen, as aria-modal says.
function backgroundInert() {
  const open = !overlay("review").hidden || !overlay("history").hidden;
  for (const id of ["app", "over", "cover"]) {
    const element = document.getElementById(id);
    if (element) element.inert = open;
  }
}

let opener = null; // the element that had focus before a screen opened, to give it back

function remember() {
  const active = document.activeElement;
  if (active && active !== document.body && !active.closest(".review-overlay")) opener = active;
}

function giveBack() {
  if (opener && opener.isConnected) opener.focus({ preventScroll: true });
  opener = null;
}

window.durakReviewUI = {
  prepare: boardStyles,
  open(json) {
    const data = JSON.parse(json);
    boardStyles();
    closeDialogs();
    remember();
    overlay("history").hidden = true;
    board = { data, step: 0, open: Boolean(data.open), verdicts: new Map(), progress: null, estimate: null };
    draw(null, true);
    // The screen's first frame draws the board; focus (which computes the styles at once) waits for it, the
    // move list is written a task later, and the table behind turns inert a task after that (its whole tree
    // is restyled): four pieces of work, none over 50 ms on a busy phone.
    const shown = board;
    requestAnimationFrame(() => {
      if (board !== shown) return;
      overlay("review").querySelector(".review").focus({ preventScroll: true });
      setTimeout(() => {
        if (board !== shown) return;
        const list = overlay("review").querySelector(".move-list");
        if (list && !list.children.length) list.innerHTML = moveListHtml();
        setTimeout(() => {
          if (board === shown) backgroundInert();
        }, 0);
      }, 0);
    });
  },
  update(json) {
    if (!board) return;
    const { verdicts, progress } = JSON.parse(json);
    for (const verdict of verdicts) board.verdicts.set(verdict.move, verdict);
    const before = board.progress ? board.progress.turning : null;
    const changed = new Set(verdicts.map((verdict) => verdict.move));
    // An estimate is redrawn when it appears, changes grade or gives way (to its verdict, or to pending):
    // not at each refinement, which a screen reader would read out every quarter of a second.
    const [old, next] = [board.estimate, progress.estimate ?? null];
    if (old && (!next || next.move !== old.move)) changed.add(old.move);
    if (next && (!old || old.move !== next.move || old.grade !== next.grade)) changed.add(next.move);
    board.progress = progress;
    board.estimate = progress.estimate ?? null;
    refresh(changed, { changed: before !== progress.turning, move: progress.turning, before });
  },
  close() {
    board = null;
    const root = overlay("review");
    root.hidden = true;
    root.innerHTML = "";
    backgroundInert();
    if (!overlay("history").hidden) {
      const first = overlay("history").querySelector("button");
      if (first) first.focus({ preventScroll: true });
    } else giveBack();
  },
  history(html) {
    const root = overlay("history");
    if (!html) {
      root.hidden = true;
      root.innerHTML = "";
      backgroundInert();
      giveBack();
      return;
    }
    const wasOpen = !root.hidden;
    closeDialogs();
    if (!wasOpen) remember();
    const keep = wasOpen ? focusSelector(document.activeElement) : null;
    root.innerHTML = html;
    root.hidden = false;
    backgroundInert();
    const again = keep && root.querySelector(keep);
    (again && !again.disabled ? again : root.querySelector("h2 + button, button")).focus({ preventScroll: true });
  },
  step() {
    return board ? board.step : null;
  },
  download,
  copy,
};

overlay("history");
overlay("review").addEventListener("click", onReviewClick);
overlay("review").addEventListener("keydown", onReviewKey);
overlay("review").addEventListener("change", (event) => {
  const picker = event.target.closest && event.target.closest("[data-review-seat]");
  if (picker && engine()) engine().reviewSeat(Number(picker.value));
});
overlay("history").addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  const close = overlay("history").querySelector('[data-action="close-history"]');
  if (close) {
    event.preventDefault();
    event.stopPropagation();
    close.click();
  }
});
document.documentElement.dataset.reviewUi = "ready";
