"""benchmarks/lighthouse.py reads Lighthouse's reports right: figures, the LCP element, requests that left
loopback, HTTP errors, the pages it skips. The fixture is a real Lighthouse 12.8.2 report of the table
(mobile preset), cut down to the audits the script reads."""

from __future__ import annotations

import json
import runpy
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
bench = SimpleNamespace(**runpy.run_path(str(ROOT / "benchmarks" / "lighthouse.py")))
REPORT = json.loads((Path(__file__).with_name("fixtures") / "lighthouse-table-mobile.json").read_text(encoding="utf-8"))
ORIGIN = "http://127.0.0.1:41443"


def test_figures_are_scores_out_of_100_and_metrics_in_ms() -> None:
    figures = bench.figures(REPORT)
    assert figures["performance"] == 25
    assert figures["accessibility"] == 100
    assert figures["best-practices"] == 82
    assert figures["tbt_ms"] == pytest.approx(19994.4164)
    assert figures["lcp_ms"] == pytest.approx(68260.2224)
    assert figures["fcp_ms"] == pytest.approx(9110.4448)
    assert figures["si_ms"] == pytest.approx(24578.0464)
    assert figures["tti_ms"] == pytest.approx(73176.7224)
    assert figures["script_ms"] == pytest.approx(39556.548)
    assert figures["main_thread_ms"] == pytest.approx(45225.212)
    assert figures["lcp_observed_ms"] == 11500
    assert figures["benchmark_index"] == 1031


def test_a_metric_lighthouse_could_not_compute_is_left_out() -> None:
    report: dict[str, Any] = json.loads(json.dumps(REPORT))
    del report["audits"]["interactive"]["numericValue"]
    report["categories"]["best-practices"]["score"] = None
    figures = bench.figures(report)
    assert "tti_ms" not in figures and "best-practices" not in figures
    assert figures["tbt_ms"] > 0


def test_lcp_element_names_selector_and_text() -> None:
    assert bench.lcp_element(REPORT) == 'form#ng-form > div.grid > label > span "First attack in later games"'
    report: dict[str, Any] = json.loads(json.dumps(REPORT))
    report["audits"]["largest-contentful-paint-element"] = {"score": None, "errorMessage": "gatherer failed"}
    assert bench.lcp_element(report) == ""


def test_requests_off_loopback_are_found() -> None:
    assert bench.foreign_requests(REPORT, {ORIGIN}) == []
    report: dict[str, Any] = json.loads(json.dumps(REPORT))
    items = report["audits"]["network-requests"]["details"]["items"]
    items += [{"url": "https://cdn.jsdelivr.net/pyodide/pyodide.mjs"}, {"url": "data:image/png;base64,AAAA"},
              {"url": "blob:http://127.0.0.1:41443/1234"}]
    assert bench.foreign_requests(report, {ORIGIN}) == ["https://cdn.jsdelivr.net/pyodide/pyodide.mjs"]
    # another port is another origin
    assert len(bench.foreign_requests(REPORT, {"http://127.0.0.1:41444"})) == len(items) - 3


def test_http_errors_count_only_new_failures_and_not_source_maps() -> None:
    site = SimpleNamespace(responses=[("/old.css", 404, 0), ("/index.html", 200, 9), ("/web/review/review.css", 404, 0),
                                      ("/web/vendor/pyscript/core.js.map", 404, 0), ("/x.js", 500, 0)])
    host = SimpleNamespace(responses=[("/index.html", 200, 9), ("/favicon.ico", 404, 0)])
    assert bench.http_errors([site, host], [1, 0]) == ["404 /favicon.ico", "404 /web/review/review.css", "500 /x.js"]


def test_spread_and_verdict() -> None:
    assert bench.spread([20_000.0, 16_800.0, 18_000.0], "tbt_ms") == "18.0 s (16.8-20.0)"
    assert bench.spread([120.0, 95.5, 300.0], "tbt_ms") == "120 ms (96-300)"
    assert bench.spread([25.0, 30.0], "performance") == "28 (25-30)"
    assert bench.spread([], "lcp_ms") == "-"
    assert bench.verdict([120.0, 150.0, 400.0], "tbt_ms") == "goal <= 200: met"
    assert bench.verdict([88.0, 91.0], "performance") == "goal >= 90: NOT met"
    assert bench.verdict([1.0], "si_ms") == ""
    assert bench.spread([0.0421, 0.0, 0.2], "cls") == "0.042 (0.000-0.200)"
    assert bench.verdict([0.0421, 0.0, 0.2], "cls") == "goal <= 0.1: met"
    assert bench.verdict([0.12, 0.2], "cls") == "goal <= 0.1: NOT met"


def test_the_layout_shift_is_read_when_the_report_has_it() -> None:
    report: dict[str, Any] = json.loads(json.dumps(REPORT))
    assert "cls" not in bench.figures(report)
    report["audits"]["cumulative-layout-shift"] = {"numericValue": 0.0123}
    assert bench.figures(report)["cls"] == pytest.approx(0.0123)


def test_pages_that_are_not_built_are_skipped_with_a_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = bench.targets(tmp_path, "http://127.0.0.1:1/", None, ["table", "rules", "embed"])
    assert [t.name for t in found] == ["table"]
    out = capsys.readouterr().out
    assert "skipped rules" in out and "skipped embed" in out
    (tmp_path / "embed.html").write_text("", encoding="utf-8")
    (tmp_path / "rules" / "en").mkdir(parents=True)
    (tmp_path / "rules" / "en" / "podkidnoy.html").write_text("", encoding="utf-8")
    found = bench.targets(tmp_path, "http://127.0.0.1:1/", "http://127.0.0.1:2/", ["embed", "rules"])
    assert [(t.name, t.url) for t in found] == [("embed", "http://127.0.0.1:2/index.html"),
                                               ("rules", "http://127.0.0.1:1/rules/en/podkidnoy.html")]
    found = bench.targets(tmp_path, "http://127.0.0.1:1/", None, ["embed"])
    assert found[0].url == "http://127.0.0.1:1/embed.html?example=podkidnoy-limit-take"
