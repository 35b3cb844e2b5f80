// A local signalling relay for play with friends: the WebTorrent tracker of the npm package
// bittorrent-tracker (its server only: WebSocket, no HTTP announce, no UDP), the protocol the page's
// Trystero strategy speaks (web/friends/relay.js). `make relay RELAY_PORT=<n>` runs it in the foreground on
// ws://127.0.0.1:<n>/; tests (tests/browser/friends/test_relay.py) and self-hosters use it:
//   node scripts/relay.mjs [port] [host]
// It prints "relay: listening on ws://<host>:<port>/" once it accepts connections.
import Server from "bittorrent-tracker/server";

const port = Number(process.argv[2] || process.env.RELAY_PORT || 8000);
const host = process.argv[3] || "127.0.0.1";
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`relay: not a port: ${process.argv[2]}`);
  process.exit(2);
}
// `interval`: WebSocket clients are told to announce every fifth of it, here 10 s (the package's default
// is 2 min): a table's page that already holds a seat then hears a second friend on the seat's link soon.
const server = new Server({ udp: false, http: false, ws: true, stats: false, trustProxy: false, interval: 50_000 });
server.on("error", (error) => {
  console.error(`relay: ${error.message}`);
  process.exit(1);
});
server.on("warning", (error) => console.error(`relay: warning: ${error.message}`));
server.listen(port, host, () => {
  console.log(`relay: listening on ws://${host}:${server.http.address().port}/`);
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => process.exit(0)); // open sockets just drop
