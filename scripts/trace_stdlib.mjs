// Which standard-library modules the site's Python needs, found by running the vendored Pyodide's
// own Python in Node.js (called by scripts/build_stdlib.py).
//
//     node scripts/trace_stdlib.mjs < request.json > modules.json
//
// stdin:  {"roots": ["json", "asyncio", ...], "archives": ["/abs/web/modules.zip"], "wheels": ["/abs/x.whl"]}
// stdout: {"boot": [...], "modules": {"json.decoder": "json/decoder.py", ...}, "failed": {...}}
//
// It boots Pyodide from node_modules/pyodide (the full standard library), notes what the boot itself
// imported, unpacks each archive as PyScript's [files] does (zipfile imports codecs on the way), loads
// each wheel with Pyodide's own package loader (as a page's `packages = [...]` does), then imports every root and every wheel's top-level packages, and then,
// until nothing new comes, the modules of their own packages that the standard-library modules so far
// import inside functions (importlib.metadata's `from . import _adapters`). "modules" is every module
// then in sys.modules whose file is inside the standard library's zip, with that file's path in the
// zip; "failed" the names that could not be imported (names that are not modules, or modules that need
// a browser), with the reason.

import { readFileSync } from "node:fs";
import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const request = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const pyodide = await loadPyodide({
  indexURL: new URL("../node_modules/pyodide/", import.meta.url).pathname,
  stdout: () => {},
  stderr: (line) => process.stderr.write(line + "\n"),
});
const boot = pyodide.runPython("import sys; sorted(sys.modules)").toJs();
for (const archive of request.archives || []) {
  pyodide.unpackArchive(new Uint8Array(readFileSync(archive)), "zip", { extractDir: "/home/pyodide" });
}
const wheelPackages = [];
for (const wheel of request.wheels || []) {
  const bytes = new Uint8Array(readFileSync(wheel));
  await pyodide.loadPackage(wheel, { messageCallback: () => {} }); // as a page's `packages = [...]` does
  pyodide.FS.writeFile("/tmp/wheel.zip", bytes);
  wheelPackages.push(...pyodide.runPython(`
import zipfile
with zipfile.ZipFile("/tmp/wheel.zip") as _wheel:
    _tops = sorted({n.split("/")[0].removesuffix(".py") for n in _wheel.namelist()
                    if not n.split("/")[0].endswith((".dist-info", ".data"))})
_tops
`).toJs());
}
pyodide.globals.set("roots_json", JSON.stringify([...(request.roots || []), ...wheelPackages]));
const result = pyodide.runPython(`
import importlib, json, sys

import ast, zipfile

PREFIX = f"/lib/python{sys.version_info[0]}{sys.version_info[1]}.zip/"
STDLIB = zipfile.ZipFile(PREFIX.rstrip("/"))

def import_all(names, failed):
    for name in names:
        try:
            importlib.import_module(name)
        except BaseException as error:  # SystemExit, a module that needs a browser, a name that is not one
            failed[name] = f"{type(error).__name__}: {error}"

def stdlib_modules():
    found = {}
    for name, module in sorted(sys.modules.items()):
        origin = getattr(getattr(module, "__spec__", None), "origin", None) or ""
        if origin.startswith(PREFIX):
            found[name] = origin[len(PREFIX):]
    return found

def lazy_imports(name, path):
    """The modules of the same top-level package that a standard-library module imports inside its
    functions (from . import _adapters): run only when those functions are, invisible to a trace."""
    package = name if path.endswith("__init__.py") else name.rpartition(".")[0]
    top = name.split(".")[0]
    found = set()
    for node in ast.walk(ast.parse(STDLIB.read(path), path)):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{alias.name}" for alias in node.names)
    return {n for n in found if n.split(".")[0] == top and n != name and not n.startswith(CANNOT_RUN)}

# Lazily imported modules that cannot work in the browser's Pyodide, so are never followed (an import
# of one still works, through the fallback): processes (concurrent.futures' process pool, which would
# bring multiprocessing), Windows code pages, Node.js sockets.
CANNOT_RUN = ("concurrent.futures.process", "multiprocessing", "encodings._win_cp_codecs",
              "pyodide._nodesock_transport")

def computed_imports():
    """Imports under names made at run time, which no import statement shows: sysconfig reads the
    build's data from _sysconfigdata_<abi>_<platform>_<multiarch> when first asked (micropip does)."""
    if "sysconfig" in sys.modules:
        sys.modules["sysconfig"].get_config_vars()

def trace(roots):
    failed = {}
    import_all(roots, failed)
    computed_imports()
    modules, done = stdlib_modules(), set()
    while set(modules) - done:
        todo = sorted(set(modules) - done)
        done |= set(todo)
        import_all(sorted(set().union(*(lazy_imports(n, modules[n]) for n in todo)) - set(modules) - set(failed)), failed)
        computed_imports()
        modules = stdlib_modules()
    return json.dumps({"modules": modules, "failed": failed})

trace(json.loads(roots_json))
`);
const traced = JSON.parse(result);
process.stdout.write(JSON.stringify({ boot, ...traced }));
