"""A first league night from scratch, as a new official runs it on a phone (issue 11).

A fresh installation has no account: the first official is made with `flipwell
createofficial`, signs in, opens a league, adds its machines, creates a season, imports the
roster from a CSV file, schedules meet 1 with the console's "next meet" shortcut and starts
it; the meet's page then says how players reach their score sheets. Everything at 390x844,
photographed under artifacts/screenshots/new-league-*.png.
"""

from __future__ import annotations

import datetime

import pytest
from django.contrib.auth.models import User
from django.core.management import call_command
from playwright.sync_api import Page, expect

from flipwell.league import models as m
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import log_in, screenshot
from tests.browser.night import shows

USERNAME = "ada"
PASSWORD = "a long passphrase for the first night"
MACHINES = ("Medieval Madness", "Attack from Mars", "Twilight Zone", "Monster Bash")
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
        phone.get_by_label("Title").fill(title)
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
    phone.get_by_label("IFPA CSV file").set_input_files(
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
    screenshot(phone, "new-league-6-next-meet-shortcut")
    shortcut.click()
    shows(phone, "Meet 1 scheduled")
    phone.get_by_role("link", name="Start the meet").click()
    screenshot(phone, "new-league-7-start-preview")
    phone.get_by_role("button", name="Start meet 1").click()
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
