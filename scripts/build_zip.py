#!/usr/bin/env python3
"""Pack the Python the page imports into one archive: web/modules.zip (git-ignored).

    python scripts/build_zip.py [--root DIR] [--check]

The archive holds the `durak` package and the `web` package's modules except the entry point
web/app.py (which index.html loads as its `<script type="py">`). pyscript.toml maps it with
`"./web/modules.zip" = "./*"`, so PyScript fetches one file and unpacks it into the working
folder of the interpreter, instead of fetching some thirty small files.

The archive is deterministic (sorted names, fixed timestamps and permissions): the same sources
give the same bytes, so the service worker's version (scripts/build_sw.py) changes only when a
module does. Rewritten only when its bytes change. `make setup` runs this. Stdlib only.
"""

from __future__ import annotations

import argparse
import io
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = Path("web/modules.zip")
PACKAGES = ("durak", "web")
ENTRY_POINT = Path("web/app.py")  # loaded by index.html itself, never imported
FIXED_TIME = (2020, 1, 1, 0, 0, 0)


def module_files(root: Path = ROOT) -> list[Path]:
    """The .py files the archive holds, relative to root, sorted."""
    found: list[Path] = []
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            relative = path.relative_to(root)
            if "__pycache__" in relative.parts or relative.parts[:2] == ("web", "vendor"):
                continue
            if relative != ENTRY_POINT:
                found.append(relative)
    return sorted(found, key=lambda p: p.as_posix())


def archive_bytes(root: Path = ROOT) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        for relative in module_files(root):
            info = zipfile.ZipInfo(relative.as_posix(), date_time=FIXED_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, (root / relative).read_bytes())
    return buffer.getvalue()


def build(root: Path = ROOT, *, check: bool = False) -> bool:
    """Write root/web/modules.zip if its bytes differ; return True when it changed (or would)."""
    target = root / ARCHIVE
    data = archive_bytes(root)
    if target.is_file() and target.read_bytes() == data:
        return False
    if not check:
        partial = target.with_name(target.name + ".partial")
        partial.write_bytes(data)
        partial.replace(target)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Pack durak/ and web/*.py into web/modules.zip.")
    parser.add_argument("--root", type=Path, default=ROOT, help="site folder (default: the repo root)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the archive is stale")
    args = parser.parse_args(argv)
    changed = build(args.root, check=args.check)
    count = len(module_files(args.root))
    if args.check:
        print(f"{ARCHIVE}: {'stale' if changed else 'up to date'} ({count} modules)")
        return 1 if changed else 0
    size = (args.root / ARCHIVE).stat().st_size
    print(f"{ARCHIVE}: {'written' if changed else 'up to date'} ({count} modules, {size / 1e3:.0f} kB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
