// The WebSocket Trystero's tracker strategy talks to signalling relays through: scripts/vendor.py bundles it
// in place of the browser's (esbuild's --inject), so every frame a relay sends is checked before the library
// reads it. A relay is anyone's server: a frame that is not text, too long, not a JSON object, or whose
// fields are not of the types a WebTorrent tracker sends, is dropped unread, and so is everything past
// RATE frames a second (each offer costs the page a peer connection); nothing throws, nothing is logged.

const MAX_FRAME = 64 * 1024; // characters: an encrypted offer or answer is 1-3 kB
const BURST = 40;
const RATE = 20; // frames a second from one relay, after a burst of BURST
const TEXT_FIELDS = ["info_hash", "peer_id", "offer_id", "to_peer_id", "action", "failure reason", "warning message"];
const NUMBER_FIELDS = ["interval", "complete", "incomplete"];

function description(value) {
  return value === undefined || (value !== null && typeof value === "object" && !Array.isArray(value) && typeof value.sdp === "string");
}

/** True when `data` is a frame a WebTorrent tracker may send (its values still untrusted). */
export function trackerFrame(data) {
  if (typeof data !== "string" || data.length > MAX_FRAME) return false;
  let frame;
  try {
    frame = JSON.parse(data);
  } catch {
    return false;
  }
  if (frame === null || typeof frame !== "object" || Array.isArray(frame)) return false;
  if (TEXT_FIELDS.some((key) => key in frame && typeof frame[key] !== "string")) return false;
  if (NUMBER_FIELDS.some((key) => key in frame && typeof frame[key] !== "number")) return false;
  return description(frame.offer) && description(frame.answer);
}

class RelaySocket extends WebSocket {
  #tokens = BURST;
  #at = performance.now();

  #allow() {
    const now = performance.now();
    this.#tokens = Math.min(BURST, this.#tokens + ((now - this.#at) * RATE) / 1000);
    this.#at = now;
    if (this.#tokens < 1) return false;
    this.#tokens -= 1;
    return true;
  }

  get onmessage() {
    return super.onmessage;
  }

  set onmessage(handler) {
    super.onmessage = typeof handler !== "function" ? handler : (event) => {
      if (this.#allow() && trackerFrame(event.data)) handler.call(this, event);
    };
  }
}

export { RelaySocket as WebSocket };
