#!/usr/bin/env python3
"""Write the offline service worker sw.js (git-ignored) at the site root, from the real files.

    python scripts/build_sw.py [--root DIR] [--list]

The files to precache are found, not listed by hand: starting from index.html, every local URL
the page names (script src, link href, a py script's config), then what those files name in
turn: a PyScript config's interpreter and [files] sources, the web manifest's icons, a CSS file's
url(...)s, a JavaScript module's imports, dynamic imports and `new URL("…", import.meta.url)`s
(a URL ending in "/" is the whole folder). PyScript chunks that serve only features this page
does not use (see OPTIONAL_CHUNK) are left out; tests/browser/offline/test_offline.py checks that a
real load asks for nothing outside the list.

Each file is hashed (SHA-256, 16 hex digits in sw.js, which the worker checks after download);
the release VERSION hashes all of them with scripts/sw.template.js, so any change to a file
gives a new cache that replaces the old one. Run after scripts/vendor.py and
scripts/build_zip.py (`make setup` does). Rewritten only when it changes. Stdlib only.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import re
import sys
import tomllib
from html.parser import HTMLParser
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlsplit

ROOT = Path(__file__).resolve().parent.parent
TEMPLATE = Path(__file__).resolve().parent / "sw.template.js"
COMPRESSOR = Path(__file__).resolve().parent / "compress.py"
OUTPUT = "sw.js"
# The site's pages, one line each (glob patterns; a pattern that matches nothing yet is skipped,
# index.html must exist): every file they load is found from them. A new page joins by a line here.
PAGES = (
    "index.html",
    "rules/index.html",
    "rules/*/*.html",
    "embed.html",
    "web/worker/engine-worker.mjs",  # the engine worker, with what it imports and fetches
    "web/worker/engine-shared-worker.mjs",  # the embeds' shared engine (docs/embed.md), likewise
)
ENTRY = PAGES[0]
# Files fetched only when needed, cached by the worker when they are (never precached): the parts of
# the standard library that web/worker/stdlib-fallback.mjs mounts when a module left out of the cut one is
# imported (scripts/build_stdlib.py): what loading a wheel needs, and Pyodide's full one.
ON_DEMAND = ("web/vendor/pyodide/python_stdlib.packages.zip", "web/vendor/pyodide/python_stdlib.full.zip")
# Files a page loads only for something few visitors do, left out of the precache to keep a first visit
# small; the worker caches each (and what it loads in turn, unless precached anyway) the first time it is
# fetched, so it works offline from then on: the PyScript example (examples/pyscript/, for developers
# who put the engine in their own page: PyScript's chunks, its config, micropip and the wheel it installs;
# the site's own pages load no PyScript. Offline it still lacks the standard library's extra modules,
# which its page reads by synchronous XHR), the four-colour deck (web/shared/cards.css draws the classic one
# beneath it, so a deck never fetched shows the classic pictures offline), the QR codes' library and
# reader (an invite's code, a friend's reply read from the camera: of use only with a network), the
# signalling relays' client (play with friends through relays, which needs the network anyway) and the
# worked examples' frames, which only embed.html fetches (by id and language: an embed seen once plays
# offline; the rules pages carry their examples inline). Glob patterns, as in PAGES.
DEFERRED = (
    "rules/frames/*/*.json",
    "examples/pyscript/index.html",
    "dist/durak-*.whl",
    "web/vendor/deck/four-colour/*.svg",
    "web/vendor/qr/jsQR.js",
    "web/vendor/qr/qrcode.mjs",
    "web/friends/relay.js",
)
# In a folder a module loads from as it needs (Pyodide's), the files a runtime fetches; not the
# compressed copies beside them (scripts/compress.py), wheels (a page's packages are named by its
# config) nor licence texts.
RUNTIME_SUFFIXES = (".mjs", ".js", ".wasm", ".zip", ".json")
PYODIDE_LOCK = "web/vendor/pyodide/pyodide-lock.json"

# Chunks of @pyscript/core for features this page does not use: the code editor (codemirror),
# the terminal (xterm), the package graph (only with `packages = [...]`) and the zip.js
# library (MicroPython archives). PyScript imports them only when a page uses those features.
OPTIONAL_CHUNK = re.compile(r"^(codemirror|xterm|pyodide_graph|zip)[-_]")
# The same for the deferred pages, less the package graph: the PyScript example's config lists packages.
DEFERRED_OPTIONAL_CHUNK = re.compile(r"^(codemirror|xterm|zip)[-_]")

JS_IMPORT = re.compile(r"""(?:\bimport\s*\(\s*|\bfrom\s*|\bimport\s*)(["'])([^"'\n]+)\1""")
JS_URL = re.compile(r"""\bnew\s+URL\s*\(\s*(["'])([^"'\n]+)\1\s*,\s*import\.meta\.url\s*\)""")
CSS_REFERENCE = re.compile(r"""url\(\s*(["']?)([^"')]+)\1\s*\)""")


class BuildError(Exception):
    pass


class _References(HTMLParser):
    """Local URLs an HTML page loads: script src, link href, a py script's config."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        named = {name: value for name, value in attrs if value}
        if tag == "script":
            self.found += [named[key] for key in ("src", "config") if key in named]
        elif tag == "link" and "href" in named:
            rel = set((named.get("rel") or "").lower().split())
            if rel & {"stylesheet", "icon", "manifest", "modulepreload", "preload", "apple-touch-icon"}:
                self.found.append(named["href"])


def local_path(reference: str, base: PurePosixPath) -> PurePosixPath | None:
    """The site path a reference names from a file in folder `base`, or None when not local."""
    parts = urlsplit(reference)
    if parts.scheme or parts.netloc or not parts.path or reference.startswith("#"):
        return None
    path = unquote(parts.path)
    joined = PurePosixPath(path.lstrip("/")) if path.startswith("/") else base / path
    resolved: list[str] = []
    for part in joined.parts:
        if part == "..":
            if not resolved:
                raise BuildError(f"{reference!r} (from {base}/) leaves the site")
            resolved.pop()
        elif part not in (".", ""):
            resolved.append(part)
    folder = "/" if path.endswith("/") else ""
    return PurePosixPath("/".join(resolved) + folder) if resolved else None


def references(root: Path, path: PurePosixPath) -> list[str]:
    """The raw references a file makes, by file type."""
    suffix = path.suffix.lower()
    if suffix not in (".html", ".htm", ".toml", ".webmanifest", ".css", ".js", ".mjs"):
        return []
    text = (root / path).read_text(encoding="utf-8")
    if suffix in (".html", ".htm"):
        parser = _References()
        parser.feed(text)
        return parser.found
    if suffix == ".toml":
        config = tomllib.loads(text)
        found = list(config.get("files", {}))
        interpreter = config.get("interpreter")
        if isinstance(interpreter, str):
            found.append(interpreter)
            if interpreter.endswith("/pyodide.mjs"):  # Pyodide loads the rest from its folder
                found.append(interpreter.rsplit("/", 1)[0] + "/")
        found += package_files(root, path, config.get("packages", []))
        return found
    if suffix == ".webmanifest":
        return [icon["src"] for icon in json.loads(text).get("icons", [])]
    if suffix == ".css":
        return [match[1] for match in CSS_REFERENCE.findall(text) if not match[1].startswith("data:")]
    if suffix in (".js", ".mjs"):
        found = [match[1] for pattern in (JS_IMPORT, JS_URL) for match in pattern.findall(text)]
        return [ref for ref in found if ref.startswith(("./", "../", "/"))]  # not bare npm names
    return []


def package_files(root: Path, config: PurePosixPath, packages: object) -> list[str]:
    """A PyScript config's `packages` (e.g. micropip, vendored beside Pyodide): their files and their
    dependencies' as named by the vendored lock, as references from the config's folder."""
    if not isinstance(packages, list) or not packages:
        return []
    lock = json.loads((root / PYODIDE_LOCK).read_text(encoding="utf-8"))["packages"]
    folder = PurePosixPath(PYODIDE_LOCK).parent
    names = [re.split(r"[=<>!~ ]", str(name), maxsplit=1)[0] for name in packages]
    found: list[str] = []
    while names:
        name = names.pop()
        entry = lock.get(name) if not name.startswith(("./", "../", "/", "http")) else None
        if entry is None or any(ref.endswith("/" + entry["file_name"]) for ref in found):
            continue
        target = folder / entry["file_name"]
        found.append("/".join([".."] * len(config.parent.parts) + [str(target)]))
        names += entry.get("depends", [])
    return found


def pages(root: Path = ROOT) -> list[PurePosixPath]:
    """The pages of PAGES that exist, in that order."""
    found: list[PurePosixPath] = []
    for pattern in PAGES:
        for match in sorted(root.glob(pattern)):
            page = PurePosixPath(match.relative_to(root).as_posix())
            if match.is_file() and page not in found:
                found.append(page)
    return found


def page_files(root: Path, page: PurePosixPath, skip: tuple[str, ...] = ON_DEMAND + DEFERRED,
               optional: re.Pattern[str] = OPTIONAL_CHUNK) -> set[PurePosixPath]:
    """Every site path one page loads, itself included, except what `skip` names (nor what only it loads)
    and the PyScript chunks `optional` matches."""
    seen: set[PurePosixPath] = set()
    queue = [page]
    while queue:
        path = queue.pop()
        if path in seen:
            continue
        file = root / path
        if not file.is_file():
            raise BuildError(f"{path} is named but missing (run `make setup`?)")
        seen.add(path)
        for reference in references(root, path):
            target = local_path(reference, path.parent)
            # sw.js: the browser checks it itself
            if target is None or str(target) == OUTPUT or any(target.match(p) for p in skip):
                continue
            if str(target).endswith("/") or (root / target).is_dir():
                folder = root / target
                if not folder.is_dir():
                    raise BuildError(f"{path} names the folder {target}, which is missing")
                queue += [PurePosixPath(p.relative_to(root).as_posix()) for p in sorted(folder.iterdir())
                          if p.is_file() and p.name.endswith(RUNTIME_SUFFIXES)
                          and not any(PurePosixPath(p.relative_to(root).as_posix()).match(s) for s in skip)]
            elif not optional.match(target.name) or path.suffix not in (".js", ".mjs"):
                queue.append(target)
    return seen


def precache_files(root: Path = ROOT) -> list[str]:
    """Every site path the pages (PAGES) load, sorted. A page other than index.html that names a
    missing file (one being written) is left out with a warning rather than failing the build."""
    if not (root / ENTRY).is_file():
        raise BuildError(f"{ENTRY} is missing")
    seen: set[PurePosixPath] = set()
    for page in pages(root):
        try:
            seen |= page_files(root, page)
        except BuildError as error:
            if str(page) == ENTRY:
                raise
            print(f"build_sw.py: {page} left out of the precache: {error}", file=sys.stderr)
    return sorted(str(p) for p in seen)


def on_demand_files(root: Path = ROOT, precached: list[str] | None = None) -> list[str]:
    """ON_DEMAND, the DEFERRED files and what they load that is not precached, sorted: the files the worker
    caches when they are first fetched. A deferred file that does not exist is left out."""
    precached_set = set(precache_files(root) if precached is None else precached)
    found = {path for path in ON_DEMAND if (root / path).is_file()}
    for path in deferred(root):
        found |= {str(p) for p in page_files(root, path, ON_DEMAND, DEFERRED_OPTIONAL_CHUNK)}
    return sorted(found - precached_set)


def deferred(root: Path = ROOT) -> list[PurePosixPath]:
    """The files DEFERRED names that exist."""
    return sorted({PurePosixPath(match.relative_to(root).as_posix())
                   for pattern in DEFERRED for match in root.glob(pattern) if match.is_file()})


def file_hash(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()[:16]


def compression_settings() -> bytes:
    """What the .br/.gz copies beside the files depend on besides the files themselves: the code of
    scripts/compress.py and the versions of its compressors. In the release's version, so that new
    compressed copies (which a host may serve) make a new release, as a changed file does."""
    versions = []
    for package in ("brotli", "zopfli"):
        try:
            versions.append(f"{package} {importlib.metadata.version(package)}")
        except importlib.metadata.PackageNotFoundError:
            versions.append(f"{package} -")
    return COMPRESSOR.read_bytes() + "\n".join(versions).encode()


def render(root: Path = ROOT) -> tuple[str, str, dict[str, str]]:
    """(sw.js text, version, {path: hash})."""
    files = {path: file_hash(root / path) for path in precache_files(root)}
    on_demand = {path: file_hash(root / path) for path in on_demand_files(root, list(files))}
    template = TEMPLATE.read_text(encoding="utf-8")
    digest = hashlib.sha256(template.encode())
    digest.update(compression_settings())
    for path, value in files.items():
        digest.update(f"{path} {value}\n".encode())
    for path, value in on_demand.items():
        digest.update(f"on demand {path} {value}\n".encode())
    version = digest.hexdigest()[:12]
    header = (
        "// Generated by scripts/build_sw.py from scripts/sw.template.js: do not edit.\n"
        f"const VERSION = {json.dumps(version)};\n"
        f"const FILES = {json.dumps(files, indent=1)};\n"
        f"const ON_DEMAND = {json.dumps(on_demand, indent=1)};\n\n"
    )
    return header + template, version, files


def build(root: Path = ROOT) -> tuple[bool, str, dict[str, str]]:
    """Write root/sw.js when it changes; return (changed, version, files)."""
    text, version, files = render(root)
    target = root / OUTPUT
    if target.is_file() and target.read_text(encoding="utf-8") == text:
        return False, version, files
    partial = target.with_name(target.name + ".partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(target)
    return True, version, files


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Write sw.js, the offline service worker.")
    parser.add_argument("--root", type=Path, default=ROOT, help="site folder (default: the repo root)")
    parser.add_argument("--list", action="store_true", help="also print the precached files")
    args = parser.parse_args(argv)
    try:
        changed, version, files = build(args.root)
    except (BuildError, OSError, ValueError, KeyError) as error:
        print(f"build_sw.py: {error}", file=sys.stderr)
        return 1
    if args.list:
        print("\n".join(files))
    size = sum((args.root / path).stat().st_size for path in files)
    state = "written" if changed else "up to date"
    print(f"{OUTPUT}: {state}, version {version} ({len(files)} files, {size / 1e6:.1f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
