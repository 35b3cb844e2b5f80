"""The AI in cheat mode (RULES.md §7): each level cheats now and then when it gains by it, and accuses what it
notices, with a chance that grows with the level; it reads only the seat's view."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from durak import Game, Rules
from durak.ai import make_player
from durak.ai.cheating import judge
from durak.ai.seen import Seen
from durak.arena import main, tournament

LEVELS = ("easy", "normal", "hard")


def cheat_moments(count: int, seed: int = 0) -> list[tuple[Game, int]]:
    """Positions of random cheat-mode games where the seat to act has cheats available."""
    found: list[tuple[Game, int]] = []
    rng = random.Random(seed)
    game_seed = 0
    while len(found) < count:
        game = Game.new(Rules(players=2 + game_seed % 2, cheating=True), seed=game_seed)
        game_seed += 1
        while game.result is None and len(found) < count:
            seat = game.to_act
            if game.cheats(seat) and rng.random() < 0.3:
                found.append((game.copy(), seat))
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    return found


def cheated_tables(count: int) -> list[tuple[Game, int, str]]:
    """Positions just after a random cheat, with a seat that may accuse it and the cheat card."""
    found: list[tuple[Game, int, str]] = []
    rng = random.Random(1)
    game_seed = 100
    while len(found) < count:
        game = Game.new(Rules(players=3, cheating=True), seed=game_seed)
        game_seed += 1
        while game.result is None:
            seat = game.to_act
            cheats = game.cheats(seat)
            if cheats and rng.random() < 0.3:
                cheat = rng.choice(cheats)
                game.apply(seat, cheat)
                accuser = next(s for s in range(3) if s != seat and game.accusations(s))
                found.append((game, accuser, str(cheat.cards[-1])))
                break
            game.apply(seat, rng.choice(game.legal_actions(seat)))
    return found


def test_choose_keeps_its_old_signature_and_cheats_only_from_the_list() -> None:
    moments = cheat_moments(60)
    for level in LEVELS:
        bot = make_player(level, seed=3, iterations=4)
        for game, seat in moments[:20]:
            view, legal, cheats = game.view(seat), game.legal_actions(seat), game.cheats(seat)
            assert bot.choose(view, legal) in legal
            action = bot.choose(view, legal, cheats)
            assert action in legal or action in cheats
            assert bot.choose(view, legal, cheats) == action  # the same view: the same decision


def test_each_level_cheats_now_and_then_easy_rarely() -> None:
    moments = cheat_moments(400, seed=2)
    rates = {}
    for level in ("random", *LEVELS):
        bot = make_player(level, seed=5, iterations=2)
        cheated = 0
        for game, seat in moments:
            legal = game.legal_actions(seat)
            cheated += bot.choose(game.view(seat), legal, game.cheats(seat)) not in legal
        rates[level] = cheated / len(moments)
    assert rates["random"] == 0
    assert 0 < rates["easy"] < rates["normal"] < rates["hard"] < 0.5, rates


def test_a_cheat_instead_of_a_take_when_nothing_beats() -> None:
    game = Game.from_scenario({"rules": {"players": 2, "cheating": True}, "trump": "D",
                               "hands": [["AS", "9C"], ["7H", "8C", "10C"]], "talon": [], "attacker": 0})
    game.apply(0, "attack AS")
    legal, cheats = game.legal_actions(1), game.cheats(1)
    assert [str(a) for a in legal] == ["take"]
    picks = Counter(str(make_player("hard", seed=s).choose(game.view(1), legal, cheats)) for s in range(60))
    assert picks["take"] < 60 and set(picks) <= {"take", "defend AS 7H"}  # the cheapest card, when it cheats


def test_accuse_names_only_cheats_it_can_judge_from_the_view() -> None:
    tables = cheated_tables(150)
    for game, accuser, card in tables:
        view = game.view(accuser)
        verdict = judge(Seen.read(view))
        cheat = next(c for c in game.played_by if str(c) == card)
        assert verdict[cheat] is False
        assert all(fair for c, fair in verdict.items() if c not in game.cheated)
        for level in ("random", *LEVELS):
            choice = make_player(level, seed=9).accuse(view, game.accusations(accuser))
            assert choice is None or str(choice) == f"accuse {card}"


def test_the_chance_of_noticing_grows_with_the_level() -> None:
    tables = cheated_tables(200)
    noticed = {}
    for level in ("random", *LEVELS):
        bot = make_player(level, seed=11)
        noticed[level] = sum(bot.accuse(g.view(s), g.accusations(s)) is not None for g, s, _ in tables) / len(tables)
    assert noticed["random"] == 0
    assert 0 < noticed["easy"] < 0.35 < noticed["normal"] < 0.85 < noticed["hard"], noticed


def test_asking_again_about_the_same_card_gives_the_same_answer() -> None:
    for game, accuser, _ in cheated_tables(30):
        bot = make_player("normal", seed=4)
        view, options = game.view(accuser), game.accusations(accuser)
        assert len({str(bot.accuse(view, options)) for _ in range(5)}) == 1


def test_no_accusation_without_options_or_of_a_partner() -> None:
    assert make_player("hard").accuse({}, []) is None
    game = Game.from_scenario({"rules": {"players": 4, "teams": "2v2", "cheating": True}, "trump": "D",
                               "hands": [["AS", "9C"], ["7H", "8C"], ["JC", "QC"], ["KC", "AC"]], "talon": [],
                               "attacker": 0})
    game.apply(0, "attack AS")
    game.apply(1, "defend AS 7H")  # a cheat by seat 1: its partner seat 3 keeps quiet, seat 2 may not
    for seed in range(20):
        assert make_player("hard", seed=seed).accuse(game.view(3), game.accusations(3)) is None
    assert any(make_player("hard", seed=seed).accuse(game.view(2), game.accusations(2)) for seed in range(20))


def test_sliced_thinking_may_end_in_a_cheat() -> None:
    for game, seat in cheat_moments(30, seed=7):
        bot = make_player("hard", seed=1, iterations=3)
        view, legal, cheats = game.view(seat), game.legal_actions(seat), game.cheats(seat)
        thinker = bot.start(view, legal, cheats)
        while not thinker.step(0.01):
            pass
        assert thinker.best() == bot.choose(view, legal, cheats)


@pytest.mark.parametrize("variant", ["podkidnoy", "perevodnoy", "prostoy"])
def test_arena_counts_cheats_catches_and_results(variant: str) -> None:
    rules = Rules(variant=variant, players=3, cheating=True)
    report = tournament(rules, ["easy", "normal", "hard"], deals=2, seed=3, iterations=2)
    assert report.games == 6 and not report.defects
    cheats = sum(t.cheats for t in report.cheating.values())
    caught = sum(t.caught for t in report.cheating.values())
    catches = sum(t.catches for t in report.cheating.values())
    assert caught == catches <= cheats
    assert all(t.cheats <= t.chances for t in report.cheating.values())


def test_arena_command_line_cheat_mode(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--a", "normal", "--b", "easy", "--deals", "3", "--cheating"]) == 0
    out = capsys.readouterr().out
    assert "cheat mode" in out and "cheating normal: cheated" in out and "caught others" in out
