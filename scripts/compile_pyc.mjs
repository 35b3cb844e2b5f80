// Compile Python modules to bytecode with the Python of the vendored Pyodide (Node.js, run by
// scripts/build_zip.py). The page then imports the engine from .pyc files instead of compiling
// some thirty modules on every cold start: about 90 ms less in Pyodide.
//
//     node scripts/compile_pyc.mjs < sources.json > compiled.json
//
// stdin:  {"durak/game.py": "<base64 of the source bytes>", ...}
// stdout: {"cache_tag": "cpython-314", "files": {"durak/game.py": "<base64 of the .pyc>", ...}}
//
// The .pyc files are "unchecked-hash" (PEP 552): the interpreter never compares them with the
// source, whose unpacked files get new timestamps in the browser.

import { loadPyodide } from "../node_modules/pyodide/pyodide.mjs";

const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const sources = JSON.parse(Buffer.concat(chunks).toString("utf8"));

const pyodide = await loadPyodide({
  indexURL: new URL("../node_modules/pyodide/", import.meta.url).pathname,
  stdout: () => {},
  stderr: (line) => process.stderr.write(line + "\n"),
});
pyodide.globals.set("sources_json", JSON.stringify(sources));
const result = pyodide.runPython(`
import base64, json, os, py_compile, sys

def compile_all(sources):
    files = {}
    for relative, data in sources.items():
        path = os.path.join("/build", relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(base64.b64decode(data))
        pyc = py_compile.compile(path, dfile=relative, doraise=True,
                                 invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
        with open(pyc, "rb") as compiled:
            files[relative] = base64.b64encode(compiled.read()).decode()
    return json.dumps({"cache_tag": sys.implementation.cache_tag, "files": files})

compile_all(json.loads(sources_json))
`);
process.stdout.write(result);
