"""The wheel `make setup` builds installs with pip into a fresh venv, imports from there and plays.

The venv has no pip of its own (faster than ensurepip): the project's pip installs into it with
`--python`, offline (`--no-index`), so only the wheel is used. The game runs from a folder outside
the repo, so `import durak` cannot pick up the source tree instead of the installed copy.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import venv
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]

PLAY = """
import json, random
from importlib.metadata import metadata
import durak
from durak import Game, Rules
from durak.ai import make_player

game = Game.new(Rules(variant="perevodnoy", players=3), seed=11)
chance, bot, moves = random.Random(11), make_player("easy", seed=3), 0
while game.result is None:
    seat = game.to_act
    legal = game.legal_actions(seat)
    action = bot.choose(game.view(seat), legal) if seat == 0 else chance.choice(legal)
    game.apply(seat, action)
    moves += 1
print(json.dumps({"file": durak.__file__, "moves": moves, "losers": game.result.losers,
                  "license": metadata("durak")["License-Expression"]}))
"""


def load_builder() -> ModuleType:
    spec = importlib.util.spec_from_file_location("durak_build_wheel", ROOT / "scripts" / "build_wheel.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def wheel() -> Path:
    """The wheel of the sources as they are now (rebuilt when they changed since the last build)."""
    _, path = load_builder().build(ROOT)
    return Path(path)


def test_the_wheel_holds_the_engine_and_nothing_else(wheel: Path) -> None:
    version = load_builder().version(ROOT)
    assert wheel.name == f"durak-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = archive.read(next(n for n in names if n.endswith(".dist-info/METADATA"))).decode()
    tops = {name.split("/")[0] for name in names}
    assert tops == {"durak", f"durak-{version}.dist-info"}
    assert "durak/game.py" in names and "durak/ai/hard.py" in names
    assert not any(name.startswith(("web/", "tests/", "scripts/")) for name in names)
    assert "License-Expression: MIT" in metadata


def test_pip_installs_the_wheel_in_a_fresh_venv_and_it_plays(wheel: Path, tmp_path: Path) -> None:
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    python = env_dir / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--quiet",
               "--disable-pip-version-check", "--no-index", "--no-deps", str(wheel)]
    subprocess.run(install, check=True, capture_output=True, text=True)

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = subprocess.run([str(python), "-I", "-c", PLAY], cwd=elsewhere, capture_output=True, text=True,
                          check=True)
    result = json.loads(done.stdout)
    assert Path(result["file"]).is_relative_to(env_dir), result["file"]  # the installed copy, not the repo's
    assert result["moves"] > 10
    assert len(result["losers"]) <= 1  # a durak, or a draw
    assert result["license"] == "MIT"
