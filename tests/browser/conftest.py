"""Fixtures for tests in real Chromium (Debian's /usr/bin/chromium) through pytest-playwright.

- One static server per test process (scripts/serve.py, free port on 127.0.0.1; `make test` runs one
  process per core with pytest-xdist, each a session of its own); `base_url` points at it, so
  `page.goto("index.html?seed=1")` works. `pytest --base-url URL` tests another site instead.
- One browser per test process (pytest-playwright's session-scoped `browser`), launched from
  playwright.config.py (with its BEHAVIOUR_TEST_ARGS unless a `timing` test runs in the session); a
  fresh context and page per test, so every test sees a cold load, unless the test is marked `warm`
  (below).
- `@pytest.mark.warm` (or a module's `pytestmark`): the test's `context` is one kept for the whole test
  process, in which the table has been opened once, so its pages load as a returning visitor's do: the
  service worker answers from its cache and the engine starts from its memory snapshot (under a second
  instead of a cold boot's two to four). Between tests its pages are closed and its site storage
  (localStorage, sessionStorage, IndexedDB, cookies, permissions, routes) cleared; the service worker's
  caches and the snapshot stay. For tests whose subject is not the first visit or the boot, and that
  neither change the context for good (init scripts, offline, a locale) nor depend on a cold service worker.
- `page` and `context` are watched: console errors, uncaught page errors, Python tracebacks
  (console output or PyScript's `.py-error` boxes) fail the test. Expected ones can be allowed:
  `page_errors.allow(r"regex")`. Pages of contexts a test makes itself: `page_errors.watch(p)`.
- The `wait_ready` fixture, `wait_ready(page)`, waits for `document.body.dataset.state == "ready"`,
  failing early on collected errors or state "error"; it returns the page's ready time in ms
  (data-ready-ms, else performance.now()). The plain function is `wait_until_ready`.
- Every test in this folder gets the `browser` marker (`pytest -m "not browser"` skips them).
- A test whose tab process crashed ("Target crashed") runs once more, and only then (pytest-rerunfailures;
  the summary counts it as "rerun"). Chromium's renderer died once in CI at a moment no other run
  reproduced (docs/ui.md, "Testing"); any other failure, or a second crash, fails the test.
- Plain helpers (scripts loaded by path, `rebuild()`, `click_a_move(page)`) are in helpers.py.
"""

from __future__ import annotations

import contextlib
import re
import shutil
import time
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, expect
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from .helpers import CONFIG, ROOT, build_sw, rebuild, serve

HERE = Path(__file__).resolve().parent

expect.set_options(timeout=CONFIG.DEFAULT_TIMEOUT_MS)

TRACEBACK = "Traceback (most recent call last)"
PY_ERROR_BOXES_JS = "() => [...document.querySelectorAll('.py-error')].map(e => e.textContent)"


RENDERER_CRASHED = "renderer crashed"
CRASH_ONLY_RERUN = pytest.mark.flaky(reruns=1, only_rerun=["Target crashed", RENDERER_CRASHED])


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if HERE in Path(item.path).parents:
            item.add_marker(pytest.mark.browser)
            item.add_marker(CRASH_ONLY_RERUN)


# --- errors --------------------------------------------------------------------------------


class PageErrors:
    """Console errors, uncaught page errors and Python tracebacks of the watched pages."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.pages: list[Page] = []
        self._allowed: list[str] = []

    def allow(self, pattern: str) -> None:
        """Ignore errors matching this regular expression (re.search) for the rest of the test."""
        self._allowed.append(pattern)

    def watch(self, page: Page) -> None:
        if page in self.pages:
            return
        self.pages.append(page)
        page.on("console", self._on_console)
        page.on("pageerror", lambda error: self._add(page, f"uncaught: {error.stack or error}"))
        page.on("crash", lambda crashed: self._add(crashed, f"{RENDERER_CRASHED} (Chromium's tab process died)"))

    def _add(self, page: Page, text: str) -> None:
        self.errors.append(f"[{page.url}] {text}")

    def _on_console(self, message: ConsoleMessage) -> None:
        text = message.text
        url = message.page.url if message.page else "?"
        if message.type == "error":
            where = message.location
            place = f" ({where['url']}:{where['lineNumber']})" if where and where.get("url") else ""
            self.errors.append(f"[{url}] console.error{place}: {text}")
        elif TRACEBACK in text:
            self.errors.append(f"[{url}] console.{message.type}: {text}")

    def _py_error_boxes(self) -> list[str]:
        found = []
        for page in self.pages:
            if page.is_closed():
                continue
            try:
                boxes: list[str] = page.evaluate(PY_ERROR_BOXES_JS)
            except PlaywrightError:  # navigating or crashed: the events tell the story
                continue
            found += [f"[{page.url}] PyScript error box: {text}" for text in boxes]
        return found

    def unexpected(self, *, scan_dom: bool = True) -> list[str]:
        errors = self.errors + (self._py_error_boxes() if scan_dom else [])
        unique = list(dict.fromkeys(errors))
        return [e for e in unique if not any(re.search(p, e) for p in self._allowed)]

    def check(self, *, scan_dom: bool = True) -> None:
        errors = self.unexpected(scan_dom=scan_dom)
        if errors:
            raise AssertionError("errors in the browser:\n" + "\n".join(f"  {e}" for e in errors))


PAGE_ERRORS = pytest.StashKey[PageErrors]()


@pytest.fixture
def page_errors(request: pytest.FixtureRequest) -> PageErrors:
    errors = PageErrors()
    request.node.stash[PAGE_ERRORS] = errors
    return errors


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, object, object]:
    """Fail the test (not its teardown) when its pages logged errors."""
    result = yield  # a test that failed already raises here, unchanged
    errors = item.stash.get(PAGE_ERRORS, None)
    if errors is not None:
        errors.check()
    return result


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Generator[None, Any, Any]:
    report = yield
    errors = item.stash.get(PAGE_ERRORS, None)
    if call.when == "call" and report.failed and errors is not None and errors.errors:
        report.sections.append(("browser errors", "\n".join(errors.errors)))
    return report


# --- server, browser, context, page --------------------------------------------------------


@pytest.fixture(scope="session")
def site_server() -> Iterator[str]:
    """Serve the repo root on a free port for the whole session; yields the base URL.

    web/modules.zip and sw.js are rebuilt first (as `make setup` does), so the page under test
    runs the Python sources as they are now, even when pytest is run without make.
    """
    rebuild()
    server, url = serve.start_in_background(port=0)
    yield url
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def subpath_url(tmp_path_factory: pytest.TempPathFactory, site_server: str) -> Iterator[str]:
    """A second server whose root holds the site only under games/durak/ (a link to the repo root), as on a
    rules site (https://example.org/games/durak/); yields that folder's URL. After `site_server`, which
    builds the site."""
    top = tmp_path_factory.mktemp("host")
    (top / "games").mkdir()
    (top / "games" / "durak").symlink_to(ROOT, target_is_directory=True)
    server, url = serve.start_in_background(port=0, root=top)
    yield url + "games/durak/"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def base_url(pytestconfig: pytest.Config, request: pytest.FixtureRequest) -> str:
    given = pytestconfig.getoption("base_url", None)
    with contextlib.suppress(ValueError):  # ValueError: no plugin registered the ini key
        given = given or pytestconfig.getini("base_url")
    if given:
        return str(given).rstrip("/") + "/"
    url: str = request.getfixturevalue("site_server")
    return url


def timing_in_session(session: pytest.Session) -> bool:
    """Whether a test that measures time will run in this session (after deselection)."""
    return any(item.get_closest_marker("timing") is not None for item in session.items)


@pytest.fixture(scope="session")
def browser_type_launch_args(
    browser_type_launch_args: dict[str, Any], request: pytest.FixtureRequest
) -> dict[str, Any]:
    """Debian's Chromium; behaviour-only sessions add CONFIG.BEHAVIOUR_TEST_ARGS (timing tests see the
    browser a visitor has)."""
    if not Path(CONFIG.CHROMIUM_PATH).exists():
        pytest.fail(f"{CONFIG.CHROMIUM_PATH} is missing: run `make setup` (never `playwright install`)")
    behaviour_only = [] if timing_in_session(request.session) else CONFIG.BEHAVIOUR_TEST_ARGS
    return {
        "headless": CONFIG.HEADLESS,
        **browser_type_launch_args,  # --headed, --slowmo on the command line still apply
        "executable_path": CONFIG.CHROMIUM_PATH,
        "args": [*CONFIG.CHROMIUM_ARGS, *behaviour_only],
    }


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args: dict[str, Any]) -> dict[str, Any]:
    return {"viewport": dict(CONFIG.VIEWPORT), **browser_context_args}


WARM_UP_PATH = "index.html?speed=instant&lang=en&variant=podkidnoy&players=2&seed=1"
#: Resolves once the page's service worker controls it and the engine's memory snapshot is stored.
WARMED_JS = """async () => navigator.serviceWorker.controller !== null
  && (await caches.has('durak-snapshot')) && (await (await caches.open('durak-snapshot')).keys()).length > 0"""
#: A returning visitor's site storage emptied: what the game saved, and every IndexedDB database.
FORGET_SITE_JS = """async () => {
  localStorage.clear();
  sessionStorage.clear();
  for (const { name } of await indexedDB.databases()) {
    await new Promise((done) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = request.onerror = request.onblocked = done;
    });
  }
}"""
#: A small file of the site to run FORGET_SITE_JS on (same origin, no game booted).
BLANK_PATH = "web/offline/manifest.webmanifest"


def forget_site(context: BrowserContext, base_url: str) -> None:
    """Close the context's pages and clear what a test left: storage, cookies, permissions, routes."""
    for open_page in list(context.pages):
        open_page.close()
    context.unroute_all(behavior="ignoreErrors")
    context.clear_cookies()
    context.clear_permissions()
    blank = context.new_page()
    blank.goto(base_url + BLANK_PATH)
    blank.evaluate(FORGET_SITE_JS)
    blank.close()


@pytest.fixture(scope="session")
def warm_context(browser: Browser, browser_context_args: dict[str, Any], base_url: str) -> Iterator[BrowserContext]:
    """A context where the table was opened once: its service worker installed and its snapshot stored."""
    warm = browser.new_context(**{**browser_context_args, "base_url": base_url})
    page = warm.new_page()
    page.goto(base_url + WARM_UP_PATH, timeout=CONFIG.NAVIGATION_TIMEOUT_MS)
    wait_until_ready(page)
    page.wait_for_function(WARMED_JS, timeout=CONFIG.READY_TIMEOUT_MS, polling=200)
    forget_site(warm, base_url)
    yield warm
    warm.close()


@pytest.fixture
def context(request: pytest.FixtureRequest, new_context: Callable[..., BrowserContext], base_url: str,
            page_errors: PageErrors) -> Iterator[BrowserContext]:
    """A fresh context, or with the `warm` mark the test process's warm one (cleared after the test)."""
    warm = request.node.get_closest_marker("warm") is not None
    chosen: BrowserContext = request.getfixturevalue("warm_context") if warm else new_context()
    chosen.set_default_timeout(CONFIG.DEFAULT_TIMEOUT_MS)
    chosen.set_default_navigation_timeout(CONFIG.NAVIGATION_TIMEOUT_MS)
    chosen.on("page", page_errors.watch)
    yield chosen
    chosen.remove_listener("page", page_errors.watch)
    if warm:
        forget_site(chosen, base_url)


@pytest.fixture
def page(page: Page, page_errors: PageErrors) -> Page:
    page_errors.watch(page)
    return page


# --- waiting for the page ------------------------------------------------------------------

STATE_SETTLED_JS = "() => !!document.body && ['ready', 'error'].includes(document.body.dataset.state)"


def wait_until_ready(page: Page, errors: PageErrors | None = None, timeout_ms: float | None = None) -> float:
    """Wait until document.body.dataset.state is "ready"; return the page's ready time in ms.

    Fails as soon as the page reports state "error" or `errors` has collected any, rather than
    waiting out the timeout.
    """
    timeout_ms = CONFIG.READY_TIMEOUT_MS if timeout_ms is None else timeout_ms
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        if errors is not None:
            errors.check(scan_dom=False)
        remaining_ms = (deadline - time.monotonic()) * 1000
        if remaining_ms <= 0:
            state = page.evaluate("() => document.body && document.body.dataset.state")
            raise AssertionError(f"{page.url}: not ready after {timeout_ms:.0f} ms (data-state={state!r})")
        try:
            page.wait_for_function(STATE_SETTLED_JS, timeout=min(500.0, remaining_ms))
            break
        except PlaywrightTimeoutError:
            continue
    if errors is not None:
        errors.check()
    state = page.evaluate("() => document.body.dataset.state")
    if state != "ready":
        text = page.evaluate("() => document.body.innerText.slice(0, 2000)")
        raise AssertionError(f"{page.url}: data-state={state!r}\n{text}")
    ready_ms: float = page.evaluate("() => Number(document.body.dataset.readyMs || performance.now())")
    return ready_ms


@pytest.fixture
def wait_ready(page_errors: PageErrors) -> Callable[..., float]:
    """`wait_ready(page[, timeout_ms])`: wait_until_ready() bound to this test's error collector."""

    def wait(page: Page, timeout_ms: float | None = None) -> float:
        return wait_until_ready(page, page_errors, timeout_ms)

    return wait


@pytest.fixture
def site_copy(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """The built site (every precached file and sw.js) copied to a temp folder and served there, to
    publish a new release of it without touching the tree the other tests serve."""
    for path in build_sw.precache_files(ROOT):
        target = tmp_path / path
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / path, target)
    build_sw.build(tmp_path)
    server, url = serve.start_in_background(port=0, root=tmp_path)
    yield tmp_path, url
    server.shutdown()
    server.server_close()
