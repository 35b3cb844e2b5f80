"""The game review and the history: a verdict on each decision of a finished game (model), the finished
games' store and statistics (history, charts, history_screen), the screens' buttons (review_page) and their
drawing on the page (review.js, table-review.js, review.css).

The Python runs in the engine worker; the screens on the page's main thread. Imports ``web.examples`` (the
board is a worked example's), ``web.table`` and ``web.shared``.
"""
