"""The rules pages' worked examples: a record replayed into frames (frames), their words in the page's
language (narration), "try it yourself" (tryout), and the widget that steps them (stepper.js, rules.js,
rules.css).

The Python runs in the engine worker (the embeds' shared one on a host page); the stepper on the page's
main thread, with no Python needed to step. Imports ``web.table`` (the reader's hand is drawn as the
table draws it) and ``web.shared``.
"""
