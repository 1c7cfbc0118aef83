"""The TV on a 1080p and a 720p screen (issue #11 item 9, issue 27 §5): a standings slide's
lines all fit on screen, 14 to 20 of them on one slide; a group whose match is over shows its
result (places and the night's points), a group still playing its play order with the
points so far.

Words:
- *slide*: one `[data-tv-panel]` of the TV; the rotation (tv.js) shows one at a time, the
  clock is held still here and the arrow keys step, as a person with a keyboard would.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, ViewportSize

from flipwell.league.exchange.demo import DemoLeague
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import TV, screenshot
from tests.league import league_night as night_

SMALL_TV = ViewportSize(width=1280, height=720)
SCREENS = {"1920x1080": TV, "1280x720": SMALL_TV}
MIN_TYPE_PX = 14  # readable across a bar on a 720-line TV

SHOWN_LABEL = """() => {
  const shown = [...document.querySelectorAll('[data-tv-panel]')].find((p) => !p.hidden);
  return shown ? shown.getAttribute('aria-label') : null;
}"""


@pytest.fixture
def twenty(live_server: object) -> night_.Night:
    """Twenty players in five groups of four: group 1 has played its match (its last ladder
    player won games 1 to 3), group 2 has played two games."""
    night = night_.build_night(players=20, machines=10)
    meet = night_.start(night)
    for number, games in ((1, 4), (2, 2)):
        members = [g.player for g in night_.group(meet, number).members.order_by("position")]
        current = night_.game(meet, number, 1)
        for played in range(1, games + 1):
            order = members if played == 4 else members[::-1]
            night_.play(current, {p: 1000 * (4 - i) for i, p in enumerate(order)})
            if played < games:
                current = night_.next_game(meet, number, order[3])
    return night


def open_tv(new_page: NewContext, slug: str, size: str) -> Page:
    tv = new_page(f"tv, {size}", viewport=SCREENS[size])
    tv.clock.install()  # keep the rotation still while a slide is measured
    tv.goto(f"/tv/{slug}/", wait_until="load")
    return tv


def step_to(tv: Page, label: str) -> None:
    """Step the rotation (arrow key) until the slide called `label` is shown."""
    for _ in range(tv.locator("[data-tv-panel]").count()):
        if tv.evaluate(SHOWN_LABEL) == label:
            return
        tv.keyboard.press("ArrowRight")
    raise AssertionError(f"no slide {label!r}")


def standings_fit(tv: Page, size: str) -> tuple[int, float]:
    """The shown standings slide's row count and type size; every row ends on screen."""
    rows = tv.locator("[data-tv-panel]:visible .tv-standings tbody tr")
    count = rows.count()
    last = rows.nth(count - 1).bounding_box()
    assert last is not None
    assert last["y"] + last["height"] <= SCREENS[size]["height"], f"row {count} is cut at {size}"
    size_px = tv.evaluate(
        "parseFloat(getComputedStyle(document.querySelector("
        "'[data-tv-panel]:not([hidden]) .tv-standings')).fontSize)"
    )
    return count, size_px


@pytest.mark.parametrize("size", list(SCREENS))
def test_tv_fit_twenty_standings_lines_on_one_slide(
    twenty: night_.Night, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    """Issue 27 §5: twenty lines on one slide, every one on screen, the type still readable."""
    tv = open_tv(new_page, twenty.league.slug, size)
    step_to(tv, "Standings")
    screenshot(tv, f"tv-standings-20-{size}")

    count, type_px = standings_fit(tv, size)

    assert tv.locator("[aria-label=Standings]").count() == 1
    assert count == 20
    assert type_px >= MIN_TYPE_PX


@pytest.mark.parametrize("size", list(SCREENS))
def test_tv_fit_the_demo_standings_share_two_slides_evenly(
    demo_league: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    """The demo's standings (more than twenty lines) on two slides of even length, in larger
    type than twenty lines get, each line on screen, still so after an htmx refresh (the
    rotation keeps its slide and fits it again)."""
    lines = demo_league.current_season.entries.count()
    tv = open_tv(new_page, demo_league.league.slug, size)
    step_to(tv, "Standings")
    count, type_px = standings_fit(tv, size)
    # What the 15 s refresh does (hx-get on #tv-panels), awaited.
    tv.evaluate(
        "() => htmx.ajax('GET', location.pathname, {target: '#tv-panels', swap: 'innerHTML'})"
    )
    screenshot(tv, f"tv-standings-demo-{size}")

    assert 20 < lines <= 40
    assert tv.locator("[aria-label=Standings]").count() == 2
    assert count == -(-lines // 2)  # the first slide holds the odd line
    assert tv.evaluate(SHOWN_LABEL) == "Standings"
    assert standings_fit(tv, size) == (count, type_px)
    assert type_px > SCREENS[size]["height"] * 0.022  # larger than twenty lines' type


@pytest.mark.parametrize("size", list(SCREENS))
def test_tv_groups_show_the_result_and_the_points_so_far(
    twenty: night_.Night, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    """§4, R3.3-a: group 1's match is over: its places and night totals, the winner first;
    group 2 is playing game 3: its play order with the points so far. Nothing is cut."""
    tv = open_tv(new_page, twenty.league.slug, size)
    step_to(tv, "Tonight's groups")
    screenshot(tv, f"tv-groups-{size}")

    first, second = tv.locator(".tv-group").nth(0), tv.locator(".tv-group").nth(1)
    assert first.locator(".tv-result li").all_inner_texts()[0].split()[0] == "1st"
    assert "23 pts" in first.locator(".tv-result li").all_inner_texts()[0]
    assert first.locator(".tv-order").count() == 0
    assert second.locator(".tv-order li .tv-points").count() == 4
    for group in tv.locator(".tv-group").all():
        box = group.bounding_box()
        assert box is not None
        assert box["y"] + box["height"] <= SCREENS[size]["height"]
        assert box["x"] + box["width"] <= SCREENS[size]["width"]
