"""live.js takes a watched element's parts from its stream's events
(flipwell.serving.live_parts): each part sent replaces the element's part of its id, whole,
and the element is not fetched; parts it cannot place (the element is at another base, or its
parts are not the entry's) are not taken at all: the element is fetched and the stream
reopened, so its next event carries every part. A page may watch several elements (here the
board and the standings), each with its own entry.

The script runs in Debian's chromium on a page of its own, as in test_live_spread: the stream
is a stand-in EventSource the test speaks through, htmx a stand-in that counts the fetches,
and the page's clock the browser's fake one.
"""

from __future__ import annotations

import datetime
import json
import re
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

import flipwell

LIVE_JS = Path(flipwell.__file__).parent / "web/static/flipwell/live.js"
SPREAD_MS = int(re.search(r"var SPREAD_MS = (\d+);", LIVE_JS.read_text())[1])
CLOCK_START = datetime.datetime(2026, 1, 6, 19, 0, tzinfo=datetime.UTC)
MACHINES = '<div id="board-machines" data-live-part>{}</div>'
CARD = '<section id="board-group-{}" data-live-part class="card group">{}</section>'
STANDINGS = '<div id="standings-body" data-live-part>{}</div>'
PAGE = (
    '<div id="board" data-live-refresh data-live-events="/live/x/events/" '
    'data-live-revision="1" data-live-watch="board=12">'
    + MACHINES.format("Machine A: group 1")
    + '<div class="groups">'
    + CARD.format(1, "being played")
    + CARD.format(2, "being played")
    + "</div></div>"
    + '<div id="standings" data-live-refresh="standings" data-live-watch="standings=3">'
    + STANDINGS.format("Ann 10")
    + "</div>"
)
STAND_INS = """
window.fetched = {board: 0, standings: 0};
window.opened = [];
window.htmx = { trigger: function (element) {
  window.fetched[element.id] += 1; } };
window.EventSource = function (url) {
  window.stream = this;
  window.opened.push(url);
  this.readyState = 1;
  this.listeners = {};
  this.addEventListener = function (name, listener) { this.listeners[name] = listener; };
  this.close = function () { this.readyState = 2; };
};
Math.random = function () { return 0.5; };
"""


def live_board(browser: Browser) -> Page:
    page = browser.new_page()
    page.clock.install(time=CLOCK_START)
    page.clock.pause_at(CLOCK_START + datetime.timedelta(hours=1))
    page.set_content(PAGE)
    page.evaluate(STAND_INS)
    page.add_script_tag(content=LIVE_JS.read_text())
    return page


def hear(page: Page, revision: int, *entries: dict[str, Any], standings: int = 0) -> None:
    """An event of `revision` with these entries (none: an event without parts)."""
    data: dict[str, Any] = {"revision": revision, "standings": standings}
    if entries:
        data["parts"] = list(entries)
    page.evaluate(
        "([id, data]) => window.stream.listeners.message({lastEventId: id, data: data})",
        [str(revision), json.dumps(data)],
    )
    page.clock.run_for(SPREAD_MS)


def board(revision: int, base: int | None, html: dict[str, str]) -> dict[str, Any]:
    return {"watch": "board=12", "revision": revision, "base": base, "html": html}


def every_part(revision: int, first: str, second: str) -> dict[str, Any]:
    html = {
        "board-machines": MACHINES.format("Machine A: group 1"),
        "board-group-1": CARD.format(1, first),
        "board-group-2": CARD.format(2, second),
    }
    return board(revision, None, html)


def card(page: Page, group: int) -> str:
    return page.inner_text(f"#board-group-{group}")


def test_the_stream_of_a_board_names_its_meet(browser):
    page = live_board(browser)
    assert page.evaluate("window.opened") == ["/live/x/events/?revision=1&board=12&standings=3"]
    page.close()


def test_every_part_then_the_parts_that_changed_replace_the_boards_own_and_nothing_is_fetched(
    browser,
):
    page = live_board(browser)
    page.evaluate("document.getElementById('board-group-2').dataset.mark = 'kept'")

    hear(page, 2, every_part(50, "entered, waiting for confirmation", "being played"))
    assert card(page, 1) == "entered, waiting for confirmation"
    assert page.get_attribute("#board", "data-live-parts") == "50"

    hear(page, 3, board(51, 50, {"board-group-1": CARD.format(1, "4,000")}))
    assert card(page, 1) == "4,000"
    assert card(page, 2) == "being played"
    assert page.get_attribute("#board", "data-live-parts") == "51"
    assert page.evaluate("document.getElementById('board-group-2').dataset.mark") is None
    assert page.evaluate("document.querySelectorAll('#board [data-live-part]').length") == 3
    assert page.evaluate("window.fetched.board") == 0
    assert page.evaluate("window.opened.length") == 1
    page.close()


def test_an_event_at_another_base_is_not_taken_the_board_is_fetched_and_the_stream_reopened(
    browser,
):
    page = live_board(browser)

    hear(page, 2, board(51, 50, {"board-group-1": CARD.format(1, "X")}))

    assert card(page, 1) == "being played"
    assert page.evaluate("window.fetched.board") == 1
    assert page.evaluate("window.opened") == [
        "/live/x/events/?revision=1&board=12&standings=3",
        "/live/x/events/?revision=2&board=12&standings=3",
    ]
    page.close()


def test_every_part_of_another_board_is_not_taken(browser):
    """A group drawn since the page was made: the event's parts are not the board's."""
    page = live_board(browser)
    drawn = every_part(50, "X", "Y")
    drawn["html"]["board-group-3"] = CARD.format(3, "Z")  # type: ignore[index]

    hear(page, 2, drawn)

    assert card(page, 1) == "being played"
    assert page.evaluate("document.getElementById('board-group-3')") is None
    assert page.evaluate("window.fetched.board") == 1
    assert page.evaluate("window.opened.length") == 2
    page.close()


def test_an_event_without_parts_has_the_board_fetched_as_before(browser):
    page = live_board(browser)
    hear(page, 2)
    assert page.evaluate("window.fetched.board") == 1
    assert page.evaluate("window.opened.length") == 1
    page.close()


def test_every_part_taken_spares_the_fetch_an_earlier_revision_asked_for(browser):
    """An event without parts (the hub could not render them), then one with every part before
    the page's refresh: the board is whole, nothing is fetched."""
    page = live_board(browser)
    page.evaluate(
        "window.stream.listeners.message({lastEventId: '2', data: JSON.stringify("
        "{revision: 2, standings: 0})})"
    )
    hear(page, 3, every_part(50, "X", "Y"))
    assert card(page, 2) == "Y"
    assert page.evaluate("window.fetched.board") == 0
    page.close()


def test_the_standings_taken_from_the_stream_are_not_fetched_and_each_element_has_its_own_base(
    browser,
):
    page = live_board(browser)
    table = {"watch": "standings=3", "revision": 70, "base": None}

    hear(
        page,
        2,
        every_part(50, "A", "B"),
        {**table, "html": {"standings-body": STANDINGS.format("Ann 12")}},
        standings=5,
    )
    assert page.inner_text("#standings-body") == "Ann 12"
    assert page.get_attribute("#standings", "data-live-parts") == "70"
    assert page.get_attribute("#board", "data-live-parts") == "50"

    unchanged = {"watch": "standings=3", "revision": 70, "base": 70, "html": {}}
    hear(page, 3, board(51, 50, {"board-group-1": CARD.format(1, "C")}), unchanged, standings=5)
    assert page.evaluate("window.fetched") == {"board": 0, "standings": 0}
    assert page.evaluate("window.opened.length") == 1
    page.close()


def test_the_standings_missing_from_an_event_are_fetched_when_they_changed(browser):
    """The hub could not render them: the element is fetched, as a page without parts is."""
    page = live_board(browser)
    hear(page, 2, every_part(50, "A", "B"), standings=5)
    assert page.evaluate("window.fetched") == {"board": 0, "standings": 1}
    hear(page, 3, board(51, 50, {}), standings=5)  # the standings did not change
    assert page.evaluate("window.fetched") == {"board": 0, "standings": 1}
    page.close()


def test_an_overtaken_entry_is_waited_for_not_fetched(browser):
    """A write came in while the server rendered the parts: its own event follows."""
    page = live_board(browser)
    hear(page, 2, every_part(50, "A", "B"))
    hear(page, 3, {"watch": "board=12", "overtaken": True})
    assert page.evaluate("window.fetched.board") == 0
    assert page.evaluate("window.opened.length") == 1
    hear(page, 4, board(52, 50, {"board-group-2": CARD.format(2, "C")}))
    assert card(page, 2) == "C"
    page.close()


WHY = '<details class="why"><summary>Why</summary><p>The rulebook: {}.</p></details>'


def standings_with_whys(points: int) -> str:
    """The standings part as the page has it: two legends, each with its "Why" after it."""
    return STANDINGS.format(
        f"Ann {points}"
        '<p id="provisional-legend">Provisional</p>'
        + WHY.format("R3.3-b")
        + '<p id="forfeits-legend">Forfeits</p>'
        + WHY.format("R2.5-a")
    )


def test_a_why_the_reader_opened_stays_open_when_the_standings_are_replaced(browser):
    """A reader who opened "Why" under the forfeits' legend still reads it after a score is
    confirmed; the one he left closed stays closed."""
    page = live_board(browser)
    table = {"watch": "standings=3", "base": None}
    first = {**table, "revision": 70, "html": {"standings-body": standings_with_whys(10)}}
    hear(page, 2, every_part(50, "A", "B"), first, standings=5)
    page.click("#forfeits-legend + details summary")

    second = {**table, "revision": 71, "base": 70}
    second["html"] = {"standings-body": standings_with_whys(12)}
    hear(page, 3, second, standings=6)

    opened = "Array.from(document.querySelectorAll('#standings details')).map(d => d.open)"
    assert "Ann 12" in page.inner_text("#standings-body")
    assert page.evaluate(opened) == [False, True]
    assert page.evaluate("window.fetched.standings") == 0
    page.close()
