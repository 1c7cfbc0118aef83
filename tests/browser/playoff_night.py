"""The console's playoff night as the official plays it in the browser: the finished season's
league (the ``finished_season`` fixture of tests/browser/conftest.py), its qualification and
its seed ties settled from the console's playoffs page."""

from __future__ import annotations

import datetime
import re

from playwright.sync_api import Page, expect

from tests.browser.helpers import screenshot
from tests.browser.night import shows

LEAGUE = "Tuesday Flippers"
FIRST_MEET = datetime.date(2026, 1, 6)
NIGHT = datetime.date(2026, 3, 24)
TIED = re.compile(r"^(?P<names>.+) are tied at")


def qualify(official: Page) -> None:
    """Qualify the players for the night (R6.1) from the console's playoffs page."""
    official.goto("/manage/")
    official.get_by_role("link", name=LEAGUE).first.click()
    official.get_by_role("link", name="Playoffs", exact=True).first.click()
    expect(official.get_by_role("heading", name="Playoffs of Winter 2026")).to_be_visible()
    screenshot(official, "playoffs-console-before-qualification")
    official.get_by_label("Playoff night").fill(NIGHT.isoformat())
    official.get_by_role("button", name="Qualify").click()
    shows(official, "Qualification done.")


def settle_seed_ties(official: Page) -> list[list[str]]:
    """Record a single-ball seed playoff (R6.1-e) for each tie the console lists, the player
    listed last winning it; the tied names, in the order the console listed them."""
    settled: list[list[str]] = []
    ties = official.locator("section.panel").filter(
        has=official.get_by_role("heading", name="Ties to settle")
    )
    while ties.count():
        tie = ties.locator("article.seed-tie").first  # one form per tie, its players only
        found = TIED.match(tie.get_by_role("heading").inner_text())
        assert found, f"a tie the test cannot read: {tie.inner_text()!r}"
        names = re.split(r", | and ", found["names"])
        for place, name in enumerate(reversed(names), start=1):
            tie.get_by_label(f"Place {place}").select_option(label=name)
        screenshot(official, f"playoffs-console-seed-playoff-{len(settled) + 1}")
        tie.get_by_role("button", name="Record this seed playoff").click()
        shows(official, "Seed playoff recorded.")
        settled.append(names)
    return settled
