// A hostile signalling relay for tests/browser/friends/test_relay.py: it answers every page that connects with
// a stream of junk (not JSON, JSON of the wrong shapes, a 300 kB frame, offers for another room and forged
// offers for the page's own room, a failure) and echoes each announce back to its sender.
//   node tests/browser/friends/hostile_relay.mjs <port>
// Prints "hostile: listening" once it accepts connections.
import { WebSocketServer } from "ws";

const port = Number(process.argv[2]);
const server = new WebSocketServer({ port, host: "127.0.0.1" });
const junk = [
  "not json",
  "{",
  "[]",
  "null",
  "42",
  '{"info_hash":5}',
  '{"offer":null,"offer_id":"a","peer_id":"b","info_hash":"c"}',
  '{"offer":{"sdp":7},"offer_id":"a","peer_id":"b","info_hash":"c"}',
  '{"offer":{"type":"offer","sdp":"v=0"},"offer_id":"a","peer_id":"b","info_hash":"zzzzzzzzzzzzzzzzzzzz"}',
  "x".repeat(300_000),
  '{"failure reason":"go away"}',
  '{"interval":"soon"}',
];
server.on("connection", (socket) => {
  let sent = 0;
  let room = "";
  const timer = setInterval(() => {
    if (socket.readyState !== 1) return;
    socket.send(junk[sent++ % junk.length]);
    if (room) {
      // a forged offer for the page's own room: not encrypted with its key
      socket.send(JSON.stringify({ action: "announce", info_hash: room, peer_id: `forger${sent}`.padEnd(20, "x"),
        offer_id: `o${sent}`.padEnd(20, "x"), offer: { type: "offer", sdp: `${sent},1,2$QUJD` } }));
    }
  }, 10);
  socket.on("message", (data) => {
    try {
      room = JSON.parse(String(data)).info_hash || room;
    } catch {
      /* not JSON: nothing to learn */
    }
    socket.send(String(data));
  });
  socket.on("close", () => clearInterval(timer));
});
server.on("listening", () => console.log("hostile: listening"));
