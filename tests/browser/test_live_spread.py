"""live.js spreads a new revision's refresh: each page waits a random part of SPREAD_MS before it
asks for its parts, and the revisions heard meanwhile are fetched by that one refresh; a part
that shows the standings is fetched only when the event's standings part changed (issue 36: a
hundred viewers of a league asked for the board and the standings in the same instant after
every write).

The script runs in Debian's chromium on a page of its own: the stream is a stand-in EventSource
the test speaks through, htmx a stand-in that counts the refreshes, and the page's clock the
browser's fake one (Playwright's ``clock``), so no test waits out a real delay.
"""

from __future__ import annotations

import datetime
import re
from pathlib import Path

from playwright.sync_api import Browser, Page

import flipwell

LIVE_JS = Path(flipwell.__file__).parent / "web/static/flipwell/live.js"
SPREAD_MS = int(re.search(r"var SPREAD_MS = (\d+);", LIVE_JS.read_text())[1])
PAGE = (
    '<div id="board" data-live-refresh data-live-events="/live/x/events/" data-live-revision="1">'
    '</div><div id="standings" data-live-refresh="standings"></div>'
)
CLOCK_START = datetime.datetime(2026, 1, 6, 19, 0, tzinfo=datetime.UTC)
STAND_INS = """
window.refreshes = {board: 0, standings: 0};
window.htmx = { trigger: function (element) { window.refreshes[element.id] += 1; } };
window.EventSource = function () {
  window.stream = this;
  this.readyState = 1;
  this.listeners = {};
  this.addEventListener = function (name, listener) { this.listeners[name] = listener; };
};
Math.random = function () { return 0.5; };
"""


def live_page(browser: Browser) -> Page:
    page = browser.new_page()
    page.clock.install(time=CLOCK_START)
    page.clock.pause_at(CLOCK_START + datetime.timedelta(hours=1))  # time moves only when told
    page.set_content(PAGE)
    page.evaluate(STAND_INS)
    page.add_script_tag(content=LIVE_JS.read_text())
    return page


def hear(page: Page, revision: int, standings: int = 0) -> None:
    page.evaluate(
        """([revision, standings]) => window.stream.listeners.message(
             {lastEventId: String(revision), data: JSON.stringify({revision, standings})})""",
        [revision, standings],
    )


def refreshes(page: Page, part: str = "board") -> int:
    return page.evaluate(f"window.refreshes.{part}")


def test_a_new_revision_is_fetched_after_a_part_of_the_spread_not_at_once(browser):
    page = live_page(browser)
    wait = SPREAD_MS // 2  # Math.random() is 0.5 here

    hear(page, 2)
    assert refreshes(page) == 0
    page.clock.run_for(wait - 1)
    assert refreshes(page) == 0
    page.clock.run_for(2)
    assert refreshes(page) == 1
    page.close()


def test_revisions_heard_while_a_refresh_waits_are_fetched_by_it(browser):
    page = live_page(browser)

    for revision in (2, 3, 4):
        hear(page, revision)
        page.clock.run_for(10)
    page.clock.run_for(SPREAD_MS)
    assert refreshes(page) == 1

    hear(page, 5)  # after that refresh: a refresh of its own
    page.clock.run_for(SPREAD_MS)
    assert refreshes(page) == 2
    page.close()


def test_the_revision_the_page_has_is_not_fetched_again(browser):
    page = live_page(browser)

    hear(page, 1)  # the page was rendered at revision 1
    page.clock.run_for(SPREAD_MS * 2)

    assert refreshes(page) == 0
    page.close()


def test_the_standings_are_fetched_only_when_the_standings_part_changed(browser):
    """A sheet entered or a machine chosen is a new revision with the same standings part: the
    board is fetched, the standings are not (flipwell.league.revisions)."""
    page = live_page(browser)
    hear(page, 1, standings=70)  # the heartbeat of the page's own revision: the part it shows

    hear(page, 2, standings=70)
    page.clock.run_for(SPREAD_MS)
    assert (refreshes(page), refreshes(page, "standings")) == (1, 0)

    hear(page, 3, standings=71)  # a score confirmed
    page.clock.run_for(SPREAD_MS)
    assert (refreshes(page), refreshes(page, "standings")) == (2, 1)

    hear(page, 4, standings=72)  # confirmed, then entered, before the refresh: both parts
    hear(page, 5, standings=72)
    page.clock.run_for(SPREAD_MS)
    assert (refreshes(page), refreshes(page, "standings")) == (3, 2)
    page.close()


def test_a_page_that_has_not_heard_the_standings_part_fetches_them_on_a_change(browser):
    page = live_page(browser)

    hear(page, 2, standings=70)
    page.clock.run_for(SPREAD_MS)

    assert (refreshes(page), refreshes(page, "standings")) == (1, 1)
    page.close()


def test_bench_nights_viewers_spread_their_fetches_as_live_js_does():
    """bench_nights' viewers wait as the pages do (bench/nights_client.py, SPREAD_SECONDS)."""
    client = Path(__file__).resolve().parents[2] / "bench/nights_client.py"
    seconds = float(re.search(r"^SPREAD_SECONDS = ([\d.]+)$", client.read_text(), re.M)[1])

    assert round(seconds * 1000) == SPREAD_MS
