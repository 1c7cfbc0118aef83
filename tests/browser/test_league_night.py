"""A whole league night in the browser: the official schedules and starts the meet in the
console, four phones play the group's four games on the score sheet, the TV and the standings
follow, and the official closes the meet.

Each phone belongs to one player (its own browser context). For every game the first player
in play order enters the scores, the second confirms them, and the picker the rules name
chooses the next machine; the TV, open all night, shows the new standings without a reload.
"""

from __future__ import annotations

import datetime

from playwright.sync_api import Page, expect

from flipwell.league import models as m
from flipwell.league.selectors.standings import standings
from flipwell.league.services.scores import game_points_of
from flipwell.rules.checks import fmt
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import DESKTOP, TV, log_in, screenshot, visit
from tests.browser.night import (
    OFFICIAL,
    PASSWORD,
    SLUG,
    board_group,
    build_league,
    choose_machine,
    confirm_scores,
    enter_scores,
    expect_standing,
    shows,
)

TV_REFRESH_MS = 16_000  # the TV refreshes its panels every 15 s; its clock is fast-forwarded


def start_meet_in_console(official: Page) -> str:
    """Schedule meet 1 for today and start it from the console; the score sheet's URL."""
    official.goto("/manage/")
    official.get_by_role("link", name="Tuesday Flippers").first.click()
    official.get_by_role("link", name="Meets", exact=True).first.click()
    official.get_by_label("Number").fill("1")
    official.get_by_label("Date").fill(datetime.date.today().isoformat())
    official.get_by_role("button", name="Schedule").click()
    # Scheduling lands on the new meet's hub: attendance, then the start.
    shows(official, "Meet 1 scheduled")
    official.get_by_role("link", name="Start the meet").click()
    screenshot(official, "night-console-start-preview")
    official.get_by_role("button", name="Start meet 1").click()
    shows(official, "Meet 1 started")
    # Starting lands on the night's hub (its "Night" tab is the current page).
    expect(official.get_by_role("link", name="Night", exact=True)).to_have_attribute(
        "aria-current", "page"
    )
    sheet = official.get_by_role("link", name="Open group 1's sheet on this device")
    href = sheet.first.get_attribute("href")
    assert href, "the meet page links no score sheet"
    screenshot(official, "night-console-meet-started")
    return href


def test_league_night_end_to_end(new_page: NewContext, error_guard: ErrorGuard) -> None:
    night = build_league()
    official = new_page("official", viewport=DESKTOP)
    log_in(official, OFFICIAL, PASSWORD)

    sheet = start_meet_in_console(official)

    meet = m.Meet.objects.get(season=night.season, number=1)
    assert meet.status == m.Meet.Status.OPEN
    tv = new_page("tv", viewport=TV)
    tv.clock.install()
    visit(tv, f"/tv/{SLUG}/")
    tv.evaluate("window.__notReloaded = true")  # gone if the page reloads
    phones = {player.pk: new_page(f"phone of {player}") for player in night.players}
    for phone in phones.values():
        visit(phone, sheet)
    screenshot(phones[night.players[0].pk], "night-phone-game-1")

    for number in range(1, 5):
        group = board_group(meet)
        names = group.names
        order = list(group.play_order)
        scores = {names[p]: 1_000_000 * (4 - i) + 10_000 * number for i, p in enumerate(order)}
        entering, confirming = phones[order[0]], phones[order[1]]

        entering.reload()
        enter_scores(entering, entered_by=names[order[0]], scores=scores)
        shows(entering, f"Entered by {names[order[0]]}")
        game = m.Game.objects.get(group__meet=meet, number=number)
        sheet_points = game_points_of(game, {p: scores[names[p]] for p in order}, [])
        for p in order:  # read back with thousands separators, with the points it gives
            row = f"{names[p]} {scores[names[p]]:,} {sheet_points[p]}"
            expect(entering.get_by_role("row", name=row, exact=True)).to_be_visible()
        screenshot(entering, f"night-game-{number}-entered")
        confirming.reload()
        confirm_scores(confirming, confirmed_by=names[order[1]])
        shows(confirming, f"Game {number} confirmed")
        screenshot(confirming, f"night-game-{number}-confirmed")
        assert game.submissions.filter(confirmed_by__isnull=False).count() == 1

        tv.clock.run_for(TV_REFRESH_MS)
        for line in standings(night.season).lines:
            points = fmt(line.league_points)
            expect_standing(tv, line.player.name, points=points, games=number)
        screenshot(tv, f"night-tv-after-game-{number}")
        if number < 4:
            picker = board_group(meet).next_picker
            assert picker is not None
            picking = phones[picker]
            picking.reload()
            options = picking.get_by_label("Next machine").locator("option")
            title = options.nth(1).inner_text().strip()
            choose_machine(picking, title)
            shows(picking, f"Game {number + 1} is on {title}")

    assert tv.evaluate("window.__notReloaded === true"), "the TV reloaded the whole page"
    table = standings(night.season)
    assert [line.games_played for line in table.lines] == [4, 4, 4, 4]
    public = new_page("standings")
    visit(public, f"/leagues/{SLUG}/")
    for line in table.lines:
        expect_standing(public, line.player.name, points=fmt(line.league_points), games=4)
    screenshot(public, "night-standings-after-the-match")

    official.reload()
    official.get_by_role("link", name="Close the meet").click()
    official.get_by_role("button", name="Yes, close the meet").click()
    official.wait_for_load_state("load")
    screenshot(official, "night-console-meet-closed")
    meet.refresh_from_db()
    assert meet.status == m.Meet.Status.CLOSED
    dead = phones[night.players[0].pk].request.get(sheet)
    assert dead.status == 404, "the score sheet link still works after the meet closed"
