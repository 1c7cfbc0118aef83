"""Every main page loads in chromium with no JavaScript error, and is photographed.

The demo league (`create_demo_league`: a finished season with playoffs, a season in progress
with an open meet) gives every page something to show. Each test visits one area's pages and
reports every page that failed, not only the first; screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import Page

from flipwell.league import models as m
from flipwell.league.exchange.demo import DEMO_USERNAME, DemoLeague, create_demo_league
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import (
    DESKTOP,
    PRINT,
    TV,
    console_pages,
    log_in,
    screenshot,
    sheet_path,
    visit_all,
)

TODAY = datetime.date(2026, 3, 10)
ROTATION_MS = 16_000  # past one rotation (12 s) and one refresh (15 s)


def visible_heading(page: Page) -> str:
    """The main heading of the panel the TV shows now."""
    return page.locator("main h1:visible").first.inner_text()


@pytest.fixture
def demo(live_server: object) -> DemoLeague:
    return create_demo_league(today=TODAY)


def public_pages(demo: DemoLeague) -> dict[str, str]:
    slug = demo.league.slug
    meet = demo.current_season.meets.get(status=m.Meet.Status.OPEN)
    player = m.Player.objects.filter(season_entries__season=demo.current_season).first()
    assert player is not None
    return {
        "leagues": "/",
        "standings": f"/leagues/{slug}/",
        "season-finished": f"/leagues/{slug}/seasons/{demo.finished_season.pk}/",
        "meet": f"/leagues/{slug}/meets/{meet.pk}/",
        "player": f"/leagues/{slug}/players/{player.pk}/",
        "playoffs": f"/leagues/{slug}/playoffs/",
        "machines": f"/leagues/{slug}/machines/",
        "maintenance": f"/leagues/{slug}/maintenance/",
    }


def test_public_pages_log_no_javascript_error(
    demo: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    pages = public_pages(demo)
    phone = new_page("public, phone")
    desktop = new_page("public, desktop", viewport=DESKTOP)

    failures = visit_all(phone, pages, prefix="public", suffix="phone")
    failures += visit_all(desktop, pages, prefix="public", suffix="desktop")

    assert not failures, "\n".join(failures)


def test_tv_page_rotates_and_refreshes_with_no_javascript_error(
    demo: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    tv_url = f"/tv/{demo.league.slug}/"
    tv = new_page("tv", viewport=TV)
    tv.clock.install()  # the rotation and the refresh run on timers: fast-forward them

    failures = visit_all(tv, {"tv": tv_url})
    tv.evaluate("window.__notReloaded = true")
    shown = [visible_heading(tv)]
    for turn in range(1, 4):  # three rotations (every 12 s), each with a refresh (15 s)
        with tv.expect_request(lambda request: request.url.endswith(tv_url)):
            tv.clock.run_for(ROTATION_MS)
        tv.wait_for_load_state("networkidle")
        shown.append(visible_heading(tv))
        screenshot(tv, f"tv-turn-{turn}")

    assert not failures, "\n".join(failures)
    assert len(set(shown)) > 1, f"the TV did not rotate: it kept showing {shown[0]!r}"
    assert tv.evaluate("window.__notReloaded === true"), "the TV reloaded the whole page"


def test_print_pages_log_no_javascript_error(
    demo: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    slug = demo.league.slug
    meet = demo.current_season.meets.get(status=m.Meet.Status.OPEN)
    pages = {
        "sheets": f"/print/{slug}/meets/{meet.pk}/sheets/",
        "standings": f"/print/{slug}/standings/",
        "maintenance": f"/print/{slug}/maintenance/",
    }
    paper = new_page("print", viewport=PRINT)
    paper.emulate_media(media="print")

    failures = visit_all(paper, pages, prefix="print")

    assert not failures, "\n".join(failures)


def test_score_sheet_logs_no_javascript_error(
    demo: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    meet = demo.current_season.meets.get(status=m.Meet.Status.OPEN)
    group = meet.groups.order_by("number").first()
    assert group is not None
    phone = new_page("score sheet")

    failures = visit_all(phone, {"sheet": sheet_path(group)}, prefix="scoresheet")

    assert not failures, "\n".join(failures)


def test_console_pages_log_no_javascript_error(
    demo: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    official = new_page("console, phone")
    desktop = new_page("console, desktop", viewport=DESKTOP)
    for page in (official, desktop):
        log_in(page, DEMO_USERNAME, demo.password)
    pages = console_pages(demo)

    failures = visit_all(official, pages, prefix="manage", suffix="phone")
    failures += visit_all(desktop, pages, prefix="manage", suffix="desktop")

    assert len(pages) > 1, f"no console pages found: {pages}"
    assert not failures, "\n".join(failures)


def test_login_page_logs_no_javascript_error(page: Page, error_guard: ErrorGuard) -> None:
    failures = visit_all(page, {"login": "/manage/login/"}, prefix="manage")

    assert not failures, "\n".join(failures)
