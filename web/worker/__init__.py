"""The engine worker: Pyodide's boot from the vendored files and its memory snapshot (engine-boot.mjs,
stdlib-fallback.mjs), the dedicated and shared workers (engine-worker.mjs, engine-shared-worker.mjs,
engine-host.mjs), and the page protocol the worker answers
(bridge), which dispatches each message to its feature.

Runs in a module worker, never on the page's main thread. The top of ``web``: it may import every
feature; no feature imports it.
"""
