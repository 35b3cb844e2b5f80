"""The card table: its settings (params), the host that owns a game and its seat clients (host, seat,
protocol, fairdeal), the page's flow (controller), each region's HTML (render, moves) and the view port
that draws it (table.js, style.css).

The Python runs in the engine worker, the view port on the page's main thread. Imports ``durak``,
``durak.ai`` and ``web.shared``.
"""
