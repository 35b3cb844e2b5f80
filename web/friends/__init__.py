"""Play with friends: invites and replies as links (invite), the guest's and host's pages (netpage), their
messages across the engine worker (bridge_net), and the WebRTC data channels, tabs and QR codes on the
page (net.js, table-net.js).

The Python runs in the engine worker; net.js on the page's main thread, loaded by the table only when a
friend plays. Imports ``web.table`` and ``web.shared``.
"""
