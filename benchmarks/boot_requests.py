"""When the boot's requests begin on a first visit over the phone profile: the chain of round trips before
Pyodide's large files are asked for (benchmarks/page.py's --phone load, read from the server's log).

    .venv/bin/python benchmarks/boot_requests.py [--runs 5] [--root DIR] [--against DIR]

Each run is a cold load of the game in a new context (9 Mbit/s, 60 ms, the CPU slowed 4x; gzip). Printed:
when the server began the responses of table.js, the engine worker, pyodide.mjs and pyodide.asm.wasm, in
seconds after index.html's, and the page's ready time; medians (min-max). With --against, a second checkout
is loaded in turn with this one, so both see the same machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

from page import CONFIG, GAME, ROOT, phone_load, serve

#: The requests whose start is printed, by the end of their path.
MARKS = ("web/table/table.js", "web/worker/engine-worker.mjs", "web/vendor/pyodide/pyodide.mjs",
         "web/vendor/pyodide/pyodide.asm.wasm")


def one_load(browser: Browser, server: Any, base_url: str) -> dict[str, float]:
    """Seconds after index.html's response began, for each of MARKS, and the ready time."""
    loaded = phone_load(browser, base_url + GAME, server)
    with server.logging:
        began = list(zip(server.responses, server.response_times, strict=True))
    first = began[0][1]
    starts = {mark: next(at - first for (path, _, _), at in began if path.split("?")[0].endswith(mark))
              for mark in MARKS}
    return {**starts, "ready": loaded["ready"] / 1000}


def summary(values: list[float]) -> str:
    return f"{statistics.median(values):6.2f}  ({min(values):.2f}-{max(values):.2f})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--root", type=Path, default=ROOT, help="serve this checkout (default: this one)")
    parser.add_argument("--against", type=Path, help="another checkout, loaded in turn with --root")
    args = parser.parse_args(argv)
    roots = [args.root, *([args.against] if args.against else [])]
    servers = [serve.start_in_background(port=0, root=root, encodings=("gzip",)) for root in roots]
    seen: list[list[dict[str, float]]] = [[] for _ in roots]
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CONFIG.CHROMIUM_PATH, args=CONFIG.CHROMIUM_ARGS)
            for _ in range(args.runs):
                for index, (server, base_url) in enumerate(servers):
                    seen[index].append(one_load(browser, server, base_url))
            browser.close()
    finally:
        for server, _ in servers:
            server.shutdown()
            server.server_close()
    print(f"seconds after index.html's response began, medians (min-max) of {args.runs} runs on the phone profile")
    print(f"{'':38}" + "".join(f"{str(root)[-30:]:>32}" for root in roots))
    for key in (*MARKS, "ready"):
        print(f"{key:38}" + "".join(f"{summary([load[key] for load in loads]):>32}" for loads in seen))
    return 0


if __name__ == "__main__":
    sys.exit(main())
