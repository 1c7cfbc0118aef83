"""A first league night from scratch, as a new official runs it on a phone (issue 11).

A fresh installation has no account: the first official is made with `flipwell
createofficial`, signs in, opens a league, adds its machines, creates a season, imports the
roster from a CSV file, schedules meet 1 with the console's "next meet" shortcut and starts
it; the meet's page then says how players reach their score sheets. Then the night is played:
group 1's four players on their own phones, group 2's on one phone passed around. In group 1's
game 1 a player's machine loses power: the official records the catastrophic malfunction and
grants the compensatory game the player asks for (R7.3-k), the group waits for it (R7.3-p), and
once its score is recorded the sheet and the board rank the player by the sum, shown with its
parts (R7.3-m). Game 2's score is corrected from a phone with the group's consent (R3-c): the
others agree on their own phones, one of them seeing the request appear by itself (the sheet's
live update). The official closes the meet after confirming. Everything at 390x844,
photographed under artifacts/screenshots/new-league-*.png.
"""

from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Locator, Page, expect

from flipwell.league import models as m
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.meet_board.values import BoardGroup
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import log_in, screenshot, visit
from tests.browser.night import choose_machine, confirm_scores, enter_scores, shows

USERNAME = "ada"
PASSWORD = "a long passphrase for the first night"
MACHINES = ("Medieval Madness", "Attack from Mars", "Twilight Zone", "Monster Bash")
LIVE_TIMEOUT_MS = 12_000  # the sheet asks for its live state every 5 s
VICTIM_SCORE, COMPENSATORY_SCORE, RIVAL_SCORE = 150_000, 700_000, 800_000
ROSTER = (
    "first_name,last_name,ifpa_number,ifpa_rank\n"
    "Bea,Adams,1001,312\nCal,Brooks,1002,540\nDee,Chen,,\nEli,Diaz,1004,77\n"
    "Fay,Evans,1005,1200\nGus,Fox,,\nHal,Green,1007,98\nIda,Hill,1008,2300\n"
)


def create_first_official(monkeypatch: pytest.MonkeyPatch) -> User:
    """`flipwell createofficial ada --password-from-env FIRST_PASSWORD`, as the README says."""
    monkeypatch.setenv("FIRST_PASSWORD", PASSWORD)
    call_command("createofficial", USERNAME, password_from_env="FIRST_PASSWORD")
    return User.objects.get(username=USERNAME)


def open_league(phone: Page) -> None:
    phone.get_by_role("link", name="Open a new league").click()
    expect(phone.get_by_label("League name")).to_be_visible()
    screenshot(phone, "new-league-1-open-form")
    phone.get_by_label("League name").fill("Thursday Flippers")
    phone.get_by_label("Web address").fill("thursday")
    phone.get_by_label("Venue").fill("The Corner Arcade")
    phone.get_by_label("Time zone").select_option("UTC")
    phone.get_by_role("button", name="Open the league").click()
    shows(phone, "Thursday Flippers is open: you are its league official.")
    screenshot(phone, "new-league-2-league")


def add_machines(phone: Page) -> None:
    phone.get_by_role("link", name="Machine pool").click()
    for title in MACHINES:
        phone.get_by_label("Title", exact=True).fill(title)
        phone.get_by_role("button", name="Add the machine").click()
        shows(phone, f"{title}")
    shows(phone, f"{len(MACHINES)} machines")
    screenshot(phone, "new-league-3-machines")


def create_season(phone: Page, today: datetime.date) -> None:
    phone.get_by_role("link", name="Thursday Flippers").first.click()
    phone.get_by_role("link", name="Seasons").click()
    phone.get_by_label("Name", exact=True).fill("Winter 2026")
    phone.get_by_label("Weekday").select_option(str(today.weekday()))  # tonight's a league day
    phone.get_by_label("Start time").fill("19:00")
    phone.get_by_label("Number of meets").fill("10")
    phone.get_by_role("button", name="Create the season").click()
    shows(phone, "Season “Winter 2026” created.")
    screenshot(phone, "new-league-4-season")


def import_roster(phone: Page) -> None:
    phone.get_by_role("link", name="Thursday Flippers").first.click()
    phone.get_by_role("link", name="Roster").first.click()
    phone.get_by_label("Roster CSV file").set_input_files(
        {"name": "roster.csv", "mimeType": "text/csv", "buffer": ROSTER.encode()}
    )
    phone.get_by_role("button", name="Import").click()
    shows(phone, "8 players")
    screenshot(phone, "new-league-5-roster")


def start_first_meet(phone: Page, today: datetime.date) -> None:
    phone.get_by_role("link", name="Thursday Flippers").first.click()
    shortcut = phone.get_by_role(
        "button", name=f"Next meet: schedule meet 1 for {today:%a} {today.day} {today:%b}"
    )
    expect(shortcut).to_be_visible()  # the league's page is in before it is photographed
    screenshot(phone, "new-league-6-next-meet-shortcut")
    shortcut.click()
    shows(phone, "Meet 1 scheduled")
    phone.get_by_role("link", name="Start the meet").click()
    start = phone.get_by_role("button", name="Start meet 1")
    expect(start).to_be_visible()
    screenshot(phone, "new-league-7-start-preview")
    start.click()
    shows(phone, "Meet 1 started")
    screenshot(phone, "new-league-8-meet-started")


def test_new_league_first_night_from_a_fresh_install(
    new_page: NewContext, error_guard: ErrorGuard, monkeypatch: pytest.MonkeyPatch
) -> None:
    official = create_first_official(monkeypatch)
    today = datetime.datetime.now(datetime.UTC).date()  # the league's time zone is UTC
    phone = new_page("new official")
    log_in(phone, USERNAME, PASSWORD)
    screenshot(phone, "new-league-0-console")

    open_league(phone)
    add_machines(phone)
    create_season(phone, today)
    import_roster(phone)
    start_first_meet(phone, today)

    league = m.League.objects.get(slug="thursday")
    meet = m.Meet.objects.get(season__league=league, number=1)
    assert m.LeagueOfficial.objects.get(league=league).user == official
    assert league.machines.count() == len(MACHINES)
    assert (meet.status, meet.date, meet.groups.count()) == (m.Meet.Status.OPEN, today, 2)
    print_link = phone.get_by_role("link", name="Print the score sheets", exact=True)
    expect(print_link).to_have_attribute("href", f"/print/thursday/meets/{meet.pk}/sheets/")
    print_link.click()
    for group in meet.groups.all():
        shows(phone, f"Machine: {group.games.get(number=1).machine.title}")
    screenshot(phone, "new-league-9-printed-sheets")
    phone.go_back()

    play_the_night(phone, new_page, meet)
    close_the_meet(phone, meet)


def group_now(meet: m.Meet, number: int) -> BoardGroup:
    """Group `number` of `meet` as the meet board sees it now."""
    return next(group for group in meet_board(meet).groups if group.number == number)


def game_scores(group: BoardGroup, number: int) -> dict[str, int]:
    """Scores for game `number`, all different: the first in play order scores the least."""
    return {
        group.names[pid]: 1_000_000 * place + 10_000 * number
        for place, pid in enumerate(group.play_order, start=1)
    }


def play_game(
    meet: m.Meet, number: int, phones: dict[int, Page], scores: dict[str, int] | None = None
) -> BoardGroup:
    """Game `number` of the group of `phones` (player id -> phone; one phone may serve them
    all): the first in play order enters the scores, the second confirms them."""
    group = next(g for g in meet_board(meet).groups if set(g.players) <= set(phones))
    first, second = group.play_order[:2]
    entering, confirming = phones[first], phones[second]
    entering.reload()
    enter_scores(
        entering, entered_by=group.names[first], scores=scores or game_scores(group, number)
    )
    shows(entering, f"Entered by {group.names[first]}: check it")
    confirming.reload()
    confirm_scores(confirming, confirmed_by=group.names[second])
    shows(confirming, f"Game {number} confirmed")
    return group


def pick_next_machine(meet: m.Meet, group_number: int, phones: dict[int, Page]) -> None:
    """The player the rules name picks the next game's machine on their phone."""
    group = group_now(meet, group_number)
    assert group.next_picker is not None, f"group {group_number} has no one to pick a machine"
    picking = phones[group.next_picker]
    picking.reload()
    title = picking.get_by_label("Next machine").locator("option").nth(1).inner_text().strip()
    choose_machine(picking, title)
    shows(picking, f"is on {title}")


def console_panel(official: Page, heading: str) -> Locator:
    """The console's panel (one form each) under `heading`: each form's fields have the ids
    Django gives every form, so they are found within their panel."""
    return official.locator("section.panel").filter(
        has=official.get_by_role("heading", name=heading, exact=True)
    )


def grant_compensatory_game(official: Page, meet: m.Meet, game: str, victim: str) -> None:
    """Record a power loss on `victim`'s ball 1 in `game` (a catastrophic malfunction, R7.4)
    with the player's request for a compensatory game at the trigger (R7.3-k, RA-b)."""
    official.goto(f"/manage/thursday/meets/{meet.pk}/")
    official.get_by_role("link", name="Malfunctions", exact=True).click()
    official.get_by_role("link", name="group 1", exact=True).click()  # its forms list group 1
    report = console_panel(official, "Record a malfunction")
    report.get_by_label("Game", exact=True).select_option(label=game)
    report.get_by_label("Player", exact=True).select_option(label=victim)
    report.get_by_label("Ball", exact=True).fill("1")
    report.get_by_label("What happened").select_option(label="Power loss")
    report.get_by_label("Ball was in play").uncheck()
    report.get_by_label("The player asks for a compensatory game now").check()
    screenshot(official, "new-league-11-malfunction-form")
    report.get_by_role("button", name="Record").click()
    # A power loss ends the game (R7.3-h): the official first sees what every player is owed.
    shows(official, "The game ended: record every player's malfunctions?")
    screenshot(official, "new-league-11b-malfunction-review")
    official.get_by_role("button", name="Yes, record them").click()
    shows(official, "Recorded: the game ended.")
    shows(official, f"{victim}: catastrophic on")


def record_compensatory_game(official: Page, game: str, victim: str) -> None:
    """Record the compensatory game's displayed score, nothing subtracted (R7.3-m)."""
    record = console_panel(official, "Record a compensatory game")
    record.get_by_label("Game", exact=True).select_option(label=game)
    record.get_by_label("Player", exact=True).select_option(label=victim)
    record.get_by_label("Compensatory game score").fill(str(COMPENSATORY_SCORE))
    record.get_by_role("button", name="Record").click()
    shows(official, "Compensatory game recorded.")
    screenshot(official, "new-league-13-compensatory-recorded")


def request_correction(phone: Page, *, game: str, requested_by: str, name: str, score: int) -> None:
    """Ask, on the sheet, for `name`'s score of `game` to be `score`."""
    phone.reload()
    phone.get_by_text("Request a correction of a confirmed game").click()
    phone.get_by_label("Game", exact=True).select_option(label=game)
    phone.get_by_label("Requested by (you)").select_option(label=requested_by)
    phone.get_by_label(f"{name}’s right score").fill(str(score))
    phone.get_by_label("What was recorded wrongly?").fill("A digit was left out")
    phone.get_by_role("button", name="Request the correction").click()
    shows(phone, "Corrections waiting for answers")


def agree(phone: Page, name: str) -> None:
    """`name` agrees to the correction on their own phone."""
    answer = phone.locator("form.answer").filter(has_text=f"{name}:")
    answer.get_by_role("button", name="Agree", exact=True).click()
    expect(phone.locator("form.answer").filter(has_text=f"{name}:")).to_have_count(0)


def play_the_night(official: Page, new_page: NewContext, meet: m.Meet) -> None:
    """Both groups play their four games; group 1 has the compensatory game and a correction."""
    paths = {
        group.number: official.get_by_role(
            "link", name=f"Open group {group.number}'s sheet on this device"
        ).get_attribute("href")
        for group in meet.groups.all()
    }
    first = group_now(meet, 1)
    phones = {pid: new_page(f"phone of {first.names[pid]}") for pid in first.players}
    for phone in phones.values():
        visit(phone, str(paths[1]))
    screenshot(next(iter(phones.values())), "new-league-10-sheet-game-1")

    # Game 1: the first in play order loses power on ball 1 and asks for a compensatory game.
    victim, rival, *others = first.play_order
    names = first.names
    game_1 = f"Group 1 · game 1 · {first.games[0].machine}"
    grant_compensatory_game(official, meet, game_1, names[victim])
    scores = {names[victim]: VICTIM_SCORE, names[rival]: RIVAL_SCORE}
    scores |= {names[pid]: 100_000 * (i + 1) for i, pid in enumerate(others)}
    play_game(meet, 1, phones, scores)
    waiting = phones[rival]
    shows(waiting, f"The group waits for the compensatory game of {names[victim]}")
    screenshot(waiting, "new-league-12-sheet-waits-for-the-compensatory-game")
    record_compensatory_game(official, game_1, names[victim])
    waiting.reload()
    total = VICTIM_SCORE + COMPENSATORY_SCORE
    # A cell is named by its player, then its score (a phone stacks the cells by name).
    cell = waiting.get_by_role("cell", name=re.compile(rf"(^|\s){total:,}\s"))
    expect(cell).to_contain_text(f"{VICTIM_SCORE:,} + {COMPENSATORY_SCORE:,} compensatory game")
    screenshot(waiting, "new-league-14-sheet-ranking-score-with-its-parts")
    board = group_now(meet, 1).games[0]
    assert board.finishing_order[:2] == (victim, rival), "the compensatory sum does not rank 1st"
    pick_next_machine(meet, 1, phones)

    # Game 2, then its correction with the group's consent.
    played = play_game(meet, 2, phones)
    requester, *agreeing = played.play_order
    wrong = played.play_order[-1]
    right = game_scores(played, 2)[names[wrong]] + 5
    watching = phones[agreeing[0]]
    watching.reload()
    watching.evaluate("window.__notReloaded = true")
    request_correction(
        phones[requester],
        game=f"Game 2: {played.games[1].machine}",
        requested_by=names[requester],
        name=names[wrong],
        score=right,
    )
    screenshot(phones[requester], "new-league-15-correction-requested")
    shows(watching, "Corrections waiting for answers", timeout=LIVE_TIMEOUT_MS)
    assert watching.evaluate("window.__notReloaded === true"), "the sheet reloaded itself"
    screenshot(watching, "new-league-16-correction-to-answer")
    for pid in agreeing:
        if phones[pid] is not watching:
            phones[pid].reload()
        agree(phones[pid], names[pid])
    correction = m.CorrectionRequest.objects.get(game__group__meet=meet)
    assert correction.status == m.CorrectionRequest.Status.APPLIED
    phones[requester].reload()
    expect(phones[requester].get_by_role("cell", name=f"{right:,}").first).to_be_visible()
    screenshot(phones[requester], "new-league-17-correction-applied")

    for number in (3, 4):
        pick_next_machine(meet, 1, phones)
        play_game(meet, number, phones)
    shows(phones[rival], "Match complete")
    screenshot(phones[rival], "new-league-18-match-complete")

    # Group 2 passes one phone around.
    second = group_now(meet, 2)
    shared = new_page("group 2's phone")
    visit(shared, str(paths[2]))
    passed_around = dict.fromkeys(second.players, shared)
    for number in range(1, 5):
        if number > 1:
            pick_next_machine(meet, 2, passed_around)
        play_game(meet, number, passed_around)
    shows(shared, "Match complete")


def close_the_meet(official: Page, meet: m.Meet) -> None:
    official.goto(f"/manage/thursday/meets/{meet.pk}/")
    screenshot(official, "new-league-19-console-night-played")
    official.get_by_role("link", name="Close the meet").click()
    shows(official, "Every group has finished.")
    official.get_by_role("button", name="Yes, close the meet").click()
    official.wait_for_load_state("load")
    screenshot(official, "new-league-20-meet-closed")
    meet.refresh_from_db()
    assert meet.status == m.Meet.Status.CLOSED
