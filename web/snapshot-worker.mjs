// Makes the memory snapshot that web/pyodide-boot.mjs boots from on later visits.
//
// Started by pyodide-boot.mjs once the page is ready. Boots its own Pyodide with snapshots on,
// unpacks web/modules.zip where PyScript would, imports every module in it (pure Python: no
// DOM, no pyscript), then stores the interpreter's memory in Cache Storage under the given key,
// replacing any older snapshot. Answers {ok: true} or {ok: false, error}.

import { loadPyodide } from "./vendor/pyodide/pyodide.mjs";

const IMPORT_ALL = `
import importlib, zipfile
with zipfile.ZipFile("/tmp/modules.zip") as archive:
    # modules come as sourceless .pyc (as sources only when the build had no Node.js)
    names = sorted({n.rsplit(".", 1)[0].replace("/", ".").removesuffix(".__init__")
                    for n in archive.namelist() if n.endswith((".py", ".pyc"))})
failed = [] if names else ["web/modules.zip holds no module to import"]
for name in names:
    try:
        importlib.import_module(name)
    except Exception as error:
        failed.append(f"{name}: {error!r}")
import os
os.remove("/tmp/modules.zip")
del importlib, zipfile, os, names
globals().pop("name", None)
failed
`;

self.onmessage = async ({ data: { key, indexURL, modulesURL, cacheName } }) => {
  try {
    const pyodide = await loadPyodide({ indexURL, _makeSnapshot: true });
    const response = await fetch(modulesURL);
    if (!response.ok) throw new Error(`${modulesURL}: HTTP ${response.status}`);
    const zip = new Uint8Array(await response.arrayBuffer());
    pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide" });
    pyodide.FS.writeFile("/tmp/modules.zip", zip);
    const failed = pyodide.runPython(IMPORT_ALL).toJs();
    if (failed.length) throw new Error(`imports failed: ${failed.join("; ")}`);
    const snapshot = pyodide.makeMemorySnapshot();
    const cache = await caches.open(cacheName);
    for (const old of await cache.keys()) await cache.delete(old);
    await cache.put(key, new Response(snapshot, { headers: { "Content-Type": "application/octet-stream" } }));
    self.postMessage({ ok: true, bytes: snapshot.length });
  } catch (error) {
    self.postMessage({ ok: false, error: String(error && error.stack || error) });
  }
};
