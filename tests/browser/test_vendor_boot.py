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
#: What the page itself fetched (a worker's fetches are in the worker's own timeline, not here).
PAGE_FETCHED_JS = "() => performance.getEntriesByType('resource').map(e => e.name)"


def test_the_table_loads_no_pyscript_and_its_worker_fetches_pyodide(
    page: Page, base_url: str, wait_ready: Callable[..., float]
) -> None:
    """The table's Python runs in the engine worker (web/table/table.js starts web/worker/engine-worker.mjs): the page
    fetches no PyScript, no pyscript.toml and no Pyodide, and preloads nothing the worker then fetches on
    its own (a document's preload is not a worker's); the worker fetches the vendored Pyodide, the cut
    standard library and web/modules.zip."""
    requested: list[str] = []
    page.on("request", lambda request: requested.append(request.url))
    page.goto("index.html?variant=podkidnoy&players=2&seed=1&speed=instant")
    wait_ready(page)
    assert page.locator("#hand [data-card]").count() == 6
    assert not page.evaluate(PRELOADS_JS)
    pyscript = [url for url in requested if "/web/vendor/pyscript/" in url or url.endswith("/pyscript.toml")]
    assert not pyscript, pyscript
    # what the worker's Pyodide fetches or imports at run time (Chromium lists the worker's static imports,
    # engine-boot.mjs and pyodide.mjs, in the page's timeline too, but they run in the worker)
    worker_files = {base_url + "web/vendor/pyodide/" + name for name in (
        "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")} | {base_url + "web/modules.zip"}
    assert worker_files | {base_url + "web/vendor/pyodide/pyodide.mjs"} <= set(requested), sorted(
        worker_files - set(requested))
    by_the_page = [url for url in page.evaluate(PAGE_FETCHED_JS) if url in worker_files]
    assert not by_the_page, f"fetched by the page, not the worker: {by_the_page}"
