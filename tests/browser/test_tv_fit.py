"""The TV at 1280x720 (issue #11, item 9): a standings panel's twelve rows all fit on screen."""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import ViewportSize

from flipwell.league.exchange.demo import DemoLeague, create_demo_league
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import screenshot

SMALL_TV = ViewportSize(width=1280, height=720)


@pytest.fixture
def demo(live_server: object) -> DemoLeague:
    return create_demo_league(today=datetime.date(2026, 3, 10))


def test_tv_fit_twelve_standings_rows_at_1280x720(
    demo: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    tv = new_page("tv, 1280x720", viewport=SMALL_TV)
    tv.clock.install()  # keep the rotation still while the panel is measured
    tv.goto(f"/tv/{demo.league.slug}/", wait_until="load")
    # Show the first standings panel, as the rotation does in its turn.
    tv.evaluate(
        """() => document.querySelectorAll('[data-tv-panel]').forEach(
            panel => { panel.hidden = panel.getAttribute('aria-label') !== 'Standings'
                || panel !== document.querySelector('[aria-label=Standings]'); })"""
    )
    rows = tv.locator("[aria-label=Standings]:visible .tv-standings tbody tr")
    screenshot(tv, "tv-standings-1280x720")

    assert rows.count() == 12
    last = rows.nth(11).bounding_box()
    assert last is not None
    assert last["y"] + last["height"] <= SMALL_TV["height"]
