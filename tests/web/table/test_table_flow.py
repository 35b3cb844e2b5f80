"""The table's flow under CPython with a fake page: moves from gestures, AIs, saves, covers, hints."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from durak import Game, IllegalAction
from tests.web.running import run_coroutine
from web.shared import storage
from web.shared.i18n import t
from web.table.controller import Controller
from web.table.moves import NO_PICK, TABLE_ZONE, TRANSFER_ZONE, Menu, Pick
from web.table.params import Settings, normalise_seats, parse_query
from web.table.render import Scene, card_html, hand_order, screen


class FakePage:
    def __init__(self) -> None:
        self.frames: list[dict[str, Any]] = []
        self.tasks: list[asyncio.Future[None]] = []

    def show(self, frame: dict[str, Any]) -> None:
        self.frames.append(frame)

    def spawn(self, coro: Any) -> None:
        self.tasks.append(asyncio.ensure_future(coro))

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(0)

    async def settle(self) -> None:
        while self.tasks:
            await self.tasks.pop(0)


def table(query: str, store: storage.Store | None = None) -> tuple[Controller, FakePage]:
    page = FakePage()
    controller = Controller(page, store or storage.MemoryStore(), speed="instant")
    settings = parse_query(query).settings
    assert settings is not None
    assert controller.start(settings) is None
    return controller, page


async def play_first_choice(controller: Controller, page: FakePage, limit: int = 800) -> None:
    """Play like the browser tests: first playable card, first target; else pass / take."""
    controller.kick()
    for _ in range(limit):
        await page.settle()
        if controller.game.result is not None:
            return
        if controller.covered:
            controller.press("reveal")
            continue
        menu = controller.menu()
        assert menu is not None
        view = controller.game.view(controller.viewer)
        cards = [c for c in hand_order(view["hand"], view["trump"]) if menu.playable(c)]
        if cards:
            controller.click_card(cards[0])
            menu = controller.menu()
            if menu and controller.pick.selected:
                controller.press("play")
            elif menu and controller.pick.armed:
                targets = sorted(menu.targets(controller.pick))
                controller.click_target(targets[0])
        else:
            controller.press("pass" if menu.has("pass") else "take")
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("query", [
    "variant=podkidnoy&players=2&level=easy&seed=1",
    "variant=perevodnoy&players=3&level=normal&seed=2",
    "variant=prostoy&players=3&level=easy&seed=3",
    "variant=podkidnoy&players=4&throw_in=everyone&level=easy&seed=4",
    "variant=podkidnoy&players=4&teams=2v2&level=easy&seed=5",
])
def test_a_whole_game_by_gestures(query: str) -> None:
    controller, page = table(query)
    run_coroutine(play_first_choice(controller, page))
    frame = page.frames[-1]
    assert 'data-testid="game-over"' in frame["game_over"]
    assert controller.game.result is not None


def test_only_pass_is_answered_automatically() -> None:
    controller, page = table("variant=podkidnoy&players=2&level=easy&seed=11")

    async def run() -> None:
        controller.kick()
        for _ in range(200):
            await page.settle()
            if controller.game.result is not None:
                return
            menu = controller.menu()
            assert menu is not None and not menu.only_pass, "a lone pass reached the player"
            view = controller.game.view(0)
            cards = [c for c in hand_order(view["hand"], view["trump"]) if menu.playable(c)]
            if cards:
                controller.click_card(cards[0])
                if controller.pick.selected:
                    controller.press("play")
                elif controller.pick.armed:
                    controller.click_target(sorted(controller.menu().targets(controller.pick))[0])
            else:
                controller.press("pass" if menu.has("pass") else "take")

    run_coroutine(run())


def test_save_and_resume_the_same_position() -> None:
    store = storage.MemoryStore()
    controller, page = table("variant=perevodnoy&players=3&level=normal&seed=8", store)

    async def run() -> None:
        controller.kick()
        await page.settle()

    run_coroutine(run())
    view = controller.game.view(0)
    again = Controller(FakePage(), store, speed="instant")
    _restored, set_aside = storage.load(store, again.restore)
    assert not set_aside
    assert again.game.view(0) == view
    assert again.settings == controller.settings


def test_a_damaged_save_is_set_aside() -> None:
    store = storage.MemoryStore()
    _controller, _ = table("variant=podkidnoy&players=2&seed=8", store)
    data = json.loads(store.get(storage.SAVE_KEY) or "")
    data["series"]["game"]["hands"] = "garbage"
    store.set(storage.SAVE_KEY, json.dumps(data))
    again = Controller(FakePage(), store)
    assert storage.load(store, again.restore) == (None, True)
    assert store.get(storage.SET_ASIDE_KEY)


def test_pass_and_play_covers_the_hand_between_players() -> None:
    controller, page = table("variant=podkidnoy&players=2&seats=human&seed=3")

    async def run() -> None:
        controller.refresh()
        assert controller.covered
        frame = page.frames[-1]
        assert frame["hand"] == "" and 'data-testid="cover"' in frame["cover"]
        first = controller.viewer
        controller.press("reveal")
        view = controller.game.view(first)
        assert all(f'data-card="{c}"' in page.frames[-1]["hand"] for c in view["hand"])
        menu = controller.menu()
        assert menu is not None
        card = next(c for c in hand_order(view["hand"], view["trump"]) if menu.playable(c))
        controller.click_card(card)
        if controller.pick.selected:
            controller.press("play")
        await page.settle()
        assert controller.viewer != first and controller.covered
        assert page.frames[-1]["hand"] == ""

    run_coroutine(run())


def test_hint_names_a_legal_action_and_lights_it() -> None:
    controller, page = table("variant=podkidnoy&players=2&level=easy&seed=5")

    async def run() -> None:
        controller.kick()
        await page.settle()
        controller.press("hint")
        await page.settle()

    run_coroutine(run())
    assert controller.hint is not None
    legal = [str(a) for a in controller.game.legal_actions(0)]
    assert controller.hint[0] in legal
    frame = page.frames[-1]
    assert 'data-hint="true"' in frame["hand"] + frame["table"] or any(
        b["hinted"] for b in frame["buttons"].values())
    assert frame["hint"]


def test_unplayable_settings_return_a_message() -> None:
    page = FakePage()
    controller = Controller(page, storage.MemoryStore(), lang="fr")
    message = controller.start(normalise_seats(Settings(players=6, deck=24)))
    assert message and "24" in message and message == t("fr", "err_deck_players", players=6, cards=36,
                                                          deck=24, most=4)


def test_menu_asks_for_a_target_when_a_card_can_beat_two_attacks() -> None:
    menu = Menu(["defend 8H 10H", "defend 9H 10H", "take"], "podkidnoy")
    outcome = menu.click_card(NO_PICK, "10H")
    assert outcome.action is None and outcome.pick == Pick(armed="10H")
    assert menu.targets(outcome.pick) == {"attack:8H", "attack:9H"}
    assert menu.click_target(outcome.pick, "attack:9H").action == "defend 9H 10H"
    assert menu.drop(NO_PICK, "10H", "attack:8H").action == "defend 8H 10H"


def test_menu_beat_or_transfer() -> None:
    menu = Menu(["defend 8H 8S", "transfer 8S", "take"], "perevodnoy")
    outcome = menu.click_card(NO_PICK, "8S")
    assert menu.targets(outcome.pick) == {"attack:8H", TRANSFER_ZONE}
    assert menu.click_target(outcome.pick, TRANSFER_ZONE).action == "transfer 8S"
    assert menu.press_transfer(NO_PICK).action == "transfer 8S"


def test_menu_gathers_a_prostoy_set() -> None:
    menu = Menu(["attack 7C", "attack 7D", "attack QH", "attack 7C 7D QH"], "prostoy")
    pick = menu.click_card(NO_PICK, "7C").pick
    assert pick.selected == ("7C",)
    assert TABLE_ZONE in menu.targets(pick)  # a single card is a legal set
    pick = menu.click_card(pick, "7D").pick
    assert menu.set_action(pick.selected) is None  # a pair alone is not
    pick = menu.click_card(pick, "QH").pick
    assert menu.set_action(pick.selected) == "attack 7C 7D QH"
    assert menu.click_target(pick, TABLE_ZONE).action == "attack 7C 7D QH"


def test_single_throw_in_plays_at_once() -> None:
    menu = Menu(["attack 8D", "pass"], "podkidnoy")
    assert menu.click_card(NO_PICK, "8D").action == "attack 8D"
    assert not menu.playable("9D")


def test_render_marks_the_test_hooks() -> None:
    game = Game.from_scenario({"rules": {"variant": "podkidnoy", "players": 2}, "trump": "D", "talon": [],
                               "hands": [["8H", "9S"], ["9H", "JD", "6C"]], "attacker": 0})
    game.apply(0, "attack 8H")
    game.apply(1, "defend 8H 9H")
    view = game.view(0)
    menu = Menu(game.legal_actions(0), "podkidnoy")
    frame = screen(Scene(view=view, names=["You", "Bot 1"], kinds=["human", "easy"], menu=menu))
    assert 'data-attack="8H"' in frame["table"] and 'data-beaten-by="9H"' in frame["table"]
    assert 'data-card="9S" data-playable="true"' in frame["hand"]
    assert frame["buttons"]["pass"]["enabled"] and not frame["buttons"]["take"]["enabled"]


def test_a_refusal_on_the_status_line_is_said_to_the_tables_player() -> None:
    game = Game.from_scenario({"rules": {"variant": "podkidnoy", "players": 2}, "trump": "D", "talon": [],
                               "hands": [["8H", "9S"], ["9H", "JD", "6C"]], "attacker": 0})
    with pytest.raises(IllegalAction) as caught:
        game.apply(0, "attack JD")
    scene = Scene(view=game.view(0), names=["You", "Bot 1"], kinds=["human", "easy"],
                  menu=Menu(game.legal_actions(0), "podkidnoy"), message=caught.value.message, you=0)
    assert screen(scene)["hint"] == "Cannot attack J♦: you do not hold J♦"
    scene.you, scene.names = None, ["Player 1", "Player 2"]  # pass-and-play: nobody is "you"
    assert screen(scene)["hint"] == "Cannot attack J♦: Player 1 does not hold J♦"


def test_hand_order_suits_then_trumps_last() -> None:
    assert hand_order(["AD", "6S", "10H", "7D", "KC", "6H"], "D") == ["6S", "6H", "10H", "KC", "7D", "AD"]


def test_cards_are_named_by_their_visible_text_then_in_words() -> None:
    """WCAG 2.5.3: the accessible name starts with what the card shows; its repeated index is hidden."""
    assert 'aria-label="D♥, dame de cœur"' in card_html("QH", "fr")
    assert 'aria-label="Q♥, queen of hearts"' in card_html("QH", "en")
    assert 'aria-label="Д♥, дама червей"' in card_html("QH", "ru")
    assert '<span class="corner br" aria-hidden="true">' in card_html("7H", "en")


def test_play_again_deals_the_next_game_and_redraws() -> None:
    controller, page = table("variant=podkidnoy&players=2&level=easy&seed=1")

    async def run() -> None:
        await play_first_choice(controller, page)
        assert 'data-testid="game-over"' in page.frames[-1]["game_over"]
        controller.press("play-again")
        await page.settle()

    run_coroutine(run())
    assert page.frames[-1]["game_over"] == "" and controller.game.result is None
    assert controller.series is not None and controller.series.games_played == 1


def test_a_hint_in_a_solved_endgame_shows_the_proof_in_the_players_language() -> None:
    """The page's hint: the proof ("won: every defence loses") once the search is exact, never "99%"."""
    from web.shared.i18n import say
    from web.table.controller import sliced_hint

    game = Game.from_scenario({"rules": {"players": 2}, "trump": "D", "talon": [], "attacker": 0,
                               "hands": [["6S", "6C", "AD"], ["9H", "7D"]]})
    found: list[Any] = []

    async def ask() -> None:
        async def sleep(seconds: float) -> None:
            await asyncio.sleep(0)

        found.append(await sliced_hint(game.view(0), game.legal_actions(0), sleep))

    run_coroutine(ask())
    action, why = found[0]
    assert action == "attack 6S 6C" and why.params.get("proven") == "win"
    assert say("en", why).endswith("(won: every defence loses)")
    assert say("ru", why).endswith("(выигрыш: любая защита проигрывает)") and "%" not in say("ru", why)
