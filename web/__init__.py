"""The browser side of the Durak table: pure-Python rendering, flow and storage, plus app.py (PyScript)."""
