// Sealed envelopes for links met through a signalling relay (web/friends/relay.js): every string the host
// and a friend exchange there, game messages and the link's own control words, travels as AES-GCM
// ciphertext under the seat's 128-bit key from the invite link's fragment (`&k=`), which no server sees.
//
// Wire form: "1." + base64url(counter (4 bytes, big-endian) | iv (12) | ciphertext and tag (16)).
// The additional data binds each envelope to its room, its channel ("msg" or "ctl"), who sent it to whom
// (the two peers' ids, new on every page load) and its counter, so an envelope replayed, moved to
// another room, channel, peer or session, or altered by one bit, does not open. A receiver accepts
// only counters above the last one it opened from that peer.
//
// No DOM: runs in the page and in Node (tests/browser/friends/fuzz_envelope.mjs).

export const VERSION = "1";
export const MAX_TEXT = 64 * 1024; // characters of plain text: net.js's own cap on a message
const HEAD = 4 + 12;
const TAG = 16;
// base64url of the largest envelope: 4/3 of (head + tag + the text's UTF-8, at most 3 bytes a character)
export const MAX_ENVELOPE = 2 + Math.ceil(((HEAD + TAG + 3 * MAX_TEXT) * 4) / 3);
const B64URL = /^[A-Za-z0-9_-]+$/;
const encoder = new TextEncoder();
const strict = new TextDecoder("utf-8", { fatal: true });

export function toBase64url(bytes) {
  let text = "";
  for (let i = 0; i < bytes.length; i += 0x8000) text += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** Bytes of a base64url text (no padding), or null when it is not one, or not the one way of writing
 * its bytes (unused low bits set): an altered character never decodes to the same bytes. */
export function fromBase64url(text) {
  if (typeof text !== "string" || !B64URL.test(text) || text.length % 4 === 1) return null;
  try {
    const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
    const bytes = Uint8Array.from(raw, (c) => c.charCodeAt(0));
    return toBase64url(bytes) === text ? bytes : null;
  } catch {
    return null;
  }
}

/** The AES-GCM key of an invite's `k=` value (22 base64url characters, 128 bits), or null. */
export async function importKey(text) {
  const raw = typeof text === "string" && text.length === 22 ? fromBase64url(text) : null;
  if (!raw || raw.length !== 16) return null;
  return crypto.subtle.importKey("raw", raw, { name: "AES-GCM" }, false, ["encrypt", "decrypt"]);
}

function additional(room, channel, from, to, counter) {
  return encoder.encode(`durak${VERSION}|${room}|${channel}|${from}>${to}|${counter}`);
}

/** The envelope of `text` (at most MAX_TEXT characters) from peer `from` to peer `to`. */
export async function seal(key, { room, channel, from, to, counter }, text) {
  if (typeof text !== "string" || text.length > MAX_TEXT) throw new RangeError("envelope text too long");
  if (!Number.isInteger(counter) || counter < 1 || counter > 0xffffffff) throw new RangeError("bad counter");
  const iv = crypto.getRandomValues(new Uint8Array(12));
  const sealed = new Uint8Array(
    await crypto.subtle.encrypt({ name: "AES-GCM", iv, additionalData: additional(room, channel, from, to, counter) }, key, encoder.encode(text)),
  );
  const bytes = new Uint8Array(HEAD + sealed.length);
  new DataView(bytes.buffer).setUint32(0, counter);
  bytes.set(iv, 4);
  bytes.set(sealed, HEAD);
  return `${VERSION}.${toBase64url(bytes)}`;
}

/**
 * The text of an envelope from `from` to `to`, and its counter: {counter, text}; null for anything else
 * (not a string, too long, not this version, not base64url, cut short, a counter not above `after`,
 * another room, channel, peer or key, altered, not UTF-8). Never throws.
 */
export async function open(key, { room, channel, from, to, after = 0 }, data) {
  if (typeof data !== "string" || data.length > MAX_ENVELOPE || !data.startsWith(`${VERSION}.`)) return null;
  const bytes = fromBase64url(data.slice(VERSION.length + 1));
  if (!bytes || bytes.length < HEAD + TAG) return null;
  const counter = new DataView(bytes.buffer, bytes.byteOffset).getUint32(0);
  if (counter < 1 || counter <= after) return null;
  try {
    const plain = await crypto.subtle.decrypt(
      { name: "AES-GCM", iv: bytes.subarray(4, HEAD), additionalData: additional(room, channel, from, to, counter) },
      key,
      bytes.subarray(HEAD),
    );
    const text = strict.decode(plain);
    return text.length <= MAX_TEXT ? { counter, text } : null;
  } catch {
    return null;
  }
}
