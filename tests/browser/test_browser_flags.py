"""The browser the tests drive: behaviour tests add playwright.config.py's BEHAVIOUR_TEST_ARGS, timing
tests never see them."""

from __future__ import annotations

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
