"""examples/pyscript/: a third party's PyScript page installs the durak wheel with micropip from the
site's own origin (no PyPI, no CDN) and shows the legal moves of its deal."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

from playwright.sync_api import Page, Request, expect

from durak import Game, Rules

from .helpers import ROOT, load_file

EXAMPLE = "examples/pyscript/index.html"
VENDORED_PYODIDE = ROOT / "web" / "vendor" / "pyodide"
build_wheel = load_file("durak_build_wheel", ROOT / "scripts" / "build_wheel.py")


def micropip_entry() -> dict[str, str]:
    lock = json.loads((VENDORED_PYODIDE / "pyodide-lock.json").read_text(encoding="utf-8"))
    entry: dict[str, str] = lock["packages"]["micropip"]
    return entry


def test_the_vendored_lock_names_the_vendored_micropip_by_its_real_hash() -> None:
    entry = micropip_entry()
    wheel = VENDORED_PYODIDE / entry["file_name"]
    assert wheel.is_file(), "micropip's wheel is not vendored: run `make setup`"
    assert entry["sha256"] == hashlib.sha256(wheel.read_bytes()).hexdigest()
    npm_lock = json.loads((ROOT / "node_modules" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert npm_lock["packages"]["micropip"]["file_name"] == entry["file_name"]  # the version Pyodide names


def test_the_example_names_the_wheel_make_setup_builds() -> None:
    """A version bump in pyproject.toml must not leave the example installing a wheel that is gone."""
    text = (ROOT / EXAMPLE).read_text(encoding="utf-8")
    named = re.findall(r"durak-[^\"'/]+\.whl", text)
    assert named == [build_wheel.wheel_name(ROOT)]
    _, wheel = build_wheel.build(ROOT)
    assert Path(wheel).is_file()


def test_micropip_installs_the_wheel_from_the_site_and_the_page_lists_the_legal_moves(
        page: Page, base_url: str) -> None:
    build_wheel.build(ROOT)
    requests: list[str] = []

    def on_request(request: Request) -> None:
        requests.append(request.url)

    page.on("request", on_request)
    page.goto(base_url + EXAMPLE)
    output = page.locator("#out")
    expect(output).to_contain_text("Legal moves:", timeout=60_000)

    game = Game.new(Rules(variant="podkidnoy", players=2), seed=42)
    legal = [str(action) for action in game.legal_actions(game.to_act)]
    shown = output.inner_text().split("Legal moves:\n", 1)[1].splitlines()
    assert shown == legal

    assert base_url + "web/vendor/pyodide/" + micropip_entry()["file_name"] in requests, requests
    assert base_url + "dist/" + build_wheel.wheel_name(ROOT) in requests, requests
    outside = [url for url in requests if not url.startswith(base_url) and not url.startswith("data:")]
    assert not outside, f"requests outside the site: {outside}"
