"""The table embed through web/worker/bridge.py under CPython: a table booted ``embedded`` keeps its save apart from
the site's, takes the host's moves and deals by ``embed`` messages, and tells the host every move, refusal
and end as ``embed`` messages; malformed ones, or any to a table not embedded, are refused."""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.web.worker.test_bridge import Page, boot_message, in_loop, refused

GAME = "?embed=1&variant=podkidnoy&players=2&level=easy&seed=1&speed=instant"  # seat 0 attacks first


def for_host(page: Page, kind: str) -> list[dict[str, Any]]:
    return [m["message"] for m in page.of("embed") if m["message"]["type"] == kind]


def host(page: Page, kind: str, action: str = "") -> list[dict[str, Any]]:
    return page.send({"t": "embed", "type": kind, "action": action})


@in_loop
async def test_an_embedded_table_keeps_its_save_and_preferences_apart() -> None:
    site = {"durak.save": "a game in progress on the site", "durak.prefs": '{"lang": "fr"}'}
    page = Page()
    page.send(boot_message(GAME, store=site, embedded=True))
    assert page.of("frame"), "the link's game is dealt, not the site's resumed"
    await page.settle()
    page.send({"t": "speed", "value": "fast"})
    written = {m["key"] for m in page.of("store")}
    assert "durak.embed.save" in written and "durak.embed.prefs" in written
    assert not written & set(site), "nothing of the site's is written"
    assert json.loads(page.local["durak.embed.save"])["series"]

    again = Page()  # a reload of the embed resumes its own game
    again.send(boot_message("?embed=1&speed=instant", store={**site, **page.local}, embedded=True))
    assert again.frame["hand"] == page.frame["hand"]


@in_loop
async def test_the_hosts_moves_are_judged_played_and_told_back() -> None:
    page = Page()
    page.send(boot_message(GAME, embedded=True))
    await page.settle()
    before = page.frame
    host(page, "durak:play", "attack 2C")  # not in a 36-card deck
    error = for_host(page, "durak:error")
    assert len(error) == 1 and error[0]["reason"] and set(error[0]) == {"type", "reason", "code"}
    assert page.frame is before and not for_host(page, "durak:move"), "a refused move changes nothing"

    host(page, "durak:play", " attack 6S ")
    await page.settle()
    moves = for_host(page, "durak:move")
    assert moves[0] == {"type": "durak:move", "seat": 0, "action": "attack 6S"}
    assert moves[1]["seat"] == 1 and moves[1]["action"].split()[0] in ("defend", "take")

    host(page, "durak:reset")
    await page.settle()
    assert len(for_host(page, "durak:move")) == len(moves), "the same deal again: seat 0 to attack"
    host(page, "durak:play", "attack 6S")
    await page.settle()
    assert for_host(page, "durak:move")[len(moves)] == moves[0]
    assert not page.of("refused")


@pytest.mark.parametrize(("message", "code"), [
    ({"t": "embed", "type": "durak:next", "action": ""}, "bad_value"),
    ({"t": "embed", "type": "durak:play", "action": "   "}, "bad_value"),
    ({"t": "embed", "type": "durak:play", "action": "attack 6S" * 20}, "bad_value"),
    ({"t": "embed", "type": "durak:reset", "action": "attack 6S"}, "bad_value"),
    ({"t": "embed", "type": "durak:play"}, "bad_shape"),
    ({"t": "embed", "type": "durak:play", "action": 6}, "bad_shape"),
])
@in_loop
async def test_malformed_embed_messages_are_refused(message: dict[str, Any], code: str) -> None:
    page = Page()
    page.send(boot_message(GAME, embedded=True))
    before = page.frame
    assert refused(page.send(message)) == code
    assert page.frame is before and not page.of("embed")


@in_loop
async def test_a_table_not_embedded_takes_no_host_messages() -> None:
    page = Page()
    page.send(boot_message(GAME.replace("embed=1&", "")))
    assert refused(host(page, "durak:play", "attack 6S")) == "not_embedded"
    await page.settle()
    assert not any(m["key"].startswith("durak.embed.") for m in page.of("store")), "the site's keys"
    assert not page.of("embed")
