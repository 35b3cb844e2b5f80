"""Files few visitors need are cached by the service worker on first use, not precached (scripts/build_sw.py's
DEFERRED): the precache leaves them out (the PyScript example and all of PyScript with it), each works offline
once fetched, and the four-colour deck, never fetched, falls back to the classic pictures offline instead of blank
faces; the PyScript example, once seen, opens offline."""

from __future__ import annotations

import json
import re
from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.conftest import PageErrors
from tests.browser.helpers import ROOT, build_sw, load_file
from tests.browser.offline.test_offline import first_visit

FOUR_COLOUR = "web/vendor/deck/four-colour/KD.svg"
CLASSIC = "web/vendor/deck/classic/KD.svg"
# Each deferred file (one worked example's frames for all), and a file that only one of them loads (cached on
# first use too).
FETCHED = ["web/vendor/pyodide/micropip-0.11.1-py3-none-any.whl", FOUR_COLOUR, "web/vendor/qr/jsQR.js",
           "web/vendor/qr/qrcode.mjs", "web/friends/relay.js", "rules/frames/en/perevodnoy-transfer.json"]
build_wheel = load_file("durak_build_wheel", ROOT / "scripts" / "build_wheel.py")
PYSCRIPT_EXAMPLE = "examples/pyscript/index.html"
# The PyScript example and what only it loads: its config, PyScript's entry and core chunk, the wheel it installs.
PYSCRIPT = [PYSCRIPT_EXAMPLE, "examples/pyscript/pyscript.toml", "web/vendor/pyscript/core.js",
            *sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("web/vendor/pyscript/core-*.js")),
            f"dist/{build_wheel.wheel_name(ROOT)}"]
USED = [*FETCHED, "web/vendor/trystero/torrent.mjs"]  # the files fetched, with what relay.js imports
DEFERRED = [*USED, *PYSCRIPT]
FETCH_JS = """async (path) => {
  try { const r = await fetch(path); return r.ok ? (await r.arrayBuffer()).byteLength : -r.status; }
  catch (e) { return 0; }
}"""


def sw_lists() -> tuple[dict[str, str], dict[str, str]]:
    """FILES and ON_DEMAND of the sw.js now built."""
    build_sw.build(ROOT)
    text = (ROOT / "sw.js").read_text(encoding="utf-8")
    found = {name: json.loads(re.search(rf"const {name} = (\{{.*?\n\}});", text, re.S)[1])  # type: ignore[index]
             for name in ("FILES", "ON_DEMAND")}
    return found["FILES"], found["ON_DEMAND"]


@pytest.mark.parametrize("path", DEFERRED)
def test_deferred_file_is_not_precached_but_cached_on_demand(path: str) -> None:
    files, on_demand = sw_lists()
    assert path not in files
    assert path in on_demand
    assert CLASSIC in files  # the fallback beneath the four-colour deck is precached


def test_every_deferred_pattern_names_files_and_none_is_precached() -> None:
    files, on_demand = sw_lists()
    for pattern in build_sw.DEFERRED:
        named = [str(path) for path in build_sw.deferred(ROOT) if path.match(pattern)]
        assert named, f"{pattern} names no file"
        assert not set(named) & set(files) and set(named) <= set(on_demand)


def test_no_pyscript_file_is_precached() -> None:
    files, _ = sw_lists()
    assert not [path for path in files if path.startswith("web/vendor/pyscript/") or path.startswith("examples/")]


def test_deferred_files_work_offline_once_fetched(
    context: BrowserContext, page: Page, base_url: str, wait_ready: Callable[..., float]
) -> None:
    first_visit(context, page, wait_ready)
    sizes = {path: page.evaluate(FETCH_JS, path) for path in FETCHED}  # online: each used once
    assert all(size > 0 for size in sizes.values()), sizes
    page.evaluate("() => import('./web/friends/relay.js')")  # loads torrent.mjs, as playing through relays does
    context.set_offline(True)
    for path in USED:
        assert page.evaluate(FETCH_JS, path) > 0, f"{path} not cached after its first use"


def test_the_pyscript_example_works_offline_once_seen(
    context: BrowserContext, page: Page, wait_ready: Callable[..., float]
) -> None:
    # Loading micropip imports modules of python_stdlib.packages.zip, which a page's synchronous request
    # would fetch past the service worker (Chromium): web/pyodide-lib.mjs fetches it ahead instead.
    first_visit(context, page, wait_ready)
    page.goto(PYSCRIPT_EXAMPLE)
    expect(page.locator("#out")).to_contain_text("Legal moves:", timeout=90_000)
    context.set_offline(True)
    page.reload()
    expect(page.locator("#out")).to_contain_text("Legal moves:", timeout=90_000)
    assert page.evaluate(FETCH_JS, "../../web/vendor/pyodide/python_stdlib.packages.zip") > 0  # from the cache


def test_four_colour_deck_falls_back_to_classic_offline(
    context: BrowserContext, page: Page, base_url: str, wait_ready: Callable[..., float], page_errors: PageErrors
) -> None:
    page_errors.allow(r"four-colour/\w+\.svg.*Failed to load resource")  # the fetch that fails offline, on purpose
    first_visit(context, page, wait_ready)
    context.set_offline(True)
    assert page.evaluate(FETCH_JS, FOUR_COLOUR) == 0  # never fetched: not in the cache
    assert page.evaluate(FETCH_JS, CLASSIC) > 0
    page.evaluate("""() => {
      document.documentElement.dataset.deck = 'four-colour';
      const card = document.createElement('div');
      card.className = 'card suit-d';
      card.innerHTML = '<span data-face="KD" id="probe-face"></span>';
      document.body.append(card);
    }""")
    image = page.evaluate("() => getComputedStyle(document.getElementById('probe-face'), '::after').backgroundImage")
    assert FOUR_COLOUR in image and CLASSIC in image, image
    # the classic picture lies beneath: the four-colour one, when it fails, leaves it showing
    assert image.index(FOUR_COLOUR) < image.index(CLASSIC), image
