// The interpreter module for PyScript pages (their pyscript.toml: interpreter =
// ".../web/pyodide-lib.mjs"), such as examples/pyscript/: the vendored Pyodide with the site's cut
// standard library and the finder that brings in what it left out (web/worker/stdlib-fallback.mjs), but
// none of the engine worker's boot (no memory snapshot, nothing handed to the service worker).

import { installStdlibFallback, prefetchStdlibArchive } from "./worker/stdlib-fallback.mjs";
import { loadPyodide as loadVendored, version } from "./vendor/pyodide/pyodide.mjs";

export { version };

const INDEX_URL = new URL("./vendor/pyodide/", import.meta.url).href;

export async function loadPyodide(options = {}) {
  const { packages, ...rest } = options;
  const pyodide = await loadVendored({ ...rest, indexURL: INDEX_URL });
  installStdlibFallback(pyodide); // before any package: Pyodide's loader itself imports tarfile
  fetchArchiveBeforePackages(pyodide);
  if (packages?.length) await pyodide.loadPackage(packages);
  return pyodide;
}

// Loading a package imports what the cut library keeps in python_stdlib.packages.zip (tarfile, email,
// ...). PyScript loads micropip with pyodide.loadPackage, so that is where the archive is fetched: once,
// before the first package, through the service worker (prefetchStdlibArchive says why).
function fetchArchiveBeforePackages(pyodide) {
  const loadPackage = pyodide.loadPackage.bind(pyodide);
  let archive = null;
  pyodide.loadPackage = async (...args) => {
    archive ??= prefetchStdlibArchive(pyodide, "packages").catch((error) => {
      console.warn("durak: python_stdlib.packages.zip not fetched ahead:", error);
    });
    await archive;
    return loadPackage(...args);
  };
}
