"""How long a friend's page takes to meet the table through a signalling relay when both browsers are slow:
the host deals a table for one friend, the friend opens the invite link in a new browser context, and the
time from the friend's page being ready to its data channel being open is measured. Both pages' main
threads are slowed by Chromium's CPU throttling (a slow phone on both sides), the relay is `make relay`'s
(scripts/relay.mjs) on a loopback port, no STUN.

    .venv/bin/python benchmarks/meeting.py [--runs 5] [--throttle 30] [--limit 90] [--root CHECKOUT] [--liftoff-only]

Prints each run's time (or "not met" after --limit seconds) and the median of those that met. --root serves
another checkout (built with `make setup`) for a before/after; --liftoff-only runs Chromium with the behaviour
tests' flags (playwright.config.py's BEHAVIOUR_TEST_ARGS), as the browser tests see it. Run after `make setup`.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "scripts")]
import serve  # noqa: E402  (scripts/ is no package)

from tests.browser.friends import peers  # noqa: E402
from tests.browser.helpers import CONFIG  # noqa: E402

SIZE = {"width": 1280, "height": 800}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def slowed(context: BrowserContext, page: Page, rate: float) -> None:
    context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": rate})


def meet_once(browser: Browser, base_url: str, relay_url: str, rate: float, limit_s: float) -> float | None:
    """Seconds from the friend's page ready to connected, or None when not connected within limit_s."""
    host_context = browser.new_context(base_url=base_url, viewport=SIZE)
    friend_context = browser.new_context(viewport=SIZE)
    try:
        host = host_context.new_page()
        peers.deal_online(host, base_url, ["friend"], relays=relay_url)
        link = peers.invite_link(host, 1)
        slowed(host_context, host, rate)
        friend = friend_context.new_page()
        slowed(friend_context, friend, rate)
        friend.goto(peers.at_instant_speed(link))
        peers.wait_state(friend, 240_000)
        ready = time.monotonic()
        try:
            friend.wait_for_function("document.body.dataset.connected === 'true'", timeout=limit_s * 1000)
        except PlaywrightTimeoutError:
            return None
        return time.monotonic() - ready
    finally:
        friend_context.close()
        host_context.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--throttle", type=float, default=30.0, help="CPU slowdown of both pages (default 30)")
    parser.add_argument("--limit", type=float, default=90.0, help="seconds to wait for the meeting (default 90)")
    parser.add_argument("--root", type=Path, default=ROOT, help="serve this checkout (default: this one)")
    parser.add_argument("--liftoff-only", action="store_true", help="Chromium with the behaviour tests' flags")
    args = parser.parse_args(argv)
    chromium_args = CONFIG.CHROMIUM_ARGS + (CONFIG.BEHAVIOUR_TEST_ARGS if args.liftoff_only else [])

    port = free_port()
    relay = subprocess.Popen(["node", str(ROOT / "scripts" / "relay.mjs"), str(port)], text=True,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    server, base_url = serve.start_in_background(port=0, root=args.root)
    times: list[float | None] = []
    try:
        assert relay.stdout is not None and relay.stdout.readline().startswith("relay: listening")
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CONFIG.CHROMIUM_PATH, args=chromium_args,
                                                 headless=True)
            for run in range(1, args.runs + 1):
                took = meet_once(browser, base_url, f"ws://127.0.0.1:{port}/", args.throttle, args.limit)
                times.append(took)
                print(f"run {run}: " + (f"met {took:.1f} s after the friend's page was ready" if took is not None
                                        else f"not met within {args.limit:.0f} s"), flush=True)
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
        relay.kill()
    met = [took for took in times if took is not None]
    median = f"median {statistics.median(met):.1f} s" if met else "no median"
    print(f"both pages {args.throttle:g}x slower: met in {len(met)} of {len(times)} runs, {median}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
