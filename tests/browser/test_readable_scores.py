"""What a player reads at 390 px (a phone) and 1280 px (a laptop), issue 33 §3: in a league of
4-player groups with 13-digit scores (conftest's `billions`), no score breaks inside itself,
no page scrolls sideways, every standings column can be read, the points chart shows every
meet and names every line, the bracket's champion is on screen, and the TV fits a phone.

Words:
- *score*: a number of at least seven digits written with thousands separators
  ("1,234,567,508,460"), found in the text of the page whatever its markup (a `<wbr>` inside
  it included); it *breaks* when its last digit is on a lower line than its first.
- *cue*: the line that tells a reader a table scrolls sideways (`.scroll-cue`).
"""

from __future__ import annotations

import itertools
import re

import pytest
from django.urls import reverse
from playwright.sync_api import Page

from flipwell.league import models as m
from flipwell.league.exchange.demo import DEMO_USERNAME, DemoLeague
from flipwell.league.models.results import new_revision
from flipwell.league.selectors.playoffs.bracket import playoff_bracket
from flipwell.league.services.corrections.request import request_correction
from flipwell.web.scoresheet_tokens import match_sheet_path
from tests.browser.conftest import BILLIONS, ErrorGuard, NewContext
from tests.browser.helpers import (
    DESKTOP,
    OVERFLOWS,
    PHONE,
    log_in,
    screenshot,
    settle,
    sheet_path,
)

SIZES = {"phone": PHONE, "desktop": DESKTOP}

# Every score shown (see the module docstring) whose first and last digits are not on one
# line. Text nodes joined by a <wbr> are read as one text; any other boundary separates.
BROKEN_SCORES = r"""() => {
  const nodes = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) nodes.push(node);
  let text = "";
  const where = [];  // for each character of `text`: [node, offset] (null for a separator)
  nodes.forEach((node, index) => {
    const before = node.previousSibling;
    const joined = index > 0 && before && before.nodeName === "WBR"
      && before.previousSibling === nodes[index - 1];
    if (!joined) { text += "\n"; where.push(null); }
    for (let i = 0; i < node.textContent.length; i++) where.push([node, i]);
    text += node.textContent;
  });
  const box = (at) => {
    const range = document.createRange();
    range.setStart(at[0], at[1]);
    range.setEnd(at[0], at[1] + 1);
    return range.getClientRects()[0];
  };
  const found = [];
  let shown = 0;
  for (const match of text.matchAll(/\d{1,3}(?:,\d{3}){2,}/g)) {
    const first = box(where[match.index]);
    const last = box(where[match.index + match[0].length - 1]);
    if (!first || !last) continue;  // not shown (a fold closed, a view for another width)
    shown += 1;
    if (last.top > first.top + 2) found.push(match[0]);
  }
  return {shown, broken: found};
}"""


def score_problems(page: Page, name: str, size: str) -> tuple[int, list[str]]:
    """How many scores `page` shows, and each broken score and each overflow (the page wider
    than the window, an element out of its box), the page photographed."""
    width = SIZES[size]["width"]
    settle(page)
    screenshot(page, f"readable-{name}-{size}")
    found = page.evaluate(BROKEN_SCORES)
    problems = [f"{name} at {width} px breaks {score!r}" for score in found["broken"]]
    document = page.evaluate("document.scrollingElement.scrollWidth")
    if document > width:
        problems.append(f"{name} at {width} px: the page is {document} px wide")
    problems += [f"{name} at {width} px: {what}" for what in page.evaluate(OVERFLOWS, width)]
    return found["shown"], problems


def open_at(new_page: NewContext, label: str, size: str) -> Page:
    return new_page(f"{label}, {size}", viewport=SIZES[size])


@pytest.mark.parametrize("size", list(SIZES))
def test_readable_scores_no_score_breaks_on_boards_sheets_and_corrections(
    billions: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    """Issue 33 §3: the public meet board (open and closed meet), the console's meet page, a
    group's score sheet with a correction waiting for answers, and a playoff match sheet show
    every 13-digit score of a group of four on one line, and nothing scrolls sideways."""
    demo = billions
    slug = demo.league.slug
    open_meet = demo.current_season.meets.get(status=m.Meet.Status.OPEN)
    closed_meet = demo.finished_season.meets.order_by("-number").first()
    assert closed_meet is not None
    group = open_meet.groups.order_by("number").first()
    assert group is not None
    game = group.games.filter(number=1).get()
    members = [member.player for member in group.members.order_by("position")]
    assert len(members) == 4
    request_correction(
        game=game,
        scores={members[3]: BILLIONS + 987_654_321},
        requested_by=members[0],
        reason="The last digits were typed twice.",
    )
    # The playoff night as it is once its final is played and before the official closes it
    # (a closed night's sheets no longer open).
    night = m.PlayoffNight.objects.get(season=demo.finished_season)
    m.PlayoffNight.objects.filter(pk=night.pk).update(status=m.PlayoffNight.Status.OPEN)
    (division,) = playoff_bracket(demo.finished_season).divisions
    visitor = open_at(new_page, "visitor", size)
    official = open_at(new_page, "official", size)
    log_in(official, DEMO_USERNAME, demo.password)
    shown: dict[str, int] = {}
    problems: list[str] = []

    for page, name, url in (
        (visitor, "board-open", f"/leagues/{slug}/meets/{open_meet.pk}/"),
        (visitor, "board-closed", f"/leagues/{slug}/meets/{closed_meet.pk}/"),
        (visitor, "sheet-correction", sheet_path(group)),
        (visitor, "playoff-sheet", match_sheet_path(night.pk, division.name, "F")),
        (official, "console-meet-open", f"/manage/{slug}/meets/{open_meet.pk}/"),
        (official, "console-meet-closed", f"/manage/{slug}/meets/{closed_meet.pk}/"),
    ):
        page.goto(url, wait_until="load")
        if name == "sheet-correction":  # the answers: "name: before → after"
            page.locator("article.correction").scroll_into_view_if_needed()
        shown[name], found = score_problems(page, name, size)
        problems += found

    assert not problems, "\n".join(problems)
    # Every score of the demo's groups: two games played tonight, four at the closed meet
    # (a forfeit or an absence has none); a sheet's two games and the correction's before and
    # after; the final's three games of four players.
    assert shown == {
        "board-open": 44,
        "board-closed": 84,
        "sheet-correction": 4 * 2 + 2,
        "playoff-sheet": 4 * 3,
        "console-meet-open": 44,
        "console-meet-closed": 84,
    }


# The standings table's box (`.table-wrap`) and its columns: the box's width and scroll width,
# whether it scrolls sideways, whether a cue says so; each column's header, whether it shows
# and where it ends once the box is scrolled to its end; each badge, whether its word is cut.
STANDINGS_COLUMNS = """() => {
  const table = document.querySelector("table.standings");
  const wrap = table.closest(".table-wrap");
  const cue = document.querySelector(".scroll-cue");
  const cueBox = cue ? cue.getBoundingClientRect() : null;
  const scrolls = wrap.scrollWidth > wrap.clientWidth
    && ["auto", "scroll"].includes(getComputedStyle(wrap).overflowX);
  wrap.scrollLeft = wrap.scrollWidth;
  const right = wrap.getBoundingClientRect().right;
  const columns = [...table.tHead.rows[0].cells].map((th) => {
    const box = th.getBoundingClientRect();
    return {name: th.innerText.trim(), shown: box.width > 0, inside: box.right <= right + 1};
  });
  const badges = [...table.querySelectorAll(".badge")].map((badge) => ({
    text: badge.innerText.trim(),
    cut: badge.scrollWidth > badge.clientWidth + 1 || badge.getClientRects().length > 1
      || badge.getBoundingClientRect().right > right + 1,
  }));
  wrap.scrollLeft = 0;
  return {
    scrolls,
    cue: Boolean(cueBox && cueBox.width > 0 && cueBox.bottom > 0
      && cueBox.right <= window.innerWidth && cue.checkVisibility()),
    columns, badges,
  };
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_readable_scores_standings_show_every_column_or_say_they_scroll(
    billions: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    """Issue 33 §3: the standings of the finished season (every player clinched or
    eliminated) and of the season being played: every column, Playoffs and Over the meets
    included, is shown and can be scrolled to; a table wider than the screen says it scrolls;
    no badge is cut ("clinched", "eliminated" whole); the page itself never scrolls sideways."""
    demo = billions
    slug = demo.league.slug
    page = open_at(new_page, "visitor", size)
    problems: list[str] = []
    badges: list[str] = []

    for name, url in (
        ("standings-finished", f"/leagues/{slug}/seasons/{demo.finished_season.pk}/"),
        ("standings-current", f"/leagues/{slug}/"),
    ):
        page.goto(url, wait_until="load")
        _shown, found = score_problems(page, name, size)
        problems += found
        table = page.evaluate(STANDINGS_COLUMNS)
        names = [column["name"] for column in table["columns"]]
        assert names[-2:] == ["Playoffs", "Over the meets"]
        problems += [
            f"{name}: column {c['name']!r} {'is not reached' if c['shown'] else 'is hidden'}"
            for c in table["columns"]
            if not (c["shown"] and c["inside"])
        ]
        if table["scrolls"] and not table["cue"]:
            problems.append(f"{name}: the table scrolls sideways and nothing says so")
        problems += [f"{name}: badge {b['text']!r} is cut" for b in table["badges"] if b["cut"]]
        badges += [b["text"] for b in table["badges"]]
        page.locator(".table-wrap").evaluate("(wrap) => { wrap.scrollLeft = wrap.scrollWidth; }")
        screenshot(page, f"readable-{name}-scrolled-{size}")

    assert not problems, "\n".join(problems)
    assert {"clinched", "eliminated"} <= set(badges)


# The visible points chart: each meet's number on the axis and each name at a line's end, with
# its box on the page, and the figure's visible box.
CHART = """() => {
  const chart = [...document.querySelectorAll("svg.points-chart")]
    .find((svg) => svg.getBoundingClientRect().width > 0);
  const figure = chart.closest("figure").getBoundingClientRect();
  const box = (el) => {
    const r = el.getBoundingClientRect();
    return {text: el.textContent, left: r.left, right: r.right, top: r.top, bottom: r.bottom};
  };
  return {
    figure: {left: figure.left, right: Math.min(figure.right, window.innerWidth)},
    ticks: [...chart.querySelectorAll("text.axis")].filter((t) => t.getAttribute("y")
      === chart.querySelector("text.axis-title").previousElementSibling.getAttribute("y"))
      .map(box),
    labels: [...chart.querySelectorAll("text.label")].map(box),
    fontPx: parseFloat(getComputedStyle(chart.querySelector("text.label")).fontSize)
      * chart.getBoundingClientRect().width / chart.viewBox.baseVal.width,
  };
}"""


def overlap(a: dict[str, float], b: dict[str, float]) -> bool:
    return (
        a["left"] < b["right"]
        and b["left"] < a["right"]
        and a["top"] < b["bottom"]
        and b["top"] < a["bottom"]
    )


@pytest.mark.parametrize("size", list(SIZES))
def test_readable_scores_points_chart_shows_every_meet_and_names_every_line(
    billions: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    """Issue 33 §3: the standings' points chart shows meets 0 to 4 (the open meet included)
    within the screen, and one name per player (22 of them), none overlapping another, each
    on screen and readable."""
    demo = billions
    players = demo.current_season.entries.count()
    page = open_at(new_page, "visitor", size)
    page.goto(f"/leagues/{demo.league.slug}/", wait_until="load")
    page.locator("figure.chart-figure").scroll_into_view_if_needed()
    screenshot(page, f"readable-chart-{size}")

    chart = page.evaluate(CHART)

    inside = chart["figure"]
    ticks = [t["text"] for t in chart["ticks"] if inside["left"] <= t["left"] <= inside["right"]]
    labels = chart["labels"]
    assert ticks == ["0", "1", "2", "3", "4"]
    assert len(labels) == players == 22
    assert [
        (a["text"], b["text"]) for a, b in itertools.combinations(labels, 2) if overlap(a, b)
    ] == []
    assert [label["text"] for label in labels if label["right"] > inside["right"]] == []
    assert chart["fontPx"] >= 11


@pytest.mark.parametrize("size", list(SIZES))
def test_readable_scores_bracket_shows_the_champion(
    billions: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    """Issue 33 §3, R6.3-e: the public playoffs page shows the final's box with its champion
    ("1. name") on screen, at a readable size, without scrolling the page or the bracket's
    box sideways."""
    (division,) = playoff_bracket(billions.finished_season).divisions
    champion = division.places[0][1].name
    page = open_at(new_page, "visitor", size)
    page.goto(f"/leagues/{billions.league.slug}/playoffs/", wait_until="load")
    name = page.locator("svg.bracket text.player", has_text=re.compile(rf"^1\. {champion}$"))
    shown = next(n for n in name.all() if n.bounding_box())
    # Down to the bracket, as a reader scrolls the page; nothing is scrolled sideways.
    page.evaluate(
        "(el) => window.scrollTo(0, el.getBoundingClientRect().top - 200)", shown.element_handle()
    )
    screenshot(page, f"readable-bracket-{size}")

    box = shown.bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= SIZES[size]["width"]
    assert box["height"] >= 11  # a readable name, not a shrunken picture
    assert page.evaluate("document.scrollingElement.scrollWidth") <= SIZES[size]["width"]


# Where a name on the TV breaks inside a word (a character lower than the one before it, not
# after a space or a hyphen).
NAME_BREAKS = r"""() => {
  const found = [];
  for (const el of document.querySelectorAll(".tv-name")) {
    if (!el.getClientRects().length) continue;
    const node = el.firstChild;
    let top = null;
    for (let i = 0; node && i < node.textContent.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect || !node.textContent[i].trim()) continue;
      if (top !== null && rect.top > top + 2 && !/[\s-]/.test(node.textContent[i - 1])) {
        found.push(node.textContent.slice(0, i) + "|" + node.textContent.slice(i));
      }
      top = rect.top;
    }
  }
  return found;
}"""


SHOWN_SLIDE = """() => {
  const shown = [...document.querySelectorAll('[data-tv-panel]')].find((p) => !p.hidden);
  return shown ? shown.getAttribute('aria-label') : null;
}"""


@pytest.mark.parametrize("size", list(SIZES))
def test_readable_scores_tv_fits_a_phone_beside_its_qr_codes(
    billions: DemoLeague, new_page: NewContext, error_guard: ErrorGuard, size: str
) -> None:
    """Issue 33 §3: the TV opened by a signed-in official (each group's QR code beside it),
    a player with a long name in group 1: on every slide (tonight's groups, the standings;
    before the next season's first meet, the last playoffs' bracket) the page is no wider
    than the screen, and no name breaks inside a word."""
    open_meet = billions.current_season.meets.get(status=m.Meet.Status.OPEN)
    group = open_meet.groups.order_by("number").first()
    assert group is not None
    member = group.members.order_by("position").first()
    assert member is not None
    m.Player.objects.filter(pk=member.player_id).update(
        first_name="Maximiliana", last_name="Oppenheimer-Castellanos"
    )
    page = open_at(new_page, "tv", size)
    log_in(page, DEMO_USERNAME, billions.password)
    page.clock.install()  # the rotation stays still; the arrow keys step it
    page.goto(reverse("web:tv", args=[billions.league.slug]), wait_until="load")
    groups = page.locator(".tv-group").all()
    assert page.locator(".tv-qr svg").count() == len(groups) > 0

    slides, problems = tv_slides(page, size, "night")
    # Before the new season's first meet the TV shows the last playoffs' bracket.
    m.Meet.objects.filter(season=billions.current_season).update(status=m.Meet.Status.PLANNED)
    m.League.objects.filter(pk=billions.league.pk).update(revision=new_revision())
    page.goto(reverse("web:tv", args=[billions.league.slug]), wait_until="load")
    more_slides, more_problems = tv_slides(page, size, "bracket")

    assert problems + more_problems == []
    assert sorted(set(slides)) == ["Standings", "Tonight's groups"]
    assert "Playoff bracket" in more_slides


def tv_slides(page: Page, size: str, name: str) -> tuple[list[str], list[str]]:
    """Each slide of the TV, stepped through with the arrow key and photographed, and each
    slide wider than the screen or breaking a name inside a word."""
    slides: list[str] = []
    problems: list[str] = []
    for number in range(page.locator("[data-tv-panel]").count()):
        slide = page.evaluate(SHOWN_SLIDE)
        slides.append(slide)
        where = f"{name} slide {number + 1} ({slide})"
        width = page.evaluate("document.scrollingElement.scrollWidth")
        if width > SIZES[size]["width"]:
            problems.append(f"{where} is {width} px wide: {page.evaluate(OVERFLOWS, width)}")
        problems += [f"{where} breaks {broken!r}" for broken in page.evaluate(NAME_BREAKS)]
        screenshot(page, f"readable-tv-{name}-{number + 1}-{size}")
        page.keyboard.press("ArrowRight")
    return slides, problems
