"""The game page's figures in Debian's Chromium: first paint, time to ready against bare Pyodide, longest task.

    .venv/bin/python benchmarks/page.py [--runs 3] [--turns 12] [--json artifacts/bench-page.json] [PAGE ...]
    .venv/bin/python benchmarks/page.py --phone [--runs 3] [--encodings gzip] [--root DIR] [--breakdown [N]]
    .venv/bin/python benchmarks/page.py --cold [--runs 5] [--encodings br,gzip] [--root DIR] [--against DIR]

`make bench` runs it after `make setup` (ARGS="--runs 5" etc.). Without PAGE, each run measures in
two new browser contexts (interleaved, so both pages see the same machine load):

- the bare Pyodide page (benchmarks/bare.html, the floor): cold (empty cache, wasm compiled
  again), then reloaded (warm: the HTTP cache);
- the game (index.html?...&speed=instant, a table dealt at once): cold, with its first contentful
  paint (the table skeleton is plain HTML/CSS); then, once its service worker controls the page
  and the memory snapshot is saved (see web/worker/engine-boot.mjs), warm without the snapshot
  (`snapshot=off`: files from the service worker's cache only) and warm with it; then the bare
  page again in that context ("warm, SW cache": the same Pyodide files, served by the game's
  service worker).

The ready time is the page's own data-ready-ms, else performance.now() when body[data-state] was
"ready". The ratios are printed against the goals: first paint <= 0.3 s, game cold <= 1.05x bare
cold, game warm (snapshot) <= 0.8x bare warm.

Then one game at normal speed against three hard AIs, played by clicking (--turns human turns;
0 skips it): every main-thread task of 50 ms or more (PerformanceObserver "longtask") that
overlaps an AI turn is recorded, and the longest (goal <= 100 ms) is printed next to the table's
own measure of its longest AI step (body[data-ai]).

With PAGE arguments (paths under the repo root, with any query string) only those pages are
measured: each run opens a new context per page and measures cold, then a reload.

--phone: the first visit on a phone network instead. Each run loads the bare page and the game cold,
interleaved, each in a new context with Chromium's emulation through CDP: 9 Mbit/s down, 3 Mbit/s up,
60 ms latency (Network.emulateNetworkConditions) and the CPU slowed 4x (Emulation.setCPUThrottlingRate);
the server sends the compressed copies (scripts/compress.py) that --encodings allows (default gzip, the
goal's; "br,gzip" as browsers get them from most hosts, "none"). Printed: first paint, ready, and bytes
over the wire until ready (the server's count of body bytes of the responses begun before the page's
ready time, the engine worker's included: not the service worker's precache, which starts at ready and
may run before this script sees it), and for the
game the bytes the server sent for the whole visit (its service worker's precache and the snapshot
worker included, once both are done); then, in a third new context, a newcomer: index.html with no game
in the link, Play tapped as soon as it is visible and enabled, and the time from the navigation's start
to the first card of the hand the player can play (data-playable="true"). --breakdown [N] lists that
visit's N largest files (0: all).
Goals: game <= 5.0 MB with gzip, ready <= 0.9x the bare page.
--root serves another checkout (built with `make setup`), for a before/after.

--cold: only the first visit on loopback, the bare page and the game interleaved in new contexts
(first paint and ready, the goals' ratio): the quick before/after of a change to the cold start.
--against DIR loads a second checkout's game in the same rounds, for a before/after under one load.

--first-visit: a first visit's boot alone (the link names no game: the new-game dialog opens), cold, with
the service worker blocked: first paint, largest paint (the dialog), ready, and the main thread's longest
task from first paint to ready (the goal: none over 50 ms); --against as for --cold.
--restyle: what the browser spends on the dealt table's own style and layout (forced, medians of 15).
"""

from __future__ import annotations

import argparse
import json
import math
import runpy
import statistics
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
# The browser tests' plain helpers: playwright.config.py and scripts/serve.py loaded, the clicking player.
helpers = SimpleNamespace(**runpy.run_path(str(ROOT / "tests" / "browser" / "helpers.py")))
CONFIG = helpers.CONFIG
serve = helpers.serve

BARE = "benchmarks/bare.html"
GAME = "index.html?variant=podkidnoy&players=2&level=normal&seed=1&speed=instant"
PLAY = "index.html?variant=podkidnoy&players=4&level=hard&seed=3&speed=normal"
NEWCOMER = "index.html"  # a first visit: the table with its Play button

SETTLED_JS = "() => !!document.body && ['ready', 'error'].includes(document.body.dataset.state)"
READY_MS_JS = "() => Number(document.body.dataset.readyMs || performance.now())"
#: The page's ready time as wall-clock milliseconds since the epoch.
READY_AT_JS = "() => performance.timeOrigin + Number(document.body.dataset.readyMs || performance.now())"
FCP_JS = """() => { const e = performance.getEntriesByName('first-contentful-paint')[0];
                    return e ? e.startTime : null; }"""
SNAPSHOT_DONE_JS = "() => ['saved', 'failed', 'unsupported'].includes(document.body.dataset.snapshot)"
LONGTASKS_INIT = """
  window.__longtasks = [];
  try {
    new PerformanceObserver(list => { for (const e of list.getEntries())
      window.__longtasks.push([e.startTime, e.duration]); }).observe({type: 'longtask', buffered: true});
  } catch (e) {}
"""

# (row label, key of the ready time, key of the first paint or None) in the order of the printed table
SUITE = (
    ("bare Pyodide, cold", "bare_cold", None),
    ("bare Pyodide, warm (HTTP cache)", "bare_warm_http", None),
    ("bare Pyodide, warm (SW cache)", "bare_warm_sw", None),
    ("game, cold", "game_cold", "paint_cold"),
    ("game, warm (SW cache, no snapshot)", "game_warm_sw", "paint_warm_sw"),
    ("game, warm (SW cache + snapshot)", "game_warm_snapshot", "paint_warm"),
)
GOAL_PAINT_MS = 300
GOAL_COLD = 1.05  # game cold / bare cold, on loopback
GOAL_WARM = 0.8  # game warm (snapshot) / bare warm
GOAL_TASK_MS = 100  # longest main-thread task during AI turns


# ---------------------------------------------------------------------------- loads
def ready_ms(page: Page, timeout_ms: float = CONFIG.READY_TIMEOUT_MS) -> float:
    page.wait_for_function(SETTLED_JS, timeout=timeout_ms)
    state = page.evaluate("() => document.body.dataset.state")
    if state != "ready":
        raise RuntimeError(f"{page.url}: data-state={state!r}")
    value: float = page.evaluate(READY_MS_JS)
    return value


def load(page: Page, url: str, slowdown: float = 1) -> float:
    page.goto(url, timeout=CONFIG.NAVIGATION_TIMEOUT_MS * slowdown)
    return ready_ms(page, CONFIG.READY_TIMEOUT_MS * slowdown)


def first_paint(page: Page) -> float:
    value = page.evaluate(FCP_JS)
    return float("nan") if value is None else float(value)


def settle(page: Page) -> None:
    """Wait until the service worker controls the page and the memory snapshot is made."""
    page.wait_for_function(helpers.CONTROLLED_JS, timeout=CONFIG.READY_TIMEOUT_MS)
    page.wait_for_function(SNAPSHOT_DONE_JS, timeout=90_000)


def suite_run(browser: Browser, base_url: str) -> dict[str, float]:
    """One run of the default suite: {key of SUITE: ms}."""
    times: dict[str, float] = {}
    context = browser.new_context(viewport=CONFIG.VIEWPORT)
    try:
        page = context.new_page()
        times["bare_cold"] = load(page, base_url + BARE)
        page.reload(timeout=CONFIG.NAVIGATION_TIMEOUT_MS)
        times["bare_warm_http"] = ready_ms(page)
    finally:
        context.close()
    context = browser.new_context(viewport=CONFIG.VIEWPORT)
    try:
        page = context.new_page()
        times["game_cold"] = load(page, base_url + GAME)
        times["paint_cold"] = first_paint(page)
        settle(page)
        times["game_warm_sw"] = load(page, base_url + GAME + "&snapshot=off")
        times["paint_warm_sw"] = first_paint(page)
        times["game_warm_snapshot"] = load(page, base_url + GAME)
        times["paint_warm"] = first_paint(page)
        state = page.evaluate("() => document.body.dataset.snapshot")
        if state != "used":
            raise RuntimeError(f"the warm game load did not use the snapshot (data-snapshot={state!r})")
        times["bare_warm_sw"] = load(page, base_url + BARE)
    finally:
        context.close()
    return times


def measure(browser: Browser, url: str, runs: int) -> dict[str, list[float]]:
    """Any page: cold in a new context, then reloaded; `runs` times."""
    cold: list[float] = []
    warm: list[float] = []
    for _ in range(runs):
        context = browser.new_context(viewport=CONFIG.VIEWPORT)
        try:
            page = context.new_page()
            cold.append(load(page, url))
            page.reload(timeout=CONFIG.NAVIGATION_TIMEOUT_MS)
            warm.append(ready_ms(page))
        finally:
            context.close()
    return {"cold": cold, "warm": warm}


# ---------------------------------------------------------------------------- play
def longest_task_in_play(browser: Browser, base_url: str, turns: int) -> dict[str, Any]:
    context = browser.new_context(viewport=CONFIG.VIEWPORT)
    context.add_init_script(LONGTASKS_INIT)
    try:
        page = context.new_page()
        load(page, base_url + PLAY)
        page.wait_for_function(SNAPSHOT_DONE_JS, timeout=90_000)  # the snapshot worker: figures about play alone
        windows: list[tuple[float, float]] = []
        for _ in range(turns):
            state = page.wait_for_function(helpers.TURN_JS, timeout=120_000).json_value()
            if state == "over":
                break
            helpers.click_a_move(page)
            start = page.evaluate("() => performance.now()")
            state = page.wait_for_function(helpers.TURN_JS, timeout=120_000).json_value()
            windows.append((start, page.evaluate("() => performance.now()")))
            if state == "over":
                break
        tasks: list[list[float]] = page.evaluate("() => window.__longtasks")
        in_ai = [d for s, d in tasks if any(s < b and s + d > a for a, b in windows)]
        ai = (page.evaluate("() => document.body.dataset.ai") or "0 0 0 0").split()
        return {"ai_turns": len(windows), "ai_seconds": sum(b - a for a, b in windows) / 1000,
                "longtasks_in_ai_turns": sorted(in_ai, reverse=True), "all_longtasks": len(tasks),
                "ai_moves": int(ai[0]), "ai_think_ms": float(ai[1]), "ai_step_max_ms": float(ai[2]),
                "frame_max_ms": float(ai[3])}
    finally:
        context.close()


# ---------------------------------------------------------------------------- cold loads only
def run_cold(browser: Browser, base_url: str, runs: int, against: str | None = None) -> dict[str, list[float]]:
    """The first visit alone, on loopback: bare page and game cold, interleaved, each in a new context.
    ``against``: the base URL of a second checkout whose game is loaded in the same rounds (a before/after
    under the same machine load)."""
    loads = [("bare_cold", "bare_paint", base_url + BARE), ("game_cold", "paint_cold", base_url + GAME)]
    if against:
        loads.append(("against_cold", "against_paint", against + GAME))
    results: dict[str, list[float]] = {key: [] for load_keys in loads for key in load_keys[:2]}
    for _ in range(runs):
        for key, paint_key, url in loads:
            context = browser.new_context(viewport=CONFIG.VIEWPORT)
            try:
                page = context.new_page()
                results[key].append(load(page, url))
                results[paint_key].append(first_paint(page))
            finally:
                context.close()
    print(f"{'load':40} {'first paint':>22} {'ready':>22}")
    print(f"{'bare Pyodide, cold':40} {summary(results['bare_paint']):>22} {summary(results['bare_cold']):>22}")
    print(f"{'game, cold':40} {summary(results['paint_cold']):>22} {summary(results['game_cold']):>22}")
    if against:
        print(f"{'game (--against), cold':40} {summary(results['against_paint']):>22} "
              f"{summary(results['against_cold']):>22}")
    cold = median(results["game_cold"]) / median(results["bare_cold"])
    paint = median(results["paint_cold"])
    print("goals (medians):")
    print(f"  first paint of the table, cold: {paint:.0f} ms "
          f"(goal <= {GOAL_PAINT_MS} ms: {verdict(paint, GOAL_PAINT_MS)})")
    print(f"  ready, game cold / bare cold: {cold:.2f}x (goal <= {GOAL_COLD}x: {verdict(cold, GOAL_COLD)})")
    if against:
        print(f"  first paint, game / --against: {paint / median(results['against_paint']):.2f}x")
    return results


# ---------------------------------------------------------------------------- the first visit's boot
FIRST_VISIT = "index.html?lang=en&speed=fast"  # no save, no game in the link: the new-game dialog opens
LCP_INIT = """
  window.__lcp = null;
  try {
    new PerformanceObserver(list => { for (const e of list.getEntries()) window.__lcp = e.startTime; })
      .observe({type: 'largest-contentful-paint', buffered: true});
  } catch (e) {}
"""
BOOT_TASK_JS = """(ready) => { const paint = performance.getEntriesByName('first-paint')[0];
  const from = paint ? paint.startTime : 0;
  const tasks = window.__longtasks.filter(([start, length]) => start + length > from && start < ready);
  return [window.__lcp, Math.max(0, ...tasks.map(([, length]) => length))]; }"""
GOAL_BOOT_TASK_MS = 50  # no main-thread task over 50 ms from first paint to ready: the page never stalls


def run_first_visit(browser: Browser, base_url: str, runs: int, against: str | None = None) -> dict[str, list[float]]:
    """A first visit's boot, cold (a new context each, no service worker): its first paint, its largest
    paint (the new-game dialog), ready, and the main thread's longest task from first paint to ready.
    ``against``: a second checkout's, in the same rounds."""
    sites = [("", base_url)] + ([("against_", against)] if against else [])
    results: dict[str, list[float]] = {
        prefix + key: [] for prefix, _ in sites for key in ("paint", "lcp", "ready", "task")}
    for _ in range(runs):
        for prefix, site in sites:
            context = browser.new_context(viewport=CONFIG.VIEWPORT, service_workers="block")
            try:
                context.add_init_script(LONGTASKS_INIT + LCP_INIT)
                page = context.new_page()
                ready = load(page, site + FIRST_VISIT)
                lcp, task = page.evaluate(BOOT_TASK_JS, ready)
                for key, value in (("paint", first_paint(page)), ("lcp", lcp), ("ready", ready), ("task", task)):
                    results[prefix + key].append(float("nan") if value is None else float(value))
            finally:
                context.close()
    print(f"{'first visit (the new-game dialog), cold':40} {'first paint':>16} {'largest paint':>16} "
          f"{'ready':>20} {'longest task':>16}")
    for prefix, label in (("", "this checkout"), ("against_", "--against"))[:len(sites)]:
        print(f"{label:40} {summary(results[prefix + 'paint']):>16} {summary(results[prefix + 'lcp']):>16} "
              f"{summary(results[prefix + 'ready']):>20} {summary(results[prefix + 'task']):>16}")
    over = sum(task > GOAL_BOOT_TASK_MS for task in results["task"])
    print(f"  loads with a task over {GOAL_BOOT_TASK_MS} ms from first paint to ready: {over} of {runs}")
    return results


# ---------------------------------------------------------------------------- the table's own style and layout
DEALT = "index.html?variant=podkidnoy&players=4&level=easy&seed=5&speed=instant&lang=en"
RESTYLE_JS = """() => {
  const median = (change) => { const times = [];
    for (let i = 0; i < 15; i++) { const t0 = performance.now(); change(i); document.body.offsetHeight;
                                   times.push(performance.now() - t0); }
    return times.sort((a, b) => a - b)[7]; };
  const body = document.body, speed = body.dataset.speed;
  const restyle = median((i) => { body.dataset.speed = i % 2 ? 'fast' : 'instant'; });  // body[data-speed] * rules
  body.dataset.speed = speed;
  const relayout = median((i) => { body.style.width = i % 2 ? '1279px' : '1278px'; });  // the page's container
  body.style.width = '';
  return [restyle, relayout]; }"""


def run_restyle(browser: Browser, base_url: str, runs: int, against: str | None = None) -> dict[str, list[float]]:
    """A dealt 4-player table at 1280 px: the median of 15 forced restyles of the whole page and of 15
    relayouts (the page one pixel narrower), per load; ``against`` in the same rounds."""
    sites = [("", base_url)] + ([("against_", against)] if against else [])
    results: dict[str, list[float]] = {prefix + key: [] for prefix, _ in sites for key in ("restyle", "relayout")}
    for _ in range(runs):
        for prefix, site in sites:
            context = browser.new_context(viewport={"width": 1280, "height": 800}, service_workers="block")
            try:
                page = context.new_page()
                load(page, site + DEALT)
                page.locator("#hand [data-card]").first.wait_for()
                restyle, relayout = page.evaluate(RESTYLE_JS)
                results[prefix + "restyle"].append(restyle)
                results[prefix + "relayout"].append(relayout)
            finally:
                context.close()
    print(f"{'a dealt table, 1280 px':40} {'whole restyle':>20} {'relayout':>20}")
    for prefix, label in (("", "this checkout"), ("against_", "--against"))[:len(sites)]:
        restyle, relayout = summary(results[prefix + "restyle"], 1), summary(results[prefix + "relayout"], 1)
        print(f"{label:40} {restyle:>20} {relayout:>20}")
    return results


# ---------------------------------------------------------------------------- phone profile
PHONE = {"latency": 60, "download": 9e6 / 8, "upload": 3e6 / 8, "cpu": 4}  # bytes/s, ms, slow-down
GOAL_PHONE_BYTES = 5.0e6  # with gzip
GOAL_PHONE_READY = 0.9  # game cold / bare cold


PLAY_NOW = "#welcome [data-action=quick-start]"  # a first visit's one tap to a deal (index.html)
FIRST_PLAYABLE_JS = """() => document.querySelector('[data-testid=hand] [data-playable="true"]')
                              ? performance.now() : null"""


def phone_load(browser: Browser, url: str, server: Any, *, settle_after: bool = False,
               newcomer: bool = False) -> dict[str, Any]:
    """One cold load under the phone profile: first paint, ready, bytes and responses until ready.

    The bytes are the server's (every response body until ready, the engine worker's fetches included:
    CDP's page session does not see a dedicated worker's requests); the largest responses by URL are the
    page's own, from CDP. newcomer: tap the first visit's Play as soon as it is visible and enabled, then
    wait for the first card of the hand the player can play ("first_card": ms since the navigation began)."""
    with server.logging:
        server.responses.clear()
        server.response_times.clear()
    context = browser.new_context(viewport={"width": 412, "height": 915}, is_mobile=True, has_touch=True)
    try:
        page = context.new_page()
        cdp = context.new_cdp_session(page)
        cdp.send("Network.enable")
        cdp.send("Network.emulateNetworkConditions", {
            "offline": False, "latency": PHONE["latency"],
            "downloadThroughput": PHONE["download"], "uploadThroughput": PHONE["upload"]})
        cdp.send("Emulation.setCPUThrottlingRate", {"rate": PHONE["cpu"]})
        urls: dict[str, str] = {}
        sizes: dict[str, float] = {}
        cdp.on("Network.responseReceived", lambda e: urls.__setitem__(e["requestId"], e["response"]["url"]))
        cdp.on("Network.loadingFinished", lambda e: sizes.__setitem__(e["requestId"], e["encodedDataLength"]))
        if newcomer:
            page.goto(url, timeout=CONFIG.NAVIGATION_TIMEOUT_MS * PHONE["cpu"])
            timeout = CONFIG.READY_TIMEOUT_MS * PHONE["cpu"]
            page.locator(PLAY_NOW + ":not([disabled])").click(timeout=timeout)
            first_card = float(page.wait_for_function(FIRST_PLAYABLE_JS, timeout=timeout, polling="raf").json_value())
            ready = ready_ms(page, timeout)
            return {"ready": ready, "paint": first_paint(page), "first_card": first_card,
                    "bytes": bytes_until_ready(page, server)}
        ready = load(page, url, slowdown=PHONE["cpu"])
        sent = bytes_until_ready(page, server)
        paint = first_paint(page)
        by_url: dict[str, float] = {}
        for request, size in list(sizes.items()):
            name = urls.get(request, "?").split("?")[0]
            by_url[name] = by_url.get(name, 0) + size
        if settle_after:
            cdp.send("Emulation.setCPUThrottlingRate", {"rate": 1})  # the rest of the visit at full speed
            settle(page)
        return {"ready": ready, "paint": paint, "bytes": sent, "by_url": by_url}
    finally:
        context.close()


def bytes_until_ready(page: Page, server: Any) -> int:
    """Body bytes of the responses the server began before the page was ready (wall clock, same machine)."""
    ready_at = float(page.evaluate(READY_AT_JS)) / 1000
    with server.logging:
        return sum(size for (_, _, size), began in zip(server.responses, server.response_times, strict=True)
                   if began <= ready_at)


def visit_breakdown(responses: list[tuple[str, int, int]]) -> dict[str, int]:
    """Body bytes the server sent per URL path (query strings dropped), largest first."""
    by_path: dict[str, int] = {}
    for path, _, size in responses:
        name = path.split("?")[0]
        by_path[name] = by_path.get(name, 0) + size
    return dict(sorted(by_path.items(), key=lambda item: (-item[1], item[0])))


def print_breakdown(by_path: dict[str, int], top: int) -> None:
    total = sum(by_path.values())
    shown = list(by_path.items())[:top] if top > 0 else list(by_path.items())
    print(f"  the whole first visit by file ({len(by_path)} files, {total / 1e6:.2f} MB; the server's body bytes):")
    for name, size in shown:
        print(f"    {size / 1e3:9,.1f} kB  {100 * size / total:5.1f} %  {name}")
    rest = total - sum(size for _, size in shown)
    if rest:
        print(f"    {rest / 1e3:9,.1f} kB  {100 * rest / total:5.1f} %  ({len(by_path) - len(shown)} other files)")


def run_phone(browser: Browser, base_url: str, server: Any, runs: int, encodings: str,
              breakdown: int | None = None) -> dict[str, Any]:
    results: dict[str, list[Any]] = {"bare": [], "game": [], "visit_bytes": [], "visit_by_path": [], "newcomer": []}
    for _ in range(runs):
        results["bare"].append(phone_load(browser, base_url + BARE, server))
        results["game"].append(phone_load(browser, base_url + GAME, server, settle_after=True))
        results["visit_bytes"].append(sum(size for _, _, size in server.responses))
        results["visit_by_path"].append(visit_breakdown(server.responses))
        results["newcomer"].append(phone_load(browser, base_url + NEWCOMER, server, newcomer=True))
    print(f"phone profile: {PHONE['download'] * 8 / 1e6:.0f} Mbit/s down, {PHONE['latency']} ms, "
          f"CPU {PHONE['cpu']}x slower, served with {encodings}")
    print(f"{'load':22} {'first paint':>20} {'ready':>22} {'MB over the wire':>18}")
    for key, label in (("bare", "bare Pyodide, cold"), ("game", "game, cold")):
        loads = results[key]
        megabytes = statistics.median(x["bytes"] for x in loads) / 1e6
        print(f"{label:22} {summary([x['paint'] for x in loads]):>20} {summary([x['ready'] for x in loads]):>22} "
              f"{megabytes:18.2f}")
    game = results["game"][-1]["by_url"]
    print("  game, the page's largest responses until ready (kB): " + ", ".join(
        f"{name.rsplit('/', 1)[-1]} {size / 1e3:,.0f}" for name, size in sorted(game.items(), key=lambda i: -i[1])[:6]))
    newcomer = results["newcomer"]
    first_card = summary([x["first_card"] for x in newcomer]).strip()
    print(f"  a newcomer (index.html, Play tapped once visible and enabled, normal speed): first playable card "
          f"{first_card} ms (ready {summary([x['ready'] for x in newcomer]).strip()})")
    visit = statistics.median(results["visit_bytes"])
    print(f"  game, the whole first visit (service worker precache and snapshot worker included): "
          f"{visit / 1e6:.3f} MB ({visit:,.0f} bytes)")
    if breakdown is not None:
        print_breakdown(results["visit_by_path"][-1], breakdown)
    ratio = median([x["ready"] for x in results["game"]]) / median([x["ready"] for x in results["bare"]])
    game_mb = statistics.median(x["bytes"] for x in results["game"])
    print("goals (medians):")
    print(f"  bytes over the wire until ready, game: {game_mb / 1e6:.2f} MB (goal <= {GOAL_PHONE_BYTES / 1e6:.1f} MB "
          f"with gzip: {verdict(game_mb, GOAL_PHONE_BYTES) if encodings == 'gzip' else 'measured with ' + encodings})")
    print(f"  the whole first visit, game: {visit / 1e6:.3f} MB (goal <= {GOAL_PHONE_BYTES / 1e6:.1f} MB with gzip: "
          f"{verdict(visit, GOAL_PHONE_BYTES) if encodings == 'gzip' else 'measured with ' + encodings})")
    print(f"  ready, game cold / bare cold: {ratio:.2f}x "
          f"(goal <= {GOAL_PHONE_READY}x: {verdict(ratio, GOAL_PHONE_READY)})")
    return results


# ---------------------------------------------------------------------------- report
def median(values: list[float]) -> float:
    """The median of the values that are numbers (a page without a first paint entry gives NaN)."""
    values = [v for v in values if not math.isnan(v)]
    return statistics.median(values) if values else float("nan")


def summary(values: list[float], digits: int = 0) -> str:
    values = [v for v in values if not math.isnan(v)]
    if not values:
        return "-"
    return f"{statistics.median(values):7.{digits}f}  ({min(values):.{digits}f}-{max(values):.{digits}f})"


def verdict(value: float, goal: float) -> str:
    return "met" if value <= goal else "NOT met"


def run_suite(browser: Browser, base_url: str, runs: int) -> dict[str, list[float]]:
    results: dict[str, list[float]] = {}
    for _ in range(runs):
        for key, value in suite_run(browser, base_url).items():
            results.setdefault(key, []).append(value)
    print(f"{'load':40} {'first paint':>22} {'ready':>22}")
    for label, key, paint in SUITE:
        print(f"{label:40} {summary(results[paint]) if paint else '-':>22} {summary(results[key]):>22}")
    med = {key: median(values) for key, values in results.items()}
    cold = med["game_cold"] / med["bare_cold"]
    warm_http = med["game_warm_snapshot"] / med["bare_warm_http"]
    warm_sw = med["game_warm_snapshot"] / med["bare_warm_sw"]
    print("goals (medians):")
    print(f"  first paint of the table: cold {med['paint_cold']:.0f} ms, warm {med['paint_warm']:.0f} ms "
          f"(goal <= {GOAL_PAINT_MS} ms: {verdict(max(med['paint_cold'], med['paint_warm']), GOAL_PAINT_MS)})")
    print(f"  ready, game cold / bare cold: {cold:.2f}x (goal <= {GOAL_COLD}x: {verdict(cold, GOAL_COLD)})")
    print(f"  ready, game warm (snapshot) / bare warm (HTTP cache): {warm_http:.2f}x, / bare warm (SW cache): "
          f"{warm_sw:.2f}x (goal <= {GOAL_WARM}x: {verdict(max(warm_http, warm_sw), GOAL_WARM)})")
    return results


def run_play(browser: Browser, base_url: str, turns: int) -> dict[str, Any]:
    play = longest_task_in_play(browser, base_url, turns)
    tasks = play["longtasks_in_ai_turns"]
    longest = f"{tasks[0]:.0f} ms" if tasks else "none of 50 ms or more"
    print(f"AI turns at normal speed vs three hard AIs: {play['ai_turns']} turns, "
          f"{play['ai_seconds']:.1f} s, {play['ai_moves']} AI moves ({play['ai_think_ms']:.0f} ms thinking)")
    print(f"  longest main-thread task during AI turns: {longest} "
          f"(goal <= {GOAL_TASK_MS} ms: {verdict(tasks[0] if tasks else 0, GOAL_TASK_MS)}; "
          f"{len(tasks)} tasks >= 50 ms; {sum(t > GOAL_TASK_MS for t in tasks)} over {GOAL_TASK_MS} ms)")
    print(f"  longest AI step measured by the page: {play['ai_step_max_ms']:.0f} ms; "
          f"longest frame (render + DOM writes): {play['frame_max_ms']:.0f} ms")
    return play


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="First paint, ready time and longest task of the game page.")
    parser.add_argument("pages", nargs="*", help="only these paths under the repo root, cold and reloaded")
    parser.add_argument("--runs", type=int, default=3, help="runs (default 3)")
    parser.add_argument("--turns", type=int, default=12, help="human turns in the long-task game (0: skip it)")
    parser.add_argument("--json", type=Path, help="also write the raw numbers here")
    parser.add_argument("--phone", action="store_true", help="the phone profile (see above) instead")
    parser.add_argument("--cold", action="store_true", help="only the cold loads of the bare page and the game")
    parser.add_argument("--restyle", action="store_true",
                        help="only a dealt table's forced restyle and relayout times")
    parser.add_argument("--first-visit", action="store_true",
                        help="only a first visit's cold boot: paints, ready, the longest task until ready")
    parser.add_argument("--encodings", default=None,
                        help='compressed copies the server sends: "gzip" (default with --phone), "br,gzip" '
                             '(default otherwise) or "none"')
    parser.add_argument("--breakdown", type=int, nargs="?", const=25, default=None, metavar="N",
                        help="with --phone: the whole first visit's bytes by file, the N largest (default 25; "
                             "0: all) of the last run")
    parser.add_argument("--root", type=Path, default=ROOT, help="serve this checkout (default: this one)")
    parser.add_argument("--against", type=Path, default=None,
                        help="with --cold, --first-visit or --restyle: this checkout's too, in every run "
                             "(a before/after)")
    args = parser.parse_args(argv)

    encodings = args.encodings or ("gzip" if args.phone else "br,gzip")
    server, base_url = serve.start_in_background(
        port=0, root=args.root, encodings=() if encodings == "none" else tuple(encodings.split(",")))
    second = (serve.start_in_background(port=0, root=args.against, encodings=server.encodings)
              if args.against else None)
    results: dict[str, Any] = {"runs": args.runs, "encodings": encodings, "root": str(args.root)}
    started = time.monotonic()
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(
                executable_path=CONFIG.CHROMIUM_PATH, args=CONFIG.CHROMIUM_ARGS, headless=True
            )
            print(f"Chromium {browser.version}; median (min-max) of {args.runs} runs, ms")
            if args.phone:
                results["phone"] = run_phone(browser, base_url, server, args.runs, encodings, args.breakdown)
            elif args.restyle:
                results["restyle"] = run_restyle(browser, base_url, args.runs, second[1] if second else None)
            elif args.first_visit:
                results["first_visit"] = run_first_visit(browser, base_url, args.runs, second[1] if second else None)
            elif args.cold:
                results["cold"] = run_cold(browser, base_url, args.runs, second[1] if second else None)
            elif args.pages:
                results["pages"] = {}
                print(f"{'page':40} {'cold':>22} {'warm reload':>22}")
                for path in args.pages:
                    times = measure(browser, base_url + path, args.runs)
                    results["pages"][path] = times
                    print(f"{path:40} {summary(times['cold']):>22} {summary(times['warm']):>22}", flush=True)
            else:
                results["loads"] = run_suite(browser, base_url, args.runs)
                if args.turns > 0:
                    results["play"] = run_play(browser, base_url, args.turns)
            browser.close()
    finally:
        for running in (server, *(second[:1] if second else ())):
            running.shutdown()
            running.server_close()
    print(f"({time.monotonic() - started:.0f} s)")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
