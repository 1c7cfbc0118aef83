"""Screens that fit (issue 27 §5): at 390 px (a phone) and 1280 px (an official's laptop) no
page of a league with 4-player groups and 13-digit scores scrolls sideways or cuts a column.

Words:
- *overflow*: the document wider than the window, or an element whose content is wider than
  its box (a table wider than its container, a cell whose text runs out of it); a box meant to
  scroll sideways (a chart) may hold wider content, a table may not.
- *the league*: conftest's `billions`, the demo league with 13-digit scores.
"""

from __future__ import annotations

import datetime

import pytest

from flipwell.league import models as m
from flipwell.league.exchange.demo import DEMO_USERNAME, DemoLeague, create_demo_league
from tests import factories as f
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import (
    DESKTOP,
    PHONE,
    TV,
    log_in,
    overflows,
    overflows_here,
    screenshot,
    sheet_path,
)

TODAY = datetime.date(2026, 3, 10)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_screens_fit_billion_point_scores_in_groups_of_four(
    billions: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    """Issue 27 §5: the board, standings, player page, sheet, the console's open and closed
    meet, the roster, and a closed meet's printed results and filled-in score sheets show
    4-player groups with 13-digit scores without overflow; so do the playoff bracket, its
    printable page and the console's playoffs (issue 27 §2)."""
    demo = billions
    slug = demo.league.slug
    season = demo.current_season
    open_meet = season.meets.get(status=m.Meet.Status.OPEN)
    closed_meet = demo.finished_season.meets.order_by("-number").first()
    assert closed_meet is not None
    assert closed_meet.status == m.Meet.Status.CLOSED
    group = open_meet.groups.order_by("number").first()
    assert group is not None
    assert group.members.count() == 4
    player = m.Player.objects.filter(group_memberships__group=group).first()
    assert player is not None
    viewport = PHONE if size == "phone" else DESKTOP
    visitor = new_page(f"visitor, {size}", viewport=viewport)
    official = new_page(f"official, {size}", viewport=viewport)
    log_in(official, DEMO_USERNAME, demo.password)

    problems = overflows(
        visitor,
        {
            "board-open": f"/leagues/{slug}/meets/{open_meet.pk}/",
            "board-closed": f"/leagues/{slug}/meets/{closed_meet.pk}/",
            "standings": f"/leagues/{slug}/",
            "player": f"/leagues/{slug}/players/{player.pk}/",
            "sheet": sheet_path(group),
            "results-closed": f"/print/{slug}/meets/{closed_meet.pk}/results/",
            "playoffs": f"/leagues/{slug}/playoffs/",
            "print-playoffs": f"/print/{slug}/playoffs/",
        },
        size,
    )
    problems += overflows(
        official,
        {
            "console-meet-open": f"/manage/{slug}/meets/{open_meet.pk}/",
            "console-meet-closed": f"/manage/{slug}/meets/{closed_meet.pk}/",
            "sheets-closed": f"/print/{slug}/meets/{closed_meet.pk}/sheets/",
            "roster": f"/manage/{slug}/seasons/{season.pk}/roster/",
            "readings": f"/manage/{slug}/readings/",
            "console-playoffs": f"/manage/{slug}/seasons/{demo.finished_season.pk}/playoffs/",
        },
        size,
    )

    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_screens_fit_the_readings_form_before_a_season_begins(
    live_server: object, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    """R2-a: a league whose season has not begun shows the form that changes a reading (its
    longest value, the match-bonus tie-break order) without overflow, and records the change."""
    official = f.LeagueOfficialFactory(league__slug="fresh", user__username="fresh-lo")
    f.SeasonFactory(league=official.league)
    page = new_page(f"official, {size}", viewport=PHONE if size == "phone" else DESKTOP)
    log_in(page, "fresh-lo", "correct horse battery staple")

    problems = overflows(
        page,
        {
            "readings-form": "/manage/fresh/readings/?setting=match_bonus_tiebreak",
            "readings-bounds": "/manage/fresh/readings/?setting=season_forfeit_limit",
        },
        size,
    )
    page.get_by_label("New value").fill("9")
    page.get_by_label("Why change it?").fill("A shorter season")
    page.get_by_role("button", name="Change the reading").click()
    page.wait_for_load_state("load")
    screenshot(page, f"fit-readings-changed-{size}")

    assert not problems, "\n".join(problems)
    assert "How many countable forfeits forfeit the season: now 9." in page.inner_text("main")
    official.league.refresh_from_db()
    assert official.league.ruleset_overrides == {"season_forfeit_limit": 9}


def test_screens_fit_printed_results_on_a_tv_sized_screen(
    billions: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    """Issue 27 §5: a closed meet's printed results, opened on a 1920x1080 screen (the
    venue's TV or a wide laptop), with 13-digit scores: nothing overflows."""
    closed_meet = billions.finished_season.meets.order_by("-number").first()
    assert closed_meet is not None
    screen = new_page("visitor, tv", viewport=TV)

    problems = overflows(
        screen,
        {"results-closed": f"/print/{billions.league.slug}/meets/{closed_meet.pk}/results/"},
        "tv",
    )

    assert not problems, "\n".join(problems)


@pytest.fixture
def bulk_league(live_server: object) -> DemoLeague:
    """The demo league, every player of its current season with a personal link."""
    from django.contrib.auth.models import User

    from flipwell.league import services

    demo = create_demo_league(today=TODAY)
    user = User.objects.get(username=DEMO_USERNAME)
    services.issue_player_links(season=demo.current_season, actor=user)
    return demo


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_screens_fit_new_league_machines_and_personal_links_sheet(
    bulk_league: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    """Issue 27 §5: the new-league form (the server's zone first, the address following the
    name as it is typed), the machine pool with several machines added at once (and a refused
    line named), and the printed sheet of every personal link fit at 390 and 1280 px."""
    from flipwell.league import services

    demo = bulk_league
    slug = demo.league.slug
    season = demo.current_season
    services.create_league_opener(username="opener", password="a long passphrase 42")
    viewport = PHONE if size == "phone" else DESKTOP
    official = new_page(f"official, {size}", viewport=viewport)
    log_in(official, DEMO_USERNAME, demo.password)

    official.goto(f"/manage/{slug}/machines/pool/")
    error_guard.expect_refusal(official, 400)  # the refused line answers 400 with the form
    official.get_by_label("Titles, one a line").fill("Cactus Canyon\nGodzilla\nCactus Canyon")
    official.get_by_role("button", name="Add these machines").click()
    official.get_by_text("Line 2 (“Godzilla”): the league has it already (Side wall)").wait_for()
    official.get_by_text("Line 3 (“Cactus Canyon”): written twice").wait_for()
    screenshot(official, f"bulk-machines-refused-{size}")
    official.get_by_label("Titles, one a line").fill("Cactus Canyon\nJunk Yard")
    official.get_by_role("button", name="Add these machines").click()
    official.get_by_text("2 machines added to the pool: Cactus Canyon, Junk Yard.").wait_for()

    problems = overflows(
        official,
        {
            "machine-pool": f"/manage/{slug}/machines/pool/",
            "roster-links": f"/manage/{slug}/seasons/{season.pk}/roster/",
            "personal-links-sheet": f"/print/{slug}/seasons/{season.pk}/links/",
        },
        size,
    )
    cards = official.locator(".link-card")
    assert cards.count() == season.entries.count()
    assert official.locator(".link-card svg").count() == season.entries.count()

    opener = new_page(f"opener, {size}", viewport=viewport)
    log_in(opener, "opener", "a long passphrase 42")
    problems += overflows(opener, {"new-league": "/manage/leagues/new/"}, size)
    opener.get_by_label("League name").press_sequentially("Tuesday Flippers’ Café")
    address = opener.get_by_label("Web address")
    assert address.input_value() == "tuesday-flippers-cafe"
    assert opener.get_by_label("Time zone").input_value() == "UTC"  # this machine's zone
    zones = opener.locator("select[name=time_zone] option").all_inner_texts()
    assert zones[0] == "UTC"
    assert "Factory" not in zones
    assert "localtime" not in zones
    screenshot(opener, f"new-league-typed-{size}")
    address.fill("tue")
    opener.get_by_label("League name").press_sequentially(" Nights")
    assert address.input_value() == "tue"  # the official's own address stays theirs

    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_screens_fit_the_ifpa_requirements_and_the_seasons_warning(
    billions: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    """The IFPA requirements of a finished season, of the season being played and of a season
    of five meets not yet begun (its warning on the seasons page too), with every source fold
    and the IFPA's figures open, without overflow."""
    demo = billions
    slug = demo.league.slug
    short = f.SeasonFactory(league=demo.league, name="Short summer", number_of_meets=5)
    page = new_page(f"official, {size}", viewport=PHONE if size == "phone" else DESKTOP)
    log_in(page, DEMO_USERNAME, demo.password)
    problems = []
    for name, season in (
        ("finished", demo.finished_season),
        ("current", demo.current_season),
        ("short", short),
    ):
        page.goto(f"/manage/{slug}/seasons/{season.pk}/ifpa/", wait_until="load")
        page.evaluate("document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        problems += overflows_here(page, f"ifpa-{name}", size)
    problems += overflows(page, {"seasons": f"/manage/{slug}/seasons/"}, size)

    assert not problems, "\n".join(problems)
    assert "IFPA 5 meets scheduled; the IFPA asks for at least 6" in page.inner_text("main")
