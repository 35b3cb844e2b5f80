"""Messages as codes: every refusal the engine raises, every hint reason and every narrated event carries a
stable code and params, every code has a message in every language, and the English catalogue says exactly
what the engine's English text says (so the page's Russian or French is the same sentence, not a paraphrase)."""

from __future__ import annotations

import ast
import copy
import random
import re
import string
from collections.abc import Callable, Iterator
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from durak import Game, IllegalAction, Rules
from durak.actions import Action, parse_action
from durak.ai import hint, reason
from durak.ai.advice import TEXT
from durak.cards import deck, parse_card
from durak.messages import CodedError, Message
from durak.narrate import deal, narrate
from web.shared.i18n import CATALOGUES, LANGS, card_symbol, say, tn

from .positions import play, position

ROOT = Path(__file__).resolve().parents[2]
#: The families of codes whose messages live in the catalogues (record.* are durak/record.py's refusals).
FAMILIES = ("illegal", "rules", "save", "scenario", "notation", "card", "input", "record", "hint", "event")
CODE = re.compile(rf"^({'|'.join(FAMILIES)})\.[a-z0-9_]+$")


def _codes_in_source() -> set[str]:
    """Every code in durak/: the literals, the reasons explain.py returns and ``refusal`` prefixes
    (``illegal.<reason>``), those state.py's ``_invalid`` prefixes with ``save.``, the families ``checks``
    prefixes, the hint reasons, the narrator's events (``said``: ``event.<kind>`` and ``event.<kind>_you``)."""
    found: set[str] = set()
    for path in (ROOT / "durak").rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and CODE.match(node.value):
                found.add(node.value)
            if path.name == "explain.py" and isinstance(node, (ast.Return, ast.AnnAssign)):
                value = node.value
                if isinstance(value, ast.Tuple) and isinstance(value.elts[0], ast.Constant):
                    found.add(f"illegal.{value.elts[0].value}")
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and len(node.args) > 1
                    and isinstance(node.args[1], ast.Constant)):
                prefix = {"_invalid": "save", "refusal": "illegal"}.get(node.func.id)
                if prefix:
                    found.add(f"{prefix}.{node.args[1].value}")
            if (path.name == "narrate.py" and isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id == "said"):
                for kind in ast.walk(node.args[0]):
                    if isinstance(kind, ast.Constant):
                        found |= {f"event.{kind.value}", f"event.{kind.value}_you"}
    found |= {f"hint.{key}" for key in TEXT}
    for family in ("input", "scenario", "save"):
        found |= {f"{family}.{name}" for name in ("seat", "card_list", "card")}
    return found


CODES = _codes_in_source()


def _fields(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def test_the_codes_are_found() -> None:
    assert {"illegal.beat_rule", "illegal.limit_reached", "illegal.not_holding", "rules.too_many_players",
            "save.not_conserved", "scenario.card_twice", "notation.card", "card.suit", "hint.beat_lowest",
            "save.seat", "input.card"} <= CODES
    assert len(CODES) > 120


@pytest.mark.parametrize("lang", LANGS)
def test_every_code_has_a_message_in_every_language(lang: str) -> None:
    missing = sorted(code for code in CODES if code not in CATALOGUES[lang])
    assert not missing, f"{lang}: no message for {missing}"


def _refusals() -> Iterator[Callable[[], object]]:
    """Calls that are refused, one per kind of input problem (random games add the illegal moves)."""
    base = Game.new(Rules(), seed=1).to_dict()

    def save(**changes: Any) -> Callable[[], object]:
        data = copy.deepcopy(base)
        data.update(changes)
        return lambda: Game.from_dict(data)

    scenario = {"rules": {"players": 2}, "trump": "D", "hands": [["8H"], ["9H"]], "attacker": 0}
    for change in ({"x": 1}, {"rules": {"variant": "chess"}}, {"rules": 3}, {"first_round": 2}, {"seed": "a"},
                   {"hands": [["8H"]]}, {"hands": [["8H"], "9H"]}, {"hands": [["8H"], ["9Z"]]},
                   {"trump": "X"}, {"trump_card": "7D"}, {"trump_card": "7D", "talon": ["7D"], "trump": "S"},
                   {"trump_card": "7Q"}, {"hands": [["8H"], ["8H"]]}, {"hands": [["2H"], ["9H"]]},
                   {"attacker": 5}, {"hands": [[], ["9H"]], "talon": ["AS"]}, {"hands": [[], ["9H"]]},
                   {"rules": {"players": 3}, "hands": [["8H"], [], []]}):
        yield lambda change=change: Game.from_scenario({**scenario, **change})  # type: ignore[misc]
    yield lambda: Game.from_scenario([])
    for options in ({"variant": "x"}, {"players": 9}, {"deck": 30}, {"players": 6, "deck": 24},
                    {"throw_in": "x"}, {"first_defence_limit": 4}, {"trump_six_exchange": 2}, {"first_attack": "x"},
                    {"teams": "x"}, {"variant": "prostoy", "players": 4, "teams": "2v2"},
                    {"players": 3, "teams": "2v2"}, {"variant": "prostoy", "throw_in": "everyone"},
                    {"variant": "prostoy", "first_defence_limit": 5},
                    {"variant": "prostoy", "first_attack": "against_loser"}):
        yield lambda options=options: Rules(**options)  # type: ignore[misc]
    yield lambda: Rules.from_dict([])
    yield lambda: Rules.from_dict({"colour": "red"})
    for text in (3, "", "jump 8H", "attack 8Z", "attack X", "attack 1H", "attack 8", "defend 8H",
                 "attack 8H 8H"):
        yield lambda text=text: parse_action(text)  # type: ignore[misc]
    for given in ("8Z", 3, "H", "1H"):
        yield lambda given=given: parse_card(given)  # type: ignore[misc]
    yield lambda: deck(30)
    yield lambda: Game.new(Rules(), dealer=7)
    yield lambda: Game.from_dict([])
    yield save(version=9)
    yield save(seed="x")
    yield save(trump="X")
    yield save(hands=[[]])
    yield save(active=[True])
    yield save(known=[[]])
    yield save(table={})
    yield save(limit=9)
    yield save(round=-1)
    yield save(taking=3)
    yield save(talon="AS")
    yield save(dealer=5)
    yield save(rules={"players": 1})
    yield save(talon=[*base["talon"], base["hands"][0][0]])
    yield save(talon=base["talon"][1:])
    yield save(talon=[*base["talon"][:-1], "2H"])
    yield save(trump_card="2H")
    yield save(trump_exposed=True, talon=[])
    yield save(attacker=None)
    yield save(known=[[base["talon"][0]], []])
    data = copy.deepcopy(base)
    del data["talon"]
    yield lambda: Game.from_dict(data)


def _check(error: CodedError) -> set[str]:
    """The error is coded, renders in every language, and the English catalogue says what str() says."""
    message = error.message
    assert message.code in CODES, message.code
    for lang in LANGS:
        text = say(lang, message)
        assert text.strip() and "{" not in text.replace("{ ", ""), (lang, text)
    english = say("en", message)
    assert english == str(error) or "hand of seat" in str(error) or "known cards of seat" in str(error), \
        (message.code, english, str(error))
    return {message.code}


def test_every_input_refusal_is_coded_and_said_the_same_in_english() -> None:
    seen: set[str] = set()
    for call in _refusals():
        with pytest.raises(CodedError) as caught:
            call()
        seen |= _check(caught.value)
    families = {code.split(".")[0] for code in seen}
    assert {"rules", "scenario", "save", "notation", "card", "input"} <= families
    assert len(seen) > 60, sorted(seen)


def _candidates(game: Game, seat: int) -> Iterator[Action]:
    hand = [str(c) for c in game.hand(seat)]
    table = [str(a) for a in game.attacks]
    for kind in ("take", "pass", "exchange"):
        yield parse_action(kind)
    for card in [*hand, "AS"]:
        yield parse_action(f"attack {card}")
        yield parse_action(f"transfer {card}")
        for attack in [*table, "KC"]:
            if attack != card:
                yield parse_action(f"defend {attack} {card}")
    for size in (2, 3, 5):
        for cards in list(combinations(hand, size))[:6]:
            yield parse_action("attack " + " ".join(cards))


RULE_SETS = [{}, {"variant": "perevodnoy", "players": 3}, {"variant": "prostoy", "players": 3},
             {"players": 4, "throw_in": "everyone", "first_defence_limit": 5, "trump_six_exchange": True},
             {"variant": "perevodnoy", "players": 2, "deck": 24}]


def test_illegal_moves_in_random_games_are_coded_and_said_the_same_in_english() -> None:
    seen: set[str] = set()
    rng = random.Random(5)
    for options in RULE_SETS:
        for seed in range(3):
            game = Game.new(Rules(**options), seed=seed)
            while game.to_act is not None:
                seat = game.to_act
                legal = set(game.legal_actions(seat))
                for action in _candidates(game, seat):
                    if action not in legal:
                        with pytest.raises(IllegalAction) as caught:
                            game.apply(seat, action)
                        seen |= _check(caught.value)
                other = (seat + 1) % game.players
                with pytest.raises(IllegalAction) as caught:
                    game.apply(other, "take")
                seen |= _check(caught.value)
                game.apply(seat, rng.choice(sorted(legal, key=str)))
            with pytest.raises(IllegalAction) as caught:
                game.apply(0, "take")
            seen |= _check(caught.value)
    with pytest.raises(IllegalAction) as caught:
        Game.new(Rules(), seed=1).apply(9, "take")
    seen |= _check(caught.value)
    illegal = {code for code in CODES if code.startswith("illegal.")}
    assert len(seen & illegal) >= 30, sorted(illegal - seen)
    assert {f"illegal.{name}" for name in (
        "beat_rule", "trump_rule", "not_holding", "limit_reached", "rank_not_on_table", "transfer_rank",
        "transfer_variant", "not_your_turn", "game_over", "no_seat", "prostoy_size", "opening_one_rank",
        "already_beaten", "not_an_attack", "exchange_rules", "defender_holds")} <= seen


def test_a_refusal_names_its_action_and_reason_as_params() -> None:
    game = position(["8H KS", "9C 6C"], trump="D")
    play(game, "attack 8H")
    with pytest.raises(IllegalAction) as caught:
        game.apply(1, "defend 8H 6C")
    error = caught.value
    assert (error.code, error.params) == ("illegal.beat_rule", {"action": "defend 8H 6C"})
    assert say("ru", error.message) == ("нельзя побить 8♥ картой 6♣: некозырную карту бьют старшей картой той же "
                                        "масти или любым козырем")
    assert say("fr", error.message).startswith("on ne peut pas battre 8♥ avec 6♣\u00a0: ")
    with pytest.raises(IllegalAction) as caught:
        game.apply(1, "defend 8H QH")
    assert caught.value.params == {"action": "defend 8H QH", "seat": 1, "cards": ["QH"]}
    assert say("en", caught.value.message, ["You", "Bot 1"]) == "cannot beat 8♥ with Q♥: Bot 1 does not hold Q♥"


def test_a_refusal_of_the_pages_own_seat_is_said_to_that_player() -> None:
    """ "You does not hold Q♥" was the table's answer to its own player: a refusal naming the seat the page
    speaks to (``me``) takes that code's ``_you`` form in every language; another seat's keeps its name."""
    game = position(["8H KS", "9C 6C"], trump="D")
    play(game, "attack 8H")
    with pytest.raises(IllegalAction) as caught:
        game.apply(1, "defend 8H QH")
    holding = caught.value.message
    with pytest.raises(IllegalAction) as caught:
        game.apply(0, "attack KS")  # the defender's turn
    assert caught.value.code == "illegal.not_your_turn"
    turn = caught.value.message
    names = ["Bot 1", "You"]
    assert say("en", holding, names, me=1) == "cannot beat 8♥ with Q♥: you do not hold Q♥"
    assert say("fr", holding, names, me=1).endswith("\u00a0: vous n'avez pas D♥")
    assert say("ru", holding, names, me=1) == "нельзя побить 8♥ картой Д♥: у вас нет Д♥"
    assert say("en", holding, names, me=0) == "cannot beat 8♥ with Q♥: You does not hold Q♥", "not me: the name"
    assert say("en", turn, ["You", "Bot 1"], me=0) == "cannot attack K♠: it is Bot 1's turn, not yours"
    assert say("ru", turn, ["Вы", "Бот 1"], me=0).endswith(": сейчас ходит «Бот 1», а не вы")
    for lang in LANGS:  # each _you form beside its code, with the code's placeholders but the seat's
        for key in CATALOGUES["en"]:
            if key.startswith("illegal.") and key.endswith("_you"):
                base = key.removesuffix("_you")
                assert _fields(CATALOGUES[lang][key]) == _fields(CATALOGUES[lang][base]) - {"seat"}, (lang, key)


def test_a_message_with_a_missing_parameter_fails() -> None:
    with pytest.raises(KeyError):
        say("en", Message("illegal.beat_rule", {}))
    with pytest.raises(KeyError):
        say("fr", Message("rules.teams_players", {"teams": "2v2", "need": 4}))
    with pytest.raises(KeyError):
        say("en", Message("illegal.no_such_code", {}))


def test_plural_messages_take_their_count_as_n() -> None:
    """A coded message is a plural entry exactly when its English has {n}: ``say`` picks the form by n."""
    for lang, catalogue in CATALOGUES.items():
        for code in CODES:
            counted = "n" in _fields(CATALOGUES["en"][code])
            assert counted == ("n" in _fields(catalogue[code])), (lang, code)
    message = Message("illegal.limit_reached", {"action": "attack 8H", "n": 1})
    assert say("en", message) == "cannot attack 8♥: the limit of 1 attack card for this round is reached"
    four = tn("ru", "illegal.limit_reached", 4, action="ходить")
    assert four == "нельзя ходить: в этом коне уже сыграно предельное число карт: 4"


def _hint_fields() -> Iterator[tuple[str, dict[str, Any]]]:
    for key, text in TEXT.items():
        params: dict[str, Any] = {}
        for name in _fields(text):
            params[name] = {"card": "QH", "attack": "8S", "cards": ["8S", "8D"], "n": 2}[name]
        yield key, params


@pytest.mark.parametrize("lang", LANGS)
def test_every_hint_reason_is_said_in_every_language(lang: str) -> None:
    for key, params in _hint_fields():
        for extra in ({}, {"percent": 63}, {"proven": "win"}, {"proven": "draw"}, {"proven": "loss"}):
            text = say(lang, Message(f"hint.{key}", {**params, **extra}))
            assert "{" not in text and text.strip()
            if "percent" in extra:
                assert "63" in text
        english = TEXT[key].format(**{name: card_symbol("en", v) if isinstance(v, str) else
                                      " ".join(card_symbol("en", c) for c in v) if isinstance(v, list) else v
                                      for name, v in params.items()})
        if key != "open_set":
            assert say("en", Message(f"hint.{key}", params)) == english


def test_a_proven_hint_shows_the_proof_not_a_percentage() -> None:
    game = position(["6S 6C AD", "9H 7D"], trump="D")
    suggestion = hint(game.view(0), game.legal_actions(0), iterations=4)
    for lang in LANGS:
        text = say(lang, suggestion.reason)
        assert "%" not in text and "99" not in text
    assert say("en", suggestion.reason) == suggestion.reason.text
    assert say("en", suggestion.reason).endswith("(won: every defence loses)")
    view, legal = game.view(0), game.legal_actions(0)
    assert say("en", reason(view, legal, legal[0], 0.63)).endswith("(win chance 63%)")


def test_the_narrator_says_every_event_the_same_in_english_and_in_every_language() -> None:
    seen: set[str] = set()
    rng = random.Random(2)
    for options in RULE_SETS:
        game = Game.new(Rules(**options), seed=4)
        messages = [deal(game.trump, game.to_act, me) for me in (None, 0, 1)]
        while game.to_act is not None:
            seat = game.to_act
            throw_in = bool(game.attacks)
            for event in game.apply(seat, rng.choice(game.legal_actions(seat))):
                messages += [narrate(event, me, throw_in=throw_in) for me in (None, 0, 1)]  # type: ignore[misc]
        for message in messages:
            if message is None:
                continue
            assert message.code in CODES, message.code
            seen.add(message.code)
            assert say("en", message) == message.text, message
            for lang in LANGS:
                assert "{" not in say(lang, message, ["A", "B", "C", "D"])
    assert {"event.attack", "event.attack_you", "event.throw_in", "event.defend_you", "event.transfer",
            "event.pickup", "event.discard", "event.draw", "event.draw_you", "event.round", "event.round_you",
            "event.round_at_you", "event.out", "event.deal", "event.deal_you", "event.take", "event.pass"} <= seen
