#!/usr/bin/env python3
"""Take the screenshots docs/cards.md shows: the player's hand of court cards and aces at 1280 px in the
classic deck and at 360 px (twice the pixels) in the four-colour deck, and the seats of a French rules
page's worked example.

    .venv/bin/python scripts/shoot_cards.py      # after `make setup`; writes docs/screens/cards-*.png

Serves the site as the browser tests do (scripts/serve.py) and drives Debian's Chromium with Playwright.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from durak.record import url_safe  # noqa: E402

_spec = importlib.util.spec_from_file_location("durak_serve", ROOT / "scripts" / "serve.py")
assert _spec is not None and _spec.loader is not None
serve = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(serve)

OUT = ROOT / "docs" / "screens"
CHROMIUM = "/usr/bin/chromium"
POSITION = url_safe("podkidnoy/2p/36 trump=D talon=6H,7H,8S,9S,JS,QD hands=KH,QS,JD,AC,10D,7C,AS,KD|6S,8H,9D,KC,"
                    "QH,AD table=- discard=* dealer=1 attacker=0 defender=1 opener=0 turn=0 limit=6 round=1")
ART_LOADED = """() => performance.getEntriesByType('resource').some((e) => e.name.includes('/web/vendor/deck/'))"""


def main() -> int:
    OUT.mkdir(parents=True, exist_ok=True)
    server, url = serve.start_in_background(port=0)
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM)
            for width, height, scale, style in ((1280, 800, 1, "classic"), (360, 740, 2, "four-colour")):
                context = browser.new_context(viewport={"width": width, "height": height}, device_scale_factor=scale)
                context.add_init_script(f"localStorage.setItem('durak.deck', '{style}')")
                page = context.new_page()
                page.goto(f"{url}index.html?speed=instant&lang=en&position={POSITION}")
                page.wait_for_function("document.body.dataset.state === 'ready'", timeout=180_000)
                page.wait_for_function(ART_LOADED)
                page.wait_for_timeout(500)
                page.locator("[data-testid=hand]").screenshot(path=str(OUT / f"cards-{width}-{style}.png"))
                context.close()
            context = browser.new_context(viewport={"width": 800, "height": 900})
            page = context.new_page()
            page.goto(f"{url}rules/fr/perevodnoy.html")
            example = page.locator("[data-example='perevodnoy-transfer']")
            example.scroll_into_view_if_needed()
            page.wait_for_function(ART_LOADED)
            page.wait_for_timeout(500)
            example.locator(".ex-seats").screenshot(path=str(OUT / "cards-rules-fr.png"))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    for path in sorted(OUT.glob("cards-*.png")):
        print(f"{path.relative_to(ROOT)}: {path.stat().st_size // 1024} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
