"""The site boots a standard library cut to what it imports (scripts/build_stdlib.py); a module left out
still imports: what loading a wheel needs from python_stdlib.packages.zip, anything else from Pyodide's
full one with a warning, each mounted on demand (web/worker/stdlib-fallback.mjs)."""

from __future__ import annotations

import json
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest
from playwright.sync_api import ConsoleMessage, Page, expect

from .helpers import ROOT, click_a_move, load_file

build_stdlib = load_file("durak_build_stdlib", ROOT / "scripts" / "build_stdlib.py")

CUT = ROOT / build_stdlib.CUT
PACKAGES = ROOT / build_stdlib.PACKAGES
FULL = ROOT / build_stdlib.FULL
FALLBACK = "durak: stdlib fallback for "
# Frozen into CPython's binary (Tools/build/freeze_modules.py: start-up and runpy), so never read from
# the zip: the trace finds them in sys.modules with origin "frozen" and the cut leaves them out.
FROZEN = {"abc", "codecs", "io", "_collections_abc", "_sitebuiltins", "genericpath", "ntpath", "posixpath",
          "os", "site", "stat", "importlib.util", "importlib.machinery", "runpy", "zipimport",
          "importlib._bootstrap", "importlib._bootstrap_external"}


def stdlib_modules(archive: Path) -> set[str]:
    with zipfile.ZipFile(archive) as opened:
        return {name for name in map(build_stdlib.module_name, (n.removesuffix("c") for n in opened.namelist()))
                if name}


def test_the_cut_holds_every_module_the_site_names_and_lists_the_rest() -> None:
    """Independent of the trace: every standard-library module an import statement of the site names is
    in the cut, as unchecked-hash bytecode only, with _stdlib_cut (the names left out, for the finder)."""
    assert CUT.is_file() and PACKAGES.is_file() and FULL.is_file(), "run `make setup`"
    kept, for_packages, full = stdlib_modules(CUT), stdlib_modules(PACKAGES), stdlib_modules(FULL)
    named = {name for name in build_stdlib.site_roots(ROOT) if name in full} - FROZEN
    assert {"json", "random", "asyncio", "gettext", "dataclasses", "urllib.parse"} <= named
    assert named <= kept, sorted(named - kept)
    for_wheels = {name for name in build_stdlib.package_roots(ROOT) if name in full} - FROZEN
    assert {"email.parser", "importlib.metadata"} <= for_wheels
    assert for_wheels <= kept | for_packages, sorted(for_wheels - kept - for_packages)
    assert not kept & for_packages and "tarfile" in for_packages  # Pyodide's package loader needs it
    assert len(kept) < len(full) / 3, (len(kept), len(full))
    with zipfile.ZipFile(CUT) as opened:
        files = [n for n in opened.namelist() if not n.endswith("/")]
        assert all(name.endswith(".pyc") for name in files), [n for n in files if not n.endswith(".pyc")][:5]
        for name in files:
            flags = int.from_bytes(opened.read(name)[4:8], "little")
            assert flags == 0b01, f"{name}: not an unchecked-hash .pyc"
    assert build_stdlib.OMITTED_MODULE in kept
    assert {"xml", "email.mime", "unittest", "multiprocessing", "encodings.koi8_r"} <= full - kept - for_packages


def fallback_warnings(page: Page) -> list[str]:
    found: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type == "warning" and message.text.startswith(FALLBACK):
            found.append(message.text.removeprefix(FALLBACK))

    page.on("console", on_console)
    return found


def requested(page: Page) -> list[str]:
    urls: list[str] = []
    page.on("request", lambda request: urls.append(request.url))
    return urls


def test_a_left_out_module_imports_from_the_full_library_with_a_warning_and_tracebacks_format(
    page: Page, base_url: str, wait_ready: Callable[..., float]
) -> None:
    warnings = fallback_warnings(page)
    urls = requested(page)
    page.goto("tests/browser/fixtures/stdlib-fallback.html?snapshot=off")
    wait_ready(page)
    result = json.loads(page.evaluate("document.body.dataset.result"))
    assert (result["trump"], result["card"]) == ("H", "QH")
    assert result["koi8_r"] == "дурак".encode("koi8_r").hex()
    assert result["xml_from"].startswith("/lib/python_stdlib.full.zip/"), result
    assert result["json_from"].startswith("/lib/python314.zip/"), result  # the cut one still comes first
    assert warnings == ["xml", "encodings.koi8_r"], warnings
    full = [url for url in urls if url.endswith("/python_stdlib.full.zip")]
    assert full == [base_url + "web/vendor/pyodide/python_stdlib.full.zip"], full
    # The cut library's bytecode puts each function on its first line (compile_pyc.mjs --def-lines);
    # a traceback through it still formats, naming every file and function.
    assert result["raw_decode_lines"] == [result["raw_decode_def"]], result
    failure = result["traceback"]
    assert failure.startswith("Traceback (most recent call last):"), failure
    for frame in ("in loads", f'"json/decoder.py", line {result["raw_decode_def"]}, in raw_decode'):
        assert frame in failure, failure
    assert failure.rstrip().endswith("JSONDecodeError: Expecting property name enclosed in double quotes: "
                                     "line 1 column 2 (char 1)"), failure


def test_the_table_plays_on_the_cut_library_without_the_fallback(
    page: Page, wait_ready: Callable[..., float]
) -> None:
    warnings = fallback_warnings(page)
    urls = requested(page)
    page.goto("index.html?variant=perevodnoy&players=3&level=hard&seed=5&speed=instant&lang=fr")
    wait_ready(page)
    for _ in range(6):
        page.wait_for_function("() => !!document.querySelector('#hand .hand-cards[data-live=true]')"
                               " || !!document.querySelector('[data-testid=game-over]')", timeout=60_000)
        if page.locator("[data-testid=game-over]").count() or not click_a_move(page):
            break
    page.locator("[data-action=new-game]").first.click()
    page.click("dialog#new-game [data-action=start]")
    expect(page.locator("[data-testid=hand] [data-card]").first).to_be_visible()
    assert not warnings, warnings
    assert not [url for url in urls if "python_stdlib.full.zip" in url or "python_stdlib.packages.zip" in url]
    assert any(url.endswith("/web/vendor/pyodide/python_stdlib.zip") for url in urls)


@pytest.mark.skipif(not (ROOT / "rules" / "en" / "podkidnoy.html").is_file(), reason="rules pages not built")
def test_a_rules_page_tries_moves_on_the_cut_library_without_the_fallback(page: Page) -> None:
    warnings = fallback_warnings(page)
    page.goto("rules/en/podkidnoy.html")
    example = page.locator("[data-example]").first
    example.locator("[data-control=try]").click()
    expect(example).to_have_attribute("data-try", "ready", timeout=90_000)
    example.locator("[data-card]").first.click()
    page.wait_for_timeout(500)
    assert not warnings, warnings


@pytest.mark.skipif(not (ROOT / "examples" / "pyscript" / "index.html").is_file(), reason="no PyScript example")
def test_the_pyscript_example_installs_the_wheel_on_the_cut_library(page: Page) -> None:
    """It boots through web/pyodide-lib.mjs: loading micropip and the wheel takes the archive made for
    that, and nothing comes from the full library."""
    warnings = fallback_warnings(page)
    urls = requested(page)
    page.goto("examples/pyscript/index.html")
    expect(page.locator("#out")).to_contain_text("Legal moves:", timeout=90_000)
    assert not warnings, warnings
    assert [url for url in urls if url.endswith("/python_stdlib.packages.zip")], urls
    assert not [url for url in urls if "python_stdlib.full.zip" in url]
