"""Embeds on another site, in Debian's Chromium: how soon the examples show, with one embed and with three.

    .venv/bin/python benchmarks/embed.py [--runs 5] [--json artifacts/bench-embed.json] [--records]

A sibling of benchmarks/page.py (which measures the table). A host page on a second origin (another
loopback port) holds one or three worked-example embeds (web/embed.js, tests/browser/fixtures/
embed_host.html). Times are the host's performance.now() when each frame's message arrives:

- first visible: the first durak:ready (that example is drawn and steppable: no Python is needed);
- all ready: the last durak:ready, the figure the goal compares (three embeds <= 1.3x one).

`--records`: the same three examples embedded as game records (`data-durak-record`), which the engine
builds into frames: each frame's durak:ready then waits for its engine's boot (the engine worker), so
this measures how three engines boot side by side. Warm there also waits for the memory snapshot.

`--floor`: the same host pages with a plain iframe of a one-line document of the site (it posts
durak:ready from its only script) in place of each embed: what three frames cost against one in this
harness before any of the embed's own work, the floor under the three-vs-one ratio.

Cold: a new browser context (empty HTTP cache, no service worker). Warm: the same context reloaded
once every embed's service worker holds the site (offline copy). Each run measures both page sizes,
alternating which goes first, so both see the same machine load. Medians over the runs, with the range.

Besides the times, the processor time of the renderer main thread over one more warm reload (a
Chromium trace's thread time): the figure to trust on a loaded machine, where the times mostly
measure the other jobs. The report adds what each embed beyond the first costs that thread, half the
difference between three and one. `--phases` traces that reload with the timeline categories too
and splits the thread's work by phase (style, layout, paint, parsing, scripts) and counts the
elements restyled; the extra categories add a little to the processor time they measure.

Nothing of Playwright runs in the pages while they load: the host logs a line once every embed is
ready, and the benchmark waits for that console message. (Waiting with wait_for_function made
Playwright evaluate its 330 kB injected script in the host while the frames were loading: on the
renderer main thread the frames share with a same-site host, 15 ms of CPU and 100 ms or more on a
loaded machine, inside the figure.)

The site is built (as `make setup` does) and served from a copy made for the run, with its own sw.js:
an edit to the working tree during the run cannot make the service worker refuse its files.

Before/after, interleaved: `--baseline REV` also serves a second copy whose files (`--paths`, default
every tracked file that differs) are as they were at the commit REV, rebuilt, and measures both copies
in every run, in alternating order.
"""

from __future__ import annotations

import argparse
import json
import re
import runpy
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from playwright.sync_api import Browser, Page, sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from durak.record import load_examples, url_safe  # noqa: E402  (the repo's package, beside this folder)

helpers = SimpleNamespace(**runpy.run_path(str(ROOT / "tests" / "browser" / "helpers.py")))
CONFIG = helpers.CONFIG
serve = helpers.serve
HOST_TEMPLATE = ROOT / "tests" / "browser" / "fixtures" / "embed_host.html"
GOAL_RATIO = 1.3  # three embeds, all ready / one embed ready
ALL_READY_LOG = "durak-benchmark: every embed is ready"
ALL_READY_JS = f"""      var isReady = function (m) {{ return m.data && m.data.type === "durak:ready"; }};
      var embeds = document.querySelectorAll("[data-durak-example], [data-durak-record]").length;
      if (isReady(event) && received.filter(isReady).length === embeds) console.log("{ALL_READY_LOG}");
"""

READY_TIMES_JS = """() => window.received.filter((m) => m.data && m.data.type === 'durak:ready')
                                          .map((m) => m.at)"""
STORED_JS = """async () => (await navigator.serviceWorker.ready).active !== null &&
               !!(await caches.match(new URL('embed.html', location.href)))"""
SNAPSHOT_STORED_JS = "async () => (await (await caches.open('durak-snapshot')).keys()).length > 0"


def write_hosts(folder: Path, site: str, records: bool = False) -> None:
    """three.html (the test fixture, three embeds) and one.html (only its first); with `records`, each
    example as its game record."""
    three = HOST_TEMPLATE.read_text(encoding="utf-8").replace("__SITE__", site)
    if records:
        examples = load_examples(ROOT / "rules" / "examples")
        three = re.sub(r'data-durak-example="([a-z0-9-]+)"',
                       lambda m: f'data-durak-record="{url_safe(str(examples[m[1]]))}"', three)
    # Each message's arrival time, for the figures (the fixture keeps the messages, not when they came).
    three = three.replace("received.push({ frame: index,", "received.push({ at: performance.now(), frame: index,")
    # ... and a console line once every embed is ready, which the benchmark waits for without running
    # anything of its own in the page (see the docstring).
    marker = "    });\n  </script>"
    assert three.count(marker) == 1, "the host fixture's message listener moved"
    three = three.replace(marker, ALL_READY_JS + marker)
    start, end = three.index('    <h2>A transfer</h2>'), three.index('    <p id="outro">')
    (folder / "three.html").write_text(three, encoding="utf-8")
    (folder / "one.html").write_text(three[:start] + three[end:], encoding="utf-8")


FLOOR_DOCUMENT = """<!doctype html><html lang="en"><meta charset="utf-8"><title>A frame</title>
<p>A frame.</p><script>parent.postMessage({type: "durak:ready", steps: 1, step: 0}, "*");</script></html>
"""
EMBED_DIV = re.compile(r'<div class="durak"[^>]*></div>')


def write_floor(folder: Path, site_root: Path, site: str) -> None:
    """floor.html in the site's copy, and in `folder` the host pages (as write_hosts wrote them) with a
    plain iframe of it in each embed's div and no loader: --floor's pages."""
    (site_root / "floor.html").write_text(FLOOR_DOCUMENT, encoding="utf-8")
    frame = f'<iframe src="{site}floor.html" title="A frame" style="width:100%;height:440px;border:0"></iframe>'
    for name in ("one", "three"):
        text = (folder / f"{name}.html").read_text(encoding="utf-8")
        text = EMBED_DIV.sub(lambda m: m[0].replace("></div>", f">{frame}</div>"), text)
        text = re.sub(r'\s*<script src="[^"]*web/embed\.js" defer></script>', "", text)
        (folder / f"{name}.html").write_text(text, encoding="utf-8")


def load_until_ready(page: Page, load: Callable[[], object], count: int) -> list[float]:
    """Run `load` (a goto or a reload) and wait for the host's console line; the frames' ready times."""
    with page.expect_console_message(lambda message: message.text == ALL_READY_LOG,
                                     timeout=CONFIG.READY_TIMEOUT_MS):
        load()
    times: list[float] = page.evaluate(READY_TIMES_JS)
    assert len(times) == count, times
    return times


def measure(browser: Browser, url: str, count: int, folder: Path, phases: bool = False,
            records: bool = False, floor: bool = False) -> dict[str, float]:
    """Cold, then warm (reloaded once the service workers hold the site, and with `records` the engine's
    memory snapshot), then the processor time of a warm reload, in one new context."""
    context = browser.new_context(viewport=dict(CONFIG.VIEWPORT))
    try:
        page = context.new_page()
        cold = load_until_ready(page, lambda: page.goto(url), count)
        for frame in page.frames[1:] if not floor else []:  # a floor frame stores nothing
            frame.wait_for_function(STORED_JS, timeout=CONFIG.READY_TIMEOUT_MS)
            if records:
                frame.wait_for_function(SNAPSHOT_STORED_JS, timeout=CONFIG.READY_TIMEOUT_MS)
        warm = load_until_ready(page, page.reload, count)
        traced = main_thread_work(browser, page, count, Path(folder) / "trace.json", phases)
        return {"cold_first": min(cold), "cold_all": max(cold), "warm_first": min(warm), "warm_all": max(warm),
                **traced}
    finally:
        context.close()


# --phases: the trace events of each phase (a phase's event nested in another of its own counts once)
PHASES = {"style": {"UpdateLayoutTree"}, "layout": {"Layout"}, "paint": {"PrePaint", "Paint", "Layerize"},
          "parse_html": {"ParseHTML"}, "parse_css": {"ParseAuthorStyleSheet"},
          "script": {"EvaluateScript", "v8.compile", "v8.compileModule", "v8.evaluateModule", "FunctionCall"}}
PHASE_CATEGORIES = ["devtools.timeline", "disabled-by-default-devtools.timeline"]
PHASE_LABELS = {"style": "style recalculation", "layout": "layout", "paint": "pre-paint, paint, layerize",
                "parse_html": "HTML parsing", "parse_css": "style sheet parsing", "script": "scripts",
                "restyled": "elements restyled (count)"}


def main_thread_work(browser: Browser, page: Page, count: int, trace: Path, phases: bool) -> dict[str, float]:
    """Processor time (ms) of the renderer main thread over one more warm reload, traced: unlike the
    times above, hardly moved by the other jobs of a loaded machine. That thread runs the host page and
    its frames (one site, one renderer process), so the work of three embeds adds up on it. With
    `phases`, that time's share of each phase and the number of elements restyled too."""
    page.wait_for_timeout(300)  # the previous load's last tasks stay out of the trace
    browser.start_tracing(page=page, path=str(trace), categories=["toplevel", *(PHASE_CATEGORIES if phases else [])])
    load_until_ready(page, page.reload, count)
    browser.stop_tracing()
    events = json.loads(trace.read_text(encoding="utf-8"))["traceEvents"]
    threads = {(e["pid"], e["tid"]) for e in events
               if e.get("ph") == "M" and e.get("name") == "thread_name" and e["args"]["name"] == "CrRendererMain"}
    main = [e for e in events if (e.get("pid"), e.get("tid")) in threads and e.get("ph") == "X"]
    work = {"warm_cpu": sum(e.get("tdur", 0) for e in main if e["name"] == "ThreadControllerImpl::RunTask") / 1000}
    if phases:
        for phase, names in PHASES.items():
            total, end = 0.0, -1
            for start, stop, thread_time in sorted((e["ts"], e["ts"] + e["dur"], e.get("tdur", 0))
                                                   for e in main if e["name"] in names):
                if start >= end:
                    total, end = total + thread_time, stop
            work[phase] = total / 1000
        work["restyled"] = sum(e["args"].get("elementCount", 0) for e in main if e["name"] == "UpdateLayoutTree")
    return work


def baseline_site(site: Path, folder: Path, rev: str, paths: list[str]) -> Path:
    """A copy of the built site whose `paths` (default: every tracked file that differs) are as they
    were at the commit `rev`, rebuilt as `make setup` does, by the copy's own build scripts (a page
    generator among `paths`, scripts/build_rules.py, then writes its pages as it did at `rev`)."""
    git = ["git", "-C", str(ROOT)]
    changed = subprocess.run([*git, "diff", "--name-only", "--no-renames", rev, "--", *paths],
                             check=True, capture_output=True, text=True).stdout.split()
    copy = folder / "baseline"
    shutil.copytree(site, copy, symlinks=True)
    for name in changed:
        old = subprocess.run([*git, "show", f"{rev}:{name}"], capture_output=True)
        target = copy / name
        if old.returncode == 0:
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(old.stdout)
        else:
            target.unlink(missing_ok=True)  # added since rev
    if (ROOT / "node_modules").is_dir():  # the Python compiler of build_zip.py, which looks beside itself
        (copy / "node_modules").symlink_to(ROOT / "node_modules")
    for script in ("build_zip.py", "build_rules.py", "build_sw.py"):
        subprocess.run([sys.executable, str(copy / "scripts" / script), "--root", str(copy)],
                       check=True, capture_output=True)
    print(f"baseline: {len(changed)} file(s) as at {rev}: {' '.join(changed) or '(none)'}")
    return copy


def median(values: list[float]) -> float:
    return statistics.median(values)


def row(label: str, values: list[float]) -> str:
    return f"  {label:<34} {median(values):7.0f} ms   ({min(values):.0f}-{max(values):.0f})"


def report(title: str, results: dict[str, dict[str, list[float]]]) -> dict[str, float]:
    """Print one copy's figures; its three-vs-one ratios."""
    print(title)
    for name in ("one", "three"):
        print(f" {name} embed{'s' if name == 'three' else ''}:")
        for key, label in (("cold_first", "cold, first visible"), ("cold_all", "cold, all ready"),
                           ("warm_first", "warm, first visible"), ("warm_all", "warm, all ready")):
            print(row(label, results[name][key]))
        print(row("warm, main-thread processor time", results[name]["warm_cpu"]))
        for phase, label in PHASE_LABELS.items():
            if phase in results[name]:
                unit = "" if phase == "restyled" else " ms"
                values = results[name][phase]
                print(f"    {label:<32} {median(values):7.1f}{unit}   ({min(values):.1f}-{max(values):.1f})")
    ratios: dict[str, float] = {}
    for state, key in (("cold", "cold_all"), ("warm", "warm_all"), ("warm, processor time", "warm_cpu")):
        ratio = median(results["three"][key]) / median(results["one"][key])
        ratios[state] = ratio
        verdict = "ok" if ratio <= GOAL_RATIO else "over the goal"
        print(f" three vs one, {state}{', all ready' if key != 'warm_cpu' else ''}: {ratio:.2f}x "
              f"(goal <= {GOAL_RATIO}x: {verdict})")
    more = (median(results["three"]["warm_cpu"]) - median(results["one"]["warm_cpu"])) / 2
    ratios["each more embed, processor ms"] = more
    print(f" each embed beyond the first, warm: {more:.0f} ms of main-thread processor time "
          f"(the host page with one embed: {median(results['one']['warm_cpu']):.0f} ms)")
    return ratios


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Embed figures: one and three worked examples on a host page.")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--baseline", metavar="REV", help="also measure the site with --paths as at this commit")
    parser.add_argument("--paths", nargs="*", default=[], help="with --baseline: the files to take from REV")
    parser.add_argument("--phases", action="store_true",
                        help="also split the traced reload's main-thread work by phase (style, layout, paint, ...)")
    parser.add_argument("--records", action="store_true",
                        help="embed the examples as game records, which the engine builds (its boot measured)")
    parser.add_argument("--floor", action="store_true",
                        help="a plain iframe of a one-line document in place of each embed: the harness's floor")
    args = parser.parse_args(argv)
    copies = ["now", "baseline"] if args.baseline else ["now"]
    results: dict[str, dict[str, dict[str, list[float]]]] = {copy: {"one": {}, "three": {}} for copy in copies}
    servers = []
    with tempfile.TemporaryDirectory(prefix="durak-embed-bench-") as folder:
        roots = {"now": helpers.frozen_site(Path(folder))}
        if args.baseline:
            roots["baseline"] = baseline_site(roots["now"], Path(folder), args.baseline, args.paths)
        hosts = Path(folder) / "host"
        for copy in copies:
            server, site_url = serve.start_in_background(port=0, root=roots[copy])
            servers.append(server)
            (hosts / copy).mkdir(parents=True)
            write_hosts(hosts / copy, site_url, args.records)
            if args.floor:
                write_floor(hosts / copy, roots[copy], site_url)
        host, host_url = serve.start_in_background(port=0, root=hosts)
        servers.append(host)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CONFIG.CHROMIUM_PATH, headless=True,
                                                     args=list(CONFIG.CHROMIUM_ARGS))
                for run in range(args.runs):
                    order = [(copy, name, count) for copy in copies for name, count in (("one", 1), ("three", 3))]
                    for copy, name, count in order if run % 2 == 0 else reversed(order):
                        figures = measure(browser, f"{host_url}{copy}/{name}.html", count, Path(folder),
                                          args.phases, args.records, args.floor)
                        for key, value in figures.items():
                            results[copy][name].setdefault(key, []).append(value)
                browser.close()
        finally:
            for server in servers:
                server.shutdown()
    payload: dict[str, Any] = {"runs": args.runs}
    for copy in copies:
        title = "the site as it is now" if copy == "now" else f"the baseline ({args.baseline})"
        ratios = report(f"Embeds on a host page (second origin), {args.runs} runs, host time of each frame's "
                        f"durak:ready; {title}:", results[copy])
        payload[copy] = {"results": results[copy], "ratios": ratios}
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
