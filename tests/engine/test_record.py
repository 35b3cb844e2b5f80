"""The notation of durak/record.py: positions, records and their URL-safe forms round-trip exactly, errors
name the line and the token, and no malformed text raises anything but ``RecordError``."""

from __future__ import annotations

import base64
import json
import random
import re
import statistics
import zlib
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from durak import Game, RecordError, Rules, from_url_safe, parse_record, url_safe
from durak.ai import make_player
from durak.notation import CODES
from durak.record import MAX_URL_SAFE, Move, Record, parse_rules, rules_text
from durak.series import Series

from .positions import play, position
from .test_properties import CARD_RE, PublicKnowledge, moves, new_games, rules_strategy

ROUND_TRIP = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow],
                      phases=[Phase.explicit, Phase.reuse, Phase.generate])
FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def without_history(game: Game) -> dict[str, Any]:
    data = game.to_dict()
    del data["history"], data["seed"]
    return data


def played(game: Game, data: st.DataObject, label: str = "stop at") -> Game:
    """``game`` after a drawn number of random moves (possibly to its end)."""
    stop = data.draw(st.integers(0, 400), label=label)
    for step, _move in enumerate(moves(data, game), start=1):
        if step >= stop:
            break
    return game


def same_future(first: Game, second: Game, rng: random.Random, steps: int = 40) -> None:
    """Equal legal actions for every seat and, under the same random moves, equal states."""
    for _ in range(steps):
        assert first.to_act == second.to_act
        for seat in range(first.players):
            assert first.legal_actions(seat) == second.legal_actions(seat)
        if first.to_act is None:
            return
        action = rng.choice(first.legal_actions(first.to_act))
        assert first.apply(first.to_act, action) == second.apply(second.to_act, action)
        assert without_history(first) == without_history(second)


# ============================================================================ positions: round trips
@ROUND_TRIP
@given(game=new_games(), data=st.data())
def test_position_round_trip_keeps_everything_but_the_history(game: Game, data: st.DataObject) -> None:
    game = played(game, data)
    text = game.position()
    assert "\n" not in text
    twin = Game.from_position(text)
    assert without_history(twin) == without_history(game)
    assert twin.position() == text
    assert twin.history == [] and twin.seed is None
    same_future(game, twin, random.Random(data.draw(st.integers(0, 2**32), label="future")))


@ROUND_TRIP
@given(rules=rules_strategy())
def test_rules_token_round_trips_and_names_only_what_differs(rules: Rules) -> None:
    text = rules_text(rules)
    assert parse_rules(text) == rules
    default = Rules(variant=rules.variant, players=rules.players, deck=rules.deck)
    assert (text.count("/") == 2) == (rules == default)


def test_a_round_start_position_reads_as_documented() -> None:
    game = position(["8H 9S JH 8C KS", "9H JD 6C"], trump="D", attacker=0)
    assert game.position() == ("podkidnoy/2p/36 trump=D talon=- hands=8H,9S,JH,8C,KS|9H,JD,6C table=- "
                               "discard=* dealer=1 attacker=0 defender=1 opener=0 turn=0 limit=3 round=1")
    play(game, "attack 8H", "defend 8H 9H", "attack 9S")
    assert " table=8H:9H,9S " in game.position()
    play(game, "take")
    assert game.position().endswith("turn=0 limit=3 round=1 take")


def test_a_dealt_position_shows_the_exposed_trump_and_a_finished_one_its_result() -> None:
    game = Game.new(Rules(variant="perevodnoy", players=3, throw_in="everyone"), seed=7)
    text = game.position()
    assert text.startswith("perevodnoy/3p/36/everyone trump=")
    exposed = str(game.trump_card)
    assert f"trump={exposed} " in text and f",{exposed} hands=" in text  # the talon's last card
    assert text.endswith(" round=1 first")
    rng = random.Random(3)
    while game.to_act is not None:
        game.apply(game.to_act, rng.choice(game.legal_actions(game.to_act)))
    end = game.position()
    assert f"trump={game.trump}:{exposed}" in end and "talon=-" in end and "turn=-" in end
    assert re.search(r" out=[0-9,]+ result=(durak:[0-9]|draw)$", end)
    assert without_history(Game.from_position(end)) == without_history(game)


def test_a_position_may_be_written_by_hand_in_any_case_with_suit_symbols() -> None:
    game = Game.from_position("PODKIDNOY/2P/36 trump=d talon=- hands=8♥,9s|9h,JD table=- discard=* dealer=1 "
                              "attacker=0 defender=1 opener=0 turn=0 limit=2 round=1")
    assert [str(c) for c in game.hand(0)] == ["9S", "8H"]
    assert game.position().startswith("podkidnoy/2p/36 trump=D talon=- hands=8H,9S|9H,JD ")


# ============================================================================ positions: errors
GOOD = ("podkidnoy/2p/36 trump=D talon=- hands=8H,9S,JH,8C,KS|9H,JD,6C table=- discard=* dealer=1 attacker=0 "
        "defender=1 opener=0 turn=0 limit=3 round=1")


@pytest.mark.parametrize(("change", "code", "named"), [
    (("podkidnoy/2p/36", "podkidnoi/2p/36"), "record.bad_rules", "podkidnoi/2p/36"),
    (("podkidnoy/2p/36", "podkidnoy/2p/36/everyone/everyone"), "record.bad_rules",
     "podkidnoy/2p/36/everyone/everyone"),
    (("podkidnoy/2p/36", "prostoy/2p/36/everyone"), "record.bad_rules", "prostoy/2p/36/everyone"),
    (("podkidnoy/2p/36", "podkidnoy/7p/36"), "record.bad_rules", "podkidnoy/7p/36"),
    (("trump=D", "trump=X"), "record.bad_field", "trump=X"),
    (("trump=D", "trump=H:7D"), "record.bad_field", "trump=H:7D"),
    (("hands=8H,9S,JH,8C,KS|9H,JD,6C", "hands=8H,9S,JH,8C,KS"), "record.bad_field", "hands=8H,9S,JH,8C,KS"),
    (("8C,KS", "8C,1S"), "record.bad_field", "hands=8H,9S,JH,8C,1S|9H,JD,6C"),
    (("8C,KS", "8C,,KS"), "record.bad_field", "hands=8H,9S,JH,8C,,KS|9H,JD,6C"),
    (("8C,KS", "8C,9H"), "record.inconsistent", None),  # 9H in two hands
    (("dealer=1", "dealer=2"), "record.bad_field", "dealer=2"),
    (("turn=0", "turn=1"), "record.bad_field", "turn=1"),
    (("limit=3", "limit=x"), "record.bad_field", "limit=x"),
    (("limit=3 round=1", "round=1 limit=3"), "record.field_order", "limit=3"),
    (("round=1", "round=1 round=2"), "record.field_order", "round=2"),
    (("round=1", "round=1 colour=red"), "record.unknown_field", "colour=red"),
    (("round=1", "round=1 first=yes"), "record.bad_field", "first=yes"),
    ((" limit=3", ""), "record.missing_field", None),
    (("round=1", "round=1 result=durak:1"), "record.inconsistent", None),
    (("table=-", "table=8D"), "record.bad_field", "turn=0"),  # an unbeaten card: the defender acts
    (("attacker=0 defender=1", "attacker=1 defender=1"), "record.inconsistent", None),
])
def test_position_errors_name_the_field_and_the_token(change: tuple[str, str], code: str, named: str | None) -> None:
    text = GOOD.replace(*change)
    assert text != GOOD
    with pytest.raises(RecordError) as caught:
        Game.from_position(text)
    assert caught.value.code == code, str(caught.value)
    check_coded(caught.value)
    if named is not None:
        assert caught.value.params["token"] == named
        assert repr(named) in str(caught.value)
    json.dumps(caught.value.params)


def test_a_refusal_of_the_save_checks_or_the_rules_is_nested_with_its_code() -> None:
    with pytest.raises(RecordError) as caught:
        Game.from_position(GOOD.replace("8C,KS", "8C,9H"))
    assert caught.value.code == "record.inconsistent" and "9♥ is in two places" in caught.value.params["reason"]
    with pytest.raises(RecordError) as rules:
        Game.from_position(GOOD.replace("podkidnoy/2p/36", "prostoy/2p/36/everyone"))
    assert "no throw-ins" in rules.value.params["reason"]
    for error in (caught.value, rules.value):
        if "reason_code" in error.params:  # once the engine's refusals carry codes
            assert isinstance(error.params["reason_params"], dict)


@pytest.mark.parametrize("text", ["", "   ", GOOD + "\n" + GOOD, None, 42, ["podkidnoy/2p/36"], "x" * 300_000])
def test_a_position_that_is_not_one_line_of_text_is_refused(text: object) -> None:
    with pytest.raises(RecordError):
        Game.from_position(text)  # type: ignore[arg-type]


# ============================================================================ records: round trips
comment_text = st.text(st.characters(blacklist_categories=["Cs"]), max_size=30)


@ROUND_TRIP
@given(game=new_games(), data=st.data())
def test_record_round_trip_replays_to_the_same_game_and_keeps_comments(game: Game, data: st.DataObject) -> None:
    start_at = data.draw(st.sampled_from([None, 0, 5, 30]), label="from a position after")
    if start_at is not None:
        game = Game.from_position(played(game, data, "position at").position())
    game = played(game, data)
    steps = len(game.history) + 1
    comments = data.draw(st.dictionaries(st.integers(0, steps - 1), comment_text, max_size=6), label="comments")
    names = data.draw(st.none() | st.lists(st.text(max_size=8).filter(lambda s: "\n" not in s and "\r" not in s),
                                           min_size=game.players, max_size=game.players), label="names")
    text = game.record(names=names, comments=comments, tags={"Title": "a \"quoted\" \\ title"})
    record = parse_record(text)
    assert str(record) == text
    assert record.comments == [comments.get(step, "") for step in range(steps)]
    assert record.title == 'a "quoted" \\ title'
    replayed = Game.from_record(text)
    assert without_history(replayed) == without_history(game)
    assert replayed.history == game.history
    assert replayed.record(names=names, comments=comments, tags={"Title": record.title}) == text
    frames = list(record.frames(Game))
    assert len(frames) == record.steps == steps
    assert without_history(frames[-1]) == without_history(game)
    assert parse_record(from_url_safe(url_safe(text), expect="record")) == record


def test_a_record_reads_as_documented() -> None:
    game = Game.new(Rules(), seed=42)
    play(game, "attack 8H", "defend 8H 9S", "pass")
    text = game.record(names=["Ann", "Bob"], comments={0: "The deal.", 2: "A {curly} comment \\ here."})
    assert text == (
        '[Rules "podkidnoy/2p/36"]\n'
        '[Seed "42"]\n'
        '[Player0 "Ann"]\n'
        '[Player1 "Bob"]\n'
        '[Result "*"]\n'
        "\n"
        "{The deal.}\n"
        "1. s0 attack 8H\n"
        "2. s1 defend 8H 9S {A {curly\\} comment \\\\ here.}\n"
        "3. s0 pass\n"
    )
    record = parse_record(text)
    assert record.moves[1] == Move(1, game.history[1][1], "A {curly} comment \\ here.")
    assert record.header["Seed"] == "42" and record.start_comment == "The deal."


def test_a_record_may_be_written_by_hand_loosely() -> None:
    text = ('\n[Rules "podkidnoy/2p/36"]\n[Seed "42"]\n{A comment\nover two lines}\n'
            "1. S0 Attack 8h {first} 2. s1 defend 8♥ 9♠\n\n3. s0 pass")
    record = parse_record(text)
    assert record.start_comment == "A comment\nover two lines"
    assert [str(m.action) for m in record.moves] == ["attack 8H", "defend 8H 9S", "pass"]
    assert parse_record(str(record)) == record


def test_a_series_game_names_its_dealer_and_that_it_is_a_later_game() -> None:
    series = Series(Rules(players=3), seed=5)
    rng = random.Random(2)
    for _ in range(2):
        while series.game.to_act is not None:
            series.game.apply(series.game.to_act, rng.choice(series.game.legal_actions(series.game.to_act)))
        series.next_game()
    game = series.game
    play(game, str(game.legal_actions(game.to_act)[0]))  # type: ignore[arg-type]
    text = game.record()
    assert f'[Dealer "{game.dealer}"]' in text
    assert without_history(Game.from_record(text)) == without_history(game)


def test_a_game_restored_from_a_save_without_seed_records_only_when_untouched() -> None:
    game = Game.from_dict({**Game.new(Rules(), seed=1).to_dict(), "seed": None})
    assert '[Start "' in game.record()
    play(game, str(game.legal_actions(game.to_act)[0]))  # type: ignore[arg-type]
    with pytest.raises(RecordError) as caught:
        game.record()
    assert caught.value.code == "record.unknown_start"


def test_record_arguments_are_checked() -> None:
    game = Game.new(Rules(), seed=1)
    for bad in ({"names": ["only one"]}, {"comments": {1: "no move 1 yet"}}, {"tags": {"Result": "draw"}},
                {"tags": {"bad name": "x"}}, {"tags": {"Title": "two\nlines"}}):
        with pytest.raises(RecordError):
            game.record(**bad)  # type: ignore[arg-type]


# ============================================================================ records: errors
RECORD = ('[Rules "podkidnoy/2p/36"]\n[Seed "42"]\n[Result "*"]\n\n'
          "{start}\n1. s0 attack 8H {one}\n2. s1 defend 8H 9S\n3. s0 pass\n")


@pytest.mark.parametrize(("change", "code", "line", "token"), [
    (('[Seed "42"]', '[Seed "x"]'), "record.bad_tag", 2, "x"),
    (('[Seed "42"]', "[Seed 42]"), "record.bad_tag_line", 2, "[Seed 42]"),
    (('[Seed "42"]', '[Seed "42"]\n[Seed "43"]'), "record.duplicate_tag", 3, None),
    (('[Seed "42"]', '[Dealer "9"]'), "record.missing_tag", None, None),
    (('[Rules "podkidnoy/2p/36"]', '[Rules "podkidnoy/2p/37"]'), "record.bad_rules", 1, "podkidnoy/2p/37"),
    (('[Result "*"]', '[Result "draw"]'), "record.result_mismatch", 3, "draw"),
    (("2. s1", "3. s1"), "record.move_number", 7, "3."),
    (("2. s1", "2. s2"), "record.bad_seat", 7, "s2"),
    (("2. s1 defend", "2. s1 beat"), "record.bad_action", 7, "beat"),
    (("defend 8H 9S", "defend 8H 9X"), "record.bad_action", 7, "defend 8H 9X"),
    (("{one}", "{one} {two}"), "record.extra_comment", 6, "two"),
    (("{one}", "{one"), "record.unterminated_comment", 6, None),
    (("3. s0 pass", "3. s0 pass 1-0"), "record.bad_action", 8, "pass 1-0"),
    (("{start}", "start"), "record.bad_move", 5, "start"),
])
def test_record_errors_name_the_line_and_the_token(change: tuple[str, str], code: str, line: int | None,
                                                   token: str | None) -> None:
    text = RECORD.replace(*change)
    assert text != RECORD
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    error = caught.value
    assert error.code == code, str(error)
    check_coded(error)
    assert error.params.get("line") == line, str(error)
    if line is not None:
        assert str(error).startswith(f"line {line}: ")
    if token is not None:
        assert error.params["token"] == token, str(error)
    json.dumps(error.params)


def test_an_illegal_move_names_its_number_and_the_engines_reason() -> None:
    with pytest.raises(RecordError) as caught:
        parse_record(RECORD.replace("defend 8H 9S", "defend 8H 6S"))
    error = caught.value
    assert error.code == "record.illegal_move"
    assert error.params["move"] == 2 and error.params["line"] == 7 and error.params["action"] == "defend 8H 6S"
    assert "move 2 (s1 defend 8H 6S) is illegal" in str(error)
    assert isinstance(error.params["reason"], str) and error.params["reason"]
    if "reason_code" in error.params:
        assert isinstance(error.params["reason_params"], dict)
    with pytest.raises(RecordError, match=r"move 3 .*illegal.*turn"):
        parse_record(RECORD.replace("3. s0 pass", "3. s1 pass"))


def test_a_start_position_error_names_the_start_tag_line() -> None:
    text = Game.from_position(GOOD).record().replace("limit=3", "limit=9")
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    assert caught.value.code == "record.inconsistent"
    assert caught.value.params["line"] == 2 and str(caught.value).startswith("line 2: ")


def test_record_and_start_rules_must_agree() -> None:
    text = Game.from_position(GOOD).record().replace('[Rules "podkidnoy/2p/36"]', '[Rules "podkidnoy/2p/52"]')
    with pytest.raises(RecordError) as caught:
        parse_record(text)
    assert caught.value.code == "record.rules_mismatch" and caught.value.params["line"] == 1


def test_a_hand_built_record_with_an_illegal_move_cannot_replay() -> None:
    record = parse_record(RECORD)
    broken = Record(record.header, (*record.moves, Move(0, record.moves[0].action)))
    with pytest.raises(RecordError, match="move 4"):
        broken.replay(Game)


# ============================================================================ URL-safe forms
def test_url_safe_forms_are_url_safe_and_typed() -> None:
    link = url_safe(GOOD)
    assert re.fullmatch(r"p1[A-Za-z0-9_-]+", link)
    assert from_url_safe(link) == GOOD == from_url_safe(link, expect="position")
    with pytest.raises(RecordError):
        from_url_safe(link, expect="record")
    assert url_safe(RECORD).startswith("r1")
    with pytest.raises(RecordError):
        url_safe(GOOD.replace("turn=0", "turn=1"))  # only valid text gets a link


def test_a_link_deflated_without_the_dictionary_decodes_too() -> None:
    """What a page's CompressionStream("deflate-raw") makes: no preset dictionary."""
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = packer.compress(GOOD.encode()) + packer.flush()
    assert from_url_safe("p1" + base64.urlsafe_b64encode(packed).decode().rstrip("=")) == GOOD


def test_a_whole_two_player_game_fits_a_share_link() -> None:
    """Typical lengths of records of whole games between two normal bots (run with -s to see them)."""
    lengths, texts = [], []
    for seed in range(12):
        game = Game.new(Rules(), seed=seed)
        bots = [make_player("normal", seed=seed), make_player("normal", seed=seed + 100)]
        while game.to_act is not None:
            seat = game.to_act
            game.apply(seat, bots[seat].choose(game.view(seat), game.legal_actions(seat)))
        text = game.record(names=["Ann", "Bob"])
        texts.append(len(text))
        lengths.append(len(url_safe(text)))
    print(f"\nrecords of 12 two-player games: text median {statistics.median(texts):.0f} chars, "
          f"url-safe median {statistics.median(lengths):.0f} (max {max(lengths)})")
    print(f"a round-start position: {len(GOOD)} chars, url-safe {len(url_safe(GOOD))}")
    assert max(lengths) < 2000  # well inside what browsers, servers and chat apps keep of a link


# ============================================================================ fuzzing: only RecordError
def check_coded(error: RecordError) -> None:
    """A registered code, JSON-safe params, and every parameter its sentence names."""
    assert error.code in CODES, error.code
    json.dumps(error.params)
    assert set(re.findall(r"{(\w+)}", CODES[error.code])) <= set(error.params), (error.code, error.params)


def test_every_code_raised_is_registered() -> None:
    root = Path(__file__).resolve().parents[2] / "durak"
    raised = set()
    for name in ("notation.py", "position.py", "record.py", "links.py"):
        raised |= set(re.findall(r'"(record\.[a-z_]+)"', (root / name).read_text(encoding="utf-8")))
    assert raised - {"record.invalid"} == set(CODES)


def refused_or_valid(read: Any, text: object) -> None:
    """``read(text)`` either succeeds with a consistent result or raises ``RecordError``; nothing else."""
    try:
        result = read(text)
    except RecordError as error:
        check_coded(error)
        return
    if isinstance(result, Game):
        Game.from_dict(result.to_dict())
        if result.to_act is not None:
            assert result.legal_actions(result.to_act)


def mutations(text: str) -> st.SearchStrategy[str]:
    """Truncations, swapped or dropped tokens, and random characters put in, of a valid text."""
    tokens = re.split(r"(\s+)", text)

    def swap(pair: tuple[int, int]) -> str:
        words = list(tokens)
        i, j = (k % len(words) for k in pair)
        words[i], words[j] = words[j], words[i]
        return "".join(words)

    def drop(index: int) -> str:
        words = list(tokens)
        del words[index % len(words)]
        return "".join(words)

    def insert(args: tuple[int, str]) -> str:
        at = args[0] % (len(text) + 1)
        return text[:at] + args[1] + text[at:]

    def replace(args: tuple[int, str]) -> str:
        at = args[0] % max(1, len(text))
        return text[:at] + args[1] + text[at + 1:]

    noise = st.text(st.sampled_from(list("{}[]\"\\=:,|-*./ \n0123456789sSHDCAKQJT♠♥♦♣xé\x00")), min_size=1,
                    max_size=4)
    index = st.integers(0, 10_000)
    return st.one_of(
        st.integers(0, len(text)).map(lambda n: text[:n]),
        st.tuples(index, index).map(swap),
        index.map(drop),
        st.tuples(index, noise).map(insert),
        st.tuples(index, noise).map(replace),
    )


SAMPLE_POSITION = ("perevodnoy/3p/36/first-defence-5 trump=S:6S talon=- hands=7H,9H|7D,KC,QC|7C,JD,AC "
                   "table=8D:9D,8C discard=* dealer=2 attacker=0 defender=1 opener=0 turn=1 limit=3 round=4 "
                   "passed=2 known=9H|-|AC emptied=0")


def test_the_fuzz_samples_are_valid() -> None:
    Game.from_position(SAMPLE_POSITION)
    parse_record(RECORD)


@FUZZ
@given(text=mutations(SAMPLE_POSITION) | mutations(GOOD))
def test_fuzz_mutated_positions(text: str) -> None:
    refused_or_valid(Game.from_position, text)


@FUZZ
@given(text=mutations(RECORD) | mutations(Game.from_position(SAMPLE_POSITION).record(comments={0: "x}y"})))
def test_fuzz_mutated_records(text: str) -> None:
    refused_or_valid(parse_record, text)
    refused_or_valid(Game.from_record, text)


@FUZZ
@given(text=st.text(max_size=200) | st.binary(max_size=100).map(lambda b: b.decode("latin-1")))
def test_fuzz_random_text(text: str) -> None:
    for read in (Game.from_position, parse_record, from_url_safe, url_safe):
        refused_or_valid(read, text)
    refused_or_valid(Game.from_position, "podkidnoy/2p/36 " + text)
    refused_or_valid(parse_record, '[Rules "podkidnoy/2p/36"]\n[Seed "1"]\n' + text)


@FUZZ
@given(text=mutations(url_safe(RECORD)) | mutations(url_safe(SAMPLE_POSITION)))
def test_fuzz_mutated_url_safe_forms(text: str) -> None:
    refused_or_valid(from_url_safe, text)
    try:
        decoded = from_url_safe(text)
    except RecordError:
        return
    refused_or_valid(parse_record if decoded.startswith("[") else Game.from_position, decoded)


def test_oversize_and_bomb_links_are_refused() -> None:
    with pytest.raises(RecordError, match="too long"):
        from_url_safe("r1" + "A" * MAX_URL_SAFE)
    bomb = base64.urlsafe_b64encode(zlib.compress(b"[" * 10_000_000)[2:-4]).decode().rstrip("=")
    assert len(bomb) < MAX_URL_SAFE
    with pytest.raises(RecordError):
        from_url_safe("r1" + bomb)


# ============================================================================ observers
@settings(ROUND_TRIP, max_examples=15)
@given(game=new_games(), data=st.data())
def test_the_three_observers_show_what_each_may_know(game: Game, data: st.DataObject) -> None:
    """open_view: every hand and the talon; public_view: no hand, nothing hidden; view(p): public_view plus
    p's hand, and never a hidden card (the knowledge followed from the events, as in test_properties)."""
    public = PublicKnowledge(game)
    stop = data.draw(st.integers(0, 300), label="stop at")
    for step, (_seat, _action, events) in enumerate(moves(data, game), start=1):
        public.follow(events)
        if step >= stop:
            break
    open_view, spectator = game.open_view(), game.public_view()
    assert open_view["hands"] == [[str(c) for c in game.hand(p)] for p in range(game.players)]
    assert open_view["talon_cards"] == [str(c) for c in game.talon]
    assert {k: v for k, v in open_view.items() if k not in ("hands", "talon_cards")} == spectator
    assert spectator["seat"] is None and "hand" not in spectator
    hidden_from_all = set.intersection(*(public.hidden_from(game, p) for p in range(game.players)))
    hidden_from_all |= {str(c) for p in range(game.players) for c in game.hand(p)} - set().union(*public.cards)
    assert not set(CARD_RE.findall(json.dumps(spectator))) & hidden_from_all
    for seat in range(game.players):
        view = game.view(seat)
        assert view == {**spectator, "seat": seat, "hand": [str(c) for c in game.hand(seat)]}
        assert not set(CARD_RE.findall(json.dumps(view))) & public.hidden_from(game, seat)
