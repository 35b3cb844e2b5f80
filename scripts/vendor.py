#!/usr/bin/env python3
"""Copy the runtime files of Pyodide and PyScript from node_modules/ into web/vendor/.

Run after `npm ci` (`make setup` does both). Only what the browser loads is copied:

- web/vendor/pyodide/: what `loadPyodide()` fetches at boot (checked in Chromium, see
  tests/browser/test_vendor_boot.py). No source maps, no TypeScript types, no console pages.
- web/vendor/pyscript/: the dist/*.js and dist/*.css of @pyscript/core, no source maps.
- web/vendor/qr/: qrcode-generator's ES module (draws the invite QR codes) and jsQR's script (reads them
  from the camera where the browser has no BarcodeDetector): MIT and Apache-2.0.
- web/vendor/trystero/: Trystero's WebTorrent-tracker strategy (@trystero-p2p/torrent and its core), which
  friends' pages meet through (web/friends/relay.js), bundled into one ES module by esbuild from npm at
  setup (the bundle is not committed), with their MIT texts. The bundle's WebSocket is
  web/friends/relay-socket.js's, which checks every frame a relay sends before the library reads it.
- Pyodide's standard library as python_stdlib.full.zip: scripts/build_stdlib.py then writes the cut
  python_stdlib.zip the site boots from (see keep_full_stdlib()).
- Each folder's licence text as LICENSE.txt (PyScript's from its package; Pyodide's npm package ships
  none, so its MPL-2.0 text is kept in scripts/licences/).
- micropip's wheel, which the npm Pyodide lacks, downloaded once from PyPI into .cache/micropip/ (the
  version Pyodide's lock names), and the vendored pyodide-lock.json cut to micropip's entry, with that wheel's real
  sha256, so `packages = ["micropip"]` loads from the site itself (see micropip_wheel()).

Idempotent: a file is copied only when its size or modification time differ, files that
no longer belong (e.g. chunks of an older PyScript) are removed, and web/vendor/vendor.json
records the versions and files. Stdlib only.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE_MODULES = ROOT / "node_modules"
VENDOR = ROOT / "web" / "vendor"
LICENCE = "LICENSE.txt"
PYODIDE_LICENCE = ROOT / "scripts" / "licences" / "pyodide-MPL-2.0.txt"
LOCK = "pyodide-lock.json"
MICROPIP_CACHE = ROOT / ".cache" / "micropip"

# What pyodide.mjs loads to boot Python (no packages): the module, the Emscripten glue,
# the wasm binary, the standard library and the package lock file (always fetched).
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)


class VendorError(Exception):
    pass


def pinned_version(package: str) -> str:
    """The exact version package.json asks for."""
    manifest = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))
    version = manifest.get("dependencies", {}).get(package)
    if not isinstance(version, str):
        raise VendorError(f"package.json has no dependency {package!r}")
    return version


def installed_dir(package: str) -> Path:
    """node_modules/<package>, checked against the version pinned in package.json."""
    directory = NODE_MODULES / package
    manifest = directory / "package.json"
    if not manifest.is_file():
        raise VendorError(f"{directory.relative_to(ROOT)} is missing: run `npm ci` first (make setup does)")
    installed = json.loads(manifest.read_text(encoding="utf-8"))["version"]
    wanted = pinned_version(package)
    if installed != wanted:
        raise VendorError(
            f"node_modules has {package} {installed} but package.json pins {wanted}: run `npm ci`"
        )
    return directory


def plan(*, download: bool = True) -> dict[str, dict[str, Path | bytes]]:
    """{vendor subfolder: {file name: source path, or the bytes to write}}."""
    pyodide = installed_dir("pyodide")
    missing = [name for name in PYODIDE_FILES if not (pyodide / name).is_file()]
    if missing:
        raise VendorError(f"pyodide package lacks {', '.join(missing)}")
    pyscript_dist = installed_dir("@pyscript/core") / "dist"
    pyscript = {
        path.name: path
        for path in sorted(pyscript_dist.iterdir())
        if path.is_file() and path.suffix in (".js", ".css")
    }
    if "core.js" not in pyscript or "core.css" not in pyscript:
        raise VendorError(f"{pyscript_dist.relative_to(ROOT)} lacks core.js or core.css")
    pyscript_licence = pyscript_dist.parent / "LICENSE"
    if not pyscript_licence.is_file():
        raise VendorError(f"{pyscript_licence.relative_to(ROOT)} is missing")
    pyscript_files: dict[str, Path | bytes] = {**pyscript, LICENCE: pyscript_licence}
    pyodide_files: dict[str, Path | bytes] = {name: pyodide / name for name in PYODIDE_FILES}
    pyodide_files[LICENCE] = PYODIDE_LICENCE
    wheel = micropip_wheel(pyodide / LOCK, download=download)
    pyodide_files[wheel.name] = wheel
    pyodide_files[LOCK] = lock_with_hash(pyodide / LOCK, wheel)
    keep_full_stdlib(pyodide_files)
    return {"pyodide": pyodide_files, "pyscript": pyscript_files, "qr": qr_plan(), "trystero": trystero_plan()}


def qr_plan() -> dict[str, Path | bytes]:
    """The QR code drawing and reading libraries and their licence texts (qrcode-generator ships its MIT
    notice in its source header, jsQR its Apache-2.0 text as a file)."""
    drawing = installed_dir("qrcode-generator") / "dist" / "qrcode.mjs"
    reading = installed_dir("jsqr")
    for path in (drawing, reading / "dist" / "jsQR.js", reading / "LICENSE"):
        if not path.is_file():
            raise VendorError(f"{path.relative_to(ROOT)} is missing")
    header = drawing.read_text(encoding="utf-8").split("//-----", 3)[1]
    notice = ("qrcode.mjs (qrcode-generator):\n" + header + "\n\njsQR.js (jsqr):\n"
              + (reading / "LICENSE").read_text(encoding="utf-8"))
    return {"qrcode.mjs": drawing, "jsQR.js": reading / "dist" / "jsQR.js", LICENCE: notice.encode("utf-8")}


TRYSTERO = "@trystero-p2p/torrent"


def trystero_plan() -> dict[str, Path | bytes]:
    """Trystero's torrent strategy as one minified ES module (esbuild, a dev dependency, bundles it with
    @trystero-p2p/core, and puts web/friends/relay-socket.js's WebSocket in place of the browser's), and
    both packages' licence texts."""
    strategy = installed_dir(TRYSTERO)
    core = NODE_MODULES / "@trystero-p2p" / "core"
    esbuild = NODE_MODULES / "esbuild" / "bin" / "esbuild"
    for path in (strategy / "dist" / "index.mjs", strategy / "LICENSE", core / "LICENSE", esbuild):
        if not path.is_file():
            raise VendorError(f"{path.relative_to(ROOT)} is missing: run `npm ci`")
    done = subprocess.run(
        ["node", str(esbuild), str(strategy / "dist" / "index.mjs"), "--bundle", "--format=esm", "--minify",
         "--platform=browser", "--target=es2022", "--legal-comments=none", "--log-level=error",
         f"--inject:{ROOT / 'web' / 'friends' / 'relay-socket.js'}"],
        capture_output=True, check=False, cwd=ROOT,
    )
    if done.returncode != 0 or not done.stdout:
        raise VendorError(f"esbuild could not bundle {TRYSTERO}: {done.stderr.decode(errors='replace')[-500:]}")
    notice = (f"torrent.mjs bundles {TRYSTERO} and @trystero-p2p/core:\n\n"
              + (strategy / "LICENSE").read_text(encoding="utf-8"))
    return {"torrent.mjs": done.stdout, LICENCE: notice.encode("utf-8")}


# --- the standard library: Pyodide's kept whole beside the cut one --------------------------------

FULL_STDLIB = "python_stdlib.full.zip"


def keep_full_stdlib(pyodide_files: dict[str, Path | bytes]) -> None:
    """Pyodide's python_stdlib.zip is vendored as python_stdlib.full.zip: scripts/build_stdlib.py
    writes the cut python_stdlib.zip the site boots from, and the full one is the fallback (fetched
    when a left-out module is imported) and what benchmarks/bare.html boots."""
    pyodide_files[FULL_STDLIB] = pyodide_files.pop("python_stdlib.zip")


def built_here(name: str) -> bool:
    """Files later setup steps write into web/vendor/ (so not extras to remove): the cut standard
    library and its part for loading wheels (scripts/build_stdlib.py), and the .br/.gz copies beside
    large files (scripts/compress.py)."""
    return name in ("python_stdlib.zip", "python_stdlib.packages.zip") or name.endswith((".br", ".gz"))


# --- micropip: the wheel Pyodide's lock names, from PyPI, with its real hash in the lock ------------


def micropip_entry(lock: Path) -> dict[str, str]:
    """The lock file's micropip package: file_name, version, sha256."""
    try:
        entry = json.loads(lock.read_text(encoding="utf-8"))["packages"]["micropip"]
        return {key: str(entry[key]) for key in ("file_name", "version", "sha256")}
    except (KeyError, TypeError, ValueError) as error:
        raise VendorError(f"{lock.relative_to(ROOT)} names no micropip wheel ({error})") from error


def pip_python() -> str:
    """A Python with pip: the project's .venv (made before this step by `make setup`), else this one."""
    venv = ROOT / ".venv" / "bin" / "python"
    return str(venv) if venv.is_file() else sys.executable


def micropip_wheel(lock: Path, *, download: bool = True) -> Path:
    """micropip's wheel in .cache/micropip/, downloaded from PyPI for Pyodide's Python when missing."""
    entry = micropip_entry(lock)
    cached = MICROPIP_CACHE / entry["file_name"]
    if cached.is_file():
        return cached
    if not download:
        raise VendorError(f"{cached.relative_to(ROOT)} is missing: run `make setup`")
    python_version = ".".join(json.loads(lock.read_text(encoding="utf-8"))["info"]["python"].split(".")[:2])
    MICROPIP_CACHE.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=MICROPIP_CACHE) as folder:
        command = [
            pip_python(), "-m", "pip", "download", "--quiet", "--disable-pip-version-check", "--no-deps",
            "--only-binary=:all:", "--python-version", python_version, f"micropip=={entry['version']}",
            "--dest", folder,
        ]
        done = subprocess.run(command, capture_output=True, text=True, check=False)
        fetched = Path(folder) / entry["file_name"]
        if done.returncode != 0 or not fetched.is_file():
            raise VendorError(f"could not download {entry['file_name']} from PyPI: {done.stderr.strip()[-500:]}")
        os.replace(fetched, cached)
    return cached


def lock_with_hash(lock: Path, wheel: Path) -> bytes:
    """The lock file cut to the packages served beside Pyodide (micropip and what it depends on), with
    micropip's sha256 replaced by the vendored wheel's. Pyodide fetches the lock on every boot; the other
    350-odd entries name wheels this site does not serve (a `loadPackage` of one fails either way), and
    cutting them saves a first visit some 23 kB."""
    data = json.loads(lock.read_text(encoding="utf-8"))
    packages = data["packages"]
    kept: dict[str, object] = {}
    wanted = ["micropip"]
    while wanted:
        name = wanted.pop()
        if name not in kept:
            kept[name] = packages[name]
            wanted += packages[name].get("depends", [])
    data["packages"] = {name: kept[name] for name in sorted(kept)}
    data["packages"]["micropip"] = {**packages["micropip"], "sha256": hashlib.sha256(wheel.read_bytes()).hexdigest()}
    return (json.dumps(data, indent=1, sort_keys=True) + "\n").encode("utf-8")


def up_to_date(source: Path, target: Path) -> bool:
    try:
        s, t = source.stat(), target.stat()
    except FileNotFoundError:
        return False
    return s.st_size == t.st_size and int(s.st_mtime) == int(t.st_mtime)


def copy(source: Path, target: Path) -> None:
    """Copy with metadata (the mtime makes the next run a no-op), atomically."""
    partial = target.with_name(target.name + ".partial")
    shutil.copy2(source, partial)
    os.replace(partial, target)


def write_bytes(target: Path, data: bytes) -> None:
    """Write atomically, as copy() does."""
    partial = target.with_name(target.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, target)


def write_if_changed(path: Path, text: str) -> bool:
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return False
    path.write_text(text, encoding="utf-8")
    return True


def vendor(*, check: bool = False, verbose: bool = False) -> int:
    """Bring web/vendor/ up to date; return the number of changes (or needed changes, with check)."""
    changes = 0
    manifest: dict[str, object] = {
        "pyodide": pinned_version("pyodide"),
        "@pyscript/core": pinned_version("@pyscript/core"),
        "files": {},
    }
    files: dict[str, int] = {}
    for folder, sources in plan(download=not check).items():
        target_dir = VENDOR / folder
        if not check:
            target_dir.mkdir(parents=True, exist_ok=True)
        for name, source in sources.items():
            target = target_dir / name
            if isinstance(source, bytes):
                files[f"{folder}/{name}"] = len(source)
                if target.is_file() and target.read_bytes() == source:
                    continue
            else:
                files[f"{folder}/{name}"] = source.stat().st_size
                if up_to_date(source, target):
                    continue
            changes += 1
            if verbose or check:
                print(f"{'stale' if check else 'copy'}: web/vendor/{folder}/{name}")
            if check:
                continue
            if isinstance(source, bytes):
                write_bytes(target, source)
            else:
                copy(source, target)
        if target_dir.is_dir():
            for extra in sorted(target_dir.iterdir()):
                if extra.name not in sources and not built_here(extra.name):
                    changes += 1
                    if verbose or check:
                        print(f"{'extra' if check else 'remove'}: web/vendor/{folder}/{extra.name}")
                    if not check:
                        if extra.is_dir():
                            shutil.rmtree(extra)
                        else:
                            extra.unlink()
    manifest["files"] = files
    text = json.dumps(manifest, indent=2, sort_keys=True) + "\n"
    manifest_path = VENDOR / "vendor.json"
    if check:
        current = manifest_path.read_text(encoding="utf-8") if manifest_path.is_file() else ""
        changes += current != text
    else:
        changes += write_if_changed(manifest_path, text)
    return changes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="change nothing; exit 1 if web/vendor is stale")
    parser.add_argument("-v", "--verbose", action="store_true", help="list every file copied or removed")
    args = parser.parse_args(argv)
    try:
        changes = vendor(check=args.check, verbose=args.verbose)
    except VendorError as error:
        print(f"vendor.py: {error}", file=sys.stderr)
        return 1
    if args.check:
        print("web/vendor is up to date" if not changes else f"web/vendor is stale ({changes} changes)")
        return 1 if changes else 0
    total = sum(p.stat().st_size for p in VENDOR.rglob("*") if p.is_file())
    state = f"{changes} changes" if changes else "already up to date"
    print(f"web/vendor: {state} ({total / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
