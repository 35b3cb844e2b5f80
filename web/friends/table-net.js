// Play with friends on the table's view port. The host and the friend's seat live in the engine worker
// (web/friends/bridge_net.py, web/friends/netpage.py); WebRTC and BroadcastChannel cannot (a worker has no RTCPeerConnection), so they stay here, in web/friends/net.js. This module relays each
// link's strings and state changes to the worker (`net`, `link`), carries out the worker's calls into
// net.js (`call`, answered by `called`), sends the worker's strings (`net`), writes the friends panel it
// describes (`panel`: #net, body[data-net], body[data-connected]; QR codes drawn here, what the player
// typed kept), and runs the new-game dialog's friends part: the "Play with friends" switch, seat kind
// "friend", the turn timer and the STUN/TURN field. The page's table.js calls it at a few named places.
// net.js (WebRTC, the tabs' channel, the relays) loads when friends first need it: a friend's page at once,
// a host when the worker first calls it; a table without friends never fetches it.

const $ = (id) => document.getElementById(id);
// net.js's methods the worker may call: with an answer (id > 0) or without (id 0)
const CALLS = ["offer", "accept", "answer", "meet", "knock", "forwardReply", "close", "replyTaken"];
const PANEL_ACTIONS = ["online", "connect", "copy", "scan", "hand-to-ai", "wait-friend", "quick"];

/** Whether this browser can read a QR code from a camera (net.js's scan). */
const canScan = () => Boolean(navigator.mediaDevices && navigator.mediaDevices.getUserMedia);

/** "join" for an invite link, "reply" for a reply link, else "": such a page is a friend's, not a table. */
export function linkKind(hash = location.hash) {
  if (hash.includes("reply=")) return "reply";
  return hash.includes("join=") ? "join" : "";
}

/**
 * The friends part of the view port. `send` posts (or keeps until ready) a message to the worker;
 * `field(name)` is a dialog field; `showNotice(text)` says something; `updateDialog()` redraws the dialog;
 * `seatKinds()` is the dialog's list of seat kinds (index 0 the host's), which the switch changes in place.
 */
export function friendsView({ send, field, showNotice, updateDialog, seatKinds }) {
  const body = document.body;
  const panel = $("net");
  const kind = linkKind();
  const state = {
    online: false, // the dialog's switch: seats are "friend | AI level | you", with a timer
    written: null, // the panel's HTML on screen
    seats: [], // friend seats a tab of this browser may take (the host's)
    name: "", // the name the guest's reply on screen was made with
    words: {},
    serving: false, // this page answers other tabs' knocks and forwarded replies
    qr: new Map(),
  };

  const friends = (action, seat = -1, text = "") => send({ t: "friends", action, seat, text });

  // -- links: net.js's callbacks become messages; a message too large or not text is "dropped" unread
  let loading = null;
  function withNet() {
    loading ||= import("./net.js").then(() => {
      const net = window.durakNet;
      net.listen(
        (peer, text) => send(text === null ? { t: "link", peer, state: "dropped" } : { t: "net", peer, text }),
        (peer, linkState) => send({ t: "link", peer, state: linkState }),
      );
      return net;
    });
    return loading;
  }
  if (kind) withNet();

  function serve() {
    if (state.serving) return;
    state.serving = true;
    withNet().then((net) => {
      net.serveTabs((seat) => state.seats.includes(seat));
      net.takeReplies((code) => friends("reply", -1, code));
    });
  }

  async function call({ id, method, args }) {
    if (!CALLS.includes(method)) return console.error(`durak: no net call ${method}`);
    try {
      const net = await withNet();
      const value = await net[method](...args);
      if (id) send({ t: "called", id, ok: true, value: String(value ?? "") });
    } catch (error) {
      if (id) send({ t: "called", id, ok: false, value: String((error && error.message) || error) });
    }
  }

  // A QR code box gets its drawing as soon as it is made (at once when this text was drawn before); if the
  // library cannot load, the box stays empty and the link beside it still reads and copies.
  function drawQr(box) {
    const text = box.dataset.qr;
    if (!text) return;
    if (state.qr.has(text)) {
      box.innerHTML = state.qr.get(text);
      return;
    }
    withNet().then((net) => net.qr(text)).then(
      (svg) => {
        state.qr.set(text, svg);
        if (box.isConnected && box.dataset.qr === text) box.innerHTML = svg;
      },
      (error) => console.warn(`durak: no QR code drawn: ${error}`),
    );
  }

  // -- the panel: written as the worker describes it, keeping what the player typed and where the caret was
  function writePanel(html) {
    const typed = new Map([...panel.querySelectorAll("textarea[id], input[id]")].map((el) => [el.id, el.value]));
    const active = panel.contains(document.activeElement) ? document.activeElement : null;
    const caret = active && "selectionStart" in active ? [active.selectionStart, active.selectionEnd] : null;
    panel.innerHTML = html;
    state.written = html;
    for (const [id, value] of typed) {
      const element = panel.querySelector(`#${CSS.escape(id)}`);
      if (element) element.value = value;
    }
    for (const box of panel.querySelectorAll("[data-qr]")) drawQr(box);
    if (!canScan()) for (const button of panel.querySelectorAll('[data-action="scan"]')) button.remove();
    const again = active && active.id ? panel.querySelector(`#${CSS.escape(active.id)}`) : null;
    if (again) {
      again.focus();
      if (caret) again.setSelectionRange(...caret);
    }
  }

  // The guest's reply carries the name: while a newer name is on its way to the worker, the old reply is hidden.
  function freshReply() {
    const input = $("player-name");
    const row = panel.querySelector('[data-testid="reply"] .invite-row');
    if (input && row) row.hidden = input.value !== state.name;
  }

  function showPanel({ html, net: side, connected, show, seats, name, words }) {
    if (side) body.dataset.net = side;
    else body.removeAttribute("data-net");
    body.dataset.connected = connected ? "true" : "false";
    Object.assign(state, { seats, name, words });
    if (side === "host") serve();
    if (html !== state.written) writePanel(html);
    if (!html) panel.hidden = true;
    else if (show) panel.hidden = false;
    freshReply();
  }

  panel.addEventListener("input", (event) => {
    if (event.target.id !== "player-name") return;
    freshReply();
    friends("name", -1, event.target.value);
  });

  // -- the panel's and the table's buttons
  async function scan(seat, button) {
    const net = await withNet();
    if (net.scanning) return net.stopScan();
    const video = panel.querySelector(`video[data-seat="${seat}"]`);
    let text = "";
    try {
      video.hidden = false;
      button.textContent = state.words.btn_scan_stop;
      text = (await net.scan(video)) || "";
    } catch {
      showNotice(state.words.scan_unavailable);
    } finally {
      video.hidden = true;
      button.textContent = state.words.btn_scan;
    }
    if (!text) return;
    const box = panel.querySelector(`textarea[data-seat="${seat}"]`);
    if (box) box.value = text;
    friends("connect", seat, text);
  }

  /** The click on a `data-action` element, if it is one of play with friends': true when handled. */
  function onAction(action, element) {
    if (!PANEL_ACTIONS.includes(action)) return false;
    const seat = element.hasAttribute("data-seat") ? Number(element.dataset.seat) : -1;
    if (action === "online") setOnline(!state.online);
    else if (action === "connect") friends("connect", seat, panel.querySelector(`textarea[data-seat="${seat}"]`)?.value || "");
    else if (action === "copy") {
      navigator.clipboard?.writeText(element.dataset.copy).catch(() => {});
      element.textContent = state.words.copied;
    } else if (action === "scan") scan(seat, element);
    else if (action === "quick") friends("quick", -1, element.dataset.quick);
    else friends(action, seat);
    return true;
  }

  // -- the new-game dialog
  // The player flipped the switch: the seats left at the default become friends, or back.
  function setOnline(online) {
    state.online = online;
    const kinds = seatKinds();
    for (let seat = 1; seat < kinds.length; seat++) {
      const shown = $(`ng-seat-${seat}`)?.value || kinds[seat];
      kinds[seat] = ["human", "easy", "hard"].includes(shown) ? shown : online ? "friend" : "normal";
    }
    $("ng-seats").replaceChildren(); // the rows are drawn again from `kinds`, with the new choices
    updateDialog();
  }

  const dialog = {
    /** The seat kinds a row offers. */
    kinds: () => (state.online ? ["friend", "easy", "normal", "hard", "human"] : ["easy", "normal", "hard", "human"]),
    /** The kind of a seat row added by a larger player count. */
    fill: () => (state.online ? "friend" : "normal"),
    seats: (kinds) => (state.online ? kinds : kinds.map((seat) => (seat === "friend" ? "normal" : seat))),
    timer: () => (state.online ? Number(field("timer").value) : 0),
    /** The dialog redrawn: the switch's state, and the STUN/TURN field for the worker to check. */
    update() {
      document.querySelector('#ng-form [data-action="online"]').setAttribute("aria-pressed", String(state.online));
      $("ng-online").hidden = !state.online;
      friends("ice", -1, state.online ? field("ice").value : "");
    },
    /** The dialog opens: the STUN/TURN field shows the saved one. */
    open() {
      try {
        const prefs = JSON.parse(localStorage.getItem("durak.prefs") || "{}") || {};
        field("ice").value = typeof prefs.ice === "string" ? prefs.ice : "";
      } catch {
        field("ice").value = "";
      }
    },
  };
  field("ice").addEventListener("input", () => updateDialog());

  return {
    kind,
    dialog,
    onAction,
    /** The durak.* entries a page boots with: an invite's or a reply's page neither resumes nor deals a game. */
    bootStore: (entries) => (kind ? Object.fromEntries(Object.entries(entries).filter(([key]) => key === "durak.prefs")) : entries),
    receivers: {
      panel: showPanel,
      call,
      net: ({ peer, text }) => withNet().then((net) => net.send(peer, text)),
    },
  };
}
