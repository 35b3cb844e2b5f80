#!/usr/bin/env python3
"""Pack the Python the page imports into two archives: web/modules.zip and web/features.zip (git-ignored).

    python scripts/build_zip.py [--root DIR] [--check]

Together they hold the `durak` package (but for the command-line-only cli.py and arena.py), the
`web` package's modules and the message catalogues web/shared/locale/*.mo that web/shared/i18n.py reads (compiled
by scripts/build_catalogues.py, which `build` runs first). web/modules.zip holds what the table's first deal
needs: the engine worker (web/worker/engine-boot.mjs) fetches it at boot, unpacks it into the working folder
of the interpreter (one file instead of some thirty small ones) and imports every module in it before it makes
its memory snapshot. web/features.zip holds the features a page uses later or not at all (``FEATURES``: play
with friends, the review and history, the rules pages' examples and try-it, the embed API): the worker fetches,
unpacks and imports it on their first use (web/worker/engine-host.mjs says when).

Each module goes as bytecode alone, `<package>/<name>.pyc` where its source was (Python imports
such a sourceless .pyc as it does the cut standard library's), compiled by the vendored Pyodide's own
Python (scripts/compile_pyc.mjs, in Node.js; lean: no docstrings, no column positions): a cold start
imports instead of compiling, about 90 ms less, and the sources' bytes (about 130 kB with gzip) stay
off a phone's first visit. The price: a traceback in the page names the file and line but cannot
quote the line. The archive is stored, not deflated: the server sends it compressed as a whole
(scripts/compress.py). The .pyc files are cached in .cache/pyc/ by source hash, so Node runs only for
modules that changed. Without Node or node_modules/pyodide (before `npm ci`) the archive holds the
sources instead, and says so.

The archive is deterministic (sorted names, fixed timestamps and permissions): the same sources
give the same bytes, so the service worker's version (scripts/build_sw.py) changes only when a
module does. Rewritten only when its bytes change. `make setup` runs this. Stdlib only, but for
Babel in build_catalogues.py (run it with .venv/bin/python).
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import importlib.util
import io
import json
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
ARCHIVE = Path("web/modules.zip")
FEATURES_ARCHIVE = Path("web/features.zip")
#: The modules of web/features.zip: files and folders (whole packages). web/worker/bridge.py imports them
#: inside functions, once the worker has unpacked the archive.
FEATURES = (Path("durak/review.py"), Path("web/friends"), Path("web/review"), Path("web/examples"), Path("web/embed"))
PACKAGES = ("durak", "web")
# Run from a terminal only (python -m durak.cli / durak.arena): no page imports them.
COMMAND_LINE_ONLY = (Path("durak/cli.py"), Path("durak/arena.py"))
FIXED_TIME = (2020, 1, 1, 0, 0, 0)
COMPILER = ROOT / "scripts" / "compile_pyc.mjs"
PYODIDE_PACKAGE = ROOT / "node_modules" / "pyodide" / "package.json"
PYC_CACHE = ROOT / ".cache" / "pyc"
CATALOGUES = Path("web/shared/locale")


def _load_catalogue_builder() -> ModuleType:
    """scripts/build_catalogues.py by path: scripts/ is no package, and tests load this file by path."""
    spec = importlib.util.spec_from_file_location("durak_build_catalogues", Path(__file__).with_name(
        "build_catalogues.py"))
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_catalogues = _load_catalogue_builder()


def module_files(root: Path = ROOT) -> list[Path]:
    """The .py files the archive holds, relative to root, sorted."""
    found: list[Path] = []
    for package in PACKAGES:
        for path in (root / package).rglob("*.py"):
            relative = path.relative_to(root)
            if "__pycache__" in relative.parts or relative.parts[:2] == ("web", "vendor"):
                continue
            if relative not in COMMAND_LINE_ONLY:
                found.append(relative)
    return sorted(found, key=lambda p: p.as_posix())


def bytecode(sources: dict[Path, bytes], *, lean: bool = False, def_lines: bool = False) -> dict[Path, bytes]:
    """{sourceless .pyc path (json/decoder.pyc for json/decoder.py): bytes} for these {module path:
    source}, compiled by the vendored Pyodide's Python; empty (with a note on stderr) when Node or
    node_modules/pyodide is missing. lean: without
    docstrings and column positions (compile_pyc.mjs --lean); def_lines: every instruction on its
    function's first line (--def-lines; the cut standard library)."""
    if not PYODIDE_PACKAGE.is_file() or shutil.which("node") is None:
        print("build_zip: no Node.js or node_modules/pyodide (run `make setup`): sources only", file=sys.stderr)
        return {}
    version = json.loads(PYODIDE_PACKAGE.read_text(encoding="utf-8"))["version"]

    def key(relative: Path, source: bytes) -> str:
        mode = ("lean\0" if lean else "") + ("def-lines\0" if def_lines else "")
        return hashlib.sha256(f"{version}\0{mode}{relative.as_posix()}\0".encode() + source).hexdigest()

    cached = {relative: next(PYC_CACHE.glob(f"{key(relative, source)}.*.pyc"), None)
              for relative, source in sources.items()}
    missing = {relative.as_posix(): base64.b64encode(sources[relative]).decode()
               for relative, path in cached.items() if path is None}
    if missing:
        command = ["node", str(COMPILER), *(["--lean"] if lean else []), *(["--def-lines"] if def_lines else [])]
        run = subprocess.run(command, input=json.dumps(missing), capture_output=True, text=True, check=False)
        if run.returncode != 0:
            raise SystemExit(f"build_zip: {COMPILER.name} failed:\n{run.stderr}")
        result = json.loads(run.stdout)
        PYC_CACHE.mkdir(parents=True, exist_ok=True)
        for name, data in result["files"].items():
            fresh = PYC_CACHE / f"{key(Path(name), sources[Path(name)])}.{result['cache_tag']}.pyc"
            fresh.write_bytes(base64.b64decode(data))
            cached[Path(name)] = fresh
    compiled: dict[Path, bytes] = {}
    for relative, found in cached.items():
        if found is None:
            raise SystemExit(f"build_zip: {COMPILER.name} did not compile {relative}")
        compiled[relative.with_suffix(".pyc")] = found.read_bytes()
    return compiled


def catalogue_files(root: Path = ROOT) -> dict[Path, bytes]:
    """The compiled catalogues web/shared/locale/<lang>.mo, one per .po file, with their bytes."""
    return {relative: data for relative, data in build_catalogues.outputs(root).items()
            if relative.parent == CATALOGUES and relative.suffix == ".mo"}


def is_feature(relative: Path) -> bool:
    """Whether a module goes into web/features.zip rather than web/modules.zip."""
    return any(relative == part or part in relative.parents for part in FEATURES)


def archive_bytes(root: Path = ROOT, *, features: bool = False) -> bytes:
    """web/modules.zip's bytes, or web/features.zip's (features: no catalogue, the boot reads them all)."""
    sources = {relative: (root / relative).read_bytes() for relative in module_files(root)
               if is_feature(relative) == features}
    members = {**(bytecode(sources, lean=True) or sources), **({} if features else catalogue_files(root))}
    buffer = io.BytesIO()
    # Stored, not deflated: the server compresses the whole archive (scripts/compress.py), which
    # shares the redundancy between modules that per-entry deflate cannot.
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for relative in sorted(members, key=lambda p: p.as_posix()):
            info = zipfile.ZipInfo(relative.as_posix(), date_time=FIXED_TIME)
            info.external_attr = 0o644 << 16
            info.compress_type = zipfile.ZIP_STORED
            archive.writestr(info, members[relative])
    return buffer.getvalue()


def build(root: Path = ROOT, *, check: bool = False) -> bool:
    """Write root/web/modules.zip and root/web/features.zip where their bytes differ; return True when
    either changed (or would)."""
    if not check:
        build_catalogues.build(root)
    changed = False
    for archive, features in ((ARCHIVE, False), (FEATURES_ARCHIVE, True)):
        target = root / archive
        data = archive_bytes(root, features=features)
        if target.is_file() and target.read_bytes() == data:
            continue
        changed = True
        if not check:
            partial = target.with_name(target.name + ".partial")
            partial.write_bytes(data)
            partial.replace(target)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Pack durak/ and web/*.py into web/modules.zip and web/features.zip.")
    parser.add_argument("--root", type=Path, default=ROOT, help="site folder (default: the repo root)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the archive is stale")
    args = parser.parse_args(argv)
    changed = build(args.root, check=args.check)
    count = len(module_files(args.root))
    if args.check:
        print(f"{ARCHIVE}: {'stale' if changed else 'up to date'} ({count} modules)")
        return 1 if changed else 0
    sizes = ", ".join(f"{archive.name} {(args.root / archive).stat().st_size / 1e3:.0f} kB"
                      for archive in (ARCHIVE, FEATURES_ARCHIVE))
    print(f"{ARCHIVE}, {FEATURES_ARCHIVE}: {'written' if changed else 'up to date'} ({count} modules: {sizes})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
