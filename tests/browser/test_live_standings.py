"""The season's standings page updates itself while a meet is played (issue 36): a confirmed
score shows in the table without a reload, the table sent compressed as every kept page is to a
browser (flipwell.serving.pages). (A score only entered leaves the revision's
standings part as it was, so the table is not even asked for: tests/league/test_standings_part.py
and tests/browser/test_live_spread.py.)

The test's live server cannot hand a stream off (no gunicorn), so the page's EventSource hears
each revision when it reconnects (every `SHORT_RETRY_MS`, one second here), and a change shows
within that and live.js's spread.
"""

from __future__ import annotations

import datetime

import pytest
from playwright.sync_api import Response, expect

from flipwell.league.services.meets.start import start_meet
from flipwell.league.services.scores.confirmation import confirm_scores
from flipwell.league.services.scores.entry import submit_scores
from flipwell.serving import live
from tests.browser.conftest import NewContext
from tests.browser.helpers import screenshot, visit
from tests.browser.night import board_group, build_league

RETRY_MS = 1_000
LIVE_TIMEOUT_MS = RETRY_MS + 5_000
MARK = "window.__notReloaded = true"
"""A mark a reload would wipe: the page was updated in place."""


def test_the_standings_page_shows_a_confirmed_score_by_itself(
    new_page: NewContext, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(live, "SHORT_RETRY_MS", RETRY_MS)  # the live server's thread reads it
    night = build_league()
    meet = start_meet(
        season=night.season,
        number=1,
        date=datetime.date.today(),
        actor=night.league.officials.get().user,
        seed=1,
        date_reason="Tonight, whatever the season's days",
    ).meet
    group = meet.groups.get()
    board = board_group(meet)
    order = [board.names[p] for p in board.play_order]
    first, second = order[0], order[1]
    page = new_page("phone")
    visit(page, f"/leagues/{night.league.slug}/seasons/{night.season.pk}/")
    page.evaluate(MARK)
    cells = page.get_by_role("row", name=first).first.locator("td")
    expect(cells.nth(2)).to_have_text("0")
    points_before = cells.nth(1).inner_text()

    players = {p.pk: p for p in night.players}
    scores = {players[p]: 4_000_000 - 1_000_000 * i for i, p in enumerate(board.play_order)}
    entered = submit_scores(
        game=group.games.get(),
        scores=scores,
        entered_by=players[board.play_order[0]],
        idempotency_key="live-standings-1",
    )
    with page.expect_response(_standings_fragment, timeout=LIVE_TIMEOUT_MS) as refreshed:
        confirm_scores(submission=entered.submission, confirmed_by=players[board.play_order[1]])

    expect(cells.nth(2)).to_have_text("1", timeout=LIVE_TIMEOUT_MS)  # his games played
    assert refreshed.value.headers.get("content-encoding") == "gzip"  # flipwell.serving.pages
    assert cells.nth(1).inner_text() != points_before
    second_row = page.get_by_role("row", name=second).first.locator("td")
    expect(second_row.nth(2)).to_have_text("1")
    assert page.evaluate("window.__notReloaded")
    screenshot(page, "standings-live-after-a-confirmed-score")


def _standings_fragment(response: Response) -> bool:
    """The table live.js asked for (htmx's request) after the confirmed score."""
    return "/seasons/" in response.url and response.request.headers.get("hx-request") == "true"
