"""A first visit fetches each file once and only what the pages use, compressed where the browser
accepts it (scripts/compress.py, scripts/serve.py), and the service worker precaches what the page
already has instead of downloading it again (scripts/sw.template.js, web/worker/engine-boot.mjs)."""

from __future__ import annotations

import gzip
import urllib.request
import zipfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

import brotli  # type: ignore[import-untyped]
import pytest
from playwright.sync_api import Browser, Page

from .helpers import CONFIG, CONTROLLED_JS, ROOT, build_sw, build_zip, load_file, serve

compress = load_file("durak_compress", ROOT / "scripts" / "compress.py")

GAME = "index.html?variant=podkidnoy&players=2&level=easy&seed=11&speed=instant&lang=en"
# The browser itself fetches the worker's script again to check for an update (updateViaCache: none).
BROWSER_CHECKS = {"sw.js"}


@pytest.fixture
def own_server() -> Iterator[tuple[serve.StaticServer, str]]:
    """A server of this test alone, so its response log holds one visit."""
    server, url = serve.start_in_background(port=0)
    yield server, url
    server.shutdown()
    server.server_close()


def get(url: str, accept: str | None) -> tuple[dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": accept} if accept else {})
    with urllib.request.urlopen(request, timeout=10) as response:
        return {k.lower(): v for k, v in response.headers.items()}, response.read()


def test_the_server_sends_compressed_copies_with_the_right_headers(
    own_server: tuple[serve.StaticServer, str],
) -> None:
    _, url = own_server
    wasm = ROOT / "web/vendor/pyodide/pyodide.asm.wasm"
    assert (wasm.parent / (wasm.name + ".br")).is_file(), "run `make setup` (scripts/compress.py)"
    original = wasm.read_bytes()
    headers, body = get(url + "web/vendor/pyodide/pyodide.asm.wasm", "gzip, deflate, br, zstd")
    assert (headers["content-encoding"], headers["content-type"]) == ("br", "application/wasm")
    assert headers["vary"] == "Accept-Encoding" and int(headers["content-length"]) == len(body) < len(original) / 3
    assert brotli.decompress(body) == original
    headers, body = get(url + "web/vendor/pyodide/pyodide.asm.wasm", "gzip;q=1, br;q=0")
    assert headers["content-encoding"] == "gzip" and gzip.decompress(body) == original
    headers, body = get(url + "web/vendor/pyodide/pyodide.asm.wasm", None)
    assert "content-encoding" not in headers and body == original and headers["vary"] == "Accept-Encoding"
    for path, mime in (("web/worker/engine-boot.mjs", "text/javascript; charset=utf-8"),
                       ("web/vendor/pyscript/core.js", "text/javascript; charset=utf-8"),
                       ("web/offline/manifest.webmanifest", "application/manifest+json"),
                       ("web/vendor/pyodide/pyodide-lock.json", "application/json"),
                       ("web/modules.zip", "application/zip"),
                       ("web/vendor/pyodide/python_stdlib.zip", "application/zip")):
        headers, body = get(url + path, "br")
        assert headers["content-type"] == mime, (path, headers)
        encoded = headers.get("content-encoding")
        assert (brotli.decompress(body) if encoded == "br" else body) == (ROOT / path).read_bytes(), path


def test_copies_are_made_for_large_files_only_and_follow_their_source(tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title><link rel=stylesheet href=big.css>"
                                         "<link rel=icon href=small.svg>", encoding="utf-8")
    (tmp_path / "big.css").write_text("body { color: red; }\n" * 400, encoding="utf-8")
    (tmp_path / "small.svg").write_text("<svg/>", encoding="utf-8")
    changes, _ = compress.compress(tmp_path)
    assert changes == 2 and not (tmp_path / "small.svg.br").exists()
    assert brotli.decompress((tmp_path / "big.css.br").read_bytes()) == (tmp_path / "big.css").read_bytes()
    assert gzip.decompress((tmp_path / "big.css.gz").read_bytes()) == (tmp_path / "big.css").read_bytes()
    assert compress.compress(tmp_path)[0] == 0  # nothing to do the second time
    (tmp_path / "big.css").write_text("main { margin: 0; }\n" * 500, encoding="utf-8")
    assert compress.compress(tmp_path)[0] == 2
    assert brotli.decompress((tmp_path / "big.css.br").read_bytes()).startswith(b"main")
    (tmp_path / "index.html").write_text("<!doctype html><title>t</title>", encoding="utf-8")
    compress.compress(tmp_path)  # big.css is no longer served: its copies go
    assert not (tmp_path / "big.css.br").exists() and not (tmp_path / "big.css.gz").exists()


def test_the_release_version_follows_the_compressor() -> None:
    """A host serves the copies: new copies (another compressor) make a new release, as a new file does."""
    settings = build_sw.compression_settings()
    assert (ROOT / "scripts" / "compress.py").read_bytes() in settings and b"brotli " in settings


def test_the_archive_leaves_out_what_only_the_command_line_runs() -> None:
    with zipfile.ZipFile(ROOT / build_zip.ARCHIVE) as archive:
        names = set(archive.namelist())
    assert "durak/game.pyc" in names
    assert not [name for name in names if "/cli." in name or "/arena." in name or name.startswith("web/app.")]


def test_a_first_visit_fetches_each_file_once(
    browser: Browser, own_server: tuple[serve.StaticServer, str], wait_ready: Callable[..., float]
) -> None:
    """Cold, from a shared link: the page, then its service worker's precache and the snapshot worker.
    Counted at the server, so the workers' requests are in; a 304 counts as a fetch too."""
    server, url = own_server
    context = browser.new_context(viewport=CONFIG.VIEWPORT)
    try:
        page: Page = context.new_page()
        page.goto(url + GAME)
        wait_ready(page)
        page.wait_for_function(CONTROLLED_JS, timeout=60_000)
        page.wait_for_function("() => ['saved', 'failed'].includes(document.body.dataset.snapshot)",
                               timeout=90_000)
        assert page.evaluate("document.body.dataset.snapshot") == "saved"
        assert page.evaluate("caches.has('durak-handover')") is False  # the precache took it and let go
    finally:
        context.close()
    fetched = Counter(path.removeprefix("/") for path, _, _ in server.responses)
    twice = {path: count for path, count in fetched.items() if count > 1 and path not in BROWSER_CHECKS}
    assert not twice, twice
    precached = set(build_sw.precache_files(ROOT))
    assert set(fetched) - BROWSER_CHECKS <= precached, sorted(set(fetched) - precached)
    assert {"index.html", "web/modules.zip", "web/vendor/pyodide/pyodide.asm.wasm",
            "web/vendor/pyodide/python_stdlib.zip"} <= set(fetched)
    assert "web/vendor/pyodide/python_stdlib.full.zip" not in fetched
    assert sum(size for _, _, size in server.responses) < 0.55 * sum(
        (ROOT / path).stat().st_size for path in fetched if (ROOT / path).is_file())  # compressed
