"""The browser side of the Durak table: pure-Python rendering, flow and storage, which the engine worker
(web/engine-worker.mjs, web/bridge.py) runs for the table page's view port, web/table.js."""
