"""Play with friends, measured in Debian's Chromium: two browser contexts joined over a WebRTC data channel
on this machine (loopback, no STUN), a game played by clicking.

    .venv/bin/python benchmarks/net.py [--games 1] [--pings 100] [--json FILE]

Prints:
- the invite link's and the reply's lengths (goal: invite link <= 400 characters);
- the action round trip host -> friend -> host: from the friend's page sending ``act`` to its page
  receiving the host's next ``state`` (the host's Python checks, applies, builds the seat's message),
  median and worst over every move the friend made (goal: median <= 50 ms on loopback);
- the ping round trip (``ping`` -> ``pong``: the data channel and the host's message check alone);
- the size of each message type, as sent (bytes of JSON), median and largest.

Run after `make setup` (the vendored files and web/modules.zip). Stdlib + Playwright only.
"""

from __future__ import annotations

import argparse
import json
import runpy
import statistics
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
helpers = SimpleNamespace(**runpy.run_path(str(ROOT / "tests" / "browser" / "helpers.py")))
friends = SimpleNamespace(**runpy.run_path(str(ROOT / "tests" / "browser" / "friends" / "peers.py")))
CONFIG = helpers.CONFIG

# The friend's page: each message sent and received on its data channel, with the time.
TIMED_WIRE_JS = """(() => {
  window.__timed = [];
  const create = RTCPeerConnection.prototype.createDataChannel;
  RTCPeerConnection.prototype.createDataChannel = function (...args) {
    const channel = create.apply(this, args);
    channel.addEventListener('message', (e) => window.__timed.push(['in', performance.now(), String(e.data)]));
    const send = channel.send.bind(channel);
    channel.send = (data) => { window.__timed.push(['out', performance.now(), String(data)]); return send(data); };
    return channel;
  };
})();"""

PINGS_JS = """async (count) => {
  const times = [];
  for (let i = 0; i < count; i += 1) {
    const id = 900000 + i;
    const start = performance.now();
    window.durakNet.send('host', JSON.stringify({t: 'ping', id}));
    while (!window.__timed.some((m) => m[0] === 'in' && m[2] === JSON.stringify({t: 'pong', id}))) {
      await new Promise((resolve) => setTimeout(resolve, 0));
    }
    times.push(performance.now() - start);
    await new Promise((resolve) => setTimeout(resolve, 120));  // within the host's flood allowance
  }
  return times;
}"""


def action_round_trips(timed: list[list[Any]]) -> list[float]:
    """For each ``act`` the friend sent, the time until the next ``state`` it received."""
    trips = []
    for index, (direction, at, text) in enumerate(timed):
        if direction != "out" or '"t":"act"' not in text:
            continue
        for later_direction, later_at, later_text in timed[index + 1:]:
            if later_direction == "in" and later_text.startswith('{"t":"state"'):
                trips.append(later_at - at)
                break
    return trips


def sizes(timed: list[list[Any]]) -> dict[str, list[int]]:
    found: dict[str, list[int]] = {}
    for _direction, _at, text in timed:
        try:
            kind = json.loads(text)["t"]
        except (ValueError, KeyError, TypeError):
            continue
        found.setdefault(kind, []).append(len(text.encode("utf-8")))
    return found


def run(games: int, pings: int) -> dict[str, Any]:
    server, base_url = helpers.serve.start_in_background(port=0)
    helpers.rebuild()
    figures: dict[str, Any] = {"trips": [], "pings": [], "sizes": {}, "invite": 0, "reply": 0, "reply_link": 0}
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CONFIG.CHROMIUM_PATH, headless=True,
                                                 args=list(CONFIG.CHROMIUM_ARGS))
            for _ in range(games):
                host = browser.new_context(viewport=dict(CONFIG.VIEWPORT)).new_page()
                friends.deal_online(host, base_url, ["friend"])
                link = friends.invite_link(host, 1)
                context = browser.new_context(viewport=dict(CONFIG.VIEWPORT))
                context.add_init_script(TIMED_WIRE_JS)
                guest = context.new_page()
                guest.goto(link)
                friends.wait_state(guest)
                guest.wait_for_selector("[data-testid=reply-code]")
                guest.fill("[data-testid=player-name]", "Ann")
                reply = guest.text_content("[data-testid=reply-code]") or ""
                figures.update(invite=len(link), reply=len(reply),
                               reply_link=len(guest.get_attribute("[data-testid=reply-link]", "href") or ""))
                friends.paste_reply(host, 1, guest)
                pages = [host, guest]
                friends.play_round_robin(pages, friends.all_over(pages))
                figures["pings"] += guest.evaluate(PINGS_JS, pings)
                timed = guest.evaluate("() => window.__timed")
                figures["trips"] += action_round_trips(timed)
                for kind, values in sizes(timed).items():
                    figures["sizes"].setdefault(kind, []).extend(values)
                host.context.close()
                context.close()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--pings", type=int, default=100)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    args = parser.parse_args(argv)
    figures = run(args.games, args.pings)
    trips, pings = figures["trips"], figures["pings"]
    print(f"invite link: {figures['invite']} characters (goal <= 400); reply code: {figures['reply']}; "
          f"reply link: {figures['reply_link']}")
    print(f"action round trip host -> friend -> host: median {statistics.median(trips):.1f} ms, "
          f"worst {max(trips):.1f} ms over {len(trips)} moves (goal: median <= 50 ms)")
    print(f"ping round trip: median {statistics.median(pings):.1f} ms, worst {max(pings):.1f} ms "
          f"over {len(pings)} pings")
    print("message sizes (bytes of JSON): " + "; ".join(
        f"{kind} median {statistics.median(v):.0f}, largest {max(v)} (x{len(v)})"
        for kind, v in sorted(figures["sizes"].items())))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(figures, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
