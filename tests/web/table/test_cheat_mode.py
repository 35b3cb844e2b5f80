"""Cheat mode at the table under CPython (RULES.md §7): the setting, a cheat played by a gesture but never
marked as playable, an accusation named on the table and its outcome shown to everyone, the AIs that
cheat and catch, the moment before a bout ends, and an honest table that shows none of it."""

from __future__ import annotations

import asyncio
import re
from html import escape
from typing import Any

import pytest

from durak import Rules
from durak.cards import parse_card
from tests.web.running import run_coroutine
from tests.web.table.test_table_flow import FakePage, play_first_choice, table
from web.shared import storage
from web.shared.i18n import t
from web.table.controller import Controller
from web.table.params import Settings, parse_query, to_query
from web.table.render import hand_order
from web.table.seat import SeatClient

CHEAT_QUERY = "variant=podkidnoy&players=2&seed=7&cheating=on"


class Bot:
    """An AI stand-in that cheats whenever it can (``cheat``) and accuses whatever it may (``accuse_all``)."""

    def __init__(self, cheat: bool, accuse_all: bool) -> None:
        self.cheat = cheat
        self.accuse_all = accuse_all

    def choose(self, view: dict[str, Any], legal: list[Any], cheats: list[Any] | None = None) -> Any:
        if self.cheat and cheats:
            return cheats[0]
        return legal[0]

    def accuse(self, view: dict[str, Any], accusations: list[Any]) -> Any:
        return accusations[0] if self.accuse_all and accusations else None


def cheat_table(cheat: bool, accuse_all: bool, speed: str = "instant") -> tuple[Controller, FakePage]:
    page = FakePage()
    controller = Controller(page, storage.MemoryStore(), speed=speed,
                            bot_factory=lambda level, seed: Bot(cheat, accuse_all))
    settings = parse_query(CHEAT_QUERY).settings
    assert settings is not None and settings.cheating
    assert controller.start(settings) is None
    return controller, page


def frame_hand(frame: dict[str, Any]) -> dict[str, str]:
    """{card: its attributes' text} of the hand in a frame."""
    return {m.group(1): m.group(0) for m in re.finditer(r'<button[^>]*data-card="([^"]+)"[^>]*>', frame["hand"])}


async def until(controller: Controller, page: FakePage, done: Any, limit: int = 400) -> None:
    """Play honestly as the person (first marked card, else pass or take) until ``done()`` holds."""
    controller.kick()
    for _ in range(limit):
        await page.settle()
        if done():
            return
        assert controller.game.result is None, "the game ended first"
        menu = controller.menu()
        if menu is None:
            await asyncio.sleep(0)
            continue
        view = controller.game.view(0)
        cards = [c for c in hand_order(view["hand"], view["trump"]) if menu.marked(c)]
        if cards:
            controller.click_card(cards[0])
            if controller.pick.selected:
                controller.press("play")
            elif controller.pick.armed:
                controller.click_target(sorted(menu.targets(controller.pick))[0])
        else:
            controller.press("pass" if menu.has("pass") else "take")
    raise AssertionError("never reached")


def test_the_setting_reads_from_the_link_and_the_dialog_and_stays_out_of_honest_saves() -> None:
    parsed = parse_query("variant=perevodnoy&cheating=on")
    assert parsed.settings is not None and parsed.settings.cheating
    assert "cheating=on" in to_query(parsed.settings)
    assert parse_query(to_query(parsed.settings)).settings == parsed.settings
    assert Rules(**parsed.settings.rules_kwargs()).cheating
    off = parse_query("variant=perevodnoy&cheating=off").settings
    assert off is not None and not off.cheating and "cheating" not in off.to_dict()
    assert Settings.from_dict(parsed.settings.to_dict()).cheating
    with pytest.raises(ValueError):
        Settings.from_dict({**Settings().to_dict(), "cheating": "yes"})
    assert "cheating=maybe" in parse_query("variant=podkidnoy&cheating=maybe").ignored


def test_an_honest_table_has_no_accuse_button_and_sends_no_cheats() -> None:
    async def scenario() -> None:
        controller, page = table("variant=podkidnoy&players=2&level=easy&seed=1")
        await page.settle()
        assert page.frames[-1]["buttons"]["accuse"]["hidden"] is True
        messages: list[dict[str, Any]] = []
        controller.host.open_peer("spy", messages.append, seat=1)
        state = next(m for m in messages if m["t"] == "state")
        assert "cheats" not in state and "accusations" not in state and "accusation" not in state

    run_coroutine(scenario())


def test_a_card_only_a_cheat_could_play_is_clickable_but_not_marked_and_goes_down() -> None:
    async def scenario() -> None:
        controller, page = cheat_table(cheat=False, accuse_all=False)

        def defending() -> bool:
            client = controller.client
            return bool(client and client.cheats and controller.menu() is not None
                        and any(a.startswith("defend") for a in client.cheats))

        await until(controller, page, defending)
        client = controller.client
        assert client is not None
        frame = page.frames[-1]
        assert frame["buttons"]["accuse"]["hidden"] is False
        menu = controller.menu()
        assert menu is not None
        cheat_cards = {a.split()[2] for a in client.cheats if a.startswith("defend")}
        only_cheats = sorted(card for card in cheat_cards if not menu.marked(card))
        assert only_cheats, client.cheats
        card = only_cheats[0]
        attrs = frame_hand(frame)[card]
        assert 'data-playable="false"' in attrs and "aria-disabled" not in attrs
        before = set(controller.game.cheated)
        controller.click_card(card)
        if controller.pick.armed:
            target = sorted(menu.targets(controller.pick))[0]
            controller.click_target(target)
        await page.settle()
        assert set(controller.game.cheated) - before == {parse_card(card)}

    run_coroutine(scenario())


def test_a_person_names_an_ai_cheat_and_everyone_sees_it_caught() -> None:
    async def scenario() -> None:
        controller, page = cheat_table(cheat=True, accuse_all=False)
        game = controller.game
        await until(controller, page, lambda: bool(game.cheated) and bool(controller.accusable()))
        cheat = str(sorted(game.cheated, key=str)[0])
        cheater_hand = len(game.hands[1])
        on_table = sum(1 + (d is not None) for _, d in game.table)
        controller.press("accuse")
        frame = page.frames[-1]
        assert f'data-accuse="{cheat}"' in frame["table"]
        assert frame["status"] == escape(t("en", "status_accuse"))
        assert frame["buttons"]["accuse"]["label"] == t("en", "btn_accuse_stop")
        controller.click_target(f"accuse:{cheat}")
        await page.settle()
        assert len(game.hands[1]) >= cheater_hand + on_table - 6  # it took the table (and may have drawn none)
        shown = [f["hint"] for f in page.frames if 'data-testid="accusation"' in f["hint"]]
        assert shown and 'data-outcome="caught"' in shown[0] and f'data-card="{cheat}"' in shown[0]
        assert any("catch" in line for line in (f["log"] for f in page.frames[-3:]))

    run_coroutine(scenario())


def test_naming_a_fair_card_costs_the_accuser_the_table() -> None:
    async def scenario() -> None:
        controller, page = cheat_table(cheat=False, accuse_all=False)
        game = controller.game
        await until(controller, page, lambda: bool(controller.accusable()))
        fair = controller.accusable()[0]
        mine = len(game.hands[0])
        on_table = sum(1 + (d is not None) for _, d in game.table)
        controller.press("accuse")
        controller.click_target(f"accuse:{fair}")
        await page.settle()
        assert len(game.hands[0]) >= mine + on_table
        assert 'data-outcome="wrong"' in next(f["hint"] for f in reversed(page.frames) if "accusation" in f["hint"])

    run_coroutine(scenario())


def test_an_ai_catches_the_persons_cheat_before_the_bout_ends() -> None:
    async def scenario() -> None:
        controller, page = cheat_table(cheat=False, accuse_all=True)
        game = controller.game

        def may_cheat() -> bool:
            client = controller.client
            return bool(client and client.cheats and controller.menu() is not None)

        await until(controller, page, may_cheat)
        client = controller.client
        assert client is not None
        action = client.cheats[0]
        client.act(action)
        await page.settle()
        outcomes = [f["hint"] for f in page.frames if 'data-testid="accusation"' in f["hint"]]
        assert outcomes and 'data-outcome="caught"' in outcomes[-1]
        assert not game.cheated or all(game.played_by.get(c) != 0 for c in game.cheated)

    run_coroutine(scenario())


def test_the_host_leaves_a_moment_to_accuse_before_an_ai_ends_a_bout() -> None:
    async def scenario() -> None:
        controller, page = cheat_table(cheat=True, accuse_all=False, speed="normal")
        statuses: list[bool] = []
        original = SeatClient._status

        def spy(self: SeatClient, message: dict[str, Any]) -> None:
            original(self, message)
            statuses.append(self.closing)

        SeatClient._status = spy  # type: ignore[method-assign]
        try:
            game = controller.game
            await until(controller, page, lambda: True in statuses or game.result is not None, limit=2000)
        finally:
            SeatClient._status = original  # type: ignore[method-assign]
        assert True in statuses
        assert any(f["status"] == escape(t("en", "status_closing")) for f in page.frames)

    run_coroutine(scenario())


def test_a_stale_or_malformed_accusation_is_refused_and_changes_nothing() -> None:
    async def scenario() -> None:
        controller, page = cheat_table(cheat=False, accuse_all=False)
        await until(controller, page, lambda: bool(controller.accusable()))
        game = controller.game
        before = game.to_dict()
        client = controller.client
        assert client is not None
        for action in ("accuse 2C", "accuse ZZ", "accuse"):
            client.act(action)
            await page.settle()
            assert client.refused is not None and client.refused["code"] == "illegal"
            assert game.to_dict() == before
        controller.press("accuse")
        controller.click_target("accuse:2C")  # not on the table: the page sends nothing
        assert game.to_dict() == before

    run_coroutine(scenario())


def test_a_seat_client_refuses_a_malformed_cheat_field() -> None:
    async def scenario() -> None:
        controller, page = cheat_table(cheat=False, accuse_all=False)
        await page.settle()
        messages: list[dict[str, Any]] = []
        controller.host.open_peer("spy", messages.append, seat=0)
        state = next(m for m in messages if m["t"] == "state")
        other = SeatClient(0, lambda message: None)
        assert other.receive(state)
        for bad in ({"accusations": ["accuse <b>"]}, {"accusation": {"outcome": "maybe"}},
                    {"accusation": {"outcome": "caught", "card": "7C", "accuser": 9, "target": 0, "taker": 0}},
                    {"cheats": "defend"}):
            assert not SeatClient(0, lambda message: None).receive({**state, **bad})

    run_coroutine(scenario())


def test_a_whole_cheat_mode_game_by_gestures_ends() -> None:
    controller, page = table(CHEAT_QUERY + "&level=normal")
    run_coroutine(play_first_choice(controller, page))
    assert controller.game.result is not None
