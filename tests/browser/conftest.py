"""Browser tests: Playwright drives Debian's chromium against a live flipwell server.

Words:
- *browser*: one headless chromium for the whole run, launched from /usr/bin/chromium (never a
  downloaded browser; `scripts/install-browser.sh` installs Debian's package when missing).
- *phone*: a browser context sized like a phone (390x844, touch), with its own cookies and local
  storage, like one player's phone at the machine; a test may open several.
- *error guard*: listeners on every page a test opens that record each console error, each
  uncaught exception and each Content-Security-Policy violation (an inline style or script the
  policy blocked, with the directive, file and line that caused it); the test fails if any was
  recorded (no page may log a JavaScript error or break the policy, even in an in-page update).
  A phone the test took offline may log the browser's own network failures, and a phone may
  log the browser's note on a refusal the test expects it to handle (`expect_refusal`);
  nothing else is tolerated (a failed request for a script, a style or the favicon is an
  error too).
- *screenshot*: a full-page PNG under artifacts/screenshots/ (git-ignored), kept for people to
  look at after the run.

The live server is pytest-django's `live_server` (transactional database). Its threads get their
own connections to a SQLite file, not one shared in-memory connection: several phones and a TV
poll at once, and one Django connection used by concurrent request threads corrupts its
transaction state.
"""

from __future__ import annotations

import contextlib
import datetime
import os
import re
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.db.models import F
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Error,
    Page,
    Playwright,
    ViewportSize,
    expect,
    sync_playwright,
)

from flipwell.league import models as m
from flipwell.league.exchange.demo import (
    FINISHED_SEASON_FILE,
    MACHINES,
    DemoLeague,
    create_demo_league,
    demo_season_file,
)
from flipwell.league.models.results import new_revision
from flipwell.league.services.leagues import create_league
from flipwell.league.services.season_files import import_season_file
from tests import factories as f
from tests.browser.helpers import PHONE, SCREENSHOTS, TIMEOUT_MS, screenshot
from tests.browser.night import OFFICIAL, SLUG, create
from tests.browser.playoff_night import FIRST_MEET, LEAGUE

BILLIONS = 1_234_567_000_000
"""Added to every machine score of the `billions` league: 13-digit scores."""

# Playwright's sync API runs an asyncio event loop in the test thread, so Django would refuse
# ORM calls from tests ("You cannot call this from an async context"); nothing here is async.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# What chromium and htmx log when a request fails because the phone has no network.
NETWORK_FAILURE = re.compile(
    r"ERR_INTERNET_DISCONNECTED|ERR_NETWORK_CHANGED|ERR_NAME_NOT_RESOLVED|Failed to fetch"
    r"|NetworkError|htmx:sendError|net::ERR_",
    re.IGNORECASE,
)
# Reports each Content-Security-Policy violation as a console error that says where it came
# from: chromium's own message names neither the file nor the line. Runs before the page's
# scripts, so a violation by htmx or by a swap is caught as well as one in the HTML.
REPORT_CSP_VIOLATIONS = """
document.addEventListener("securitypolicyviolation", (event) => {
  console.error(
    `CSP violation: ${event.violatedDirective} blocked ${event.blockedURI || "an inline"}` +
    ` ${event.sample ? JSON.stringify(event.sample) : ""}` +
    ` at ${event.sourceFile}:${event.lineNumber}`
  );
});
"""
# What chromium logs for any answer with an error status, even one the page handles.
REFUSED = re.compile(r"Failed to load resource: the server responded with a status of (\d+)")

expect.set_options(timeout=TIMEOUT_MS)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(django_db_modify_db_settings_parallel_suffix: None) -> None:
    """A SQLite test database in a file, so each server thread has its own connection.

    IMMEDIATE transactions take the write lock at BEGIN, so two phones writing at once wait
    for each other (up to the timeout) instead of failing with "database is locked".
    """
    from django.conf import settings

    database = settings.DATABASES["default"]
    if database["ENGINE"] != "django.db.backends.sqlite3":
        return
    name = Path(tempfile.gettempdir()) / f"flipwell-browser-tests-{os.getpid()}.sqlite3"
    database.setdefault("TEST", {})["NAME"] = str(name)
    options = database.setdefault("OPTIONS", {})
    options.setdefault("transaction_mode", "IMMEDIATE")
    options.setdefault("timeout", 20)


@pytest.fixture(autouse=True)
def _plain_http_cookies(settings: Any) -> None:
    """The live server speaks plain HTTP: cookies marked Secure would never come back."""
    settings.SESSION_COOKIE_SECURE = False
    settings.CSRF_COOKIE_SECURE = False
    settings.SECURE_SSL_REDIRECT = False
    settings.SECURE_HSTS_SECONDS = 0


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright_driver: Playwright) -> Iterator[Browser]:
    """Debian's chromium, headless, launched once for the whole run."""
    if not CHROMIUM.exists():
        pytest.fail(
            f"{CHROMIUM} is missing: the browser tests drive Debian's chromium. Run "
            "scripts/install-browser.sh (as root; it runs apt-get), then run the tests again. "
            "Never `playwright install`.",
            pytrace=False,
        )
    for stale in SCREENSHOTS.glob("failed-*.png"):  # from an earlier run
        stale.unlink()
    launched = playwright_driver.chromium.launch(
        executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
    )
    yield launched
    launched.close()


@dataclass
class ErrorGuard:
    """Console errors and uncaught exceptions of every page of one test."""

    errors: list[str] = field(default_factory=list)
    tolerated: list[str] = field(default_factory=list)
    offline: set[int] = field(default_factory=set)  # ids of contexts that went offline
    refusals: set[tuple[int, int]] = field(default_factory=set)  # (context id, status)

    def watch(self, page: Page, label: str) -> None:
        """Record `page`'s console errors, uncaught exceptions and Content-Security-Policy
        violations under `label`."""
        page.add_init_script(REPORT_CSP_VIOLATIONS)
        page.on("console", lambda message: self._console(page, label, message))
        page.on("pageerror", lambda error: self.errors.append(f"{label}: uncaught {error}"))

    def set_offline(self, page: Page, offline: bool) -> None:
        """Cut or restore the network of `page`'s phone (its whole context)."""
        if offline:
            self.offline.add(id(page.context))
        page.context.set_offline(offline)

    def expect_refusal(self, page: Page, status: int) -> None:
        """`page`'s phone will get (and handle) an answer `status`: chromium's note of it is
        not a JavaScript error."""
        self.refusals.add((id(page.context), status))

    def check(self) -> None:
        """Fail the test now if any page logged an error."""
        if self.errors:
            found = "\n".join(self.errors)
            self.errors = []
            pytest.fail(f"JavaScript errors on the pages:\n{found}", pytrace=False)

    def _console(self, page: Page, label: str, message: ConsoleMessage) -> None:
        if message.type != "error":
            return
        where = message.location.get("url", "") if message.location else ""
        text = f"{label}: console error {message.text!r} at {where or page.url}"
        offline = id(page.context) in self.offline and NETWORK_FAILURE.search(message.text)
        refused = REFUSED.search(message.text)
        expected = refused and (id(page.context), int(refused[1])) in self.refusals
        (self.tolerated if offline or expected else self.errors).append(text)


@pytest.fixture
def error_guard() -> Iterator[ErrorGuard]:
    """Fails the test at its end when any page it opened logged a JavaScript error."""
    guard = ErrorGuard()
    yield guard
    guard.check()


NewContext = Callable[..., Page]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """Keep each phase's report on the test, so fixtures know at teardown whether it failed."""
    report = yield
    setattr(item, f"report_{report.when}", report)
    return report


@pytest.fixture
def new_page(
    browser: Browser, live_server: Any, error_guard: ErrorGuard, request: pytest.FixtureRequest
) -> Iterator[NewContext]:
    """Opens a page in a new browser context (its own cookies and storage) on the live server.

    `new_page("phone 1")` is a phone (390x844, touch); `viewport=DESKTOP` or `TV` gives a big
    screen. Relative URLs (`page.goto("/")`) go to the live server. When the test fails, each
    page is photographed as artifacts/screenshots/failed-<test>-<label>.png.
    """
    contexts: list[BrowserContext] = []
    pages: list[tuple[str, Page]] = []

    def open_page(label: str, *, viewport: ViewportSize = PHONE) -> Page:
        phone = viewport == PHONE
        context = browser.new_context(
            base_url=live_server.url,
            viewport=viewport,
            is_mobile=phone,
            has_touch=phone,
            locale="en-US",
        )
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        page = context.new_page()
        error_guard.watch(page, label)
        pages.append((label, page))
        return page

    yield open_page
    report = getattr(request.node, "report_call", None)
    if report is not None and report.failed:
        for label, page in pages:
            name = re.sub(r"[^\w.-]+", "-", f"failed-{request.node.name}-{label}")
            with contextlib.suppress(Error):
                screenshot(page, name)
    for context in contexts:
        # The browser may have gone away with a failing test; that test's error says why.
        with contextlib.suppress(Error):
            context.close()


@pytest.fixture
def page(new_page: NewContext) -> Page:
    """One phone."""
    return new_page("phone")


@pytest.fixture
def billions(live_server: object) -> DemoLeague:
    """The demo league (groups of four) whose open meet, the finished season's last (closed)
    meet and the finished season's playoff games have every machine score raised by
    `BILLIONS`: 13-digit scores, in the same order (so the same points; no later ladder depends
    on those two meets, and raising an earlier meet would break the recorded ladders of its
    compensatory games' sums)."""
    demo = create_demo_league(today=datetime.date(2026, 3, 10))
    meets = [
        demo.current_season.meets.get(status=m.Meet.Status.OPEN),
        demo.finished_season.meets.order_by("-number").first(),
    ]
    m.ScoreLine.objects.filter(
        machine_score__isnull=False, submission__game__group__meet__in=meets
    ).update(machine_score=F("machine_score") + BILLIONS)
    m.PlayoffResult.objects.filter(
        machine_score__isnull=False, game__match__playoff_night__season=demo.finished_season
    ).update(machine_score=F("machine_score") + BILLIONS)
    for season in (demo.current_season, demo.finished_season):  # a write gives a new revision
        m.Season.objects.filter(pk=season.pk).update(revision=new_revision())
    return demo


@pytest.fixture
def finished_season(live_server: object) -> m.Season:
    """The finished season, all ten meets closed, with no playoff night yet."""
    official = create(f.UserFactory, username=OFFICIAL)
    league = create_league(name=LEAGUE, slug=SLUG, created_by=official)
    m.Machine.objects.bulk_create(
        m.Machine(league=league, title=title, balls_per_game=balls, location=location)
        for title, balls, location in MACHINES
    )
    return import_season_file(
        league=league,
        name="Winter 2026",
        data=demo_season_file(FINISHED_SEASON_FILE),
        first_meet=FIRST_MEET,
        actor=official,
    )


@pytest.fixture
def demo_league(live_server: object) -> DemoLeague:
    """The demo league as of 10 March 2026: a finished season with its playoffs, a season in
    progress with an open meet."""
    return create_demo_league(today=datetime.date(2026, 3, 10))
