"""Before any test module is imported: compile the message catalogues (web/shared/locale/*.po -> .mo), which
web/shared/i18n.py reads at import, so every run tests the catalogues as they are now."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def pytest_configure(config: pytest.Config) -> None:
    spec = importlib.util.spec_from_file_location("durak_build_catalogues", ROOT / "scripts" / "build_catalogues.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.build(ROOT)
