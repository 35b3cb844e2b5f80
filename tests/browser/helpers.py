"""Plain helpers of the browser tests: the repo's scripts loaded by path, a rebuild, one clicked move.

benchmarks/page.py loads this file by path too (runpy), for its clicking player and its scripts:
keep it free of pytest and of relative imports.
"""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path
from types import ModuleType

from playwright.sync_api import Page

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


def click_a_move(page: Page) -> bool:
    """One move by clicking: the first playable card (and its first lit target on the table), else
    pass or take. False when none of these was possible."""
    cards: list[str] = page.evaluate(
        "() => [...document.querySelectorAll('[data-testid=hand] [data-card][data-playable=true]')]"
        ".map(e => e.dataset.card)"
    )
    if cards:
        page.click(f'[data-testid=hand] [data-card="{cards[0]}"]')
        lit = page.locator("[data-testid=table] [data-target=true]")
        if lit.count():
            lit.first.click()
        return True
    for action in ("pass", "take"):
        button = page.locator(f".actions [data-action={action}]")
        if button.is_visible() and button.is_enabled():
            button.click()
            return True
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
