"""Plain helpers of the browser tests: the repo's scripts loaded by path, a rebuild, one clicked move,
a page whose clicks wait for the engine worker's answer.

benchmarks/page.py loads this file by path too (runpy), for its clicking player and its scripts:
keep it free of pytest and of relative imports.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

ROOT = Path(__file__).resolve().parents[2]

CONTROLLED_JS = "() => navigator.serviceWorker.controller !== null"
TURN_JS = """() => {
  if (document.querySelector('[data-testid=game-over]')) return 'over';
  if (document.querySelector('#hand .hand-cards[data-live=true]')) return 'turn';
  return '';
}"""


def load_file(name: str, path: Path) -> ModuleType:
    """A Python file loaded as a module by path (scripts/ is no package; playwright.config.py has dots)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses and typing look a module up by its name
    spec.loader.exec_module(module)
    return module


CONFIG = load_file("durak_playwright_config", ROOT / "playwright.config.py")
serve = load_file("durak_serve", ROOT / "scripts" / "serve.py")
build_zip = load_file("durak_build_zip", ROOT / "scripts" / "build_zip.py")
build_rules = load_file("durak_build_rules", ROOT / "scripts" / "build_rules.py")
build_sw = load_file("durak_build_sw", ROOT / "scripts" / "build_sw.py")


def rebuild() -> None:
    """Rebuild web/modules.zip, the rules pages and sw.js from the files as they are now: the page imports
    the Python from the zip, and the service worker refuses to install when a file no longer matches its
    hash (an edit since the last build)."""
    build_zip.build(ROOT)
    build_rules.build(ROOT)
    build_sw.build(ROOT)


class FramePage:
    """A page whose clicks wait for the worker's answer. The table's frames come from the engine worker
    (web/table/table.js marks each drawn one in body[data-frame]): a click's answer is drawn after the click
    returns, so a helper that reads the page right after a click would read the frame before it. A page
    with no frame drawn yet (or an older copy of the site, whose PyScript drew the answer inside the
    click's handler) is not waited for."""

    def __init__(self, page: Page) -> None:
        self.page = page

    def __getattr__(self, name: str) -> Any:
        return getattr(self.page, name)

    def click(self, selector: str, **options: Any) -> None:
        drawn = self._drawn()
        self.page.click(selector, **options)
        self._answered(drawn)

    def select_option(self, selector: str, value: str) -> None:
        drawn = self._drawn()
        self.page.select_option(selector, value)
        self._answered(drawn)

    def _drawn(self) -> str | None:
        frame: str | None = self.page.evaluate("() => document.body.dataset.frame ?? null")
        return frame

    def _answered(self, drawn: str | None) -> None:
        if drawn is not None:
            self.page.wait_for_function("drawn => document.body.dataset.frame !== drawn", arg=drawn)


def frame_page(page: Page | FramePage) -> FramePage:
    return page if isinstance(page, FramePage) else FramePage(page)


#: Where a person taps a hand card: its corner, in the strip that stays in view when the hand overlaps (the
#: next card may cover the middle of a card, down to a 24 px strip: docs/ui.md, "The table fits the window").
IN_STRIP = {"x": 8, "y": 12}

#: How long a helper's click waits for a card or button it saw playable: with friends at the table, frames
#: also come from the others' moves, and one may take it away between the look and the click.
STALE_CLICK_MS = 3_000


def click_a_move(page: Page | FramePage) -> bool:
    """One move by clicking: the first playable card (and its first lit target on the table), else
    pass or take, each click answered before the next look. False when none of these was possible."""
    page = frame_page(page)
    cards: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=hand] [data-card][data-playable=true]')]"
        ".map(e => e.dataset.card)"
    )
    try:
        if cards:
            page.click(f'[data-testid=hand] [data-card="{cards[0]}"]', position=IN_STRIP, timeout=STALE_CLICK_MS)
            if page.locator("[data-testid=table] [data-target=true]").count():
                page.click("[data-testid=table] [data-target=true] >> nth=0", timeout=STALE_CLICK_MS)
            return True
        for action in ("pass", "take"):
            button = page.locator(f".actions [data-action={action}]")
            if button.is_visible() and button.is_enabled():
                page.click(f".actions [data-action={action}]", timeout=STALE_CLICK_MS)
                return True
    except PlaywrightTimeoutError:  # a newer frame (another player's move) took the card or the button away
        return False
    return False


# Not part of the site (development files, caches): left out of a frozen copy.
NOT_SERVED = (".git", ".venv", "node_modules", ".cache", ".pytest_cache", ".mypy_cache", ".ruff_cache",
              ".hypothesis", "artifacts", "__pycache__", "build", "dist")


def frozen_site(folder: Path) -> Path:
    """The site as it is now, built, copied to ``folder``/site with a service worker of that copy: an edit
    to the working tree meanwhile cannot make the worker refuse its files (tests that go offline, benchmarks)."""
    rebuild()
    site = folder / "site"
    shutil.copytree(ROOT, site, ignore=shutil.ignore_patterns(*NOT_SERVED), symlinks=True)
    build_sw.build(site)
    return site
