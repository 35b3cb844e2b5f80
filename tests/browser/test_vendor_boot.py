"""Pyodide boots in Chromium from web/vendor/ alone (made by `make setup`), with no CDN request."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import Page, Request, Response

ROOT = Path(__file__).resolve().parents[2]
VENDORED_PYODIDE = ROOT / "web" / "vendor" / "pyodide"


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def test_bare_pyodide_boots_from_vendored_files(
    page: Page, base_url: str, wait_ready: Callable[..., float]
) -> None:
    assert (VENDORED_PYODIDE / "pyodide.mjs").is_file(), "web/vendor/pyodide is missing: run `make setup`"
    requested: list[str] = []
    failed: list[str] = []

    def on_request(request: Request) -> None:
        requested.append(request.url)

    def on_response(response: Response) -> None:
        if response.status >= 400:
            failed.append(f"{response.status} {response.url}")

    page.on("request", on_request)
    page.on("response", on_response)
    page.on("requestfailed", lambda request: failed.append(f"{request.failure} {request.url}"))

    page.goto("benchmarks/bare.html")
    ready_ms = wait_ready(page)

    python = page.locator("#python-version").inner_text()
    assert re.fullmatch(r"3\.\d+\.\d+", python), python
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]["pyodide"]
    assert page.locator("body").get_attribute("data-pyodide") == pinned
    assert ready_ms > 0
    assert not failed, failed

    # Everything came from the local server: no CDN, no other host.
    local = origin(base_url)
    foreign = [url for url in requested if not url.startswith(("data:", "blob:")) and origin(url) != local]
    assert not foreign, foreign

    # ...and Pyodide's files from the vendored folder, which holds every file it asked for.
    vendor_prefix = base_url + "web/vendor/pyodide/"
    vendored = {url.removeprefix(vendor_prefix) for url in requested if url.startswith(vendor_prefix)}
    # (the bare page boots Pyodide's own full standard library, not the site's cut one)
    assert {"pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.full.zip"} <= vendored, vendored
    assert all((VENDORED_PYODIDE / name).is_file() for name in vendored), vendored


PRELOADS_JS = """() => [...document.querySelectorAll('link[rel=modulepreload], link[rel=preload]')]
    .map(link => link.href)"""
FETCHED_JS = """() => performance.getEntriesByType('resource')
    .filter(e => e.startTime < Number(document.body.dataset.readyMs))
    .map(e => [e.name, e.initiatorType])"""


def test_the_page_preloads_what_pyscript_loads_before_it_starts_pyodide(
    page: Page, wait_ready: Callable[..., float]
) -> None:
    """Each module PyScript imports on the way to Pyodide, and its config, would otherwise be fetched one
    after another; preloaded from <head> they arrive together. A new PyScript release renames its chunks:
    then this fails, naming what to preload."""
    page.goto("index.html?variant=podkidnoy&players=2&seed=1&speed=instant")
    wait_ready(page)
    preloaded = set(page.evaluate(PRELOADS_JS))
    fetched = page.evaluate(FETCHED_JS)
    pyscript_start = [url for url, _ in fetched if "/web/vendor/pyscript/" in url or url.endswith("/pyscript.toml")]
    # fetched by a module import or fetch() rather than taken from a preload
    not_preloaded = [url for url, how in fetched if url in pyscript_start and how in ("script", "fetch")]
    assert not not_preloaded, f"add to index.html's <head>: {not_preloaded}"
    unused = sorted(preloaded - {url for url, _ in fetched})
    assert not unused, f"preloaded but never fetched (a renamed chunk?): {unused}"
