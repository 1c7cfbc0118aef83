"""The playoff bracket on playoffs night in the browser (issue 27 §2): the demo's night
reopened in the middle of the final (game 1 recorded, game 2 on its machine). The public page
at 390 and 1280 px, the TV at 1920x1080 and 1280x720 and the printable bracket on A4 and
Letter portrait show the points so far (R6.3-a, R6.3-c) and why ties went as they did
(R6.5-a, R6.1-e), without sideways scrolling and, on the TV and paper, without cutting."""

from __future__ import annotations

import datetime
import re

import pytest
from playwright.sync_api import ViewportSize

from flipwell.league import models as m
from flipwell.league.exchange.demo import DemoLeague, create_demo_league
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import DESKTOP, PHONE, PRINT, TV, screenshot, visit
from tests.playoff_night import reopen_final

SMALL_TV = ViewportSize(width=1280, height=720)
PDF_PAGE = re.compile(rb"/Type\s*/Page[^s]")


@pytest.fixture
def live_final(live_server: object) -> DemoLeague:
    """The demo league on its playoff night: the final under way, the new season unstarted."""
    demo = create_demo_league(today=datetime.date(2026, 3, 10))
    reopen_final(demo)
    demo.current_season.meets.update(status=m.Meet.Status.PLANNED)
    return demo


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_live_bracket_public_page_fits_r6_3_c(
    live_final: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    """R6.3-c, R6.5-a: the final's card shows game 1's points, game 2 being played, and the
    semifinals' tie sentences sit under the bracket; nothing scrolls sideways."""
    viewport = PHONE if size == "phone" else DESKTOP
    page = new_page(f"playoffs, {size}", viewport=viewport)
    visit(page, f"/leagues/{live_final.league.slug}/playoffs/")

    final = page.locator("details.playoff-match").last
    table = final.locator("table.match-points")
    screenshot(page, f"playoffs-live-{size}")

    assert final.get_attribute("open") is not None
    assert table.locator("thead th").all_inner_texts()[1:4] == ["G1", "G2", "Total"]
    assert table.locator("tbody tr").count() == 4
    under_bracket = page.get_by_role("list", name="How ties were decided")
    assert under_bracket.locator("li").filter(has_text="tiebreaker game").count() == 2
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= viewport["width"]


@pytest.mark.parametrize(("label", "viewport"), [("1920x1080", TV), ("1280x720", SMALL_TV)])
def test_live_bracket_tv_panel_fits_r6_3_c(
    live_final: DemoLeague,
    new_page: NewContext,
    error_guard: ErrorGuard,
    label: str,
    viewport: ViewportSize,
) -> None:
    """R6.3-c: the TV's bracket panel holds the diagram, the final being played with its
    points so far and the tie sentences, all inside the screen."""
    tv = new_page(f"tv, {label}", viewport=viewport)
    tv.clock.install()  # keep the rotation still while the panel is measured
    visit(tv, f"/tv/{live_final.league.slug}/")
    panel = tv.locator("[aria-label='Playoff bracket']")
    for _ in range(tv.locator("[data-tv-panel]").count()):  # the arrow keys turn the panels
        if panel.is_visible():
            break
        tv.keyboard.press("ArrowRight")
    screenshot(tv, f"playoffs-live-tv-{label}")

    live = panel.locator(".tv-live-match")
    assert live.count() == 1
    assert live.locator("tbody tr").count() == 4
    assert panel.locator(".tv-notes li").count() == 2
    for part in (panel.locator("svg.bracket"), panel.locator(".tv-live")):
        box = part.bounding_box()
        assert box is not None
        assert box["x"] + box["width"] <= viewport["width"]
        assert box["y"] + box["height"] <= viewport["height"]
    clipped = panel.locator(".tv-live").evaluate("el => el.scrollHeight > el.clientHeight + 1")
    assert not clipped, "the live matches and reasons are cut at the bottom"


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_printable_bracket_is_one_portrait_page(
    live_final: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, paper: str
) -> None:
    """The printable bracket of a 12-player division fits one A4 or Letter portrait page."""
    page = new_page(f"print, {paper}", viewport=PRINT)
    visit(page, f"/print/{live_final.league.slug}/playoffs/")
    screenshot(page, f"playoffs-print-{paper}")

    pdf = page.pdf(format=paper, print_background=True)
    page.emulate_media(media="print")
    screenshot(page, f"playoffs-print-{paper}-as-printed")

    assert len(PDF_PAGE.findall(pdf)) == 1
