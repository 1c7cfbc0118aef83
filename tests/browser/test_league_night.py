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

# The night worked by hand from docs/rules/RULES.md (issue 26 §6: never from the product's own
# selectors). One group of four, seeded by IFPA rank in week 1 (R3.1-b): Ada, Bo, Cy, Di.
# Game 1 is played in seeding order (R5.2-a), each later game in the previous game's finishing
# order (R5.2-b). The test gives the k-th player in play order 1,000,000 x (4 - k) + 10,000 x
# the game's number, so every game finishes Ada, Bo, Cy, Di; in game 1:
#   Ada 4,010,000  Bo 3,010,000  Cy 2,010,000  Di 1,010,000
#   places: 7 / 5 / 3 / 1 (R3.2-e)
#   first bonus: 4,010,000 > 3,010,000 + 2,010,000 = 5,020,000? no: +1 to 3rd, Cy (R3.2-f)
#   second bonus: 3,010,000 > 2,010,000 + 1,010,000 = 3,020,000? no: +1 to 4th, Di (R3.2-g)
#   game points: Ada 7, Bo 5, Cy 4, Di 2 (18 in all, R3.2-h); games 2-4 the same (+10,000 each
#   changes no sum: 4,0n0,000 < 5,0(2n)0,000 and 3,0n0,000 < 3,0(2n)0,000).
# The fourth-place player picks the next machine (R5-c): Di, every time.
# After four games the totals are the fifth game's scores (R3.3-b, R3.3-c):
#   Ada 28, Bo 20, Cy 16, Di 8
#   first match bonus: 28 >= 20 + 16 = 36? no: +1 to 3rd, Cy (R3.3-d)
#   second match bonus: 20 >= 16 + 8 = 24? no: +1 to 4th, Di (R3.3-e)
#   league points: Ada 28, Bo 20, Cy 17, Di 9 (R3.3-a)
ORDER = ("Ada Flipper", "Bo Tilt", "Cy Plunger", "Di Spinner")  # play order, every game
GAME_POINTS = {"Ada Flipper": 7, "Bo Tilt": 5, "Cy Plunger": 4, "Di Spinner": 2}
PICKER = "Di Spinner"
STANDINGS = {  # league points after each game (the match bonus once all four are played)
    1: {"Ada Flipper": "7", "Bo Tilt": "5", "Cy Plunger": "4", "Di Spinner": "2"},
    2: {"Ada Flipper": "14", "Bo Tilt": "10", "Cy Plunger": "8", "Di Spinner": "4"},
    3: {"Ada Flipper": "21", "Bo Tilt": "15", "Cy Plunger": "12", "Di Spinner": "6"},
    4: {"Ada Flipper": "28", "Bo Tilt": "20", "Cy Plunger": "17", "Di Spinner": "9"},
}
# The standings page before the meet is closed: every point is the open meet's, provisional.
PUBLIC = {
    "Ada Flipper": "28 (28 provisional)",
    "Bo Tilt": "20 (20 provisional)",
    "Cy Plunger": "17 (17 provisional)",
    "Di Spinner": "9 (9 provisional)",
}


def start_meet_in_console(official: Page) -> str:
    """Schedule meet 1 for today and start it from the console; the score sheet's URL."""
    official.goto("/manage/")
    official.get_by_role("link", name="Tuesday Flippers").first.click()
    official.get_by_role("link", name="Meets", exact=True).first.click()
    official.get_by_label("Number").fill("1")
    official.get_by_label("Date", exact=True).fill(datetime.date.today().isoformat())
    official.get_by_role("button", name="Schedule").click()
    # Scheduling lands on the new meet's hub: attendance, then the start.
    shows(official, "Meet 1 scheduled")
    official.get_by_role("link", name="Start the meet").click()
    start = official.get_by_role("button", name="Start meet 1")
    expect(start).to_be_visible()  # the preview is in before it is photographed
    screenshot(official, "night-console-start-preview")
    start.click()
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
    phones = {str(player): new_page(f"phone of {player}") for player in night.players}
    for phone in phones.values():
        visit(phone, sheet)
    screenshot(phones["Ada Flipper"], "night-phone-game-1")

    for number in range(1, 5):
        group = board_group(meet)
        assert [group.names[p] for p in group.play_order] == list(ORDER)
        scores = {name: 1_000_000 * (4 - i) + 10_000 * number for i, name in enumerate(ORDER)}
        entering, confirming = phones[ORDER[0]], phones[ORDER[1]]

        entering.reload()
        enter_scores(entering, entered_by=ORDER[0], scores=scores)
        shows(entering, f"Entered by {ORDER[0]}")
        game = m.Game.objects.get(group__meet=meet, number=number)
        for name in ORDER:  # read back with thousands separators, with the points it gives
            row = f"{name} {scores[name]:,} {GAME_POINTS[name]}"
            expect(entering.get_by_role("row", name=row, exact=True)).to_be_visible()
        screenshot(entering, f"night-game-{number}-entered")
        confirming.reload()
        confirm_scores(confirming, confirmed_by=ORDER[1])
        shows(confirming, f"Game {number} confirmed")
        screenshot(confirming, f"night-game-{number}-confirmed")
        assert game.submissions.filter(confirmed_by__isnull=False).count() == 1

        tv.clock.run_for(TV_REFRESH_MS)
        for name, points in STANDINGS[number].items():
            # The TV rotates its panels: the standings may be the one not shown just now.
            expect_standing(tv, name, points=points, games=number, visible=False)
        screenshot(tv, f"night-tv-after-game-{number}")
        if number < 4:
            picking = phones[PICKER]
            picking.reload()
            options = picking.get_by_label("Next machine").locator("option")
            title = options.nth(1).inner_text().strip()
            choose_machine(picking, title)
            shows(picking, f"Game {number + 1} is on {title}")

    assert tv.evaluate("window.__notReloaded === true"), "the TV reloaded the whole page"
    public = new_page("standings")
    visit(public, f"/leagues/{SLUG}/")
    for name, points in PUBLIC.items():
        expect_standing(public, name, points=points, games=4)
    screenshot(public, "night-standings-after-the-match")

    official.reload()
    official.get_by_role("link", name="Close the meet").click()
    official.get_by_role("button", name="Yes, close the meet").click()
    official.wait_for_load_state("load")
    screenshot(official, "night-console-meet-closed")
    meet.refresh_from_db()
    assert meet.status == m.Meet.Status.CLOSED
    dead = phones["Ada Flipper"].request.get(sheet)
    assert dead.status == 410, "the score sheet link still works after the meet closed"
