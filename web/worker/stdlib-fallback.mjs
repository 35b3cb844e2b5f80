// The finder that keeps the cut standard library (scripts/build_stdlib.py) from breaking a page: the
// last finder of sys.meta_path. A module the cut left out (its _stdlib_cut module names them) is
// imported from one of two archives beside it, mounted on first need:
//
// - python_stdlib.packages.zip: what loading a wheel needs (micropip's email, tarfile, ...), for the
//   pages that do; planned, so silent;
// - python_stdlib.full.zip, Pyodide's own, for anything else, with console.warn("durak: stdlib
//   fallback for <module>"): a miss to add to the next build.
//
// Used by web/worker/engine-boot.mjs (the engine worker) and web/pyodide-lib.mjs (PyScript pages such as examples/pyscript/).

const VENDORED = new URL("../vendor/pyodide/", import.meta.url);
export const PACKAGES_STDLIB_URL = new URL("python_stdlib.packages.zip", VENDORED).href;
export const FULL_STDLIB_URL = new URL("python_stdlib.full.zip", VENDORED).href;

// The bytes at url, synchronously (an import cannot wait): a worker may ask for an ArrayBuffer, a
// page reads the body as x-user-defined text, one byte per character.
function fetchBytesSync(url) {
  const request = new XMLHttpRequest();
  request.open("GET", url, false);
  const inPage = typeof document !== "undefined";
  if (inPage) request.overrideMimeType("text/plain; charset=x-user-defined");
  else request.responseType = "arraybuffer";
  request.send();
  if (request.status !== 200) throw new Error(`${url}: HTTP ${request.status}`);
  if (!inPage) return new Uint8Array(request.response);
  const text = request.responseText;
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i) & 0xff;
  return bytes;
}

const FINDER = `
import sys, zipimport

class StdlibFallback:
    """Imports what the cut standard library left out from the archive that has it."""

    def __init__(self, boot):
        self.boot = boot
        self.mounted = {}

    def archive(self, which):
        if which not in self.mounted:
            self.mounted[which] = self.boot.mount(which)
        return self.mounted[which]

    def find_spec(self, fullname, path=None, target=None):
        try:
            from _stdlib_cut import FOR_PACKAGES, OMITTED
        except ImportError:  # a standard library that was not cut
            return None
        if fullname in FOR_PACKAGES:
            which = "packages"
        elif fullname in OMITTED:
            which = "full"
            self.boot.warn(f"durak: stdlib fallback for {fullname}")
        else:
            return None
        package = fullname.rpartition(".")[0].replace(".", "/")
        return zipimport.zipimporter(self.archive(which) + ("/" + package if package else "")).find_spec(fullname)

if not any(type(finder).__name__ == "StdlibFallback" for finder in sys.meta_path):
    import _durak_stdlib
    sys.meta_path.append(StdlibFallback(_durak_stdlib))
    del _durak_stdlib
del StdlibFallback
`;

const URLS = { packages: PACKAGES_STDLIB_URL, full: FULL_STDLIB_URL };
const archivePath = (which) => `/lib/python_stdlib.${which}.zip`;

// Puts the finder into this Pyodide (idempotent: a restored snapshot may have one).
export function installStdlibFallback(pyodide) {
  pyodide.registerJsModule("_durak_stdlib", {
    warn: (message) => console.warn(message),
    mount: (which) => {
      const target = archivePath(which);
      if (!pyodide.FS.analyzePath(target).exists) pyodide.FS.writeFile(target, fetchBytesSync(URLS[which]));
      return target;
    },
  });
  pyodide.runPython(FINDER);
}

// Fetches an archive the page will need before Python asks for it. A page's synchronous request
// bypasses the service worker (Chromium), so offline it would fail; this one goes through it, which
// keeps a copy on first use and answers from that copy offline.
export async function prefetchStdlibArchive(pyodide, which) {
  const response = await fetch(URLS[which]);
  if (!response.ok) throw new Error(`${URLS[which]}: HTTP ${response.status}`);
  pyodide.FS.writeFile(archivePath(which), new Uint8Array(await response.arrayBuffer()));
}
