"""A photo of the score from a phone at 390 px: taken without network it waits on the phone,
the scores typed meanwhile are queued as ever, and both arrive once the network is back; the
confirming player then sees the photo beside the numbers."""

from __future__ import annotations

import datetime
import re

from playwright.sync_api import expect

from flipwell.league import models as m
from flipwell.league.services.meets.start import start_meet
from tests import photo_files as pf
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import DESKTOP, log_in, screenshot, sheet_path, visit
from tests.browser.night import (
    OFFICIAL,
    PASSWORD,
    board_group,
    build_league,
    enter_scores,
    shows,
)

PHOTO_WAITS = re.compile(r"Photo saved on this phone", re.IGNORECASE)
SAVED_ON_PHONE = re.compile(r"saved on this phone, will send", re.IGNORECASE)


def test_photo_taken_offline_waits_on_the_phone_and_never_holds_up_the_scores(
    new_page: NewContext, error_guard: ErrorGuard
) -> None:
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
    game = m.Game.objects.get(pk=group.games[0].id)
    order = [group.names[p] for p in group.play_order]
    phone = new_page("photo phone")
    visit(phone, sheet_path(meet.groups.get()))
    expect(phone.get_by_text("Add a photo of the score")).to_be_visible()
    screenshot(phone, "scoresheet-photo-button")

    error_guard.set_offline(phone, True)
    phone.locator("input[type=file][name=photo]").set_input_files(
        {"name": "IMG_0001.jpg", "mimeType": "image/jpeg", "buffer": pf.jpeg_with_location()}
    )
    shows(phone, PHOTO_WAITS)
    expect(phone.locator("[data-photo-preview] img")).to_be_visible()
    enter_scores(
        phone,
        entered_by=order[0],
        scores={name: 1_000_000 * (place + 1) + 10 for place, name in enumerate(order)},
    )
    shows(phone, SAVED_ON_PHONE)
    screenshot(phone, "scoresheet-photo-offline-waits")
    assert m.ScorePhoto.objects.count() == 0

    error_guard.set_offline(phone, False)
    shows(phone, f"Entered by {order[0]}: check it", timeout=20_000)
    expect(phone.locator(".with-photos .photo-list img")).to_have_count(1, timeout=20_000)
    assert m.ScorePhoto.objects.filter(game=game).count() == 1
    assert m.ScoreSubmission.objects.filter(game=game).count() == 1

    confirmer = new_page("confirming phone")
    visit(confirmer, sheet_path(meet.groups.get()))
    photo = confirmer.locator(".with-photos .photo-list img")
    expect(photo).to_be_visible()
    assert _loaded_width(confirmer, ".with-photos img") == 640
    screenshot(confirmer, "scoresheet-photo-beside-the-numbers")
    desk = new_page("desktop", viewport=DESKTOP)
    visit(desk, sheet_path(meet.groups.get()))
    expect(desk.locator(".with-photos .photo-list img")).to_be_visible()
    screenshot(desk, "scoresheet-photo-beside-the-numbers-desktop")

    for label, viewport in (("phone", None), ("desktop", DESKTOP)):
        console = new_page(f"official {label}", **({"viewport": viewport} if viewport else {}))
        log_in(console, OFFICIAL, PASSWORD)
        visit(console, f"/manage/{night.league.slug}/meets/{meet.pk}/")
        expect(console.locator(".photo-list img")).to_be_visible()
        assert _loaded_width(console, ".photo-list img") == 640
        screenshot(console, f"console-meet-photos-{label}")


def _loaded_width(page, selector: str) -> int:
    """The width of the first image `selector` finds, once it has loaded: the photos load
    lazily, so it is scrolled into view and waited for (on a busy machine the box shows
    before the image arrives)."""
    page.locator(selector).first.scroll_into_view_if_needed()
    page.wait_for_function(
        "s => { const i = document.querySelector(s); return i && i.complete && i.naturalWidth }",
        arg=selector,
    )
    return page.evaluate("s => document.querySelector(s).naturalWidth", selector)
