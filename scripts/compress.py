#!/usr/bin/env python3
"""Write `<file>.br` and `<file>.gz` beside every large file the site serves, for compressed delivery.

    .venv/bin/python scripts/compress.py [--root DIR] [--check] [-v]

Static hosts (and scripts/serve.py) send a `.br` or `.gz` copy with `Content-Encoding` when the
browser accepts it: Pyodide's 9.6 MB wasm goes over the wire as 2.7 MB (brotli) or 3.4 MB (gzip).
The files are those the service worker precaches (scripts/build_sw.py), the files it fetches on
demand (the full standard library), sw.js itself and the bare benchmark page; a copy is written
only for files of at least MIN_SIZE bytes that it makes at least 5 % smaller (not for PNGs or
already-deflated archives such as the wheel).

Brotli at quality 11 (PyPI `brotli`) and gzip by Zopfli (PyPI `zopfli`: a few % smaller than
`gzip -9`, and as fast to decode; stdlib gzip -9 where it is missing), both deterministic: the same
file gives the same bytes. Quick when done: each copy is rewritten only when its source changed
(a digest of the source and of SETTINGS is kept in .cache/compress.json); copies whose source is
gone are removed. Run after scripts/build_sw.py (`make setup` does).
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import importlib.util
import json
import os
import sys
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from types import ModuleType

import brotli  # type: ignore[import-untyped]

try:
    import zopfli.gzip as zopfli_gzip  # type: ignore[import-untyped]
except ImportError:  # pragma: no cover - make setup installs it
    zopfli_gzip = None

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = Path(__file__).resolve().parent
STATE = Path(".cache/compress.json")
MIN_SIZE = 1024
MIN_SAVING = 0.05
# Beside the precached files: what the site fetches on demand or the benchmarks load.
EXTRA_FILES = ("sw.js", "web/vendor/pyodide/python_stdlib.packages.zip", "web/vendor/pyodide/python_stdlib.full.zip",
               "benchmarks/bare.html")
ZOPFLI_ITERATIONS = 5
SUFFIXES = (".br", ".gz")


def _gzip(data: bytes) -> bytes:
    if zopfli_gzip is not None:
        return bytes(zopfli_gzip.compress(data, numiterations=ZOPFLI_ITERATIONS))
    return gzip.compress(data, compresslevel=9, mtime=0)


def _brotli(data: bytes) -> bytes:
    return bytes(brotli.compress(data, quality=11))


ENCODERS: dict[str, Callable[[bytes], bytes]] = {".br": _brotli, ".gz": _gzip}
# What the bytes of a copy depend on besides its source: part of the service worker's version.
SETTINGS = json.dumps({
    "brotli": getattr(brotli, "__version__", "?"), "quality": 11,
    "gzip": f"zopfli-{ZOPFLI_ITERATIONS}" if zopfli_gzip is not None else "gzip-9",
    "min_size": MIN_SIZE, "min_saving": MIN_SAVING,
}, sort_keys=True)


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"durak_{name}", SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def site_files(root: Path = ROOT) -> list[str]:
    """Every file a page of the site loads (precached or cached on first use), plus EXTRA_FILES that exist."""
    build_sw = _load("build_sw")
    precached = build_sw.precache_files(root)
    files = set(precached) | set(build_sw.on_demand_files(root, precached))
    files.update(path for path in EXTRA_FILES if (root / path).is_file())
    return sorted(files)


def wanted(size: int, encoded: bytes) -> bool:
    """A copy worth serving: its file is large enough, and the copy smaller by at least MIN_SAVING."""
    return size >= MIN_SIZE and len(encoded) <= size * (1 - MIN_SAVING)


def digest(data: bytes) -> str:
    return hashlib.sha256(SETTINGS.encode() + b"\0" + data).hexdigest()


def encode(job: tuple[Path, str]) -> bytes:
    """One copy's bytes (empty for a file too small to be worth one): a job for the process pool."""
    source, suffix = job
    data = source.read_bytes()
    return b"" if len(data) < MIN_SIZE else ENCODERS[suffix](data)


def encode_all(jobs: list[tuple[Path, str]]) -> dict[tuple[Path, str], bytes]:
    """Each job's bytes, encoded on every core: brotli 11 and Zopfli take about 100 s of one core for the
    whole site, so a fresh clone's setup waits for the largest file rather than for the sum. The largest
    files go first, so no core is left with the wasm at the end."""
    jobs = sorted(jobs, key=lambda job: -job[0].stat().st_size)
    if len(jobs) < 2:
        return {job: encode(job) for job in jobs}
    with ProcessPoolExecutor(max_workers=min(len(jobs), os.cpu_count() or 1)) as pool:
        return dict(zip(jobs, pool.map(encode, jobs), strict=True))


def compress(root: Path = ROOT, *, check: bool = False, verbose: bool = False) -> tuple[int, dict[str, int]]:
    """Bring the .br/.gz copies up to date; (number of copies written or removed, bytes per suffix)."""
    state_path = root / STATE
    state: dict[str, str] = json.loads(state_path.read_text(encoding="utf-8")) if state_path.is_file() else {}
    fresh_state: dict[str, str] = {}
    changes = 0
    totals = {"identity": 0, **{suffix: 0 for suffix in SUFFIXES}}
    stale: list[tuple[str, str, str]] = []  # (path, suffix, digest) of the copies to encode
    for path in site_files(root):
        source = root / path
        data = source.read_bytes()
        totals["identity"] += len(data)
        key = digest(data)
        for suffix in SUFFIXES:
            copy = source.with_name(source.name + suffix)
            name = path + suffix
            if state.get(name) == key and copy.is_file():
                fresh_state[name] = key
                totals[suffix] += copy.stat().st_size
                if copy.stat().st_mtime < source.stat().st_mtime:  # the same bytes copied anew (vendor.py)
                    os.utime(copy)  # serve.py sends only copies at least as new as their file
                continue
            if state.get(name) == key + ":skip" and not copy.exists():
                fresh_state[name] = key + ":skip"
                totals[suffix] += len(data)
                continue
            stale.append((path, suffix, key))
    encoded_copies = encode_all([(root / path, suffix) for path, suffix, _ in stale])
    for path, suffix, key in stale:
        source = root / path
        size = source.stat().st_size
        copy = source.with_name(source.name + suffix)
        name = path + suffix
        encoded = encoded_copies[source, suffix]
        if wanted(size, encoded):
            fresh_state[name] = key
            totals[suffix] += len(encoded)
            if copy.is_file() and copy.read_bytes() == encoded:
                continue
            changes += 1
            if verbose or check:
                print(f"{'stale' if check else 'write'}: {name} ({len(encoded) / 1e3:,.0f} kB)")
            if not check:
                partial = copy.with_name(copy.name + ".partial")
                partial.write_bytes(encoded)
                partial.replace(copy)
        else:
            fresh_state[name] = key + ":skip"
            totals[suffix] += size
            if copy.exists():
                changes += 1
                if not check:
                    copy.unlink()
    for name in sorted(set(state) - set(fresh_state)):  # a copy whose source is no longer served
        copy = root / name
        if copy.is_file() and name.endswith(SUFFIXES):
            changes += 1
            if verbose or check:
                print(f"{'extra' if check else 'remove'}: {name}")
            if not check:
                copy.unlink()
    if not check:
        state_path.parent.mkdir(parents=True, exist_ok=True)
        state_path.write_text(json.dumps(fresh_state, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return changes, totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write .br and .gz copies beside the site's large files.")
    parser.add_argument("--root", type=Path, default=ROOT, help="site folder (default: the repo root)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if a copy is stale")
    parser.add_argument("-v", "--verbose", action="store_true", help="name every copy written")
    args = parser.parse_args(argv)
    changes, totals = compress(args.root, check=args.check, verbose=args.verbose)
    sizes = ", ".join(f"{name} {size / 1e6:.2f} MB" for name, size in totals.items())
    if args.check:
        print(f"compressed copies: {'stale' if changes else 'up to date'} ({sizes})")
        return 1 if changes else 0
    print(f"compressed copies: {changes} changes ({sizes})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
