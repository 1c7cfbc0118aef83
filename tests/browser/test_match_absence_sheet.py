"""A player absent for the rest of the match on the phone's sheet (issue 33 §1, R2.4-a): his
line says so in place of a score box, at 390 and 1280 px, and the page passes its audit."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from flipwell.league.services.match_absences import record_match_absence
from tests.browser.conftest import NewContext
from tests.browser.helpers import PHONE, SIZES, sheet_path, visit_all_sizes
from tests.league.league_night import build_night, game, next_game, play, start


@pytest.fixture
def left_after_game_one_night(live_server: object):
    """Meet 1, one group of four: the 4th of game 1 left after it; game 2 is in play."""
    night = build_night(players=4)
    night.meet = start(night)
    first = game(night.meet, 1, 1)
    a = [g.player for g in first.group.members.order_by("position")]
    play(first, {p: 1_000_000_000_000 * (4 - i) for i, p in enumerate(a)})
    record_match_absence(group=first.group, players=[a[3]], actor=night.user)
    next_game(night.meet, 1, a[2])
    night.group, night.gone = first.group, a[3]
    return night


def test_absent_player_line_on_the_sheet_at_phone_and_desktop_widths(
    left_after_game_one_night, new_page: NewContext
) -> None:
    url = sheet_path(left_after_game_one_night.group)

    failures = visit_all_sizes(new_page, {"sheet-absent": url}, prefix="absence")

    assert failures == []
    for size, viewport in SIZES.items():
        page = new_page(f"absent line, {size}", viewport=viewport)
        page.goto(url, wait_until="load")
        line = page.locator("fieldset.absent-row")
        expect(line).to_contain_text(
            f"{left_after_game_one_night.gone}’s forfeit, so there is no score to enter"
        )
        expect(line.locator("input")).to_have_count(0)
        if viewport == PHONE:
            assert page.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
