"""A score sheet open on one phone shows what another phone of the group did, by itself.

The sheet's script asks for its live fragment (``/sheet/<token>/state/``) every few seconds
through the browser's cache (a 304 while nothing changed). When the group's sheet moved on,
a phone whose player typed nothing shows the new sheet in place, without a reload; a phone
whose player typed keeps his input and shows a banner asking him to reload (issue #10).
"""

from __future__ import annotations

import datetime
import re
import time

from playwright.sync_api import Page, Response, expect

from flipwell.league import models as m
from flipwell.league.selectors.meet_board.values import BoardGroup
from flipwell.league.services.meets.start import start_meet
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import screenshot, sheet_path, visit
from tests.browser.night import board_group, build_league, confirm_scores, enter_scores, shows

LIVE_TIMEOUT_MS = 12_000
"""The script asks every 5 s: a change shows within two rounds."""
REVIEW = re.compile(r"Scores were entered on another phone", re.IGNORECASE)
MARK = "window.__notReloaded = true"
"""A mark a reload would wipe: the page was updated in place."""


def open_night() -> tuple[m.Group, BoardGroup]:
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
    return meet.groups.get(), board_group(meet)


def two_phones(new_page: NewContext, group: m.Group) -> tuple[Page, Page]:
    phone_a, phone_b = new_page("phone A"), new_page("phone B")
    visit(phone_a, sheet_path(group))
    phone_a.evaluate(MARK)
    visit(phone_b, sheet_path(group))
    return phone_a, phone_b


def test_sheet_shows_a_teammates_entry_to_confirm_without_a_reload(
    new_page: NewContext,
) -> None:
    group, board = open_night()
    order = [board.names[p] for p in board.play_order]
    phone_a, phone_b = two_phones(new_page, group)

    enter_scores(
        phone_b,
        entered_by=order[1],
        scores={name: 1_000_000 * (place + 1) + 10 for place, name in enumerate(order)},
    )

    shows(phone_a, f"Entered by {order[1]}: check it", timeout=LIVE_TIMEOUT_MS)
    expect(phone_a.get_by_role("button", name="Confirm game 1")).to_be_visible()
    expect(phone_a.get_by_label("Confirmed by")).to_be_visible()
    expect(phone_a.get_by_text(REVIEW)).to_be_hidden()
    assert phone_a.evaluate("window.__notReloaded === true"), "phone A reloaded its page"
    screenshot(phone_a, "scoresheet-live-teammate-entered")

    confirm_scores(phone_a, confirmed_by=order[2])  # the sheet swapped in works as loaded
    shows(phone_a, "Game 1 confirmed")
    assert m.ScoreSubmission.objects.get().confirmed_by is not None


def test_idle_sheet_asks_again_with_the_tag_of_the_copy_it_keeps(new_page: NewContext) -> None:
    """While nothing changes the phone asks with If-None-Match (answered 304 after one query:
    tests/web/test_scoresheet.py), never for the whole sheet again.

    The phone polls only while the live stream is not heard from (live.js), so this phone has
    no EventSource, as an old browser: otherwise whether it polls depends on how fast the
    stream opens. (Not a refused route: Playwright's routing turns the browser's cache off, and
    with it If-None-Match.)"""
    group, _board = open_night()
    phone = new_page("idle phone")
    phone.add_init_script("window.EventSource = undefined;")
    answers: list[Response] = []
    phone.on("response", lambda r: answers.append(r) if r.url.endswith("/state/") else None)
    visit(phone, sheet_path(group))

    deadline = time.monotonic() + 15  # the first load, then a poll every 5 s (scoresheet.js)
    while len(answers) < 2 and time.monotonic() < deadline:
        phone.wait_for_timeout(100)  # lets the page's events reach `answers`

    asked = [
        (r.request.all_headers().get("if-none-match"), r.all_headers().get("etag")) for r in answers
    ]
    assert len(asked) >= 2, asked
    (_, tag), *later = asked
    assert tag is not None
    assert [sent for sent, _ in later] == [tag] * len(later)


def test_sheet_with_typed_scores_keeps_them_and_asks_to_reload(new_page: NewContext) -> None:
    group, board = open_night()
    order = [board.names[p] for p in board.play_order]
    phone_a, phone_b = two_phones(new_page, group)
    typed = phone_a.get_by_label(f"{order[0]}’s score")
    typed.fill("123456")

    enter_scores(
        phone_b,
        entered_by=order[1],
        scores={name: 1_000_000 * (place + 1) + 10 for place, name in enumerate(order)},
    )

    expect(phone_a.get_by_text(REVIEW)).to_be_visible(timeout=LIVE_TIMEOUT_MS)
    expect(typed).to_have_value("123456")
    expect(phone_a.get_by_text(f"Entered by {order[1]}")).to_have_count(0)
    assert phone_a.evaluate("window.__notReloaded === true"), "phone A reloaded its page"
    screenshot(phone_a, "scoresheet-live-review-banner")

    phone_a.get_by_role("link", name="Reload the sheet").click()
    shows(phone_a, f"Entered by {order[1]}: check it")
    expect(phone_a.get_by_text(REVIEW)).to_be_hidden()


def test_sheet_swap_over_a_styled_field_breaks_no_policy(
    new_page: NewContext, error_guard: ErrorGuard
) -> None:
    """Issue #11, item 12: htmx settles a swapped-in element with the attributes of the one it
    replaces; copying a style attribute (a browser, an extension or a screenshot tool may set
    one through the DOM) is an inline style the CSP refuses. The sheet's htmx never does."""
    group, board = open_night()
    order = [board.names[p] for p in board.play_order]
    phone = new_page("phone")
    visit(phone, sheet_path(group))
    enter_scores(
        phone,
        entered_by=order[0],
        scores={name: 1_000_000 * (place + 1) + 10 for place, name in enumerate(order)},
    )
    shows(phone, f"Entered by {order[0]}: check it")
    phone.evaluate(
        "document.querySelectorAll('#sheet [id]').forEach((e) => { e.style.caretColor = 'red' })"
    )
    phone.evaluate(MARK)

    confirm_scores(phone, confirmed_by=order[1])  # an htmx swap of the whole sheet
    shows(phone, "Game 1 confirmed")

    assert phone.evaluate("window.__notReloaded === true"), "the sheet reloaded its page"
    error_guard.check()
