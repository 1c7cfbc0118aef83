"""Players sign up for the next season, and the official builds it from their answers
(issue 37 §2).

Winter 2026 of the Tuesday Flippers has four players, each with a personal link. At 1280 px
the official asks them "Playing in Spring 2027?" and opens the public sign-up form. On 390 px
phones Ana answers Yes on her link, Bo answers Not sure then changes it to No, Di answers Yes,
Cy does not answer; Eve, a newcomer, signs up from the public form (a mistyped address is
refused first, with why). Back at 1280 px the official sees who answered what, accepts Eve
and builds Spring 2027: Ana, Di and Eve are ticked, Bo and Cy are not. Screenshots:
artifacts/screenshots/signups-*.png.
"""

from __future__ import annotations

from playwright.sync_api import Page, expect

from flipwell.league import models as m
from flipwell.league.player_link_tokens import token_for
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import DESKTOP, PHONE, audit, log_in, screenshot, visit
from tests.browser.night import OFFICIAL, PASSWORD
from tests.league.season_calls import NEXT, Winter, first_meet, winter


def fits(page: Page) -> None:
    """The page has no serious accessibility fault and does not scroll sideways on a phone."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    assert page.evaluate("document.scrollingElement.scrollWidth") <= width
    assert audit(page) == []


def ask(official: Page, last: Winter) -> str:
    """The official asks the players and opens the sign-up form; the page's path."""
    path = f"/manage/tuesday/seasons/{last.season.pk}/next/"
    visit(official, path)
    official.get_by_label("The season you ask about").fill(NEXT)
    official.get_by_label("First meet").fill(first_meet().isoformat())
    official.get_by_label("Dues").fill("30.00")
    official.get_by_role("button", name="Ask the players").click()
    expect(official.get_by_role("status")).to_contain_text(f"Question asked: Playing in {NEXT}?")
    official.get_by_role("button", name="Open the sign-up form").click()
    expect(official.get_by_role("status")).to_contain_text("The sign-up form for Spring 2027 is")
    screenshot(official, "signups-1-asked-desktop")
    return path


def answer(phone: Page, link: m.PlayerLink, *answers: str) -> None:
    """A player taps each of `answers` in turn on their personal link."""
    visit(phone, f"/me/{token_for(link)}/")
    expect(phone.get_by_role("heading", name=f"Playing in {NEXT}?")).to_be_visible()
    for said in answers:
        phone.get_by_role("button", name=said, exact=True).click()
        expect(phone.get_by_role("status")).to_contain_text(f"Your answer for {NEXT} is saved")
        expect(phone.get_by_text(f"You answered {said}")).to_be_visible()


def sign_up(phone: Page, error_guard: ErrorGuard) -> None:
    """Eve signs up from the public form, a mistyped address first (refused: 400)."""
    error_guard.expect_refusal(phone, 400)
    visit(phone, "/leagues/tuesday/sign-up/")
    phone.get_by_label("First name").fill("Eve")
    phone.get_by_label("Last name").fill("Newcomer")
    phone.get_by_label("E-mail address").fill("eve@example")
    phone.get_by_role("button", name=f"Sign up for {NEXT}").click()
    expect(phone.get_by_role("alert")).to_contain_text("is not an e-mail address")
    fits(phone)
    screenshot(phone, "signups-4-refused-phone")
    phone.get_by_label("E-mail address").fill("eve.newcomer.who.plays.tuesdays@example.org")
    phone.get_by_role("button", name=f"Sign up for {NEXT}").click()
    expect(phone.get_by_role("status")).to_contain_text("Thank you, Eve")
    fits(phone)
    screenshot(phone, "signups-5-sent-phone")


def test_players_answer_on_their_phones_and_the_official_builds_the_season(
    new_page: NewContext, error_guard: ErrorGuard
) -> None:
    last = winter(username=OFFICIAL)
    official = new_page("official", viewport=DESKTOP)
    log_in(official, OFFICIAL, PASSWORD)
    path = ask(official, last)

    ana, bo, di = new_page("Ana's phone"), new_page("Bo's phone"), new_page("Di's phone")
    answer(ana, last.links[0], "Yes")
    fits(ana)
    screenshot(ana, "signups-2-yes-phone")
    answer(bo, last.links[1], "Not sure", "No")
    expect(bo.get_by_role("button", name="No", exact=True)).to_have_attribute(
        "aria-pressed", "true"
    )
    fits(bo)
    screenshot(bo, "signups-3-changed-phone")
    answer(di, last.links[3], "Yes")
    sign_up(new_page("Eve's phone"), error_guard)

    visit(official, path)
    for tally in ("Yes: 2", "No: 1", "Not sure: 0", "Not answered: 1"):
        expect(official.get_by_text(tally)).to_be_visible()
    official.get_by_role("button", name="Accept Eve Newcomer").click()
    expect(official.get_by_role("status")).to_contain_text("Eve Newcomer's sign-up is accepted.")
    expect(official.get_by_label("Ana Flipper (Yes)")).to_be_checked()
    expect(official.get_by_label("Di Flipper (Yes)")).to_be_checked()
    expect(official.get_by_label("Bo Flipper (No)")).not_to_be_checked()
    expect(official.get_by_label("Cy Flipper (not answered)")).not_to_be_checked()
    expect(official.get_by_label("Eve Newcomer")).to_be_checked()
    fits(official)
    screenshot(official, "signups-6-answers-desktop")
    official_phone = new_page("official's phone", viewport=PHONE)
    log_in(official_phone, OFFICIAL, PASSWORD)
    visit(official_phone, path)
    fits(official_phone)
    screenshot(official_phone, "signups-6-answers-phone")

    official.get_by_role("button", name="Prepare the next season").click()
    expect(official.get_by_role("status")).to_contain_text(
        f"{NEXT} is prepared from Winter 2026 with 2 of its 4 players and 1 newcomer."
    )
    spring = m.Season.objects.get(name=NEXT)
    assert sorted(str(e.player) for e in spring.entries.select_related("player")) == [
        "Ana Flipper", "Di Flipper", "Eve Newcomer",
    ]  # fmt: skip
    screenshot(official, "signups-7-roster-desktop")
