"""The sheet's messages stay true (issue #11, item 11): after a failed entry, the success message
of the previous step ("Game 2 is on ...") is no longer shown next to the error."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import sheet_path
from tests.league.league_night import build_night, game, play, start


@pytest.fixture
def game_two_night(live_server: object):
    """Meet 1 with one group of four whose game 1 is confirmed: game 2's machine is next."""
    night = build_night(players=4)
    night.meet = start(night)
    first = game(night.meet, 1, 1)
    members = [g.player for g in first.group.members.order_by("position")]
    play(first, {p: 1000 * (4 - i) for i, p in enumerate(members)})
    night.group = first.group
    return night


def test_sheet_wording_no_stale_success_after_a_failed_entry(
    game_two_night, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    phone = new_page("sheet, phone")
    phone.goto(sheet_path(game_two_night.group), wait_until="load")
    phone.get_by_label("Next machine").select_option(index=1)
    phone.get_by_role("button", name="Start game 2").click()
    success = phone.locator(".messages .message.success")
    expect(success).to_contain_text("Game 2 is on")

    error_guard.expect_refusal(phone, 400)
    phone.get_by_role("button", name="Enter scores").click()

    expect(phone.locator("form[data-offline-entry] .form-errors, p.error").first).to_be_visible()
    expect(success).to_be_hidden()
