"""The score sheet works with the keyboard only: Tab moves from field to field in reading
order, typing fills a score or picks a name in a list, Enter submits.

A player with a keyboard (or a switch, or a screen reader) enters and confirms a game's scores
(R3.2) without a pointer; every step is reached by Tab from the one before it.
"""

from __future__ import annotations

import datetime

from playwright.sync_api import Locator, Page, expect

from flipwell.league.services.meets.start import start_meet
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import audit, screenshot, sheet_path, visit
from tests.browser.night import board_group, build_league, shows

MAX_TABS = 40  # more presses than the sheet has controls: a control never reached fails


def has_focus(control: Locator) -> bool:
    return bool(control.evaluate("element => element === document.activeElement"))


def tab_to(page: Page, control: Locator) -> None:
    """Press Tab until `control` has the focus; fail if it is never reached."""
    for _ in range(MAX_TABS):
        if has_focus(control):
            return
        page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement && document.activeElement.outerHTML")
    raise AssertionError(f"Tab never reached {control}; the focus is on {focused}")


def test_scores_are_entered_and_confirmed_with_the_keyboard_only(
    new_page: NewContext, error_guard: ErrorGuard
) -> None:
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
    group = board_group(meet)
    order = [group.names[p] for p in group.play_order]
    scores = {name: 1_000_000 * (place + 1) + 10 for place, name in enumerate(order)}
    phone = new_page("keyboard")
    visit(phone, sheet_path(meet.groups.get()))

    for name, score in scores.items():
        tab_to(phone, phone.get_by_label(f"{name}’s score"))
        phone.keyboard.type(f"{score:,}")
    tab_to(phone, phone.get_by_label("Entered by"))
    phone.keyboard.type(order[0])
    expect(phone.get_by_label("Entered by").locator("option:checked")).to_have_text(order[0])
    tab_to(phone, phone.get_by_role("button", name="Enter scores"))
    phone.keyboard.press("Enter")
    shows(phone, f"Entered by {order[0]}: check it")
    assert not audit(phone), audit(phone)

    tab_to(phone, phone.get_by_label("Confirmed by"))
    phone.keyboard.type(order[1])
    tab_to(phone, phone.get_by_role("button", name="Confirm game 1"))
    phone.keyboard.press("Enter")
    shows(phone, "Game 1 confirmed")
    screenshot(phone, "scoresheet-keyboard-confirmed")

    games = phone.get_by_role("region", name="Scores of tonight's games")
    expect(games).to_contain_text(f"{scores[order[-1]]:,}")
    tab_to(phone, phone.get_by_label("Next machine"))
