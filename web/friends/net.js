// The network side of "play with friends", on the page's main thread: web/friends/table-net.js relays it to the
// engine worker, where web/friends/netpage.py's host or friend's seat calls it by messages (window.durakNet).
//
// - WebRTC: one RTCPeerConnection per link, each with one negotiated, ordered data channel (id 0), no
//   STUN or TURN unless the player typed one. The host sets its own ICE username and password in the
//   offer, and keeps one DTLS certificate per seat in IndexedDB, so the offer inside an invite link stays
//   answerable after a drop or a reload of the host's page: a new connection with the same credentials
//   and certificate accepts a fresh answer to the old offer (its old candidates are found again by ICE).
//   Offers and answers are complete (gathering finished, or 3 s passed): no trickle, no signalling server.
// - Tabs of one browser: a BroadcastChannel per link, with the same messages.
// - Relays: a link met through public signalling relays (web/friends/relay.js, loaded on first use with the
//   library it drives): one invite link, no reply code; its strings travel sealed with the seat's key.
// - QR codes: drawn as SVG with qrcode-generator, loaded the first time a code is drawn; read from the camera
//   with BarcodeDetector where the browser has it, else with jsQR (loaded on first use). Neither is needed
//   before an invite exists, so neither is in a first visit's downloads or the service worker's precache.
// Messages are strings; their checking belongs to Python (web/table/protocol.py). Size is capped here too, so
// a huge message never crosses into Python.

let qrLibrary = null; // qrcode-generator's module, once asked for

const MAX_MESSAGE = 64 * 1024; // characters: the host's largest message is a few kB
// A link may pass 40 messages at once, then 40 a second, into Python; the host's own allowance (web/table/host.py)
// is half that, so it still sees a flood and says so, but a flood never keeps the page's main thread busy.
const BURST = 40;
const RATE = 40;

function allow(link) {
  const now = performance.now();
  link.tokens = Math.min(BURST, (link.tokens === undefined ? BURST : link.tokens) + ((now - (link.at || now)) * RATE) / 1000);
  link.at = now;
  if (link.tokens < 1) return false;
  link.tokens -= 1;
  return true;
}
const GATHER_MS = 3000;
const TABLE_CHANNEL = "durak-table";

const links = new Map(); // key -> {pc, channel}, {tab: BroadcastChannel} or {meeting} (a relay's room)
let onMessage = () => {};
let onState = () => {};
let replies = null; // the host's channel for replies forwarded by other tabs

function openDb() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open("durak-net", 1);
    request.onupgradeneeded = () => request.result.createObjectStore("certs");
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function certificate(name) {
  // The seat's DTLS certificate, the same one after a reload (its fingerprint is in the invite link).
  let db = null;
  try {
    db = await openDb();
    const found = await new Promise((resolve) => {
      const get = db.transaction("certs").objectStore("certs").get(name);
      get.onsuccess = () => resolve(get.result);
      get.onerror = () => resolve(undefined);
    });
    if (found && found.expires > Date.now() + 86400000) return found;
  } catch (error) {
    db = null; // private mode without IndexedDB: a new certificate (a reload then needs a new invite)
  }
  const cert = await RTCPeerConnection.generateCertificate({ name: "ECDSA", namedCurve: "P-256" });
  if (db) {
    await new Promise((resolve) => {
      const put = db.transaction("certs", "readwrite").objectStore("certs").put(cert, name);
      put.onsuccess = resolve;
      put.onerror = resolve;
    });
  }
  return cert;
}

function gathered(pc) {
  return new Promise((resolve) => {
    if (pc.iceGatheringState === "complete") return resolve();
    const timer = setTimeout(resolve, GATHER_MS);
    pc.addEventListener("icegatheringstatechange", () => {
      if (pc.iceGatheringState === "complete") {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

function parseIce(text) {
  // "stun:host:port" or "turn:user:password@host:port", several separated by spaces or commas.
  const servers = [];
  for (const item of String(text || "").split(/[\s,]+/).filter(Boolean)) {
    const match = /^(stuns?|turns?):(?:([^:@]+):([^@]+)@)?(.+)$/.exec(item);
    if (!match) throw new Error(item);
    const server = { urls: `${match[1]}:${match[4]}` };
    if (match[2]) Object.assign(server, { username: match[2], credential: match[3] });
    servers.push(server);
  }
  return servers;
}

function closeLink(key) {
  const link = links.get(key);
  if (!link) return;
  links.delete(key);
  try {
    if (link.pc) link.pc.close();
    if (link.tab) link.tab.close();
    if (link.meeting) link.meeting.leave();
  } catch (error) {
    /* already closed */
  }
}

function wire(key, pc) {
  const channel = pc.createDataChannel("durak", { negotiated: true, id: 0, ordered: true });
  const link = { pc, channel, open: false };
  const closed = () => {
    if (links.get(key) !== link) return; // replaced: the newer link speaks for this key
    if (link.open) {
      link.open = false;
      onState(key, "closed");
    }
  };
  channel.onopen = () => {
    link.open = true;
    onState(key, "open");
  };
  channel.onclose = closed;
  channel.onmessage = (event) => {
    if (!allow(link)) return;
    if (typeof event.data === "string" && event.data.length <= MAX_MESSAGE) onMessage(key, event.data);
    else onMessage(key, null); // too large or binary: Python answers it without reading it
  };
  pc.onconnectionstatechange = () => {
    if (["failed", "closed", "disconnected"].includes(pc.connectionState)) closed();
  };
  closeLink(key);
  links.set(key, link);
  return link;
}

const net = {
  /** Callbacks from Python: message(key, text|null) and state(key, "open"|"closed"). */
  listen(message, state) {
    onMessage = message;
    onState = state;
  },

  /** Host: a new connection for `key` whose offer carries these ICE credentials; resolves to its SDP. */
  async offer(key, ufrag, pwd, ice, certName) {
    const cert = await certificate(certName);
    const pc = new RTCPeerConnection({ iceServers: parseIce(ice), certificates: [cert] });
    wire(key, pc);
    const offer = await pc.createOffer();
    const sdp = offer.sdp
      .replace(/a=ice-ufrag:.*\r\n/g, `a=ice-ufrag:${ufrag}\r\n`)
      .replace(/a=ice-pwd:.*\r\n/g, `a=ice-pwd:${pwd}\r\n`);
    await pc.setLocalDescription({ type: "offer", sdp });
    await gathered(pc);
    return pc.localDescription.sdp;
  },

  /** Host: the friend's answer to the offer of `key`. */
  async accept(key, sdp) {
    const link = links.get(key);
    if (!link || !link.pc) throw new Error("no invite is waiting for this reply");
    await link.pc.setRemoteDescription({ type: "answer", sdp });
  },

  /** Guest: answer the invite's offer; resolves to the answer's SDP. */
  async answer(key, sdp, ice) {
    const pc = new RTCPeerConnection({ iceServers: parseIce(ice) });
    wire(key, pc);
    await pc.setRemoteDescription({ type: "offer", sdp });
    await pc.setLocalDescription(await pc.createAnswer());
    await gathered(pc);
    return pc.localDescription.sdp;
  },

  /**
   * Meet the other side of link `key` ("room<i>" for the host's seat i, "room" for a friend) through the
   * signalling relays: `side` "host" or "guest", `room` the room's id, `secret` the seat's key (base64url),
   * `relays` comma-separated ws(s) URLs ("" for the default list). Resolves once the room is joined; the
   * link's state then comes as "open", "closed", "unreachable" (no relay answered) or "taken".
   */
  async meet(key, side, room, secret, relays, ice) {
    const relay = await import("./relay.js");
    closeLink(key);
    const link = { meeting: null };
    links.set(key, link);
    const meeting = await relay.meet({
      key, side, room, secret, relays: relay.parseRelays(relays), ice: parseIce(ice), allow,
      events: {
        state: (from, state) => links.get(key) === link && onState(from, state),
        message: (from, text) => links.get(key) === link && onMessage(from, text),
      },
    });
    if (links.get(key) === link) link.meeting = meeting;
    else meeting.leave();
    return "";
  },

  send(key, text) {
    const link = links.get(key);
    if (link && link.meeting) return link.meeting.send(text);
    try {
      if (link && link.channel && link.open) {
        link.channel.send(text);
        return true;
      }
      if (link && link.tab) {
        link.tab.postMessage(text);
        return true;
      }
    } catch (error) {
      return false;
    }
    return false;
  },

  close(key) {
    const link = links.get(key);
    closeLink(key);
    if (link && link.tab) link.tab.postMessage(null); // tells the other tab that this link is over
  },

  isOpen(key) {
    const link = links.get(key);
    return Boolean(link && (link.open || link.tab || (link.meeting && link.meeting.isOpen())));
  },

  // ---- tabs of one browser ------------------------------------------------------------------
  /** Host: answer knocks from tabs that opened an invite; `admit(seat)` says whether the seat is a friend's. */
  serveTabs(admit) {
    const table = new BroadcastChannel(TABLE_CHANNEL);
    table.onmessage = (event) => {
      const data = event.data;
      if (!data || data.k !== "knock" || typeof data.nonce !== "string" || !/^[a-z0-9]{8,32}$/.test(data.nonce)) return;
      if (!admit(Number(data.seat))) return;
      const key = `tab:${data.nonce}`;
      net.openTab(key, `durak-link-${data.nonce}`);
      table.postMessage({ k: "welcome", nonce: data.nonce });
      onState(key, "open");
    };
    return true;
  },

  /** Guest: is a table open in another tab of this browser? Resolves to the link key, or "" after 400 ms. */
  knock(seat) {
    return new Promise((resolve) => {
      const nonce = Array.from(crypto.getRandomValues(new Uint8Array(8)), (b) => b.toString(16).padStart(2, "0")).join("");
      const table = new BroadcastChannel(TABLE_CHANNEL);
      const done = (key) => {
        clearTimeout(timer);
        table.close();
        resolve(key);
      };
      const timer = setTimeout(() => done(""), 400);
      table.onmessage = (event) => {
        if (event.data && event.data.k === "welcome" && event.data.nonce === nonce) {
          const key = `tab:${nonce}`;
          net.openTab(key, `durak-link-${nonce}`);
          done(key);
        }
      };
      table.postMessage({ k: "knock", seat, nonce });
    });
  },

  openTab(key, name) {
    closeLink(key);
    const tab = new BroadcastChannel(name);
    const link = { tab };
    links.set(key, link);
    tab.onmessage = (event) => {
      if (event.data !== null && !allow(link)) return;
      if (event.data === null) {
        closeLink(key);
        onState(key, "closed");
      } else if (typeof event.data === "string" && event.data.length <= MAX_MESSAGE) onMessage(key, event.data);
      else onMessage(key, null);
    };
  },

  /** A reply link opened on the host's device: hand the reply to the table's tab; resolves to true if one took it. */
  forwardReply(code) {
    return new Promise((resolve) => {
      const table = new BroadcastChannel(TABLE_CHANNEL);
      const timer = setTimeout(() => {
        table.close();
        resolve(false);
      }, 600);
      table.onmessage = (event) => {
        if (event.data && event.data.k === "reply-taken") {
          clearTimeout(timer);
          table.close();
          resolve(true);
        }
      };
      table.postMessage({ k: "reply", code: String(code).slice(0, 2000) });
    });
  },

  /** Host: replies forwarded from other tabs reach `take(code)`; `replyTaken()` tells the tab one was used. */
  takeReplies(take) {
    replies = new BroadcastChannel(TABLE_CHANNEL);
    replies.onmessage = (event) => {
      const data = event.data;
      if (data && data.k === "reply" && typeof data.code === "string") take(data.code);
    };
  },

  replyTaken() {
    if (replies) replies.postMessage({ k: "reply-taken" });
  },

  // ---- QR codes -----------------------------------------------------------------------------
  /** An SVG drawing of `text` as a QR code (error correction L: the smallest code for a link). Rejects when
   * the library cannot load (offline before any invite was drawn); the next call tries again. */
  async qr(text) {
    qrLibrary ??= import("../vendor/qr/qrcode.mjs").catch((error) => {
      qrLibrary = null;
      throw error;
    });
    const { default: qrcode } = await qrLibrary;
    const code = qrcode(0, "L");
    code.addData(String(text), "Byte");
    code.make();
    const n = code.getModuleCount();
    let path = "";
    for (let r = 0; r < n; r += 1) {
      for (let c = 0; c < n; c += 1) if (code.isDark(r, c)) path += `M${c + 4} ${r + 4}h1v1h-1z`;
    }
    const size = n + 8;
    return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges" aria-hidden="true"><rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${path}"/></svg>`;
  },

  /** Read a QR code from the camera into `video`; resolves to its text, or "" when stopped. */
  async scan(video) {
    const stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" } });
    net.scanning = stream;
    video.srcObject = stream;
    await video.play();
    let detect;
    if ("BarcodeDetector" in window) {
      const detector = new window.BarcodeDetector({ formats: ["qr_code"] });
      detect = async () => {
        const found = await detector.detect(video);
        return found.length ? found[0].rawValue : "";
      };
    } else {
      await import("../vendor/qr/jsQR.js");
      const canvas = document.createElement("canvas");
      const context = canvas.getContext("2d", { willReadFrequently: true });
      detect = async () => {
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        if (!canvas.width) return "";
        context.drawImage(video, 0, 0);
        const image = context.getImageData(0, 0, canvas.width, canvas.height);
        const found = self.jsQR(image.data, image.width, image.height, { inversionAttempts: "dontInvert" });
        return found ? found.data : "";
      };
    }
    try {
      while (net.scanning === stream) {
        const text = await detect();
        if (text) return text;
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      return "";
    } finally {
      net.stopScan(stream);
      video.srcObject = null;
    }
  },

  stopScan(stream) {
    const current = stream || net.scanning;
    if (current) current.getTracks().forEach((track) => track.stop());
    if (!stream || net.scanning === stream) net.scanning = null;
  },
  scanning: null,
};

// Tabs learn that a tab on the other end closed or reloaded (a data channel notices by itself).
addEventListener("pagehide", () => {
  for (const link of links.values()) if (link.tab) link.tab.postMessage(null);
});

window.durakNet = net;
