"""A player announces an absence from their phone through their personal link (issue #13):
the page fits a 390 px phone, the button records the same fact the official records, and a
long email address they leave does not widen the page."""

from __future__ import annotations

import datetime

from playwright.sync_api import expect

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.player_link_tokens import token_for
from tests import factories as f
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import PHONE, audit, screenshot


def test_player_link_phone_announces_an_absence(
    live_server: object, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    official = f.LeagueOfficialFactory(league__slug="tuesday", league__name="Tuesday League")
    season = f.SeasonFactory(league=official.league, name="Spring", number_of_meets=3)
    ana = f.SeasonEntryFactory(
        season=season, player__first_name="Ana", player__last_name="Flipper"
    ).player
    for first in ("Bo", "Cy", "Di"):
        f.SeasonEntryFactory(season=season, player__first_name=first, player__last_name="Pin")
    meet = services.schedule_meet(
        season=season,
        number=1,
        date=datetime.date.today() + datetime.timedelta(days=7),
        actor=official.user,
        date_reason="A night a week from now, whatever the season's days",
    )
    link = services.issue_player_link(season=season, player=ana, actor=official.user)
    phone = new_page("Ana's phone")

    phone.goto(f"/me/{token_for(link)}/", wait_until="load")
    expect(phone.get_by_role("heading", level=1)).to_have_text("Ana Flipper")
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    assert audit(phone) == []
    phone.get_by_role("button", name="I'll be absent from meet 1").click()

    expect(phone.get_by_role("status")).to_contain_text("Your absence from meet 1 is recorded.")
    expect(phone.get_by_text("You told us you will be absent")).to_be_visible()
    expect(phone.get_by_role("button", name="I'll be absent from meet 1")).to_have_count(0)
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
    screenshot(phone, "player-link-absence-phone")
    absence = m.AnnouncedAbsence.objects.get()
    assert (absence.meet, absence.player, absence.player_link) == (meet, ana, link)

    address = "ana.flipper.who.plays.every.tuesday.night@example.org"
    phone.get_by_role("textbox", name="Email address").fill(address)
    phone.get_by_role("button", name="Save").click()
    expect(phone.get_by_role("status")).to_contain_text(f"Your email address {address} is saved.")
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
