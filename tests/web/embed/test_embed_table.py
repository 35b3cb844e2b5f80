"""The table as an embed (web/embed/embed_table.py) under CPython with a fake page: its saves apart from the site's,
the host's moves judged by the engine, every move and the game's end reported."""

from __future__ import annotations

import asyncio
from typing import Any

from tests.web.running import run_coroutine
from tests.web.table.test_table_flow import FakePage
from web.embed.embed_table import EmbedStore, TableBridge
from web.shared import storage
from web.shared.i18n import card_symbol
from web.table.controller import Controller
from web.table.params import parse_query


def bridged(query: str, store: storage.Store) -> tuple[Controller, FakePage, TableBridge, list[tuple[str, Any]]]:
    page = FakePage()
    controller = Controller(page, EmbedStore(store), speed="instant")
    emitted: list[tuple[str, Any]] = []
    bridge = TableBridge(controller, lambda kind, payload: emitted.append((kind, payload)))
    controller.on_change = bridge.changed
    settings = parse_query(query).settings
    assert settings is not None
    assert controller.start(settings) is None
    return controller, page, bridge, emitted


def test_an_embedded_table_saves_apart_from_the_sites_game() -> None:
    store = storage.MemoryStore()
    store.set(storage.SAVE_KEY, "the site's game in progress")
    store.set(storage.PREFS_KEY, '{"lang": "fr"}')
    controller, _, _, _ = bridged("?variant=podkidnoy&players=2&level=easy&seed=3", store)
    controller.save()
    storage.save_prefs(EmbedStore(store), {"lang": "en"})
    assert store.get(storage.SAVE_KEY) == "the site's game in progress"
    assert store.get(storage.PREFS_KEY) == '{"lang": "fr"}'
    assert store.get("durak.embed.save") and store.get("durak.embed.prefs") == '{"lang": "en"}'
    restored, set_aside = storage.load(EmbedStore(store), lambda data: data["settings"])
    assert restored is not None and not set_aside


def test_a_refused_move_of_the_hosts_is_said_to_the_tables_player() -> None:
    controller, page, bridge, _ = bridged("?variant=podkidnoy&players=2&level=easy&seed=1", storage.MemoryStore())
    run_coroutine(page.settle())
    seat = controller.viewer
    assert controller.game.to_act == seat, "seed 1: the embed's player attacks first"
    card = next(str(c) for c in controller.game.hands[1 - seat])
    answer = bridge.play(f"attack {card}")
    assert answer["code"] == "illegal.not_holding"
    symbol = card_symbol("en", card)
    assert answer["error"] == f"Cannot attack {symbol}: you do not hold {symbol}.", "not 'You does not hold'"


def test_the_hosts_moves_are_judged_played_and_reported_to_the_end() -> None:
    controller, page, bridge, emitted = bridged("?variant=podkidnoy&players=2&level=easy&seed=5", storage.MemoryStore())

    async def play() -> None:
        controller.kick()
        await page.settle()
        before = controller.game.to_dict()
        assert bridge.play("attack 2C")["error"]  # not in a 36-card deck
        assert bridge.play("dance")["error"]
        assert controller.game.to_dict() == before, "a refused move changes nothing"
        for _ in range(400):
            game = controller.game
            if game.result is not None:
                break
            seat = controller.viewer
            if game.to_act == seat:
                before = len(game.history)
                assert bridge.play(str(game.legal_actions(seat)[0])) == {"ok": True}
                assert len(game.history) > before
            else:
                assert bridge.play("take")["code"] == "embed.no_move_now"
            controller.kick()
            await page.settle()
            await asyncio.sleep(0)

    run_coroutine(play())
    game = controller.game
    assert game.result is not None, "the host played the game to its end"
    moves = [payload for kind, payload in emitted if kind == "durak:move"]
    assert moves == [{"seat": s, "action": str(a)} for s, a in game.history]
    ends = [payload for kind, payload in emitted if kind == "durak:gameover"]
    assert ends == [{"result": {"durak": game.result.durak, "draw": game.result.draw,
                                "losers": list(game.result.losers), "out": list(game.result.out_order)}}]


def test_reset_deals_the_linked_game_again() -> None:
    controller, _, bridge, _ = bridged("?variant=perevodnoy&players=3&level=easy&seed=8", storage.MemoryStore())
    first = controller.game.to_dict()
    seat = controller.viewer
    if controller.game.to_act == seat:
        bridge.play(str(controller.game.legal_actions(seat)[0]))
    assert bridge.reset() == {"ok": True}
    assert controller.game.to_dict() == first
