"""The installable app: a manifest Chromium accepts, icons of the stated sizes, and updates.

A new build (any file changed, sw.js rebuilt) is simulated on a copy of the site served by a
second server: the open page must offer it ("new version available — reload") and, once
accepted, run the new release from a fresh cache with the old one deleted.
"""

from __future__ import annotations

import json
import struct
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, expect

from tests.browser.helpers import CONTROLLED_JS, ROOT, build_sw

MANIFEST = ROOT / "web" / "offline" / "manifest.webmanifest"
RELEASES_JS = "async () => (await caches.keys()).filter(name => name.startsWith('durak-v-')).sort()"


def png_size(path: Path) -> tuple[int, int]:
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR", path
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def test_manifest_has_names_descriptions_and_icons_of_the_right_sizes() -> None:
    manifest = json.loads(MANIFEST.read_text(encoding="utf-8"))
    assert manifest["short_name"] == "Durak" and "Durak" in manifest["name"]
    assert manifest["display"] == "standalone"
    assert manifest["start_url"] == "../../" and manifest["scope"] == "../../"  # the site root, any sub-path
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    assert manifest["lang"] == "en" and manifest["dir"] == "ltr"
    assert "card game" in manifest["description"]
    assert "jeu de cartes" in manifest["description_localized"]["fr"]
    pngs = [icon for icon in manifest["icons"] if icon["type"] == "image/png"]
    for icon in pngs:
        width, height = png_size(MANIFEST.parent / icon["src"])
        assert icon["sizes"] == f"{width}x{height}", icon
    kinds = {(icon["sizes"], icon["purpose"]) for icon in pngs}
    assert {("192x192", "any"), ("512x512", "any"), ("512x512", "maskable")} <= kinds
    html = (ROOT / "index.html").read_text(encoding="utf-8")
    assert '<link rel="manifest" href="./web/offline/manifest.webmanifest">' in html


def test_chromium_reads_the_manifest_and_finds_the_app_installable(
    context: BrowserContext, page: Page, base_url: str, wait_ready: Callable[..., float]
) -> None:
    build_sw.build(ROOT)  # the worker installs only if every file still matches its hash
    page.goto("index.html?speed=instant")
    wait_ready(page)
    page.wait_for_function(CONTROLLED_JS, timeout=60_000)
    cdp = context.new_cdp_session(page)
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"] == base_url + "web/offline/manifest.webmanifest"
    assert manifest["errors"] == []
    parsed = manifest["manifest"]
    assert parsed["startUrl"] == base_url and parsed["scope"] == base_url
    assert parsed["display"] == "kStandalone"
    # Playwright's contexts are incognito, which alone keeps Chromium from offering the install.
    errors = {e["errorId"] for e in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]}
    assert errors <= {"in-incognito"}, errors


def test_a_new_build_replaces_the_cache_after_the_page_offers_it(
    page: Page, site_copy: tuple[Path, str], wait_ready: Callable[..., float]
) -> None:
    site, url = site_copy
    page.goto(url + "index.html?variant=podkidnoy&players=2&seed=3&speed=instant&lang=fr")
    wait_ready(page)
    page.wait_for_function(CONTROLLED_JS, timeout=60_000)
    first = page.evaluate(RELEASES_JS)
    assert len(first) == 1
    expect(page.locator("[data-testid=update]")).to_have_count(0)

    with (site / "web" / "table" / "style.css").open("a", encoding="utf-8") as css:
        css.write("\n/* release 2 */\n")
    _, version, _ = build_sw.build(site)
    assert f"durak-v-{version}" not in first

    page.reload()  # the browser checks sw.js on navigation and installs the new release
    wait_ready(page)
    notice = page.locator("[data-testid=update]")
    expect(notice).to_be_visible(timeout=60_000)
    expect(notice).to_contain_text("Une nouvelle version est disponible.")
    # Until the player accepts, the open page keeps the release it started with.
    assert "release 2" not in page.evaluate("fetch('web/table/style.css').then(r => r.text())")
    # A modal dialog opened meanwhile neither hides the notice nor makes it inert.
    page.click("[data-action=new-game]")
    expect(page.locator("dialog#new-game")).to_have_attribute("open", "")
    expect(notice).to_be_visible()

    with page.expect_navigation(timeout=60_000):
        notice.locator("[data-action=reload-update]").click()
    wait_ready(page)
    assert page.evaluate(RELEASES_JS) == [f"durak-v-{version}"]
    css_text = page.evaluate("fetch('web/table/style.css').then(r => r.text())")
    assert css_text.endswith("/* release 2 */\n")
    expect(page.locator("[data-testid=update]")).to_have_count(0)
