// Fuzzing web/friends/envelope.js's decoder in Node (WebCrypto is global there): every malformed, altered,
// replayed, misdirected or foreign envelope opens to null, never throws; real ones open once.
//   node tests/browser/friends/fuzz_envelope.mjs [count] [seed]
// Prints one JSON line {"malformed": n, "accepted": 0, "threw": 0, "genuine": m}; exits 1 on any failure.
// tests/browser/friends/test_envelope.py runs it.
import { importKey, open, seal, toBase64url, MAX_ENVELOPE, MAX_TEXT } from "../../../web/friends/envelope.js";

const count = Number(process.argv[2] || 10000);
let seed = Number(process.argv[3] || 1) >>> 0;
function random() {
  // xorshift32: the same inputs on every run with the same seed
  seed ^= seed << 13;
  seed >>>= 0;
  seed ^= seed >>> 17;
  seed ^= seed << 5;
  seed >>>= 0;
  return seed / 0x100000000;
}
const int = (n) => Math.floor(random() * n);
const bytes = (n) => Uint8Array.from({ length: n }, () => int(256));
const pick = (items) => items[int(items.length)];

const keyText = toBase64url(bytes(16));
const otherKeyText = toBase64url(bytes(16));
const key = await importKey(keyText);
const otherKey = await importKey(otherKeyText);
const where = { room: "r00m", channel: "msg", from: "alice", to: "bob" };
const genuine = [];
for (let i = 1; i <= 40; i += 1) {
  const text = pick(['{"t":"act","seat":1,"seq":3,"action":"attack 8H"}', "", "é☃𝄞", "x".repeat(int(3000))]);
  genuine.push({ counter: i, text, data: await seal(key, { ...where, counter: i }, text) });
}

const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.=+/ \u0000\u00e9\ud800";
function randomText(n) {
  let text = "";
  for (let i = 0; i < n; i += 1) text += alphabet[int(alphabet.length)];
  return text;
}
function flip(data) {
  const chars = [...data];
  const at = 2 + int(chars.length - 2);
  chars[at] = pick([..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"].filter((c) => c !== chars[at]));
  return chars.join("");
}

// Each kind makes one malformed input and the context it is opened in (a replay is opened after its counter).
const kinds = [
  () => [randomText(int(200)), where],
  () => ["1." + randomText(int(400)), where],
  () => ["1." + toBase64url(bytes(int(120))), where],
  () => ["2" + pick(genuine).data.slice(1), where], // another version
  () => {
    const real = pick(genuine).data;
    return [real.slice(0, 2 + int(real.length - 2)), where]; // cut short
  },
  () => [flip(pick(genuine).data), where], // one character altered
  () => [pick(genuine).data + pick(["A", "AA", "=", "."]), where], // trailing bytes
  () => {
    const real = pick(genuine);
    return [real.data, { ...where, after: real.counter + int(5) }]; // replayed
  },
  () => [pick(genuine).data, { ...where, room: "another" }],
  () => [pick(genuine).data, { ...where, channel: "ctl" }],
  () => [pick(genuine).data, { ...where, from: "mallory" }],
  () => [pick(genuine).data, { ...where, from: "bob", to: "alice" }], // reflected back
  () => [pick(genuine).data, { ...where, key: otherKey }], // the wrong key
  () => [pick([null, undefined, 42, {}, [], true, new Uint8Array(30)]), where],
  () => ["1." + "A".repeat(MAX_ENVELOPE), where], // oversized
  () => ["1." + toBase64url(new Uint8Array([0, 0, 0, 0, ...bytes(40)])), where], // counter 0
];

let malformed = 0;
let accepted = 0;
let threw = 0;
const failures = [];
for (let i = 0; i < count; i += 1) {
  const kind = i % kinds.length;
  const [data, context] = kinds[kind]();
  malformed += 1;
  try {
    const result = await open(context.key || key, context, data);
    if (result !== null) {
      accepted += 1;
      if (failures.length < 5) failures.push({ kind, data: String(data).slice(0, 80) });
    }
  } catch (error) {
    threw += 1;
    if (failures.length < 5) failures.push({ kind, error: String(error) });
  }
}

// The genuine ones open, in order, to their text; each only once.
let opened = 0;
let after = 0;
for (const real of genuine) {
  const result = await open(key, { ...where, after }, real.data);
  if (result && result.text === real.text && result.counter === real.counter) opened += 1;
  after = real.counter;
  if ((await open(key, { ...where, after }, real.data)) !== null) failures.push({ replay: real.counter });
}
let tooLong = false;
try {
  await seal(key, { ...where, counter: 1 }, "x".repeat(MAX_TEXT + 1));
} catch {
  tooLong = true;
}
if (!tooLong) failures.push("a text over MAX_TEXT was sealed");
if ((await importKey("short")) !== null || (await importKey(otherKeyText.replace(/./, "!"))) !== null) {
  failures.push("a damaged key was imported");
}

console.log(JSON.stringify({ malformed, accepted, threw, genuine: opened, failures }));
process.exit(accepted || threw || opened !== genuine.length || failures.length ? 1 : 0);
