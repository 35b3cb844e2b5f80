// Compile Python modules to bytecode with the Python of the vendored Pyodide (Node.js, run by
// scripts/build_zip.py). The page then imports the engine from .pyc files instead of compiling
// some thirty modules on every cold start: about 90 ms less in Pyodide.
//
//     node scripts/compile_pyc.mjs [--lean] [--def-lines] < sources.json > compiled.json
//
// stdin:  {"durak/game.py": "<base64 of the source bytes>", ...}
// stdout: {"cache_tag": "cpython-314", "files": {"durak/game.py": "<base64 of the .pyc>", ...}}
//
// The .pyc files are "unchecked-hash" (PEP 552): the interpreter never compares them with the
// source, whose unpacked files get new timestamps in the browser.
//
// --lean (the cut standard library, scripts/build_stdlib.py): without docstrings (as `python -OO` has
// them; asserts stay) and without column positions in tracebacks (PYTHONNODEBUGRANGES), a third
// smaller. Pyodide's own packages (_pyodide, pyodide) keep their docstrings: it reads some at boot.
//
// --def-lines (the cut standard library): every instruction of a function (or class body, or module)
// is put on the line where it starts, a line table of two bytes per eight instructions that gzip
// shrinks to almost nothing: about 128 kB less of a first visit with gzip. A traceback through the standard library
// still names each file and function, with the `def` line; the site's own modules keep their lines.

import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const sources = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const lean = process.argv.includes("--lean");
const defLines = process.argv.includes("--def-lines");
const pyodide = await loadPyodide({
  indexURL: new URL("../node_modules/pyodide/", import.meta.url).pathname,
  env: lean ? { PYTHONNODEBUGRANGES: "1" } : {},
  stdout: () => {},
  stderr: (line) => process.stderr.write(line + "\n"),
});
pyodide.globals.set("sources_json", JSON.stringify(sources));
pyodide.globals.set("lean", lean);
pyodide.globals.set("def_lines", defLines);
const result = pyodide.runPython(`
import ast, base64, json, marshal, os, py_compile, sys

KEEP_DOCSTRINGS = ()

def without_docstrings(source, relative):
    tree = ast.parse(source, relative)
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                node.body = node.body[1:] or [ast.copy_location(ast.Pass(), first)]
    return tree

NO_COLUMNS = 13  # a line table entry's code: a line (as a signed varint delta), no column positions

def on_def_lines(code):
    """code, and every code object among its constants, with all instructions on code.co_firstlineno:
    one entry per eight code units, each a zero line delta."""
    table = bytearray()
    units = len(code.co_code) // 2
    while units:
        run = min(8, units)
        table += bytes([0x80 | NO_COLUMNS << 3 | (run - 1), 0])
        units -= run
    consts = tuple(on_def_lines(c) if isinstance(c, type(code)) else c for c in code.co_consts)
    return code.replace(co_linetable=bytes(table), co_consts=consts)

def compile_all(sources, lean, def_lines):
    files = {}
    for relative, data in sources.items():
        path = os.path.join("/build", relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        source = base64.b64decode(data)
        with open(path, "wb") as out:
            out.write(source)
        pyc = py_compile.compile(path, dfile=relative, doraise=True,
                                 invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        stripped = lean and not relative.startswith(KEEP_DOCSTRINGS)
        if stripped or def_lines:
            code = compile(without_docstrings(source, relative) if stripped else source, relative, "exec",
                           dont_inherit=True)
            if def_lines:
                code = on_def_lines(code)
            with open(pyc, "rb") as compiled:
                header = compiled.read(16)  # magic, flags, source hash: as py_compile wrote them
            with open(pyc, "wb") as compiled:
                compiled.write(header + marshal.dumps(code))
        with open(pyc, "rb") as compiled:
            files[relative] = base64.b64encode(compiled.read()).decode()
    return json.dumps({"cache_tag": sys.implementation.cache_tag, "files": files})

compile_all(json.loads(sources_json), lean, def_lines)
`);
process.stdout.write(result);
