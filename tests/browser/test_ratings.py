"""Ratings in the browser: a player's page shows his rating, its chart and his rivals, and the
league's Ratings page ranks the players, at a phone's width (390 px) and a laptop's (1280 px),
without sideways scrolling. The demo league's finished season rates its players."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from flipwell.league.exchange.demo import DemoLeague
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import DESKTOP, PHONE, overflows_here, screenshot

RATING_WORDS = re.compile(r"about [\d,]+ ± [\d,]+")


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_ratings_page_ranks_players_and_their_pages_show_the_rating(
    demo_league: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    page = new_page(f"ratings, {size}", viewport=PHONE if size == "phone" else DESKTOP)
    page.goto(f"/leagues/{demo_league.league.slug}/ratings/", wait_until="load")

    expect(page.get_by_role("heading", name="Ratings", exact=True)).to_be_visible()
    expect(page.get_by_text("the standings alone decide", exact=False).first).to_be_visible()
    rows = page.locator("table.ratings tbody tr")
    assert rows.count() >= 8, "the demo's finished season rates every regular"
    shown = [
        int(r.replace(",", "")) for r in rows.locator("td.num:nth-of-type(2)").all_inner_texts()
    ]
    assert shown == sorted(shown, reverse=True), f"not ranked best first: {shown}"
    problems = overflows_here(page, "ratings", size)

    best = rows.first.locator("th a")
    best_name = best.inner_text()
    best.click()
    page.wait_for_load_state("load")
    rating = page.locator("section.player-rating")
    expect(page.locator("h1")).to_contain_text(best_name)
    expect(rating.get_by_role("heading", name="Rating")).to_be_visible()
    expect(rating.locator("p.lead")).to_contain_text(str(f"{shown[0]:,}"))
    expect(rating.locator("p.lead")).to_have_text(RATING_WORDS)
    expect(rating.locator("figure.chart-figure svg")).to_be_visible()
    expect(rating.locator("table.rivals tbody tr").first).to_be_visible()
    rating.scroll_into_view_if_needed()
    screenshot(page, f"rating-player-{size}")
    problems += overflows_here(page, "rating-player", size)

    assert not problems, "\n".join(problems)
