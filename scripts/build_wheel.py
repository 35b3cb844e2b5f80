#!/usr/bin/env python3
"""Build dist/durak-<version>-py3-none-any.whl, the engine and AI (durak/) as a wheel.

    .venv/bin/python scripts/build_wheel.py [--force]

For `pip install` in CPython and `micropip.install("<site>/dist/durak-….whl")` in a PyScript page
(examples/pyscript/). The standard frontend does the work: `python -m build --wheel --no-isolation`
with the setuptools pinned in pyproject.toml, installed in .venv by `make setup` (no download at
build time). It runs in a fresh copy of pyproject.toml, LICENSE, README.md and durak/ (no caches, no
stale build/ folder, nothing of web/ or tests/), with a fixed SOURCE_DATE_EPOCH so the same sources
give the same bytes. The wheel is checked to hold durak/ and its metadata only.

Quick when done: the inputs' digest is kept in .cache/wheel.sha256 and nothing is rebuilt while it
matches. Older durak wheels in dist/ are removed, so `dist/*.whl` names one file.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DIST = "dist"
PACKAGE = "durak"
STAMP = Path(".cache") / "wheel.sha256"
# Zip entries cannot be older than 1980; any fixed date makes the archive reproducible.
SOURCE_DATE_EPOCH = "315532800"
TOP_FILES = ("pyproject.toml", "LICENSE", "README.md")


class WheelError(Exception):
    pass


def version(root: Path = ROOT) -> str:
    with (root / "pyproject.toml").open("rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def wheel_name(root: Path = ROOT) -> str:
    return f"{PACKAGE}-{version(root)}-py3-none-any.whl"


def inputs(root: Path = ROOT) -> list[Path]:
    """Every file the wheel is built from, relative to root, sorted."""
    package = sorted(
        path.relative_to(root)
        for path in (root / PACKAGE).rglob("*")
        if path.is_file() and "__pycache__" not in path.parts and path.suffix in (".py", ".typed")
    )
    return [Path(name) for name in TOP_FILES] + package


def digest(root: Path = ROOT) -> str:
    """SHA-256 over the inputs' names and contents (and the build's own rules: this file)."""
    sha = hashlib.sha256(Path(__file__).read_bytes())
    for name in inputs(root):
        sha.update(f"\0{name.as_posix()}\0".encode())
        sha.update((root / name).read_bytes())
    return sha.hexdigest()


def check_contents(wheel: Path, root: Path = ROOT) -> None:
    """Only durak/ and the wheel's own .dist-info: no web/, tests/ or scripts/ in a user's site-packages."""
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    info = f"{PACKAGE}-{version(root)}.dist-info/"
    stray = [name for name in names if not name.startswith((f"{PACKAGE}/", info))]
    if stray:
        raise WheelError(f"{wheel.name} holds files outside {PACKAGE}/: {stray[:5]}")
    if f"{PACKAGE}/__init__.py" not in names or f"{info}licenses/LICENSE" not in names:
        raise WheelError(f"{wheel.name} lacks {PACKAGE}/__init__.py or its licence")


def build(root: Path = ROOT, *, force: bool = False) -> tuple[bool, Path]:
    """Build the wheel into root/dist/ unless it is up to date; return (built, path)."""
    target = root / DIST / wheel_name(root)
    stamp = root / STAMP
    wanted = digest(root)
    if not force and target.is_file() and stamp.is_file() and stamp.read_text(encoding="utf-8") == wanted:
        return False, target
    with tempfile.TemporaryDirectory(prefix="durak-wheel-") as scratch:
        source, out = Path(scratch) / "src", Path(scratch) / "out"
        for name in inputs(root):
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(root / name, source / name)
        command = [sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(out), str(source)]
        environment = {**os.environ, "SOURCE_DATE_EPOCH": SOURCE_DATE_EPOCH}
        done = subprocess.run(command, capture_output=True, text=True, env=environment, check=False)
        built = out / target.name
        if done.returncode != 0 or not built.is_file():
            output = (done.stdout + done.stderr).strip()[-1500:]
            raise WheelError(f"python -m build failed (is `build` installed in .venv? run `make setup`):\n{output}")
        check_contents(built, root)
        target.parent.mkdir(exist_ok=True)
        for old in target.parent.glob(f"{PACKAGE}-*.whl"):
            old.unlink()
        os.replace(built, target)
    stamp.parent.mkdir(exist_ok=True)
    stamp.write_text(wanted, encoding="utf-8")
    return True, target


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Build dist/durak-<version>-py3-none-any.whl.")
    parser.add_argument("--force", action="store_true", help="rebuild even when the sources did not change")
    args = parser.parse_args(argv)
    try:
        built, path = build(force=args.force)
    except (WheelError, OSError) as error:
        print(f"build_wheel.py: {error}", file=sys.stderr)
        return 1
    state = "built" if built else "up to date"
    print(f"{path.relative_to(ROOT)}: {state} ({path.stat().st_size / 1e3:.0f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
