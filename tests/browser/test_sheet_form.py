"""The score sheet's forms on a phone at 390 px (issue 27 §5, "Sheet"): "Entered by" keeps its
choice after a refused entry; a forfeit box turns its player's score box off; a player who did
not play is not offered as the confirmer (R3-a); the "fix it" fold looks like a button; the
Agree/Disagree rows of a correction line up with 4 players of long names.

Screenshots (artifacts/screenshots/sheet-form-*.png) are looked at by the author."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from playwright.sync_api import Page, expect

from flipwell.league import models as m
from flipwell.league.services.corrections.request import request_correction
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import screenshot, sheet_path, visit
from tests.browser.night import ENTER
from tests.league.league_night import build_night, game, play, start

LONG_NAMES = (
    ("Maximiliana", "Featherstonehaugh-Wolfeschlegelstein"),
    ("Bartholomew", "Vanderhoeven-Oppenheimer"),
    ("Cy", "Li"),
    ("Anastasiya", "Konstantinopolskaya"),
)


@dataclass
class Sheet:
    group: m.Group
    names: list[str]
    """The group's players' names in play order of game 1."""


def _sheet(*, long_names: bool = False) -> Sheet:
    night = build_night(players=4)
    if long_names:
        for player, (first, last) in zip(night.players, LONG_NAMES, strict=True):
            player.first_name, player.last_name = first, last
            player.save(update_fields=["first_name", "last_name"])
    meet = start(night)
    first = game(meet, 1, 1)
    order = [
        p.player
        for p in first.group.members.select_related("player").order_by("position")  # ladder
    ]
    return Sheet(group=first.group, names=[str(p) for p in order])


@pytest.fixture
def sheet(live_server: object) -> Sheet:
    """Meet 1 open, one group of four, game 1 to enter."""
    return _sheet()


def _scores(phone: Page, names: list[str], scores: list[int | None]) -> None:
    for name, score in zip(names, scores, strict=True):
        if score is not None:
            phone.get_by_label(f"{name}’s score").fill(str(score))


def test_sheet_form_entered_by_keeps_its_choice_after_a_refused_entry(
    sheet: Sheet, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    phone = new_page("sheet form, phone")
    visit(phone, sheet_path(sheet.group))
    phone.get_by_label("Entered by").select_option(label=sheet.names[1])
    _scores(phone, sheet.names, [4_000, 3_000, 2_000, None])  # one score missing
    error_guard.expect_refusal(phone, 400)
    phone.get_by_role("button", name=ENTER).click()

    expect(phone.locator("form[data-offline-entry] .form-errors").first).to_be_visible()
    expect(phone.get_by_label("Entered by")).to_have_value(str(_pid(sheet, 1)))
    screenshot(phone, "sheet-form-entered-by-kept")


def test_sheet_form_entered_by_kept_on_the_page_the_server_answers(
    sheet: Sheet, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    """The plain POST (no script: the sheet's script is served empty) answers the page with
    the form as posted."""
    phone = new_page("sheet form, no script")
    phone.route(
        "**/scoresheet.js",
        lambda route: route.fulfill(body="", content_type="application/javascript"),
    )
    visit(phone, sheet_path(sheet.group))
    phone.get_by_label("Entered by").select_option(label=sheet.names[2])
    _scores(phone, sheet.names, [4_000, None, 2_000, 1_000])
    error_guard.expect_refusal(phone, 400)
    phone.get_by_role("button", name=ENTER).click()
    phone.wait_for_load_state("load")

    expect(phone.locator("p.error").first).to_be_visible()
    expect(phone.get_by_label("Entered by")).to_have_value(str(_pid(sheet, 2)))
    screenshot(phone, "sheet-form-entered-by-kept-no-script")


def _pid(sheet: Sheet, index: int) -> int:
    return int(sheet.group.members.order_by("position").values_list("player_id", flat=True)[index])


def test_sheet_form_forfeit_box_turns_the_score_box_off_and_on(
    sheet: Sheet, new_page: NewContext
) -> None:
    phone = new_page("sheet form, phone")
    visit(phone, sheet_path(sheet.group))
    name = sheet.names[3]
    box = phone.get_by_label(f"{name}’s score")
    box.fill("1234")
    forfeit = phone.locator("fieldset.score-row", has=box).get_by_label("No score (forfeit)")

    forfeit.check()
    expect(box).to_be_disabled()
    expect(box).to_have_value("")
    screenshot(phone, "sheet-form-forfeit-ticked")

    forfeit.uncheck()
    expect(box).to_be_enabled()
    expect(box).to_have_value("1234")


def test_sheet_form_forfeited_player_not_offered_as_the_confirmer_r3_a(
    sheet: Sheet, new_page: NewContext
) -> None:
    phone = new_page("sheet form, phone")
    visit(phone, sheet_path(sheet.group))
    names = sheet.names
    phone.get_by_label("Entered by").select_option(label=names[0])
    _scores(phone, names, [4_000, 3_000, 2_000, None])
    phone.locator("fieldset.score-row", has=phone.get_by_label(f"{names[3]}’s score")).get_by_label(
        "No score (forfeit)"
    ).check()
    phone.get_by_role("button", name=ENTER).click()

    confirmer = phone.get_by_label("Confirmed by")
    expect(confirmer).to_be_visible()
    offered = confirmer.locator("option").all_inner_texts()
    assert offered == ["Choose…", names[1], names[2]]
    screenshot(phone, "sheet-form-confirmers")


def test_sheet_form_fix_fold_looks_like_a_button_with_a_chevron(
    sheet: Sheet, new_page: NewContext
) -> None:
    phone = new_page("sheet form, phone")
    visit(phone, sheet_path(sheet.group))
    names = sheet.names
    phone.get_by_label("Entered by").select_option(label=names[0])
    _scores(phone, names, [4_000, 3_000, 2_000, 1_000])
    phone.get_by_role("button", name=ENTER).click()

    fold = phone.locator("details.fix > summary")
    expect(fold).to_be_visible()
    box = fold.bounding_box()
    assert box is not None
    assert box["height"] >= 48, box  # a large tap target
    assert box["width"] >= 300, box
    look = fold.evaluate(
        """(el) => {
          const s = getComputedStyle(el), after = getComputedStyle(el, "::after");
          return [s.borderTopStyle, s.borderTopWidth, after.content];
        }"""
    )
    assert look[0] == "solid", look
    assert look[1] != "0px", look
    assert look[2] == '"▾"', look
    screenshot(phone, "sheet-form-fix-closed")

    fold.click()
    expect(phone.locator("details.fix")).to_have_attribute("open", "")
    expect(phone.locator("details.fix form[data-offline-entry]")).to_be_visible()
    screenshot(phone, "sheet-form-fix-open")


@pytest.fixture
def correcting(live_server: object) -> Sheet:
    """Long names; game 1 confirmed, a correction of it waits for three answers."""
    sheet = _sheet(long_names=True)
    first = game(sheet.group.meet, 1, 1)
    members = [g.player for g in sheet.group.members.order_by("position")]
    play(first, {p: 1_000_000 * (4 - i) for i, p in enumerate(members)})
    request_correction(
        game=first,
        scores={members[3]: 1_500_000},
        requested_by=members[3],
        reason="The last score was 1,500,000.",
    )
    return sheet


def test_sheet_form_agree_disagree_rows_line_up_at_390_px(
    correcting: Sheet, new_page: NewContext
) -> None:
    phone = new_page("sheet form, phone")
    visit(phone, sheet_path(correcting.group))
    rows = phone.locator("form.answer")
    expect(rows).to_have_count(3)
    agree = [
        rows.nth(i).get_by_role("button", name="Agree", exact=True).bounding_box() for i in range(3)
    ]
    disagree = [
        rows.nth(i).get_by_role("button", name="Disagree", exact=True).bounding_box()
        for i in range(3)
    ]
    for boxes in (agree, disagree):
        assert all(b is not None for b in boxes)
        assert len({(round(b["x"]), round(b["width"]), round(b["height"])) for b in boxes}) == 1
    assert round(agree[0]["y"]) == round(disagree[0]["y"])  # side by side, never wrapped
    assert agree[0]["width"] >= 120
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the sheet scrolls sideways: {width} px"
    screenshot(phone, "sheet-form-answers-390")
