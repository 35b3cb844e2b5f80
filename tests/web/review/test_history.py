"""The history of finished games: entries, statistics, the store's bound, damage, export and import."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from functools import cache
from html import unescape
from pathlib import Path
from xml.etree import ElementTree

import pytest

from durak import Game, Rules
from durak.ai import make_player
from durak.record import parse_record
from web.review import charts, history
from web.review.history import Entry, History, HistoryError, Tally, entry_of
from web.shared.i18n import LANGS, say, t, tn
from web.shared.storage import MemoryStore


@cache
def finished(seed: int, variant: str = "podkidnoy", players: int = 2) -> Game:
    game = Game.new(Rules(variant=variant, players=players), seed=seed)
    normal = make_player("normal", seed=seed)
    while game.result is None:
        seat = game.to_act
        assert seat is not None
        game.apply(seat, normal.choose(game.view(seat), game.legal_actions(seat)))
    return game


def entry(seed: int, day: int, levels: tuple[str, ...] = ("human", "hard"), **options: object) -> Entry:
    game = finished(seed, **options)  # type: ignore[arg-type]
    return entry_of(game, 0, levels, f"2026-11-{day:02d}T10:00:00Z")


def with_result(base: Entry, result: str, day: int, first_out: bool = False, levels: tuple[str, ...] | None = None,
                variant: str | None = None) -> Entry:
    """A copy of ``base`` that ended otherwise (statistics only look at these fields)."""
    out = (base.seat,) if first_out else ((1,) if result == "loss" else ())
    rules = base.rules if variant is None else f"{variant}/2p/36"
    return replace(base, id=f"{base.id[:8]}{day:08d}", date=f"2026-10-{day % 28 + 1:02d}T{day % 24:02d}:00:00Z",
                   result=result, out_order=out, levels=levels or base.levels, rules=rules)


def test_an_entry_describes_the_finished_game_and_its_record_replays() -> None:
    game = finished(1)
    assert game.result is not None
    item = entry_of(game, 0, ("human", "hard"), "2026-11-30T20:15:00Z")
    assert item.result == ("loss" if game.result.durak == 0 else "draw" if game.result.draw else "win")
    assert item.durak == game.result.durak and list(item.out_order) == game.result.out_order
    assert item.moves == len(game.history) and item.rules == "podkidnoy/2p/36" and item.variant == "podkidnoy"
    assert item.first_out == (game.result.out_order[:1] == [0])
    assert item.opponents == "hard"
    assert item.record is not None and parse_record(item.record).replay(Game).to_dict() == game.to_dict()
    assert Entry.from_dict(json.loads(json.dumps(item.to_dict())), 1) == item
    assert entry_of(game, 0, ("human", "hard"), "2026-11-30T20:15:00Z").id == item.id
    assert entry_of(game, 0, ("human", "hard"), "2026-11-30T20:16:00Z").id != item.id


def test_an_unfinished_game_has_no_entry() -> None:
    with pytest.raises(ValueError, match="finished"):
        entry_of(Game.new(Rules(), seed=1), 0, ("human", "easy"), "2026-11-30T20:15:00Z")


def test_statistics_per_level_and_variant_and_the_streaks() -> None:
    base = entry(1, 1)
    games = [
        with_result(base, "win", 1, first_out=True),
        with_result(base, "win", 2, first_out=True, levels=("human", "easy")),
        with_result(base, "loss", 3),
        with_result(base, "draw", 4, variant="perevodnoy"),
        with_result(base, "win", 5, levels=("human", "easy"), variant="perevodnoy"),
        with_result(base, "win", 6, first_out=True),
    ]
    stats = History(games).stats()
    assert stats.total.as_tuple() == (6, 4, 1, 1, 3)
    assert stats.by_level["hard"].as_tuple() == (4, 2, 1, 1, 2)
    assert stats.by_level["easy"].as_tuple() == (2, 2, 0, 0, 1)
    assert stats.by_variant["podkidnoy"].as_tuple() == (4, 3, 1, 0, 3)
    assert stats.by_variant["perevodnoy"].as_tuple() == (2, 1, 0, 1, 0)
    assert (stats.streak, stats.best_streak) == (3, 3)  # draw, win, win after the loss; 2 before it
    assert stats.by_level["hard"].win_rate == pytest.approx(2.5 / 4)
    assert Tally().win_rate is None


def test_a_mixed_table_is_its_own_level() -> None:
    item = entry(2, 1, ("human", "hard", "easy"), players=3)
    assert item.opponents == "easy+hard"
    assert History([item]).stats().by_level == {"easy+hard": History([item]).stats().total}


def test_old_games_lose_their_record_then_fold_into_totals_keeping_the_statistics(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history, "KEEP_RECORDS", 3)
    monkeypatch.setattr(history, "KEEP_GAMES", 5)
    base = entry(1, 1)
    games = [with_result(base, ("win", "loss", "draw")[day % 3], day, first_out=day % 2 == 0) for day in range(12)]
    kept = History()
    for item in games:
        kept.add(item)
    assert len(kept.games) == 5 and kept.games == [replace(g, record=None) for g in games[7:9]] + games[9:]
    assert kept.stats().to_dict() == stats_of(games)
    assert kept.older.total.games == 7


def stats_of(games: list[Entry]) -> dict[str, object]:
    stats = history.Stats()
    for item in sorted(games, key=lambda e: (e.date, e.id)):
        stats.add(item)
    return stats.to_dict()


def test_a_full_store_stays_small() -> None:
    base = entry(3, 1)
    assert base.record is not None and 500 < len(base.record) < 3000
    many = History()
    for day in range(history.KEEP_GAMES + 50):
        many.add(with_result(base, "win", day))
    text = many.text()
    assert len(many.games) == history.KEEP_GAMES and many.older.total.games == 50
    assert sum(g.record is not None for g in many.games) == history.KEEP_RECORDS
    assert len(text) < 800_000  # localStorage holds about 5 million characters per site


def test_saved_and_loaded_back() -> None:
    store = MemoryStore()
    kept = History([entry(1, 1), entry(2, 2)])
    assert history.save(store, kept)
    loaded, set_aside = history.load(store)
    assert not set_aside and loaded.games == kept.games and loaded.stats() == kept.stats()
    empty, set_aside = history.load(MemoryStore())
    assert empty.games == [] and not set_aside


@pytest.mark.parametrize("damage", ["{not json", "[]", '{"format": "durak-history", "version": 99, "games": []}',
                                    '{"format": "durak-history", "version": 1, "games": [{"id": 3}]}',
                                    '{"format": "something-else", "version": 1}'])
def test_a_damaged_store_is_set_aside_with_a_notice(damage: str) -> None:
    store = MemoryStore({history.HISTORY_KEY: damage})
    loaded, set_aside = history.load(store)
    assert set_aside and loaded.games == [] and loaded.stats().total.games == 0
    assert store.get(history.SET_ASIDE_KEY) == damage and store.get(history.HISTORY_KEY) is None


def test_a_refusing_browser_loses_the_save_but_not_the_page() -> None:
    class Full(MemoryStore):
        def set(self, key: str, value: str) -> None:
            raise RuntimeError("QuotaExceededError")

        def get(self, key: str) -> str | None:
            raise RuntimeError("SecurityError")

    assert history.save(Full(), History([entry(1, 1)])) is False
    assert history.load(Full())[1] is False


def test_export_then_import_on_another_device_merges_without_duplicates() -> None:
    here = History([entry(1, 1), entry(2, 2)])
    there = History([entry(2, 2), entry(4, 3)])
    exported = history.export_text(here, "2026-12-01T09:00:00Z")
    merged = there.merge(exported)
    assert (merged.added, merged.known) == (1, 1)
    assert [g.id for g in there.games] == [entry(1, 1).id, entry(2, 2).id, entry(4, 3).id]
    again = there.merge(exported)
    assert (again.added, again.known) == (0, 2) and len(there.games) == 3
    assert there.stats().total.games == 3


def test_import_restores_a_record_dropped_here() -> None:
    full = entry(1, 1)
    here = History([replace(full, record=None)])
    here.merge(history.export_text(History([full]), "2026-12-01T09:00:00Z"))
    assert here.games == [full]


def test_folded_totals_merge_without_counting_twice(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(history, "KEEP_GAMES", 2)
    monkeypatch.setattr(history, "KEEP_RECORDS", 1)
    base = entry(1, 1)
    mine = History([with_result(base, "win", day) for day in range(5)])
    exported = history.export_text(mine, "2026-12-01T09:00:00Z")
    mine.merge(exported)
    mine.merge(exported)
    assert mine.stats().total.games == 5


def good_file() -> str:
    return history.export_text(History([entry(1, 1)]), "2026-12-01T09:00:00Z")


def tampered(edit: str) -> str:
    data = json.loads(good_file())
    game = data["games"][0]
    if edit == "result":
        game["result"] = "victory"
    elif edit == "seat":
        game["seat"] = 7
    elif edit == "record":
        game["record"] = game["record"].replace("1. s", "1. s9")
    elif edit == "record_moves":
        game["moves"] += 1
    elif edit == "totals":
        data["older"] = {"total": {"games": 2, "wins": 5, "losses": 0, "draws": 0, "first_outs": 0}}
    elif edit == "extra":
        data["secret"] = 1
    elif edit == "twice":
        data["games"].append(game)
    return json.dumps(data)


@pytest.mark.parametrize(("text", "code"), [
    ("not json at all", "history.not_json"),
    ('{"hello": "world"}', "history.foreign"),
    ('{"format": "durak-save", "version": 1}', "history.foreign"),
    ('{"format": "durak-history", "version": 2, "games": []}', "history.version"),
    (tampered("result"), "history.damaged_game"),
    (tampered("seat"), "history.damaged_game"),
    (tampered("record"), "history.bad_record"),
    (tampered("record_moves"), "history.bad_record"),
    (tampered("totals"), "history.damaged_totals"),
    (tampered("extra"), "history.damaged"),
    (tampered("twice"), "history.damaged"),
    ("x" * (history.MAX_IMPORT + 1), "history.too_large"),
])
def test_import_refuses_a_damaged_or_foreign_file_and_keeps_the_history(text: str, code: str) -> None:
    here = History([entry(2, 2), entry(4, 3)])
    before = here.text()
    with pytest.raises(HistoryError) as refused:
        here.merge(text)
    assert refused.value.code == code and set(refused.value.params) == set(history.CODES[code])
    assert str(refused.value) and refused.value.message.code == code
    assert here.text() == before


def test_clearing_forgets_games_and_totals() -> None:
    kept = History([entry(1, 1)])
    kept.clear()
    assert kept.games == [] and kept.stats().total.games == 0


# ---------------------------------------------------------------------------- charts
def chart_games() -> list[Entry]:
    base = entry(1, 1)
    results = ["loss", "win", "win", "draw", "win", "loss", "win", "win", "loss", "win", "win", "win"]
    levels = [("human", "easy"), ("human", "hard")]
    return [with_result(base, result, day, levels=levels[day % 2]) for day, result in enumerate(results)]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_results_chart_draws_every_game_and_says_the_same_in_words(lang: str) -> None:
    games = chart_games()
    html = charts.results_chart(games, lang)
    svg = ElementTree.fromstring(re.search(r"<svg.*</svg>", html, re.S).group(0))  # type: ignore[union-attr]
    dots = svg.findall("{*}circle") or svg.findall("circle")
    assert [d.get("data-result") for d in dots] == [g.result for g in games]
    assert svg.get("role") == "img" and svg.get("aria-label") and svg.get("aria-describedby") == "history-results-table"
    rows = re.findall(r"<tr><td>(\d+)</td>", html)
    assert rows == [str(i + 1) for i in range(len(games))]
    rates = charts.rolling(games)
    assert rates[0] == 0.0 and rates[3] == pytest.approx(2.5 / 4)
    assert rates[-1] == pytest.approx(sum(charts.SCORE[g.result] for g in games[-10:]) / 10)
    assert t(lang, "percent", n=round(100 * rates[-1])) in svg.get("aria-label", "")


def summary_of(html: str) -> str:
    found = re.search(r'<p class="chart-summary">(.*?)</p>', html)
    assert found, html
    return unescape(found[1])


def test_the_results_summary_after_a_first_game_is_in_the_singular() -> None:
    """A first game's history said "Last 1 games: ... win rate over the last 1": the count takes its plural."""
    assert summary_of(charts.results_chart(chart_games()[:1], "en")) == "1 game so far: 0 won, 1 lost; win rate 0%."
    assert summary_of(charts.results_chart(chart_games()[:3], "en")) == "3 games so far: 2 won, 1 lost; win rate 67%."


@pytest.mark.parametrize("lang", LANGS)
def test_the_results_summary_names_the_rates_window_only_when_it_is_shorter_than_the_games(lang: str) -> None:
    games = chart_games()
    assert summary_of(charts.results_chart(games[:1], lang)) == tn(
        lang, "history.results_summary", 1, wins=0, losses=1, percent=t(lang, "percent", n=0))
    assert summary_of(charts.results_chart(games[:10], lang)) == tn(
        lang, "history.results_summary", 10, wins=6, losses=3, percent=t(lang, "percent", n=65))
    assert summary_of(charts.results_chart(games, lang)) == t(
        lang, "history.results_summary_recent", games=12, wins=8, losses=3, window=10, percent=t(lang, "percent", n=75))


def test_the_results_chart_shows_only_the_last_games_and_nothing_without_games() -> None:
    games = chart_games()
    assert charts.results_chart([], "en") == ""
    html = charts.results_chart(games, "en", shown=5)
    assert html.count("<circle") == 5 and 'data-games="5"' in html


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_levels_chart_and_its_table_agree(lang: str) -> None:
    stats = History(chart_games()).stats()
    html = charts.levels_chart(stats, lang)
    assert re.findall(r'<g data-level="([^"]+)"', html) == ["easy", "hard"]
    for level, tally in stats.by_level.items():
        row = re.search(rf'<tr data-group="{level}">(.*?)</tr>', html)
        assert row is not None
        cells = re.findall(r"<td>([^<]*)</td>", row.group(1))
        assert cells == [str(tally.games), str(tally.losses), str(tally.first_outs),
                         t(lang, "percent", n=round(100 * (tally.win_rate or 0)))]
    assert 'aria-describedby="history-levels-table"' in html and 'id="history-levels-table"' in html
    assert charts.levels_chart(History().stats(), lang) == ""


def test_the_levels_summary_after_games_at_one_level_is_in_the_singular() -> None:
    """Games against one level only said "1 opponent levels; best result against ...": the count takes its plural."""
    one_level = [game for game in chart_games() if game.levels == ("human", "easy")]
    label = re.search(r'aria-label="([^"]*)"', charts.levels_chart(History(one_level).stats(), "en"))
    assert label and unescape(label[1]) == "1 opponent level: 67% against easy."
    both = re.search(r'aria-label="([^"]*)"', charts.levels_chart(History(chart_games()).stats(), "fr"))
    assert both and unescape(both[1]) == tn("fr", "history.levels_summary", 2, best=charts.level_name(
        "fr", "hard"), percent="75\u202f%")  # hard: 4 won, 1 drawn, 1 lost of 6; a narrow space before %


def test_the_variants_table_and_the_streaks_in_words() -> None:
    stats = History(chart_games()).stats()
    assert 'data-group="podkidnoy"' in charts.variants_table(stats, "fr")
    assert charts.streaks_text(stats, "en") == "Current streak: 3 games without a loss · best: 4 games"
    assert charts.level_name("en", "easy+hard") == "easy + hard"


@pytest.mark.parametrize("lang", LANGS)
def test_every_refusal_has_its_message_in_every_language(lang: str) -> None:
    source = Path(history.__file__).read_text(encoding="utf-8")
    assert set(re.findall(r'_refuse\("([a-z_.]+)"', source)) == set(history.CODES)
    for code, params in history.CODES.items():
        text = say(lang, {"code": code, "params": dict.fromkeys(params, 7)})
        assert text and "{" not in text and (not params or "7" in text)
