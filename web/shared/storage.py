"""Saving and restoring the table in localStorage (or any string key-value store).

A save is JSON: ``{"version": SAVE_VERSION, ...}``. Reading one never crashes the page: a save that is
damaged, from another version, or that the engine refuses is moved to ``SET_ASIDE_KEY`` and reported,
so the player can still start a new game and a developer can still inspect it.
Pure Python: the browser binding passes a store with ``get``, ``set`` and ``remove``.
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from typing import Any, Protocol

SAVE_KEY = "durak.save"
SET_ASIDE_KEY = "durak.save.set-aside"
PREFS_KEY = "durak.prefs"
SAVE_VERSION = 1


class Store(Protocol):
    def get(self, key: str) -> str | None: ...
    def set(self, key: str, value: str) -> None: ...
    def remove(self, key: str) -> None: ...


class MemoryStore:
    """A dict-backed store for tests and for browsers that refuse localStorage."""

    def __init__(self, data: dict[str, str] | None = None) -> None:
        self.data = dict(data or {})

    def get(self, key: str) -> str | None:
        return self.data.get(key)

    def set(self, key: str, value: str) -> None:
        self.data[key] = value

    def remove(self, key: str) -> None:
        self.data.pop(key, None)


class SaveError(ValueError):
    """A save that cannot be used."""


def save(store: Store, state: dict[str, Any]) -> None:
    """Write ``state`` (JSON-safe) as the current save."""
    payload = {"version": SAVE_VERSION, **state}
    # quota exceeded or storage disabled: playing on matters more than saving
    with contextlib.suppress(Exception):
        store.set(SAVE_KEY, json.dumps(payload, separators=(",", ":")))


def clear(store: Store) -> None:
    with contextlib.suppress(Exception):
        store.remove(SAVE_KEY)


def load(store: Store, restore: Callable[[dict[str, Any]], Any]) -> tuple[Any, bool]:
    """Read the save and hand it to ``restore`` (which raises on anything it cannot use).

    Returns ``(restored, set_aside)``: ``(None, False)`` when there is no save; ``(None, True)`` when a
    save existed but was unusable and has been set aside.
    """
    try:
        text = store.get(SAVE_KEY)
    except Exception:
        return None, False
    if text is None or text == "":
        return None, False
    try:
        data = json.loads(text)
        if not isinstance(data, dict):
            raise SaveError("a save must be a JSON object")
        if data.get("version") != SAVE_VERSION:
            raise SaveError(f"save version {data.get('version')!r}, expected {SAVE_VERSION}")
        return restore(data), False
    except Exception:
        set_aside(store, text)
        return None, True


def set_aside(store: Store, text: str) -> None:
    """Keep an unusable save under another key and remove it from the main one."""
    with contextlib.suppress(Exception):
        store.set(SET_ASIDE_KEY, text)
    clear(store)


def load_prefs(store: Store) -> dict[str, Any]:
    try:
        text = store.get(PREFS_KEY)
        data = json.loads(text) if text else {}
        return data if isinstance(data, dict) else {}
    except Exception:
        return {}


def save_prefs(store: Store, prefs: dict[str, Any]) -> None:
    with contextlib.suppress(Exception):
        store.set(PREFS_KEY, json.dumps(prefs))
