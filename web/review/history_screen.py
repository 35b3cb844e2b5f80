"""The history screen's HTML: totals and streaks, the two charts, the tables, the list of games, and the
export, import, clear and open-a-record controls. A pure function of the history and the language.
The clear button carries its question (``data-confirm``): the page asks it before it sends the message.

Hooks (../shared/DESIGN.md): the panel is ``[data-testid=history]``; each game is ``[data-game=<id>]``,
with a ``[data-action=review-game]`` button inside when its record is kept (the page reads the game's id from the
item around the button); charts are inline ``svg`` with a text
equivalent (web/review/charts.py).
"""

from __future__ import annotations

from web.review.charts import level_name, levels_chart, result_name, results_chart, streaks_text, variants_table
from web.review.history import Entry, History
from web.shared.i18n import t, tn
from web.shared.markup import escape

#: The games listed, newest first (the charts and totals count every game).
LISTED = 50


def game_item(entry: Entry, lang: str) -> str:
    variant = t(lang, f"variant_{entry.variant}")
    parts = [entry.date[:10], variant, level_name(lang, entry.opponents), result_name(lang, entry.result),
             tn(lang, "history.moves", entry.moves)]
    text = " · ".join(parts)
    if entry.record is not None:
        action = (f'<button type="button" class="btn small" data-action="review-game" '
                  f'aria-label="{escape(t(lang, "history.btn_review") + ": " + text)}">'
                  f'{escape(t(lang, "history.btn_review"))}</button>')
    else:
        action = f'<span class="muted">{escape(t(lang, "history.no_record"))}</span>'
    return (f'<li data-game="{escape(entry.id)}" data-result="{entry.result}">'
            f'<span class="game-dot {entry.result}" aria-hidden="true"></span><span class="game-text">{escape(text)}'
            f"</span>{action}</li>")


def history_html(history: History, lang: str, notice: str = "") -> str:
    """The whole panel (the overlay around it is the page's)."""
    stats = history.stats()
    total = stats.total
    title = escape(t(lang, "history.title"))
    note = f'<p class="history-notice" role="status">{escape(notice)}</p>' if notice else ""
    if total.games:
        totals = tn(lang, "history.totals", total.games, wins=total.wins, losses=total.losses, draws=total.draws)
        summary = (f'<p class="history-totals">{escape(totals)}</p>'
                   f'<p class="history-streaks" data-streak="{stats.streak}" data-best-streak="{stats.best_streak}">'
                   f"{escape(streaks_text(stats, lang))}</p>")
        charts = (f'<div class="charts">{results_chart(history.games, lang)}{levels_chart(stats, lang)}</div>'
                  f'<p class="muted">{escape(t(lang, "history.win_rate_note"))}</p>{variants_table(stats, lang)}')
        items = "".join(game_item(e, lang) for e in reversed(history.games[-LISTED:]))
        games = (f'<h3 id="history-games-title">{escape(t(lang, "history.games"))}</h3>'
                 f'<ol class="history-games" aria-labelledby="history-games-title" reversed>{items}</ol>')
    else:
        summary, charts, games = f'<p class="history-empty">{escape(t(lang, "history.empty"))}</p>', "", ""
    file_tools = (
        f'<div class="history-tools">'
        f'<button type="button" class="btn" data-action="export-history"{"" if total.games else " disabled"}>'
        f'{escape(t(lang, "history.btn_export"))}</button>'
        f'<label class="btn file-btn">{escape(t(lang, "history.btn_import"))}'
        f'<input type="file" class="sr-only" data-action="import-history" accept=".json,application/json"></label>'
        f'<button type="button" class="btn ghost" data-action="clear-history" '
        f'data-confirm="{escape(t(lang, "history.confirm_clear"))}"{"" if total.games else " disabled"}>'
        f'{escape(t(lang, "history.btn_clear"))}</button></div>')
    paste = (f'<form class="paste-record" data-form="paste-record"><label for="paste-record-text">'
             f'{escape(t(lang, "review.paste_label"))}</label>'
             f'<textarea id="paste-record-text" class="input" rows="3" spellcheck="false"></textarea>'
             f'<button type="submit" class="btn" data-action="open-pasted">{escape(t(lang, "review.btn_open_paste"))}'
             f"</button></form>")
    return (f'<div class="panel wide history" data-testid="history" role="dialog" aria-modal="true" '
            f'aria-labelledby="history-title" data-games="{len(history.games)}">'
            f'<div class="panel-head"><h2 id="history-title">{title}</h2>'
            f'<button type="button" class="btn ghost" data-action="close-history">'
            f'{escape(t(lang, "history.btn_close"))}</button></div>'
            f"{note}{summary}{charts}{games}{file_tools}{paste}</div>")
