// Makes the memory snapshot that web/pyodide-boot.mjs boots from on later visits.
//
// Started by pyodide-boot.mjs once the page is ready, with {key}. Boots its own Pyodide with
// snapshots on, unpacks web/modules.zip where PyScript would, imports every module in it (pure
// Python: no DOM, no pyscript), then stores the interpreter's memory in Cache Storage under the
// given key, replacing any older snapshot (web/engine-boot.mjs). Answers {ok: true, bytes} or
// {ok: false, error}.

import { INDEX_URL, fetchModules, importModules, loadPyodide, storeSnapshot, unpackModules } from "./engine-boot.mjs";

self.onmessage = async ({ data: { key } }) => {
  try {
    const pyodide = await loadPyodide({ indexURL: INDEX_URL, _makeSnapshot: true });
    const zip = await fetchModules();
    unpackModules(pyodide, zip);
    const failed = importModules(pyodide, zip);
    if (failed.length) throw new Error(`imports failed: ${failed.join("; ")}`);
    const snapshot = pyodide.makeMemorySnapshot();
    await storeSnapshot(key, snapshot);
    self.postMessage({ ok: true, bytes: snapshot.length });
  } catch (error) {
    self.postMessage({ ok: false, error: String((error && error.stack) || error) });
  }
};
