"""The browser side of the Durak table: pure-Python rendering, flow and storage, which the engine worker
(web/worker/engine-worker.mjs, web/worker/bridge.py) runs for the table page's view port, web/table/table.js."""
