"""The history's charts as inline SVG, each with a text equivalent for screen readers.

Two pictures: the results of the last games over time (a dot per game and the win rate of the ten games
up to it) and the win rate against each opponent level (a bar per level). Each SVG is ``role="img"`` with
a one-sentence summary as its name, and points to a table holding the same numbers
(``aria-describedby``): the results table is for screen readers only, the level table is shown to everyone,
since its losses and first-outs are the statistics themselves. Pure Python, no browser import.
"""

from __future__ import annotations

from collections.abc import Sequence

from web.review.history import KINDS, Entry, Stats, Tally
from web.shared.i18n import t, tn
from web.shared.markup import escape

#: The last games the results chart shows.
RESULTS_SHOWN = 40
#: The games each point of the results chart's line averages.
WINDOW = 10
SCORE = {"win": 1.0, "draw": 0.5, "loss": 0.0}
#: Colours on the panel's paper (#fffaf0): each has a contrast of at least 4.5 against it.
COLOURS = {"win": "#1d6b3a", "draw": "#5b5444", "loss": "#a0141f"}
INK, RULE, BAR = "#1f1a10", "#0000002e", "#2f5f8a"


def level_name(lang: str, kinds: str) -> str:
    """An opponent level as the table says it: "hard", "easy + hard", "Human (this device)"."""
    names = []
    for kind in kinds.split("+"):
        if kind in ("easy", "normal", "hard"):
            names.append(t(lang, f"level_{kind}"))
        elif kind == "human":
            names.append(t(lang, "human"))
        else:
            names.append(kind)
    return " + ".join(names)


def result_name(lang: str, result: str) -> str:
    return t(lang, f"history.result_{result}")


def _percent(rate: float | None, lang: str) -> str:
    return "—" if rate is None else t(lang, "percent", n=round(100 * rate))


def rolling(entries: Sequence[Entry], window: int = WINDOW) -> list[float]:
    """After each game, the score (draws half) of the ``window`` games up to it."""
    scores = [SCORE[e.result] for e in entries]
    return [sum(scores[max(0, i + 1 - window): i + 1]) / (i + 1 - max(0, i + 1 - window))
            for i in range(len(scores))]


def results_chart(entries: Sequence[Entry], lang: str, shown: int = RESULTS_SHOWN) -> str:
    """A figure: the last ``shown`` games' results and their rolling win rate, with its table."""
    games = list(entries)[-shown:]
    title = t(lang, "history.chart_results")
    if not games:
        return ""
    rates = rolling(games)
    width, height, left, right, top, bottom = 400, 150, 46, 392, 10, 110  # left: room for "100%"
    step = (right - left) / max(1, len(games) - 1) if len(games) > 1 else 0.0

    def x(index: int) -> float:
        return left + step * index if len(games) > 1 else (left + right) / 2

    def y(rate: float) -> float:
        return bottom - (bottom - top) * rate

    grid = "".join(
        f'<line x1="{left}" x2="{right}" y1="{y(r):.1f}" y2="{y(r):.1f}" stroke="{RULE}"/>'
        f'<text x="{left - 6}" y="{y(r) + 4:.1f}" text-anchor="end" font-size="13" fill="{INK}">'
        f"{_percent(r, lang)}</text>"
        for r in (0.0, 0.5, 1.0))
    line = " ".join(f"{x(i):.1f},{y(r):.1f}" for i, r in enumerate(rates))
    path = (f'<polyline points="{line}" fill="none" stroke="{BAR}" stroke-width="2.5" stroke-linejoin="round"/>'
            if len(games) > 1 else "")
    dots = "".join(
        f'<circle cx="{x(i):.1f}" cy="{height - 22}" r="{4.5 if e.result != "draw" else 3.5}" '
        f'fill="{COLOURS[e.result]}" data-result="{e.result}"><title>{escape(_game_line(lang, e))}</title></circle>'
        for i, e in enumerate(games))
    wins = sum(e.result == "win" for e in games)
    losses = sum(e.result == "loss" for e in games)
    if len(games) <= WINDOW:  # the rate is over every game shown: one count, and its plural
        summary = tn(lang, "history.results_summary", len(games), wins=wins, losses=losses,
                     percent=_percent(rates[-1], lang))
    else:
        summary = t(lang, "history.results_summary_recent", games=len(games), wins=wins, losses=losses,
                    percent=_percent(rates[-1], lang), window=WINDOW)
    table_id = "history-results-table"
    rows = "".join(
        f"<tr><td>{i + 1}</td><td>{escape(e.date[:10])}</td><td>{escape(level_name(lang, e.opponents))}</td>"
        f"<td>{escape(result_name(lang, e.result))}</td><td>{_percent(rates[i], lang)}</td></tr>"
        for i, e in enumerate(games))
    table = (f'<table class="sr-only" id="{table_id}"><caption>{escape(title)}</caption><thead><tr>'
             f'<th scope="col">#</th><th scope="col">{escape(t(lang, "history.col_date"))}</th>'
             f'<th scope="col">{escape(t(lang, "history.col_opponents"))}</th>'
             f'<th scope="col">{escape(t(lang, "history.col_result"))}</th>'
             f'<th scope="col">{escape(t(lang, "history.col_rolling", window=WINDOW))}</th></tr></thead>'
             f"<tbody>{rows}</tbody></table>")
    return (f'<figure class="chart" data-chart="results"><figcaption>{escape(title)}</figcaption>'
            f'<svg viewBox="0 0 {width} {height}" role="img" aria-label="{escape(summary)}" '
            f'aria-describedby="{table_id}" data-games="{len(games)}">{grid}{path}{dots}</svg>'
            f'<p class="chart-summary">{escape(summary)}</p>{table}</figure>')


def _game_line(lang: str, entry: Entry) -> str:
    return t(lang, "history.game_line", date=entry.date[:10], result=result_name(lang, entry.result),
             opponents=level_name(lang, entry.opponents))


def ordered_levels(stats: Stats) -> list[tuple[str, Tally]]:
    """The levels in the table's order (easy, normal, hard, human), mixed tables last."""
    def key(item: tuple[str, Tally]) -> tuple[int, str]:
        kinds = item[0].split("+")
        return (KINDS.index(kinds[0]) if len(kinds) == 1 and kinds[0] in KINDS else len(KINDS), item[0])

    return sorted(stats.by_level.items(), key=key)


def levels_chart(stats: Stats, lang: str) -> str:
    """A figure: one bar per opponent level (games not lost, draws half), and the table of the numbers."""
    levels = ordered_levels(stats)
    if not levels:
        return ""
    title = t(lang, "history.chart_levels")
    row_height, left, right = 28, 120, 330
    height = row_height * len(levels) + 8
    bars = []
    for index, (kinds, tally) in enumerate(levels):
        top = 6 + index * row_height
        rate, shown = tally.win_rate or 0.0, _percent(tally.win_rate, lang)
        bars.append(
            f'<g data-level="{escape(kinds)}"><text x="{left - 8}" y="{top + 15}" text-anchor="end" font-size="14" '
            f'fill="{INK}">{escape(level_name(lang, kinds))}</text>'
            f'<rect x="{left}" y="{top + 3}" width="{right - left}" height="16" rx="3" fill="{RULE}"/>'
            f'<rect x="{left}" y="{top + 3}" width="{(right - left) * rate:.1f}" height="16" rx="3" fill="{BAR}"/>'
            f'<text x="{right + 6}" y="{top + 15}" font-size="14" fill="{INK}">{shown}</text></g>')
    best = max(levels, key=lambda item: (item[1].win_rate or 0.0, item[1].games))
    summary = tn(lang, "history.levels_summary", len(levels), best=level_name(lang, best[0]),
                 percent=_percent(best[1].win_rate, lang))
    return (f'<figure class="chart" data-chart="levels"><figcaption>{escape(title)}</figcaption>'
            f'<svg viewBox="0 0 400 {height}" role="img" aria-label="{escape(summary)}" '
            f'aria-describedby="history-levels-table">{"".join(bars)}</svg>'
            f"{tally_table(levels, lang, 'levels')}</figure>")


def tally_table(groups: Sequence[tuple[str, Tally]], lang: str, grouped_by: str) -> str:
    """Games, losses, first-outs and win rate per group: ``grouped_by`` "levels" or "variants"."""
    def label(key: str) -> str:
        return level_name(lang, key) if grouped_by == "levels" else t(lang, f"variant_{key}")

    table_id, caption = f"history-{grouped_by}-table", t(lang, f"history.by_{grouped_by}")

    rows = "".join(
        f'<tr data-group="{escape(key)}"><th scope="row">{escape(label(key))}</th><td>{tally.games}</td>'
        f"<td>{tally.losses}</td><td>{tally.first_outs}</td><td>{_percent(tally.win_rate, lang)}</td></tr>"
        for key, tally in groups)
    return (f'<table class="stats" id="{table_id}"><caption>{escape(caption)}</caption><thead><tr><td></td>'
            f'<th scope="col">{escape(t(lang, "history.col_games"))}</th>'
            f'<th scope="col">{escape(t(lang, "history.col_losses"))}</th>'
            f'<th scope="col">{escape(t(lang, "history.col_first_outs"))}</th>'
            f'<th scope="col">{escape(t(lang, "history.col_win_rate"))}</th></tr></thead><tbody>{rows}</tbody></table>')


def variants_table(stats: Stats, lang: str) -> str:
    groups = sorted(stats.by_variant.items())
    if not groups:
        return ""
    return tally_table(groups, lang, "variants")


def streaks_text(stats: Stats, lang: str) -> str:
    """"3 games without a loss (best: 5)"."""
    return (tn(lang, "history.streak", stats.streak) + " · " + tn(lang, "history.best_streak", stats.best_streak))
