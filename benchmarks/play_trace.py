"""A deal and ten AI turns under a Chromium trace: the table's main-thread tasks while the AI plays.

    .venv/bin/python benchmarks/play_trace.py [--runs 6] [--root DIR] [--against DIR]

The long-task check (tests/browser/table/test_table_worker.py) counts, with a PerformanceObserver,
the tasks over 50 ms while a clicking player plays a four-player game at speed=fast until the AIs have
made ten moves. This plays the same game the same way (the tests' Player), traced, and splits the
renderer main thread's tasks in two:

- the deal: the tasks from the click on Deal until the hand is drawn. The first drawing of cards
  decodes each suit's pip mask (an SVG document each) and asks the browser process for each new font
  size's rendering settings;
- the play after it: the frames of the game drawn while the AIs think in the worker.

For each, the longest task (wall and processor time, and the processor time of its layout and paint);
for the play, the median processor time of a task that draws a frame, how many tasks passed 50 ms of
wall time, and the processor time per second of play of the main thread and of the software raster of
the page's tiles (on other threads, but on the same two cores). Tasks that DevTools asked for
(Playwright's own scripts) are left out: a visitor has none. `--against` plays a second built checkout
in the same rounds (alternating which goes first).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, expect
from traced_rounds import CONFIG, ROOT, add_site_arguments, measure_rounds, print_medians

sys.path.insert(0, str(ROOT))  # the tests' clicking player, below
from tests.browser.table.test_table import Player, wait_turn

SETTLED_LOG = "durak-play-trace: settled"
SETTLED_INIT = f"""new MutationObserver((_, observer) => {{
  if (document.body && ["ready", "error"].includes(document.body.dataset.state)) {{
    observer.disconnect();
    console.log("{SETTLED_LOG}");
  }}
}}).observe(document, {{ subtree: true, attributes: true, attributeFilter: ["data-state"] }});"""
CATEGORIES = ["toplevel", "devtools.timeline", "disabled-by-default-devtools.timeline", "blink.user_timing"]
DEALT_MARK = "durak-dealt"  # a user-timing mark, set once the hand is on the page: the deal ends there
AI_MOVES = 10
CHOOSING_MS = 1000  # the dialog open before the deal, as a person choosing a game has it
Event = dict[str, Any]


def traced_game(browser: Browser, url: str, trace: Path) -> dict[str, float]:
    """One game in a new context (a first visit), traced from the click on Deal to the tenth AI move."""
    context = browser.new_context(viewport=dict(CONFIG.VIEWPORT))
    try:
        context.add_init_script(SETTLED_INIT)
        page = context.new_page()
        with page.expect_console_message(lambda message: message.text == SETTLED_LOG,
                                         timeout=CONFIG.READY_TIMEOUT_MS):
            page.goto(url)
        page.click("#welcome [data-action=options]")  # a first visit's welcome: the dialog behind "Game options"
        page.select_option("select[name=players]", "4")
        page.wait_for_timeout(CHOOSING_MS)
        browser.start_tracing(page=page, path=str(trace), categories=CATEGORIES)
        page.click("[data-action=start]")
        expect(page.locator("#hand [data-card]").first).to_be_visible()
        page.evaluate(f"() => performance.mark('{DEALT_MARK}')")
        player = Player(page)
        ai_moves = 0
        while ai_moves < AI_MOVES and wait_turn(page) != "over":
            player.turn()
            ai_moves = int(page.evaluate("() => document.body.dataset.ai").split()[0])
        browser.stop_tracing()
    finally:
        context.close()
    return figures(json.loads(trace.read_text(encoding="utf-8"))["traceEvents"])


def figures(events: list[Event]) -> dict[str, float]:
    """The deal's and the play's tasks of the page's main thread (the renderer that set the mark)."""
    dealt = next(e for e in events if e.get("name") == DEALT_MARK)
    main_thread = next((e["pid"], e["tid"]) for e in events if e.get("ph") == "M" and e.get("name") == "thread_name"
                       and e["pid"] == dealt["pid"] and e["args"]["name"] == "CrRendererMain")
    mine = [e for e in events if (e.get("pid"), e.get("tid")) == main_thread and e.get("ph") == "X"]
    devtools = [e for e in mine if e["name"] == "Receive mojo message" and e.get("args", {}).get(
        "chrome_mojo_event_info", {}).get("mojo_interface_tag", "").endswith("DevToolsSession")]
    tasks = [e for e in mine if e["name"] == "ThreadControllerImpl::RunTask"
             and not any(inside(e, message) for message in devtools)]  # Playwright's, not the page's
    deal = [e for e in tasks if e["ts"] < dealt["ts"]]
    play = [e for e in tasks if e["ts"] >= dealt["ts"]]
    layouts = [e for e in mine if e["name"] == "Layout"]
    drawing = [e for e in play if any(inside(e, layout) for layout in layouts)]
    out: dict[str, float] = {}
    for name, group in (("deal", deal), ("play", play)):
        longest = max(group, key=lambda e: e["dur"])
        out[f"{name} wall"] = longest["dur"] / 1000
        out[f"{name} cpu"] = longest.get("tdur", 0) / 1000
        for phase in ("Layout", "Paint"):
            phases = [c for c in mine if c["name"] == phase and inside(longest, c)]
            outermost = [c for c in phases if not any(o is not c and inside(o, c) for o in phases)]  # Paint nests
            out[f"{name} {phase.lower()}"] = sum(c.get("tdur", 0) for c in outermost) / 1000
    out["frame cpu"] = statistics.median(e.get("tdur", 0) for e in drawing) / 1000 if drawing else 0.0
    out["over 50"] = sum(e["dur"] > 50_000 for e in play)
    # what competes with the main thread for the cores: without a GPU, the page's tiles are rastered in
    # software on the renderer's pool threads
    seconds = (max(e["ts"] + e["dur"] for e in play) - dealt["ts"]) / 1e6
    raster = [e for e in events if e.get("pid") == dealt["pid"] and e.get("name") == "RasterTask"
              and e.get("ph") == "X" and e["ts"] >= dealt["ts"]]
    out["main cpu/s"] = sum(e.get("tdur", 0) for e in play) / 1000 / seconds
    out["raster cpu/s"] = sum(e.get("tdur", 0) for e in raster) / 1000 / seconds
    return out


def inside(task: Event, event: Event) -> bool:
    return task["ts"] <= event["ts"] and event["ts"] + event.get("dur", 0) <= task["ts"] + task["dur"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="The table's main-thread tasks over a deal and ten AI turns.")
    add_site_arguments(parser)
    args = parser.parse_args(argv)
    results = measure_rounds(args, "index.html?lang=en&speed=fast", traced_game)
    print(f"a four-player deal and {AI_MOVES} AI moves at speed=fast, traced, {args.runs} runs; "
          "the main thread's longest task of the deal and of the play; median (min-max) ms")
    print_medians(results)
    return 0


if __name__ == "__main__":
    sys.exit(main())
