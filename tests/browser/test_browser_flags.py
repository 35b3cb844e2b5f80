"""The browser the tests drive: behaviour tests add playwright.config.py's BEHAVIOUR_TEST_ARGS, timing
tests never see them; our --disable-features keeps every feature Playwright disables and builds no address-bar
popup for each page."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser

from .conftest import timing_in_session
from .helpers import CONFIG


def test_the_behaviour_flags_are_on_exactly_when_no_timing_test_runs(browser: Browser,
                                                                     request: pytest.FixtureRequest) -> None:
    page = browser.new_page()
    try:
        page.goto("chrome://version")
        command_line = page.inner_text("#command_line")
    finally:
        page.close()
    assert "--allow-loopback-in-peer-connection" in command_line  # the page shows the launch flags
    wanted = not timing_in_session(request.session)
    assert CONFIG.BEHAVIOUR_TEST_ARGS
    for flag in CONFIG.BEHAVIOUR_TEST_ARGS:
        assert (flag in command_line) is wanted, (flag, command_line)


def test_our_disabled_features_keep_playwrights_and_no_page_gets_an_address_bar_popup(browser: Browser) -> None:
    page = browser.new_page()
    try:
        page.goto("chrome://version")
        command_line = page.inner_text("#command_line")
        session = browser.new_browser_cdp_session()
        targets = [target["url"] for target in session.send("Target.getTargets")["targetInfos"]]
        session.detach()
    finally:
        page.close()
    # Playwright's list first, ours after it: Chromium keeps the last one alone
    lists = [set(found.split(",")) for found in re.findall(r"--disable-features=(\S+)", command_line)]
    assert len(lists) == 2, command_line
    playwrights, ours = lists
    assert playwrights <= ours, f"Playwright disables {sorted(playwrights - ours)} too: add them to ours"
    assert set(CONFIG.OMNIBOX_POPUP_FEATURES) <= ours
    assert not [url for url in targets if "omnibox" in url], targets
