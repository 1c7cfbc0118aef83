"""Every main page loads in chromium with no JavaScript error and no Content-Security-Policy
violation, also when it updates itself in place (htmx swaps), and is photographed.

The demo league (`create_demo_league`: a finished season with playoffs, a season in progress
with an open meet) gives every page something to show. Each test visits one area's pages and
reports every page that failed, not only the first; screenshots go to artifacts/screenshots/,
each page type at a phone's size (390x844) and a desktop's (1280x800), the TV at its own too.
"""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import Page, expect

from flipwell.league import models as m
from flipwell.league.exchange.demo import DEMO_USERNAME, DemoLeague
from flipwell.league.services.meets.start import start_meet
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import (
    DESKTOP,
    PRINT,
    SIZES,
    TV,
    audit,
    console_pages,
    log_in,
    public_pages,
    screenshot,
    sheet_path,
    visit,
    visit_all,
    visit_all_sizes,
)
from tests.browser.night import (
    board_group,
    build_league,
    choose_machine,
    confirm_scores,
    enter_scores,
    shows,
)

TODAY = datetime.date(2026, 3, 10)
BOARD_REFRESH_MS = 11_000  # the open meet's board refreshes itself every 10 s
ROTATION_MS = 16_000  # past one rotation (12 s) and one refresh (15 s)


def visible_heading(page: Page) -> str:
    """The main heading of the panel the TV shows now."""
    return page.locator("main h1:visible").first.inner_text()


def test_public_pages_log_no_javascript_error(
    demo_league: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    failures = visit_all_sizes(new_page, public_pages(demo_league), prefix="public")

    assert not failures, "\n".join(failures)


def test_tv_page_rotates_and_refreshes_with_no_javascript_error(
    demo_league: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    tv_url = f"/tv/{demo_league.league.slug}/"
    failures = visit_all_sizes(new_page, {"page": tv_url}, prefix="tv")
    tv = new_page("tv", viewport=TV)
    tv.clock.install()  # the rotation and the refresh run on timers: fast-forward them

    failures += visit_all(tv, {"tv": tv_url})
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
    demo_league: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    slug = demo_league.league.slug
    meet = demo_league.current_season.meets.get(status=m.Meet.Status.OPEN)
    closed = demo_league.current_season.meets.filter(status=m.Meet.Status.CLOSED).first()
    assert closed is not None
    pages = {
        "sheets": f"/print/{slug}/meets/{meet.pk}/sheets/",
        "sheets-closed": f"/print/{slug}/meets/{closed.pk}/sheets/",
        "results": f"/print/{slug}/meets/{closed.pk}/results/",
        "standings": f"/print/{slug}/standings/",
        "maintenance": f"/print/{slug}/maintenance/",
    }
    failures = visit_all_sizes(new_page, pages, prefix="print")  # on screen, before printing
    paper = new_page("print", viewport=PRINT)
    paper.emulate_media(media="print")

    failures += visit_all(paper, pages, prefix="print")

    assert not failures, "\n".join(failures)


def test_score_sheet_logs_no_javascript_error(
    demo_league: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    meet = demo_league.current_season.meets.get(status=m.Meet.Status.OPEN)
    group = meet.groups.order_by("number").first()
    assert group is not None
    failures = visit_all_sizes(new_page, {"sheet": sheet_path(group)}, prefix="scoresheet")

    assert not failures, "\n".join(failures)


def test_score_sheet_and_board_update_in_place_with_no_csp_violation(
    new_page: NewContext, error_guard: ErrorGuard
) -> None:
    """The sheet's htmx updates (a confirmation, the next machine, a correction request) and
    the meet board's refresh swap parts of the page; none may log an error or break the
    Content-Security-Policy (the error guard reports both), and the states they show pass the
    accessibility audit too."""
    night = build_league()
    user = night.league.officials.get().user
    meet = start_meet(
        season=night.season,
        number=1,
        date=datetime.date.today(),
        actor=user,
        seed=1,
        date_reason="Tonight, whatever the season's days",
    ).meet
    group = board_group(meet)
    order = [group.names[p] for p in group.play_order]
    phone = new_page("score sheet")
    board = new_page("meet board", viewport=DESKTOP)
    board.clock.install()
    visit(board, f"/leagues/{night.league.slug}/meets/{meet.pk}/")
    visit(phone, sheet_path(meet.groups.get()))
    enter_scores(
        phone,
        entered_by=order[0],
        scores={name: 1_000_000 * (place + 1) + 10 for place, name in enumerate(order)},
    )
    shows(phone, f"Entered by {order[0]}: check it")
    phone.evaluate("window.__notReloaded = true")
    failures = audit(phone)  # the sheet waiting for a confirmation

    confirm_scores(phone, confirmed_by=order[1])
    shows(phone, "Game 1 confirmed")
    title = phone.get_by_label("Next machine").locator("option").nth(1).inner_text().strip()
    choose_machine(phone, title)
    shows(phone, f"Game 2 is on {title}")
    phone.get_by_text("Request a correction of a confirmed game").click()
    phone.get_by_label("Requested by").select_option(label=order[2])
    phone.get_by_label("What was recorded wrongly?").fill("Nothing, in the end")
    phone.get_by_role("button", name="Request the correction").click()
    expect(phone.get_by_text("Type the right score of at least one player.")).to_be_visible()
    failures += audit(phone)  # the sheet showing a refused form's messages
    with board.expect_response(lambda answer: answer.request.headers.get("hx-request") == "true"):
        board.clock.run_for(BOARD_REFRESH_MS)
    board.wait_for_load_state("networkidle")

    failures += audit(board)

    assert phone.evaluate("window.__notReloaded === true"), "the sheet reloaded the whole page"
    shows(board, title)
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("size", list(SIZES))  # one size per worker: the longest crawl
def test_console_pages_log_no_javascript_error(
    demo_league: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    pages = console_pages(demo_league)

    failures = visit_all_sizes(
        new_page,
        pages,
        prefix="manage",
        before=lambda page: log_in(page, DEMO_USERNAME, demo_league.password),
        sizes=[size],
    )

    assert len(pages) > 1, f"no console pages found: {pages}"
    assert not failures, "\n".join(failures)


def test_login_page_logs_no_javascript_error(new_page: NewContext, error_guard: ErrorGuard) -> None:
    failures = visit_all_sizes(new_page, {"login": "/manage/login/"}, prefix="manage")

    assert not failures, "\n".join(failures)
