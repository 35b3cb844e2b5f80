// Meeting through public signalling relays: one link per invite, no reply code. Loaded by net.js only when
// someone plays with friends (a dynamic import), with the library it drives.
//
// Trystero's WebTorrent-tracker strategy (web/vendor/trystero/torrent.mjs, bundled from npm by
// scripts/vendor.py) finds the other browser: both join a room named by a hash of the seat's own id
// (web/friends/netpage.py's `room_id`), and Trystero encrypts each offer and answer with AES-GCM under a key
// derived from the seat's 128-bit key (`k=` in the invite link's fragment), so a tracker sees a room hash,
// random peer ids and ciphertext. The game then runs over the data channel Trystero opens, with no
// STUN or TURN unless the player typed one; every string on it is sealed once more with the seat's key
// (web/friends/envelope.js), so what opens is only what the other holder of the key sent, to this peer,
// in this session, once.
//
// One room per link key: the host's `room<i>` for friend seat i, the friend's `room`. Each side says its
// role first (a sealed `ctl` "host" or "guest"); the host's seat binds one friend and tells it "seated",
// and only then does the friend's page bind to the host. A second friend on the same link while the
// seated one answers a ping is told "taken" instead (friends' pages on one link, which meet each other
// in the room too, ignore each other).
// Trackers matter only for meeting: once the channel is open, the game goes on without them.
import { joinRoom, getRelaySockets, selfId } from "../vendor/trystero/torrent.mjs";
import { importKey, open, seal, MAX_TEXT } from "./envelope.js";

const APP = "durak";
export const DEFAULT_RELAYS = [
  "wss://tracker.webtorrent.dev",
  "wss://tracker.openwebtorrent.com",
  "wss://tracker.btorrent.xyz",
  "wss://tracker.files.fm:7073/announce",
];
const REACH_MS = 5000; // no tracker open by then: the page falls back to reply codes
const PING_MS = 2500; // a seated friend who does not answer a ping this long is gone
const REJOIN_MS = 6000; // a friend's page alone in its room joins again this often
const LEAVE_MS = 3000; // longest wait for leaving the room before joining it again
const HANDSHAKE_MS = 15000; // an answered connection not open by then is taken as stuck: rejoining goes on
const ROLE = { host: "host", guest: "guest" };

/**
 * The peer connections Trystero makes (its `rtcPolyfill`), and whether one of them is being set up: the
 * other side has answered and it is neither open nor given up. On a slow phone or network that can take
 * longer than REJOIN_MS, and leaving the room would close it and start over, again and again.
 */
function watchedConnections() {
  const answered = new Map(); // connection -> when its answer came
  class WatchedConnection extends RTCPeerConnection {
    setRemoteDescription(...args) {
      answered.set(this, performance.now());
      return super.setRemoteDescription(...args);
    }
  }
  const settingUp = () => {
    const now = performance.now();
    for (const [connection, since] of answered) {
      const open = connection.connectionState === "connected";
      const over = ["failed", "closed"].includes(connection.connectionState) || connection.signalingState === "closed";
      if (open || over || now - since > HANDSHAKE_MS) answered.delete(connection);
    }
    return answered.size > 0;
  };
  return { WatchedConnection, settingUp };
}

/**
 * Join the room of link `key` and report it through `events`: state(key, "open" | "closed" |
 * "unreachable" | "taken"), message(key, text). `side` is "host" or "guest"; `relays` a list of ws(s) URLs
 * (empty: the default list); `ice` the RTCPeerConnection's ICE servers.
 */
export async function meet({ key, side, room, secret, relays, ice, allow, events }) {
  const aes = await importKey(secret);
  if (!aes) throw new Error("the invite's key is damaged");
  const other = side === ROLE.host ? ROLE.guest : ROLE.host;
  const urls = relays.length ? relays : DEFAULT_RELAYS;
  // The host's room is passive: it answers the offers a friend's page announces, and makes none, so the
  // two never wait on each other's next announce (a tracker asks for one every two minutes).
  const connections = watchedConnections();
  const config = {
    appId: APP, password: secret, passive: side === ROLE.host,
    relayConfig: { urls, warnOnRelayFailure: false }, rtcConfig: { iceServers: ice },
    ...(side === ROLE.guest ? { rtcPolyfill: connections.WatchedConnection } : {}), // only a guest rejoins
  };
  let trystero = null;
  let msg = null;
  let ctl = null;
  // peer id -> {sent, got: {msg, ctl}, role, out, in}: `out` and `in` chain the peer's envelopes, so they are
  // sealed and opened in order (counters only rise)
  const peers = new Map();
  const link = { bound: "", closed: false, tokens: undefined, at: 0 };
  let reached = false;

  const peer = (id) => {
    if (!peers.has(id)) peers.set(id, { sent: 0, got: { msg: 0, ctl: 0 }, role: "", out: Promise.resolve(), in: Promise.resolve() });
    return peers.get(id);
  };
  function post(action, channel, id, text) {
    const state = peer(id);
    state.sent += 1;
    const counter = state.sent;
    state.out = state.out
      .then(() => seal(aes, { room, channel, from: selfId, to: id, counter }, text))
      .then((data) => action.send(data, { target: id }))
      .catch(() => {}); // the peer left: its leave event says so
  }
  /** Resolves to the text of a peer's envelope, or null: opened in arrival order, after the previous one. */
  function receive(channel, data, id) {
    if (link.closed || typeof id !== "string" || !peers.has(id)) return Promise.resolve(null);
    const state = peers.get(id);
    const opened = state.in.then(async () => {
      const found = await open(aes, { room, channel, from: id, to: selfId, after: state.got[channel] }, data);
      if (!found || found.counter <= state.got[channel]) return null;
      state.got[channel] = found.counter;
      return found.text;
    });
    state.in = opened.catch(() => null);
    return opened;
  }
  const bind = (id) => {
    const was = link.bound;
    link.bound = id;
    if (was) events.state(key, "closed");
    events.state(key, "open");
  };
  const unbind = (id) => {
    if (link.bound !== id) return;
    link.bound = "";
    events.state(key, "closed");
  };
  async function alive(id) {
    try {
      await Promise.race([trystero.ping(id), new Promise((_, reject) => setTimeout(reject, PING_MS))]);
      return true;
    } catch {
      return false;
    }
  }

  const onControl = async (data, meta) => {
    const id = meta && meta.peerId;
    const text = await receive("ctl", data, id);
    if (text === null) return;
    const state = peers.get(id);
    if (text === other && !state.role) {
      state.role = other;
      if (side === ROLE.host) seat(id);
    } else if (side === ROLE.guest && state.role === ROLE.host) {
      if (text === "seated") bind(id); // the newest host: a reloaded table replaces the old one
      else if (text === "taken" && !link.bound) events.state(key, "taken");
    }
  };
  /** The host: a friend's page on this seat's link takes the seat, unless its player is still there. */
  async function seat(id) {
    const seated = link.bound;
    if (seated && seated !== id && (await alive(seated)) && link.bound === seated) {
      post(ctl, "ctl", id, "taken");
      return;
    }
    if (!peers.has(id) || link.closed) return;
    bind(id);
    post(ctl, "ctl", id, "seated");
  }
  const onMessage = async (data, meta) => {
    const id = meta && meta.peerId;
    if (id !== link.bound || !allow(link)) return;
    const text = await receive("msg", data, id);
    if (text !== null && id === link.bound) events.message(key, text);
  };

  function join() {
    trystero = joinRoom(config, room);
    msg = trystero.makeAction("msg");
    ctl = trystero.makeAction("ctl");
    trystero.onPeerJoin = (id) => {
      peer(id);
      post(ctl, "ctl", id, side);
    };
    trystero.onPeerLeave = (id) => {
      peers.delete(id);
      unbind(id);
    };
    ctl.onMessage = onControl;
    msg.onMessage = onMessage;
  }
  join();
  // A friend's page with no table joins again now and then: its new offers reach a table that came (back)
  // after the last ones (a reload of the host's page), without waiting for the tracker's interval. Not
  // while a table's answer is being set up: that would close it.
  let rejoining = false;
  const again = side === ROLE.guest && setInterval(async () => {
    if (link.closed || rejoining || [...peers.values()].some((state) => state.role === ROLE.host)) return;
    if (connections.settingUp()) return;
    rejoining = true;
    // Trystero's leave first tells the room's peers; one whose channel never opened can hold it up. Then
    // the room stays as it is (it still announces by itself) and the next turn tries again.
    const left = await Promise.race([
      trystero.leave().then(() => true, () => true),
      new Promise((resolve) => setTimeout(() => resolve(false), LEAVE_MS)),
    ]);
    if (left && !link.closed) join();
    rejoining = false;
  }, REJOIN_MS);

  // Unreachable: no relay open after REACH_MS, or sooner once every relay's socket has closed at least once
  // (refused, no such host, offline) with none open: the reply code then shows at once. The room stays
  // joined, so a relay that comes back later still brings the friend.
  let told = false;
  const unreachable = () => {
    if (reached || told || link.closed) return;
    told = true;
    events.state(key, "unreachable");
  };
  const failed = new Set();
  const watch = setInterval(() => {
    if (link.closed) return clearInterval(watch);
    const sockets = Object.entries(getRelaySockets());
    if (sockets.some(([, socket]) => socket.readyState === WebSocket.OPEN)) {
      reached = true;
      clearInterval(watch);
      return;
    }
    for (const [url, socket] of sockets) if (socket.readyState === WebSocket.CLOSED) failed.add(url);
    if (failed.size >= urls.length) unreachable();
  }, 200);
  setTimeout(unreachable, REACH_MS);

  return {
    send(text) {
      if (!link.bound || typeof text !== "string" || text.length > MAX_TEXT) return false;
      post(msg, "msg", link.bound, text);
      return true;
    },
    isOpen: () => Boolean(link.bound),
    leave() {
      link.closed = true;
      link.bound = "";
      clearInterval(watch);
      clearInterval(again);
      trystero.leave().catch(() => {});
    },
  };
}

/** The relay list of a page's `?relays=` value: ws:// or wss:// URLs separated by commas; [] when absent. */
export function parseRelays(text) {
  return String(text || "")
    .split(",")
    .map((url) => url.trim())
    .filter((url) => /^wss?:\/\/[^\s,]{1,200}$/.test(url))
    .slice(0, 8);
}
