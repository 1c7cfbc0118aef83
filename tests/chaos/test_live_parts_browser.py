"""A phone's meet board and standings, served by the real server (gunicorn: the stream handed
off to the worker's hub), change in place from their stream's parts when a score is entered
and confirmed, without a fetch of either page (flipwell.serving.live_parts, live.js).

Debian's chromium at 390 px, as the browser tests drive it (tests/browser/conftest.py), on
a real server of its own (the other browser tests' live server cannot hand a stream off).
The screenshots are artifacts/screenshots/live-parts-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect, sync_playwright

from tests.browser.conftest import CHROMIUM, CHROMIUM_ARGS
from tests.browser.helpers import PHONE, screenshot, visit
from tests.chaos.conftest import NewDatabase, NewServer
from tests.chaos.live import LiveServer
from tests.waiting import until

pytestmark = pytest.mark.django_db

CHANGE_MS = 5_000
"""A score confirmed shows within this (the hub polls every quarter second here)."""


@pytest.fixture(scope="module")
def phone_browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: run scripts/install-browser.sh", pytrace=False)
    with sync_playwright() as driver:
        launched = driver.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield launched
        launched.close()


def live_page(browser: Browser, server: LiveServer, path: str) -> tuple[Page, list[str]]:
    """A phone on `path`, its stream open; the fragments it fetches (htmx's requests)."""
    context = browser.new_context(
        base_url=server.url, viewport=PHONE, is_mobile=True, has_touch=True, locale="en-US"
    )
    page = context.new_page()
    fetched: list[str] = []
    page.on("request", lambda r: fetched.append(r.url) if r.headers.get("hx-request") else None)
    visit(page, path)
    # Polled from here: the CSP forbids the string evaluation Playwright's waiting uses.
    assert until(lambda: page.evaluate("() => window.flipwellLive.open()"), seconds=10)
    return page, fetched


def _sheet(game: dict[str, Any]) -> dict[str, Any]:
    return {
        "entered_by": game["players"][0],
        "scores": [
            {"player": p, "machine_score": 1_234_567_890_123 - 1000 * n}
            for n, p in enumerate(game["players"])
        ],
        "idempotency_key": "live-parts-browser-1",
    }


def test_the_board_and_the_standings_change_in_place_with_no_fetch(
    new_database: NewDatabase, new_server: NewServer, phone_browser: Browser
) -> None:
    database = new_database()
    database.collect_static()  # the pages' scripts and styles, as `flipwell serve` has them
    night = database.run("night", "8")
    server = new_server(database)
    slug, game, token = night["league"], night["games"][0], night["token"]
    board, board_fetches = live_page(
        phone_browser, server, f"/leagues/{slug}/meets/{night['meet']}/"
    )
    standings, standings_fetches = live_page(
        phone_browser, server, f"/leagues/{slug}/seasons/{night['season']}/"
    )
    board.evaluate("window.__notReloaded = true")

    entered = server.post(f"/api/v1/games/{game['id']}/scores", _sheet(game), token)
    assert entered.status == 201, entered.body
    expect(board.get_by_text("entered, waiting for confirmation")).to_be_visible(timeout=CHANGE_MS)
    confirmed = server.post(
        f"/api/v1/submissions/{entered.body['submission']['id']}/confirm",
        {"confirmed_by": game["players"][1]},
        token,
    )
    assert confirmed.status == 200, confirmed.body

    winner = board.locator("#board td.winner").first
    expect(winner).to_contain_text("1,234,567,890,123", timeout=CHANGE_MS)
    expect(board.get_by_text("entered, waiting for confirmation")).to_have_count(0)
    played = standings.locator("#standings-body tbody tr").first.locator("td").nth(2)
    expect(played).to_have_text("1", timeout=CHANGE_MS)  # the leader's games played
    assert board.evaluate("window.__notReloaded")
    assert board.get_attribute("#board", "data-live-parts")
    assert standings.get_attribute("#standings-live", "data-live-parts")
    assert board_fetches == []
    assert standings_fetches == []
    screenshot(board, "live-parts-board-phone")
    screenshot(standings, "live-parts-standings-phone")
