"""Durak in another site's frame (embed.html): records and positions as frames, moves by notation
(embedding), the engine calls an example or embed makes (engine_calls), the whole table as an embed
(embed_table), and embed.html's script and style (embed-frame.js, embed.css). The one-line loader other
sites include stays at web/embed.js, the address they link to.

The Python runs in the engine worker; the script on the frame's main thread. Imports ``web.examples``,
``web.table`` and ``web.shared``.
"""
