"""A league's second season, as its official lives it (issue 27 §1).

The Tuesday Flippers' "Spring 2026" (seven players, one meet) is over. The official starts
"Summer 2026" from it with "Next season from this one", leaving Gus out; refreshes the IFPA
ranks from a CSV before week 1 (R3.1-b, R4.3-a); sees the new season marked as being prepared
while the public standings stay on Spring 2026; publishes it; schedules meet 1 with the "next
meet" shortcut (the league night, not another day) and starts it: week 1's groups follow the
refreshed ranks. Group 1 plays its first game on two phones, the official closes the meet, and
the public standings show Summer 2026. The console is photographed at 1280 and 390 px, the
public standings at 390 and 1280 px (artifacts/screenshots/next-season-*.png).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from django.utils import timezone
from playwright.sync_api import Page, expect

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors.meet_board.board import meet_board
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import DESKTOP, PHONE, log_in, screenshot, visit
from tests.browser.night import (
    OFFICIAL,
    PASSWORD,
    SLUG,
    build_league,
    confirm_scores,
    create,
    enter_scores,
    shows,
)
from tests.factories import SeasonEntryFactory
from tests.league.league_night import game, play

MORE = (("Ed", "Bumper"), ("Flo", "Drain"), ("Gus", "Nudge"))
LEFT_OUT = "Gus Nudge"
# The IFPA ranks before week 1 of Summer 2026: Ada is unranked now (R4.3-b: last).
RANKS = (
    "first_name,last_name,ifpa_number,ifpa_rank\n"
    "Flo,Drain,,10\nEd,Bumper,,20\nDi,Spinner,,30\nCy,Plunger,,40\nBo,Tilt,,50\nAda,Flipper,,\n"
)
# Six players: two groups of three (R3.1-c), seeded by the refreshed IFPA ranks (R3.1-b,
# R4.3-a); game 1 is played in seeding order (R5.2-a).
GROUP_1 = ("Flo Drain", "Ed Bumper", "Di Spinner")


def spring_is_over() -> m.Season:
    """Spring 2026: seven players, one meet, closed after group 1's first game (Ada won)."""
    night = build_league()
    for rank, (first, last) in enumerate(MORE, start=len(night.players) + 1):
        create(
            SeasonEntryFactory,
            season=night.season,
            ifpa_rank_at_start=rank,
            player__first_name=first,
            player__last_name=last,
        )
    m.Season.objects.filter(pk=night.season.pk).update(number_of_meets=1)
    night.season.refresh_from_db()
    official = m.LeagueOfficial.objects.get(league=night.league).user
    meet = services.start_meet(
        season=night.season,
        number=1,
        date=timezone.localdate(),
        seed=1,
        actor=official,
    ).meet
    (group_1, *_rest) = meet_board(meet).groups
    order = [m.Player.objects.get(pk=p) for p in group_1.play_order]
    play(game(meet, 1, 1), {p: 1_000_000 * (5 - i) for i, p in enumerate(order)})
    services.close_meet(meet=meet, actor=official, override_reason="One-night season")
    return night.season


def start_next_season(official: Page, phone: Page) -> None:
    official.goto("/manage/tuesday/seasons/")
    official.get_by_role("link", name="next season from this one").click()
    official.get_by_label("Name of the next season").fill("Summer 2026")
    official.get_by_label(LEFT_OUT).uncheck()
    screenshot(official, "next-season-1-form-desktop")
    official.get_by_role("button", name="Prepare the next season").click()
    shows(official, "Summer 2026 is prepared from Spring 2026 with 6 of its 7 players.")
    shows(official, "It is being prepared: the public pages show Spring 2026")
    visit(phone, path_of(official))
    screenshot(phone, "next-season-2-roster-phone")


def path_of(page: Page) -> str:
    """The path of the page `page` shows (to open it in another context)."""
    return urlsplit(page.url).path


def refresh_ranks(official: Page) -> str:
    official.get_by_role("link", name="Refresh the IFPA ranks from a CSV").click()
    official.get_by_label("Roster CSV file").set_input_files(
        files=[{"name": "ranks.csv", "mimeType": "text/csv", "buffer": RANKS.encode()}]
    )
    official.get_by_role("button", name="Refresh the ranks").click()
    shows(official, "IFPA ranks of Summer 2026: 6 changed")
    shows(official, "Flo Drain 6 → 10")
    shows(official, "Ada Flipper 1 → unranked")
    screenshot(official, "next-season-3-ranks-desktop")
    return path_of(official)


def test_second_season_from_the_next_season_flow(
    new_page: NewContext, error_guard: ErrorGuard
) -> None:
    spring = spring_is_over()
    official = new_page("official", viewport=DESKTOP)
    log_in(official, OFFICIAL, PASSWORD)
    official_phone = new_page("official's phone", viewport=PHONE)
    log_in(official_phone, OFFICIAL, PASSWORD)
    public = new_page("public phone", viewport=PHONE)
    public_desktop = new_page("public desktop", viewport=DESKTOP)

    start_next_season(official, official_phone)
    summer = m.Season.objects.get(league=spring.league, name="Summer 2026")
    assert LEFT_OUT not in {str(e.player) for e in summer.entries.select_related("player")}
    ranks_path = refresh_ranks(official)
    visit(official_phone, ranks_path)
    screenshot(official_phone, "next-season-3-ranks-phone")

    # Being prepared: the console says so; the public standings stay on Spring 2026.
    official.goto("/manage/tuesday/seasons/")
    shows(official, "Not public yet")
    shows(official, "Summer 2026 is being prepared: the public pages, the TV and the API show")
    screenshot(official, "next-season-4-being-prepared-desktop")
    visit(official_phone, "/manage/tuesday/")
    shows(official_phone, "Not public yet")
    screenshot(official_phone, "next-season-4-being-prepared-phone")
    for page, size in ((public, "phone"), (public_desktop, "desktop")):
        visit(page, f"/leagues/{SLUG}/")
        shows(page, "Spring 2026: standings after 1 of 1 meet")
        expect(page.get_by_role("row").nth(1)).to_contain_text("Ada Flipper")
        screenshot(page, f"next-season-5-public-before-{size}")

    # Published before its first meet: the public standings show Summer 2026.
    official.get_by_role("link", name="Publish Summer 2026 now…").click()
    shows(official, "Publish Summer 2026?")
    shows(official, "Publishing cannot be undone.")
    screenshot(official, "next-season-6-publish-confirm-desktop")
    visit(official_phone, path_of(official))
    screenshot(official_phone, "next-season-6-publish-confirm-phone")
    official.get_by_role("button", name="Yes, publish Summer 2026 now").click()
    shows(official, "Summer 2026 is published: the public pages, the TV and the API show it now.")
    expect(official.get_by_text("Not public yet")).to_have_count(0)
    public.reload()
    shows(public, "Summer 2026: standings after 0 of 1 meet")
    screenshot(public, "next-season-7-public-published-phone")

    # Meet 1 on the league night, seeded by the refreshed ranks (R3.1-b, R4.3-a).
    today = timezone.localdate()
    official.goto("/manage/tuesday/")
    official.get_by_role(
        "button", name=f"Next meet: schedule meet 1 for {today:%a} {today.day} {today:%b}"
    ).click()
    shows(official, "Meet 1 scheduled")
    official.get_by_role("link", name="Start the meet").click()
    official.get_by_role("button", name="Start meet 1").click()
    shows(official, "Meet 1 started")
    meet = m.Meet.objects.get(season=summer, number=1)
    board = meet_board(meet)
    assert [len(g.play_order) for g in board.groups] == [3, 3]
    first = board.groups[0]
    assert [first.names[p] for p in first.play_order] == list(GROUP_1)
    sheet = official.get_by_role("link", name="Open group 1's sheet on this device")
    href = sheet.first.get_attribute("href")
    assert href, "the meet page links no score sheet"
    screenshot(official, "next-season-8-meet-started-desktop")

    entering, confirming = new_page("phone of Flo"), new_page("phone of Ed")
    visit(entering, href)
    visit(confirming, href)
    scores = {name: 1_000_000 * (3 - i) for i, name in enumerate(GROUP_1)}
    enter_scores(entering, entered_by=GROUP_1[0], scores=scores)
    shows(entering, f"Entered by {GROUP_1[0]}")
    confirming.reload()
    confirm_scores(confirming, confirmed_by=GROUP_1[1])
    shows(confirming, "Game 1 confirmed")
    screenshot(confirming, "next-season-9-sheet-phone")

    official.goto(f"/manage/tuesday/meets/{meet.pk}/close/")
    official.get_by_label("Close it anyway: why? (only when unfinished)").fill(
        "A short first night"
    )
    official.get_by_role("button", name="Yes, close the meet").click()
    shows(official, "Meet 1 is closed.")

    # The public standings now show Summer 2026's first meet; Gus is not in it.
    for page, size in ((public, "phone"), (public_desktop, "desktop")):
        page.goto(f"/leagues/{SLUG}/")
        shows(page, "Summer 2026: standings after 1 of 1 meet")
        expect(page.get_by_role("row").nth(1)).to_contain_text("Flo Drain")
        expect(page.get_by_role("main")).not_to_contain_text(LEFT_OUT)
        screenshot(page, f"next-season-10-public-after-{size}")
