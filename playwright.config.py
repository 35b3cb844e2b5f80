"""Playwright settings shared by tests/browser/ and benchmarks/ (plain constants, no imports).

The file name has dots, so it is loaded by path, not imported:
`runpy.run_path("playwright.config.py")` or importlib's spec_from_file_location (see
tests/browser/conftest.py). `import playwright.config` would find the playwright package instead.

The browser is Debian's Chromium (`make setup` installs the `chromium` package). Never run
`playwright install`: it downloads a browser, which this network refuses.
"""

CHROMIUM_PATH = "/usr/bin/chromium"

# Playwright 1.65's own --disable-features list (its chromiumSwitches): Chromium keeps only the last
# --disable-features it is given, so ours below repeats these names. tests/browser/test_browser_flags.py
# fails if an upgrade of Playwright adds one that ours would drop.
PLAYWRIGHT_DISABLED_FEATURES = [
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning",
    "AvoidCorsURLLoaderRestartOnRedirect", "TcpPortRandomizationWin", "OptimizationHints",
    "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch", "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
]
# Headless Chromium builds the address bar's popup, two WebUI pages in a renderer of their own, for every
# new page: half a second of processor time per page on two cores, a third of a warm table's boot. A
# person's browser builds it once per window, and no page of ours ever shows it.
OMNIBOX_POPUP_FEATURES = ["WebUIOmniboxPopup", "WebUIOmniboxAimPopup"]

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
    "--disable-features=" + ",".join([*PLAYWRIGHT_DISABLED_FEATURES, *OMNIBOX_POPUP_FEATURES]),
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
