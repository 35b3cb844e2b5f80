"""The AI's pause at the table: a move stays "thinking" on screen at least AI_PAUSE; the hard AI searches
through that pause on top of its own budget, and no AI's move shows sooner or later than the pause says."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from durak.ai.players import Decided
from tests.web.running import run_coroutine
from tests.web.table.test_protocol import Clock, Port
from web.table.host import AI_PAUSE, Host
from web.table.params import Settings

OWN_BUDGET = 0.2


class SleepLog(Port):
    """The host's port, keeping the length of every pause the host asked for."""

    def __init__(self) -> None:
        super().__init__()
        self.slept: list[float] = []

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        await asyncio.sleep(0)


class Searcher:
    """A stand-in for the hard player: takes ``thinks`` seconds of the host's clock per decision and
    keeps the budget each decision was given."""

    time_budget = OWN_BUDGET

    def __init__(self, clock: Clock, thinks: float) -> None:
        self.clock = clock
        self.thinks = thinks
        self.budgets: list[float | None] = []

    def start(self, view: dict[str, Any], legal: list[Any], cheats: list[Any] | None = None, *,
              time_budget: float | None = None) -> Decided:
        self.budgets.append(time_budget)
        self.clock.now += self.thinks
        return Decided(sorted(legal)[0])


class Quick:
    """A stand-in for the quick levels: decided at once, without a sliced thinker."""

    def choose(self, view: dict[str, Any], legal: list[Any], cheats: list[Any] | None = None) -> Any:
        return sorted(legal)[0]


def play_ai_game(speed: str, make: Any) -> tuple[Host, SleepLog]:
    """Two AIs play a whole game at ``speed``; every bot comes from ``make(clock)``."""
    clock, port = Clock(), SleepLog()
    host = Host(port, speed=speed, bot_factory=lambda level, seed: make(clock), clock=clock)
    assert host.start(Settings(variant="podkidnoy", players=2, seats=("hard", "hard"), seed=7)) is None

    async def to_the_end() -> None:
        host.kick()
        for _ in range(500):
            await port.settle()
            if host.game.result is not None:
                return
        raise AssertionError("the game did not end")

    run_coroutine(to_the_end())
    return host, port


@pytest.mark.parametrize("thinks", [0.3, 1.0])
def test_hard_thinks_through_the_pause_and_the_move_shows_when_it_did_before(thinks: float) -> None:
    searchers: list[Searcher] = []

    def make(clock: Clock) -> Searcher:
        searchers.append(Searcher(clock, thinks))
        return searchers[-1]

    _, port = play_ai_game("normal", make)
    pause = AI_PAUSE["normal"]
    budgets = [b for s in searchers for b in s.budgets]
    assert budgets and budgets == pytest.approx([OWN_BUDGET + pause] * len(budgets))
    waits = [s for s in port.slept if s > 0]
    if thinks < pause:  # the rest of the pause, so the move shows after `pause` as it always did
        assert waits == pytest.approx([pause - thinks] * len(budgets))
    else:  # the thinking took the whole pause: nothing more to wait
        assert waits == []


def test_at_instant_speed_hard_keeps_its_own_budget_and_nothing_waits() -> None:
    searchers: list[Searcher] = []

    def make(clock: Clock) -> Searcher:
        searchers.append(Searcher(clock, 0.0))
        return searchers[-1]

    _, port = play_ai_game("instant", make)
    budgets = [b for s in searchers for b in s.budgets]
    assert budgets and set(budgets) == {None}
    assert [s for s in port.slept if s > 0] == []


def test_a_quick_ai_still_shows_the_whole_pause() -> None:
    host, port = play_ai_game("slow", lambda clock: Quick())
    waits = [s for s in port.slept if s > 0]
    assert host.stats["ai_moves"] == len(waits) > 10 and set(waits) == {AI_PAUSE["slow"]}
