"""Playwright settings shared by tests/browser/ and benchmarks/ (plain constants, no imports).

The file name has dots, so it is loaded by path, not imported:
`runpy.run_path("playwright.config.py")` or importlib's spec_from_file_location (see
tests/browser/conftest.py). `import playwright.config` would find the playwright package instead.

The browser is Debian's Chromium (`make setup` installs the `chromium` package). Never run
`playwright install`: it downloads a browser, which this network refuses.
"""

CHROMIUM_PATH = "/usr/bin/chromium"

# Without the background-networking flags Chromium keeps calling hosts this network refuses.
CHROMIUM_ARGS = [
    "--no-sandbox",  # CI runs as root
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",  # small /dev/shm in containers
    # WebRTC between the test's browser contexts (play with friends) over loopback: no STUN, no traffic
    # to any address outside this machine
    "--allow-loopback-in-peer-connection",
]

# Behaviour tests only (tests/browser/conftest.py adds them unless a `timing` test is in the session; the
# benchmarks never do): V8 runs Pyodide's WebAssembly with its baseline compiler alone. Every page of a
# fresh context compiles the interpreter again, and tiering its hot functions up with the optimizing
# compiler cost the renderers about a second and a half of processor time per page on two cores, more
# than the faster code saves in a test's few moves. The results are the same; only the speed differs.
BEHAVIOUR_TEST_ARGS = [
    "--js-flags=--liftoff-only",
]

HEADLESS = True

VIEWPORT = {"width": 1280, "height": 800}

# Milliseconds. A cold Pyodide boot takes 6-9 s on 2 cores (warm reload 3-4 s).
DEFAULT_TIMEOUT_MS = 15_000  # clicks, fills, locators, expect()
NAVIGATION_TIMEOUT_MS = 30_000  # page.goto / reload
READY_TIMEOUT_MS = 60_000  # until document.body.dataset.state == "ready"
