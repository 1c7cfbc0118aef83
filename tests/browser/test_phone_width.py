"""No page scrolls sideways on a 390 px phone (issue #11, item 10): every page type is opened at
390x844 and its document may be no wider than the screen; a wide table scrolls inside its own
box, never the page. The sheet's score table shows every player of the group."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import Page, expect

from flipwell.league import models as m
from flipwell.league.exchange.demo import DEMO_USERNAME, DemoLeague, create_demo_league
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import PHONE, console_pages, log_in, sheet_path
from tests.browser.test_pages import public_pages

TODAY = datetime.date(2026, 3, 10)


@pytest.fixture
def demo(live_server: object) -> DemoLeague:
    return create_demo_league(today=TODAY)


def too_wide(page: Page, pages: dict[str, str]) -> list[str]:
    """Each of `pages` whose document is wider than the phone, with its width."""
    wide = []
    for name, url in pages.items():
        response = page.goto(url, wait_until="load")
        if response is None or response.status == 405:  # an action (POST only), not a page
            continue
        width = page.evaluate("document.scrollingElement.scrollWidth")
        if width > PHONE["width"]:
            wide.append(f"{name} ({url}): {width} px")
    return wide


def test_phone_width_no_page_scrolls_sideways(
    demo: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    meet = demo.current_season.meets.get(status=m.Meet.Status.OPEN)
    slug = demo.league.slug
    group = meet.groups.order_by("number").first()
    assert group is not None
    others = {
        "sheet": sheet_path(group),
        "login": "/manage/login/",
        "print-sheets": f"/print/{slug}/meets/{meet.pk}/sheets/",
        "print-standings": f"/print/{slug}/standings/",
        "print-maintenance": f"/print/{slug}/maintenance/",
        "tv": f"/tv/{slug}/",
    }
    visitor = new_page("visitor, phone")
    official = new_page("official, phone")
    log_in(official, DEMO_USERNAME, demo.password)

    wide = too_wide(visitor, {**public_pages(demo), **others})
    wide += too_wide(official, console_pages(demo))

    assert not wide, "pages wider than a 390 px phone:\n" + "\n".join(wide)


def test_phone_width_sheet_score_table_shows_the_fourth_player(
    demo: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    meet = demo.current_season.meets.get(status=m.Meet.Status.OPEN)
    group = meet.groups.order_by("number").first()
    assert group is not None
    phone = new_page("sheet, phone")
    phone.goto(sheet_path(group), wait_until="load")

    headers = phone.locator("#games-title ~ div table thead th")
    last = headers.last.bounding_box()

    assert headers.count() == 5
    assert last is not None
    assert last["x"] + last["width"] <= PHONE["width"]


def test_phone_width_player_page_why_opens_with_a_visible_marker(
    demo: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    """Issue #11, item 6: each game's explanation has a visible marker and opens on a tap."""
    player = m.Player.objects.filter(season_entries__season=demo.finished_season).first()
    assert player is not None
    phone = new_page("player, phone")
    phone.goto(f"/leagues/{demo.league.slug}/players/{player.pk}/", wait_until="load")
    game = phone.locator("details.game").first
    marker = game.locator("summary > span").first.evaluate(
        "span => getComputedStyle(span, '::before').content"
    )

    game.locator("summary").tap()

    assert marker == '"▸"'
    assert game.evaluate("details => details.open")
    assert game.locator(".why li").first.is_visible()


def test_phone_width_merge_players_confirmation_fits(
    demo: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    """Issue #13 part 5: the console's merge review shows both players' seasons on a phone."""
    kept = m.Player.objects.filter(season_entries__season=demo.finished_season).first()
    assert kept is not None
    summer = m.Season.objects.create(
        league=demo.league, name="Summer", weekday=1, start_time="19:00", number_of_meets=8
    )
    twin = m.Player.objects.create(first_name=kept.first_name, last_name=f"{kept.last_name}-X")
    m.SeasonEntry.objects.create(season=summer, player=twin)
    phone = new_page("merge, phone")
    log_in(phone, DEMO_USERNAME, demo.password)
    phone.goto(f"/manage/{demo.league.slug}/players/merge/", wait_until="load")
    phone.locator("#id_kept").select_option(value=str(kept.pk))
    phone.locator("#id_merged").select_option(value=str(twin.pk))
    phone.locator("#id_reason").fill("Entered twice.")

    phone.get_by_role("button", name="Review").tap()

    expect(phone.get_by_role("heading", name="Are these one person?")).to_be_visible()
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
