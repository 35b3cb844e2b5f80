#!/usr/bin/env python3
"""Cut Pyodide's standard library to what the site imports: web/vendor/pyodide/python_stdlib.zip.

    python scripts/build_stdlib.py [--root DIR] [--check] [--list]

Pyodide's python_stdlib.zip (2.5 MB, 614 entries) holds email, xml, multiprocessing, unittest, ...
that no page of the site imports; every cold visit downloads it before Python can start. This step
writes a smaller one in its place, found from the code, not guessed:

1. Roots: every module named by an import statement anywhere (inside functions too) in the site's
   Python (durak/, web/, rules/, examples/, except the command-line-only modules build_zip leaves
   out); apart from those, what PyScript's own Python package (embedded in its vendored chunks) and
   the wheels vendored beside Pyodide (micropip) import, which only a PyScript page needs.
2. Closure: the vendored Pyodide's own Python, in Node.js (scripts/trace_stdlib.mjs), boots (what
   the boot imports is kept), unpacks web/modules.zip as PyScript does, imports every root, then
   the modules of their own packages that they import inside functions, and records every module
   of the standard library then in sys.modules. A second trace loads the wheels first, with
   Pyodide's package loader, and imports their roots too.
3. python_stdlib.zip holds what the first trace found, as bytecode compiled by the same Python
   (lean, on def lines, unchecked-hash .pyc where the source was, which zipimport reads first: no compiling at
   start-up), stored uncompressed so that HTTP compression (scripts/compress.py) works on the
   whole file, plus `_stdlib_cut.py`, the names left out. python_stdlib.packages.zip holds what
   only the second found (email, tarfile, http.client, importlib.metadata, ... for loading a
   wheel; html for PyScript's package): only PyScript pages (examples/pyscript/) fetch it, when they
   load a package or import one of those.

Pyodide's original is kept as python_stdlib.full.zip (scripts/vendor.py copies it). The finder of
web/worker/stdlib-fallback.mjs (installed by web/worker/engine-boot.mjs and web/pyodide-lib.mjs) mounts
python_stdlib.packages.zip for its modules, and for any other module left out fetches the full one,
mounts it and warns "durak: stdlib fallback for <module>", so the miss shows for the next build.

Quick when done: the traces are cached in .cache/stdlib/ under a digest of the roots, the Pyodide
version, the wheels and the tracer; the archives are deterministic and rewritten only when their
bytes change.
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import importlib.util
import io
import json
import re
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path, PurePosixPath
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS = Path(__file__).resolve().parent
VENDORED = Path("web/vendor/pyodide")
FULL = VENDORED / "python_stdlib.full.zip"
CUT = VENDORED / "python_stdlib.zip"
PACKAGES = VENDORED / "python_stdlib.packages.zip"
OMITTED_MODULE = "_stdlib_cut"  # the names left out, for the fallback finder
PYSCRIPT = Path("web/vendor/pyscript")
SITE_PYTHON = ("durak", "web", "rules", "examples")
TRACER = SCRIPTS / "trace_stdlib.mjs"
CACHE = ROOT / ".cache" / "stdlib"
FIXED_TIME = (2020, 1, 1, 0, 0, 0)

# A Python file embedded in a JavaScript chunk: "context.py":"import js\nfrom ..."
PY_FILE_IN_JS = re.compile(r'"([\w/]+\.py)":"((?:[^"\\]|\\.)*)"')
# An import line inside a JavaScript string ("...\nimport js, json\nfrom pyscript.x import y...").
PY_IN_JS = re.compile(
    r"(?:^|\\n|\n|;|[\"'`])\s*"
    r"(?:from\s+([A-Za-z_][\w.]*)\s+import\b|import\s+([A-Za-z_][\w.]*(?:\s*,\s*[A-Za-z_][\w.]*)*))"
)


class StdlibError(Exception):
    pass


def _load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"durak_{name}", SCRIPTS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


build_zip = _load("build_zip")


# --- roots -----------------------------------------------------------------------------------------


def imported_names(source: str | bytes, filename: str = "<source>") -> set[str]:
    """Every absolute module an import statement names, at any depth; for `from a import b`, both a
    and a.b (b may be a submodule: the trace keeps it only if it is one)."""
    names: set[str] = set()
    for node in ast.walk(ast.parse(source, filename)):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names if alias.name != "*")
    return names


def site_python(root: Path) -> list[Path]:
    """The site's own Python files: what the pages load, not the command line's."""
    left_out = {root / path for path in build_zip.COMMAND_LINE_ONLY}
    found = []
    for folder in SITE_PYTHON:
        for path in sorted((root / folder).rglob("*.py")):
            relative = path.relative_to(root)
            if "__pycache__" in relative.parts or relative.parts[:2] == ("web", "vendor") or path in left_out:
                continue
            found.append(path)
    return found


def pyscript_imports(root: Path) -> set[str]:
    """The modules that PyScript's own Python package (pyscript/*.py, which it writes into the
    interpreter at start) imports, read from the files embedded in its vendored chunks. Not the
    one-off snippets of features the site does not use (a .tar.gz in [files] would run
    `import os, gzip, tarfile`): a module one of those needs comes through the fallback, with a warning."""
    names: set[str] = set()
    for chunk in sorted((root / PYSCRIPT).glob("*.js")):
        for filename, literal in PY_FILE_IN_JS.findall(chunk.read_text(encoding="utf-8")):
            source = json.loads(f'"{literal}"')
            try:
                names |= imported_names(source, filename)
            except SyntaxError:  # newer syntax than this Python's: read the import lines
                for match in PY_IN_JS.finditer(source):
                    names.update([match[1]] if match[1] else (part.strip() for part in match[2].split(",")))
    return names


def wheels(root: Path) -> list[Path]:
    return sorted((root / VENDORED).glob("*.whl"))


def wheel_imports(wheel: Path) -> set[str]:
    names: set[str] = set()
    with zipfile.ZipFile(wheel) as archive:
        for name in archive.namelist():
            if name.endswith(".py"):
                names |= imported_names(archive.read(name), f"{wheel.name}/{name}")
    return names


def site_roots(root: Path) -> list[str]:
    """What the site's own Python imports."""
    return sorted(set().union(*(imported_names(path.read_bytes(), str(path)) for path in site_python(root))))


def package_roots(root: Path) -> list[str]:
    """What PyScript's package and the wheels a PyScript page may load (micropip) import: only such pages
    need them, and they install the durak wheel with micropip, so fetch python_stdlib.packages.zip anyway."""
    wheel_names = set().union(*(wheel_imports(wheel) for wheel in wheels(root)))
    return sorted(wheel_names | pyscript_imports(root))


def roots(root: Path) -> list[str]:
    return sorted({*site_roots(root), *package_roots(root)})


# --- the trace -------------------------------------------------------------------------------------


def pyodide_version() -> str:
    package = ROOT / "node_modules" / "pyodide" / "package.json"
    if not package.is_file():
        raise StdlibError("node_modules/pyodide is missing: run `make setup`")
    return str(json.loads(package.read_text(encoding="utf-8"))["version"])


def trace(root: Path, names: list[str], wheel_files: list[Path]) -> dict[str, str]:
    """{module: its file in the standard library's zip} of everything the roots need (the wheels
    loaded first), cached."""
    if shutil.which("node") is None:
        raise StdlibError("Node.js is missing: run `make setup`")
    archives = [str(root / archive) for archive in (build_zip.ARCHIVE, build_zip.FEATURES_ARCHIVE)
                if (root / archive).is_file()]
    digest = hashlib.sha256(TRACER.read_bytes())
    digest.update(json.dumps([pyodide_version(), names, len(archives)]).encode())
    for wheel in wheel_files:
        digest.update(wheel.read_bytes())
    cached = CACHE / f"{digest.hexdigest()[:24]}.json"
    if cached.is_file():
        modules: dict[str, str] = json.loads(cached.read_text(encoding="utf-8"))
        return modules
    request = json.dumps({"roots": names, "archives": archives, "wheels": [str(path) for path in wheel_files]})
    run = subprocess.run(["node", str(TRACER)], input=request, capture_output=True, text=True, check=False)
    if run.returncode != 0:
        raise StdlibError(f"{TRACER.name} failed:\n{run.stderr[-3000:]}")
    modules = json.loads(run.stdout)["modules"]
    CACHE.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(modules, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    return modules


# --- the archives ----------------------------------------------------------------------------------


def module_name(path: str) -> str | None:
    """The dotted name of a .py file in the standard library's zip ("json/__init__.py" -> "json")."""
    if not path.endswith(".py"):
        return None
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts.pop()
    # not always identifiers: sysconfig imports "_sysconfigdata__emscripten_wasm32-emscripten" by name
    return ".".join(parts) if parts and all(parts) and not any("." in part for part in parts) else None


def first_misses(names: set[str], kept: set[str]) -> set[str]:
    """Of modules left out, those whose import reaches the fallback finder: a top-level one, or one in a
    package the cut kept. A submodule of a package left out is found beside its package, once that is
    imported from the archive that holds them both, before the finder is asked."""
    return {name for name in names if "." not in name or name.rpartition(".")[0] in kept}


def names_source(omitted: set[str], for_packages: set[str]) -> bytes:
    lines = [
        '"""Standard-library modules that scripts/build_stdlib.py left out of this archive, for the finder',
        "of web/worker/stdlib-fallback.mjs: FOR_PACKAGES come from python_stdlib.packages.zip (what loading a",
        "wheel needs), the other OMITTED from Pyodide's full python_stdlib.full.zip, with a warning.\"\"\"",
        "",
        "OMITTED = frozenset({",
        *(f"    {name!r}," for name in sorted(omitted)),
        "})",
        "FOR_PACKAGES = frozenset({",
        *(f"    {name!r}," for name in sorted(for_packages)),
        "})",
        "",
    ]
    return "\n".join(lines).encode()


def zip_of_bytecode(sources: dict[Path, bytes]) -> bytes:
    """A deterministic stored zip of these modules as lean bytecode, where zipimport reads it first
    (json/decoder.pyc where json/decoder.py was)."""
    compiled = build_zip.bytecode(sources, lean=True, def_lines=True)
    if len(compiled) != len(sources):
        raise StdlibError("Node.js or node_modules/pyodide is missing: the cut archive needs bytecode")
    members = {relative.as_posix(): data for relative, data in compiled.items()}
    folders = sorted({str(PurePosixPath(name).parent) + "/" for name in members} - {"./"})
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression=zipfile.ZIP_STORED) as archive:
        for name in folders + sorted(members):
            info = zipfile.ZipInfo(name, date_time=FIXED_TIME)
            info.external_attr = (0o40755 << 16 | 0x10) if name.endswith("/") else 0o644 << 16
            archive.writestr(info, b"" if name.endswith("/") else members[name])
    return buffer.getvalue()


def archives(root: Path) -> tuple[dict[Path, bytes], dict[str, int]]:
    """({path: bytes} of the cut archive and of the one for loading wheels, figures about them)."""
    full_path = root / FULL
    if not full_path.is_file():
        raise StdlibError(f"{FULL} is missing: run scripts/vendor.py first (make setup does)")
    with zipfile.ZipFile(full_path) as full:
        files = {info.filename: full.read(info) for info in full.infolist() if not info.is_dir()}
    full_names = {name for name in map(module_name, files) if name}
    site = trace(root, site_roots(root), [])
    everything = trace(root, roots(root), wheels(root))
    site_files = set(site.values())
    package_files = set(everything.values()) - site_files
    missing = sorted(path for path in site_files | package_files if path not in files)
    if missing:
        raise StdlibError(f"the trace names files that {FULL} lacks: {missing[:5]}")
    kept = {name for name in map(module_name, site_files) if name}
    for_packages = {name for name in map(module_name, package_files) if name}
    sources = {Path(path): files[path] for path in sorted(site_files)}
    sources[Path(f"{OMITTED_MODULE}.py")] = names_source(first_misses(full_names - kept, kept),
                                                         first_misses(for_packages, kept))
    built = {CUT: zip_of_bytecode(sources),
             PACKAGES: zip_of_bytecode({Path(path): files[path] for path in sorted(package_files)})}
    figures = {"modules": len(kept), "package_modules": len(for_packages), "full_modules": len(full_names),
               "full_bytes": full_path.stat().st_size}
    return built, figures


def build(root: Path = ROOT, *, check: bool = False) -> tuple[bool, dict[str, int]]:
    """Write the archives whose bytes differ; (changed, figures)."""
    built, figures = archives(root)
    changed = False
    for relative, data in built.items():
        figures[f"bytes {relative.name}"] = len(data)
        target = root / relative
        if target.is_file() and target.read_bytes() == data:
            continue
        changed = True
        if not check:
            partial = target.with_name(target.name + ".partial")
            partial.write_bytes(data)
            partial.replace(target)
    return changed, figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Cut Pyodide's standard library to what the site imports.")
    parser.add_argument("--root", type=Path, default=ROOT, help="site folder (default: the repo root)")
    parser.add_argument("--check", action="store_true", help="write nothing; exit 1 if the archive is stale")
    parser.add_argument("--list", action="store_true", help="print the modules kept")
    args = parser.parse_args(argv)
    try:
        changed, figures = build(args.root, check=args.check)
    except StdlibError as error:
        print(f"build_stdlib.py: {error}", file=sys.stderr)
        return 1
    if args.list:
        with zipfile.ZipFile(args.root / CUT) as archive:
            print("\n".join(n for n in archive.namelist() if not n.endswith("/")))
    state = ("stale" if changed else "up to date") if args.check else ("written" if changed else "up to date")
    print(f"{CUT}: {state} ({figures['modules']} of {figures['full_modules']} modules, "
          f"{figures['bytes python_stdlib.zip'] / 1e6:.2f} MB; {figures['package_modules']} more for loading "
          f"wheels in {PACKAGES.name}, {figures['bytes python_stdlib.packages.zip'] / 1e6:.2f} MB; "
          f"the full one {figures['full_bytes'] / 1e6:.2f} MB)")
    return 1 if args.check and changed else 0


if __name__ == "__main__":
    sys.exit(main())
