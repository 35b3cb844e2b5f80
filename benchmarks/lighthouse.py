"""Lighthouse 12 on the site's pages, mobile and desktop presets: the main thread's figures.

    .venv/bin/python benchmarks/lighthouse.py [--runs 3] [--presets mobile,desktop]
        [--pages table,rules,embed] [--root DIR] [--json artifacts/lighthouse.json] [--reports DIR]

Serves the site itself (scripts/serve.py on a free loopback port; --root serves another built copy,
e.g. an export of one commit) and runs node_modules/.bin/lighthouse (package.json pins it) against
Debian's Chromium with the browser tests' flags, in a new browser profile every run (cold: empty
caches, no service worker, no memory snapshot). The pages:

- table: index.html, the game as a visitor opens it;
- rules: rules/en/podkidnoy.html (built by scripts/build_rules.py; skipped if absent);
- embed: tests/browser/fixtures/embed_host.html, a host page on a second loopback origin embedding
  three worked examples with web/embed.js (else embed.html?example=podkidnoy-limit-take).

Runs are interleaved (run 1 of every page and preset, then run 2, ...) so each column sees the same
spread of machine load; the 1-minute load average and Lighthouse's own CPU benchmark index are
printed beside the figures (a busy machine lowers the index and stretches every simulated time).
Lighthouse's default throttling is simulated ("Lantern": the page loads at full speed, then the
metrics are computed for slow 4G and a 4x slower CPU on mobile, 40 ms RTT and no CPU slowdown on
desktop), so figures vary between runs: the table shows median (min-max).

Every request in each report must go to the two loopback origins (or be data:/blob:); any other is
printed and makes the exit status 1, as does a run Lighthouse could not finish. A run that failed on
one of Lighthouse's 1-second DevTools timeouts (a main thread busy for longer on a loaded machine) is
repeated, up to RETRIES times, and counted; HTTP errors the servers sent during a run are listed
(but Lighthouse's own source-map probes).
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import functools
import importlib.util
import json
import os
import runpy
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
EMBED_HOST = ROOT / "tests" / "browser" / "fixtures" / "embed_host.html"
RULES_PAGE = "rules/en/podkidnoy.html"
EMBED_FALLBACK = "embed.html?example=podkidnoy-limit-take"
PRESETS = ("mobile", "desktop")
PAGES = ("table", "rules", "embed")
RUN_TIMEOUT_S = 240
RETRIES = 2
TIMEOUT_SIGNS = ("PROTOCOL_TIMEOUT", "exceeded the allotted time")
CATEGORIES = ("performance", "accessibility", "best-practices")

# (label, key) of the printed rows; the keys are those of figures().
ROWS = (
    ("Performance", "performance"),
    ("Accessibility", "accessibility"),
    ("Best Practices", "best-practices"),
    ("Total Blocking Time", "tbt_ms"),
    ("Largest Contentful Paint", "lcp_ms"),
    ("First Contentful Paint", "fcp_ms"),
    ("Speed Index", "si_ms"),
    ("Cumulative Layout Shift", "cls"),
    ("Time to Interactive", "tti_ms"),
    ("Main-thread script evaluation", "script_ms"),
    ("Main-thread work, all", "main_thread_ms"),
    ("LCP observed (loopback, no throttling)", "lcp_observed_ms"),
    ("load average (1 min)", "load"),
    ("CPU benchmark index", "benchmark_index"),
)
# The goals on the mobile preset: (key, at least / at most, bound).
GOALS = {"performance": (">=", 90), "accessibility": (">=", 100), "best-practices": (">=", 95),
         "tbt_ms": ("<=", 200), "lcp_ms": ("<=", 2500), "cls": ("<=", 0.1)}


def load_file(name: str, path: Path) -> ModuleType:
    """A Python file loaded as a module by path (scripts/ is no package)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


serve = load_file("durak_serve", ROOT / "scripts" / "serve.py")
CONFIG = runpy.run_path(str(ROOT / "playwright.config.py"))


@dataclass
class Target:
    """One page to measure: its name in the table, its URL, and what it is."""

    name: str
    url: str
    note: str


@dataclass
class Sample:
    """The figures of one Lighthouse run, or why it failed."""

    figures: dict[str, float] = field(default_factory=dict)
    lcp_element: str = ""
    foreign: list[str] = field(default_factory=list)
    http_errors: list[str] = field(default_factory=list)
    error: str = ""
    retries: int = 0


# ---------------------------------------------------------------------------- reading a report
def figures(report: dict[str, Any]) -> dict[str, float]:
    """Scores (0-100) and metrics (ms) of one Lighthouse report; a metric it could not compute is absent."""
    out: dict[str, float] = {}
    for name in CATEGORIES:
        score = report["categories"].get(name, {}).get("score")
        if score is not None:
            out[name] = round(100 * score)
    audits = report["audits"]
    for key, audit in (("tbt_ms", "total-blocking-time"), ("lcp_ms", "largest-contentful-paint"),
                       ("fcp_ms", "first-contentful-paint"), ("si_ms", "speed-index"), ("tti_ms", "interactive"),
                       ("main_thread_ms", "mainthread-work-breakdown"), ("cls", "cumulative-layout-shift")):
        value = audits.get(audit, {}).get("numericValue")
        if value is not None:
            out[key] = float(value)
    groups = audits.get("mainthread-work-breakdown", {}).get("details", {}).get("items", [])
    for group in groups:
        if group.get("group") == "scriptEvaluation":
            out["script_ms"] = float(group["duration"])
    metrics = audits.get("metrics", {}).get("details", {}).get("items", [{}])[0]
    if metrics.get("observedLargestContentfulPaint") is not None:
        out["lcp_observed_ms"] = float(metrics["observedLargestContentfulPaint"])
    index = report.get("environment", {}).get("benchmarkIndex")
    if index is not None:
        out["benchmark_index"] = float(index)
    return out


def lcp_element(report: dict[str, Any]) -> str:
    """The largest contentful paint's element as `selector "its text"`, or "" when Lighthouse gave none."""
    details = report["audits"].get("largest-contentful-paint-element", {}).get("details", {})
    for table in details.get("items", []):
        for item in table.get("items", []):
            node = item.get("node")
            if node:
                label = " ".join(str(node.get("nodeLabel", "")).split())
                return f'{node.get("selector", "?")} "{label[:40]}"'
    return ""


def foreign_requests(report: dict[str, Any], origins: set[str]) -> list[str]:
    """URLs of the report's requests that left the given origins (data: and blob: stay on the machine)."""
    items = report["audits"].get("network-requests", {}).get("details", {}).get("items", [])
    return sorted({item["url"] for item in items if not item["url"].startswith(("data:", "blob:"))
                   and not any(item["url"].startswith(origin) for origin in origins)})


# ---------------------------------------------------------------------------- running Lighthouse
def chrome_flags() -> str:
    """The browser tests' Chromium flags, in the new headless mode Lighthouse needs."""
    return " ".join(["--headless=new", *CONFIG["CHROMIUM_ARGS"]])


def run_lighthouse(url: str, preset: str, out: Path) -> Sample:
    """One Lighthouse run of url with the preset, its report written to out; a run that failed on one of
    Lighthouse's 1-second DevTools timeouts (a main thread busy for longer, on a loaded machine) is run
    again, up to RETRIES times, and says so."""
    for attempt in range(RETRIES + 1):
        sample = run_once(url, preset, out)
        sample.retries = attempt
        if not any(sign in sample.error for sign in TIMEOUT_SIGNS):
            break
    return sample


def run_once(url: str, preset: str, out: Path) -> Sample:
    command = [str(LIGHTHOUSE), url, "--quiet", "--output=json", f"--output-path={out}",
               f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={chrome_flags()}"]
    if preset == "desktop":
        command.append("--preset=desktop")
    env = dict(os.environ, CHROME_PATH=CONFIG["CHROMIUM_PATH"])
    load = os.getloadavg()[0]
    try:
        done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S, check=False)
    except subprocess.TimeoutExpired:
        return Sample(error=f"no report within {RUN_TIMEOUT_S} s")
    if done.returncode != 0 or not out.exists():
        return Sample(error=(done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1])
    report = json.loads(out.read_text(encoding="utf-8"))
    if report.get("runtimeError"):
        return Sample(error=f"{report['runtimeError'].get('code')}: {report['runtimeError'].get('message')}")
    sample = Sample(figures=figures(report), lcp_element=lcp_element(report))
    sample.figures["load"] = load
    return sample


class QuietHandler(serve.Handler):  # type: ignore[name-defined,misc]
    """scripts/serve.py's handler without its log lines (Lighthouse asks for source maps the site does not
    ship); every response is still kept in server.responses, and failures are reported per run."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


def start_server(root: Path) -> tuple[Any, str]:
    """A quiet scripts/serve.py server for root on a free loopback port: (server, base URL)."""
    server, base_url = serve.make_server(port=0, root=root)
    server.RequestHandlerClass = functools.partial(QuietHandler, directory=str(root))
    threading.Thread(target=server.serve_forever, name="lighthouse-site", daemon=True).start()
    return server, base_url


def http_errors(servers: list[Any], since: list[int]) -> list[str]:
    """Responses of 400 or more the servers sent after the counts in since, but Lighthouse's source-map probes.
    (server.responses holds (path, status, ...) tuples.)"""
    found = []
    for server, start in zip(servers, since, strict=True):
        found += [f"{entry[1]} {entry[0]}" for entry in server.responses[start:]
                  if entry[1] >= 400 and not entry[0].endswith(".map")]
    return sorted(set(found))


@contextlib.contextmanager
def site(root: Path) -> Iterator[tuple[list[Any], str, str | None]]:
    """(the servers, the site's base URL, the embed host page's URL or None) while in use."""
    servers = []
    folder = Path(tempfile.mkdtemp(prefix="durak-embed-host-"))
    try:
        server, base_url = start_server(root)
        servers.append(server)
        host_url = None
        if EMBED_HOST.exists():
            text = EMBED_HOST.read_text(encoding="utf-8").replace("__SITE__", base_url)
            (folder / "index.html").write_text(text, encoding="utf-8")
            host, host_url = start_server(folder)
            servers.append(host)
        yield servers, base_url, host_url
    finally:
        for server in servers:
            server.shutdown()
            server.server_close()
        shutil.rmtree(folder, ignore_errors=True)


def targets(root: Path, base_url: str, host_url: str | None, wanted: list[str]) -> list[Target]:
    """The pages to measure, each with a line saying why one is skipped."""
    found: list[Target] = []
    for name in wanted:
        if name == "table":
            found.append(Target("table", base_url + "index.html", "index.html"))
        elif name == "rules":
            if (root / RULES_PAGE).exists():
                found.append(Target("rules", base_url + RULES_PAGE, RULES_PAGE))
            else:
                print(f"skipped rules: {RULES_PAGE} is not built under {root} (scripts/build_rules.py)")
        elif name == "embed":
            if host_url:
                found.append(Target("embed", host_url + "index.html",
                                    f"{EMBED_HOST.relative_to(ROOT)} on a second origin"))
            elif (root / "embed.html").exists():
                found.append(Target("embed", base_url + EMBED_FALLBACK, EMBED_FALLBACK))
            else:
                print("skipped embed: neither the embed host fixture nor embed.html exists")
    return found


# ---------------------------------------------------------------------------- the table
def spread(values: list[float], key: str) -> str:
    """median (min-max) in the unit of the key: ms as ms (or s from 10 s on), scores as they are."""
    if not values:
        return "-"
    median, low, high = statistics.median(values), min(values), max(values)
    if key == "load":
        return f"{median:.1f} ({low:.1f}-{high:.1f})"
    if key == "cls":
        return f"{median:.3f} ({low:.3f}-{high:.3f})"
    if key.endswith("_ms") and high >= 10_000:
        return f"{median / 1000:.1f} s ({low / 1000:.1f}-{high / 1000:.1f})"
    unit = " ms" if key.endswith("_ms") else ""
    return f"{median:,.0f}{unit} ({low:,.0f}-{high:,.0f})"


def verdict(values: list[float], key: str) -> str:
    """Whether the median meets the issue's mobile goal for this key ("" when there is none)."""
    if key not in GOALS or not values:
        return ""
    sign, bound = GOALS[key]
    median = statistics.median(values)
    met = median >= bound if sign == ">=" else median <= bound
    return f"goal {sign} {bound:,}: {'met' if met else 'NOT met'}"


def print_page(target: Target, samples: dict[str, list[Sample]]) -> None:
    """One page's block: a row per figure, a column per preset (the mobile column with the goals)."""
    print(f"\n{target.name}: {target.note}")
    width = 30
    print(f"{'':40}" + "".join(f"{preset:>{width}}" for preset in samples))
    for label, key in ROWS:
        cells = [spread([s.figures[key] for s in runs if key in s.figures], key) for runs in samples.values()]
        mobile = [s.figures[key] for s in samples.get("mobile", []) if key in s.figures]
        print(f"{label:40}" + "".join(f"{cell:>{width}}" for cell in cells) + f"   {verdict(mobile, key)}")
    for preset, runs in samples.items():
        elements = collections.Counter(s.lcp_element or "(not reported)" for s in runs if not s.error)
        listed = "; ".join(f"{element} x{count}" for element, count in elements.most_common())
        print(f"  LCP element, {preset}: {listed or '-'}")
        retried = sum(sample.retries for sample in runs)
        if retried:
            print(f"  runs repeated after a DevTools timeout, {preset}: {retried}")
        for sample in runs:
            if sample.error:
                print(f"  FAILED run, {preset}: {sample.error}")
            for url in sample.foreign:
                print(f"  REQUEST OFF LOOPBACK, {preset}: {url}")
        errors = sorted({line for sample in runs for line in sample.http_errors})
        if errors:
            print(f"  HTTP errors, {preset}: {', '.join(errors)}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Lighthouse scores and main-thread metrics of the site's pages.")
    parser.add_argument("--runs", type=int, default=3, help="runs per page and preset (default 3)")
    parser.add_argument("--presets", default=",".join(PRESETS), help="mobile,desktop (default both)")
    parser.add_argument("--pages", default=",".join(PAGES), help="table,rules,embed (default all three)")
    parser.add_argument("--root", type=Path, default=ROOT, help="the built site to serve (default: this repo)")
    parser.add_argument("--json", type=Path, help="also write every run's figures here")
    parser.add_argument("--reports", type=Path, help="keep Lighthouse's JSON reports in this folder")
    args = parser.parse_args(argv)
    presets = [p for p in args.presets.split(",") if p]
    pages = [p for p in args.pages.split(",") if p]
    unknown = sorted(set(presets) - set(PRESETS)) + sorted(set(pages) - set(PAGES))
    if unknown:
        parser.error(f"unknown preset or page: {', '.join(unknown)}")
    if not LIGHTHOUSE.exists():
        print(f"{LIGHTHOUSE.relative_to(ROOT)} is missing: run `make setup` (npm ci installs it)")
        return 1
    version = subprocess.run([str(LIGHTHOUSE), "--version"], capture_output=True, text=True, check=True).stdout
    chromium = subprocess.run([CONFIG["CHROMIUM_PATH"], "--version"], capture_output=True, text=True, check=False)
    print(f"Lighthouse {version.strip()}, {chromium.stdout.strip()}, {os.cpu_count()} cores; "
          f"median (min-max) of {args.runs} runs; load average at start {os.getloadavg()[0]:.1f}")
    reports = args.reports or Path(tempfile.mkdtemp(prefix="durak-lighthouse-"))
    reports.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    failed = False
    with site(args.root.resolve()) as (servers, base_url, host_url):
        origins = {base_url.rstrip("/")} | ({host_url.rstrip("/")} if host_url else set())
        chosen = targets(args.root.resolve(), base_url, host_url, pages)
        samples: dict[str, dict[str, list[Sample]]] = {t.name: {p: [] for p in presets} for t in chosen}
        for run in range(1, args.runs + 1):
            for target in chosen:
                for preset in presets:
                    out = reports / f"{target.name}-{preset}-{run}.json"
                    since = [len(server.responses) for server in servers]
                    sample = run_lighthouse(target.url, preset, out)
                    sample.http_errors = http_errors(servers, since)
                    if out.exists() and not sample.error:
                        sample.foreign = foreign_requests(json.loads(out.read_text(encoding="utf-8")), origins)
                    failed = failed or bool(sample.error or sample.foreign)
                    samples[target.name][preset].append(sample)
                    status = sample.error or (f"performance {sample.figures.get('performance', '?')}, "
                                              f"load {sample.figures['load']:.1f}")
                    if sample.retries:
                        status += f" (after {sample.retries} DevTools timeout{'s' * (sample.retries > 1)})"
                    print(f"  run {run}/{args.runs} {target.name} {preset}: {status}", file=sys.stderr, flush=True)
    for target in chosen:
        print_page(target, samples[target.name])
    print(f"\n({time.monotonic() - started:.0f} s; load average at end {os.getloadavg()[0]:.1f}; "
          f"reports in {reports if args.reports else 'a temporary folder, deleted'})")
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        data = {name: {preset: [vars(s) for s in runs] for preset, runs in by_preset.items()}
                for name, by_preset in samples.items()}
        args.json.write_text(json.dumps({"runs": args.runs, "pages": data}, indent=2) + "\n", encoding="utf-8")
    if not args.reports:
        shutil.rmtree(reports, ignore_errors=True)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
