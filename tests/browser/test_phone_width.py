"""No page scrolls sideways on a 390 px phone (issue #11, item 10): every page type is opened at
390x844 and its document may be no wider than the screen; a wide table scrolls inside its own
box, never the page. The sheet's score table shows every player of the group."""

from __future__ import annotations

import datetime

from django.urls import reverse
from playwright.sync_api import Page, expect

from flipwell.league import models as m
from flipwell.league.exchange.demo import DEMO_USERNAME, DemoLeague
from flipwell.league.notice_links import preferences_token
from flipwell.league.services.player_links import issue_player_link
from tests.browser.conftest import ErrorGuard, NewContext
from tests.browser.helpers import PHONE, console_pages, log_in, public_pages, screenshot, sheet_path

TODAY = datetime.date(2026, 3, 10)


def too_wide(page: Page, pages: dict[str, str]) -> list[str]:
    """Each of `pages` whose document is wider than the phone, with its width."""
    wide = []
    for name, url in pages.items():
        response = page.goto(url, wait_until="load")
        if response is None or response.status == 405:  # an action (POST only), not a page
            continue
        width = page.evaluate("document.scrollingElement.scrollWidth")
        if width > PHONE["width"]:
            wide.append(f"{name} ({url}): {width} px")
    return wide


def test_phone_width_no_page_scrolls_sideways(
    demo_league: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    meet = demo_league.current_season.meets.get(status=m.Meet.Status.OPEN)
    slug = demo_league.league.slug
    group = meet.groups.order_by("number").first()
    assert group is not None
    others = {
        "sheet": sheet_path(group),
        "login": "/manage/login/",
        "print-sheets": f"/print/{slug}/meets/{meet.pk}/sheets/",
        "print-standings": f"/print/{slug}/standings/",
        "print-maintenance": f"/print/{slug}/maintenance/",
        "tv": f"/tv/{slug}/",
        "notice-preferences": _notice_preferences(demo_league),
    }
    visitor = new_page("visitor, phone")
    official = new_page("official, phone")
    log_in(official, DEMO_USERNAME, demo_league.password)

    wide = too_wide(visitor, {**public_pages(demo_league), **others})
    wide += too_wide(official, console_pages(demo_league))
    player = meet.groups.order_by("number").first().members.order_by("position").first().player
    roster = f"/manage/{slug}/seasons/{demo_league.current_season.pk}/roster/"
    issue_player_link(season=demo_league.current_season, player=player, actor=demo_league.official)
    wide += too_wide(official, {"roster-link": f"{roster}?link={player.pk}"})

    assert not wide, "pages wider than a 390 px phone:\n" + "\n".join(wide)


def _notice_preferences(demo_league: DemoLeague) -> str:
    """A player's notice preferences page (the link in their e-mails), their notices set."""
    player = m.Player.objects.filter(season_entries__season=demo_league.current_season).first()
    assert player is not None
    league = demo_league.league
    m.NoticeSubscription.objects.create(
        league=league, player=player, email="player@example.org", groups=True
    )
    return reverse("web:notice_preferences", args=[preferences_token(league.pk, player.pk)])


def test_phone_width_sheet_score_table_shows_the_fourth_player(
    demo_league: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    meet = demo_league.current_season.meets.get(status=m.Meet.Status.OPEN)
    group = meet.groups.order_by("number").first()
    assert group is not None
    phone = new_page("sheet, phone")
    phone.goto(sheet_path(group), wait_until="load")

    # On a phone each game stacks its cells, one line per player named in the cell (issue 33
    # §3): the fourth player's line is on screen, under his name.
    headers = phone.locator("#games-title ~ div table thead th")
    cells = phone.locator("#games-title ~ div table tbody tr:not(.game-title)").first.locator("td")
    last = cells.last.bounding_box()
    label = cells.last.evaluate("td => getComputedStyle(td, '::before').content")

    assert headers.count() == 5
    assert cells.count() == 4
    assert last is not None
    assert last["x"] + last["width"] <= PHONE["width"]
    assert label == f'"{headers.last.text_content()}"'


def test_phone_width_player_page_why_opens_with_a_visible_marker(
    demo_league: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    """Issue #11, item 6: each game's explanation has a visible marker and opens on a tap."""
    player = m.Player.objects.filter(season_entries__season=demo_league.finished_season).first()
    assert player is not None
    phone = new_page("player, phone")
    phone.goto(f"/leagues/{demo_league.league.slug}/players/{player.pk}/", wait_until="load")
    game = phone.locator("details.game").first
    summary = game.locator(":scope > summary")  # not the rules' "Why" folded inside it
    marker = summary.locator(":scope > span").first.evaluate(
        "span => getComputedStyle(span, '::before').content"
    )

    summary.tap()

    assert marker == '"▸"'
    assert game.evaluate("details => details.open")
    assert game.locator(".why li").first.is_visible()


LONG_NAME = ("Maximiliana", "Oppenheimer-Castellanos")
# Where a line of each table header or row header breaks inside a word (not after a space or
# a hyphen): a break is found where a character sits lower than the one before it.
BREAKS_MID_WORD = """(cell) => {
  const found = [];
  const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    let top = null;
    for (let i = 0; i < text.length; i++) {
      const range = document.createRange();
      range.setStart(node, i);
      range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (!rect || !text[i].trim()) continue;
      if (top !== null && rect.top > top + 2 && !/[\\s-]/.test(text[i - 1])) {
        found.push(text.slice(Math.max(0, i - 6), i) + "|" + text.slice(i, i + 6));
      }
      top = rect.top;
    }
  }
  return found;
}"""


def tables_cut(page: Page) -> list[str]:
    """Each table of `page` wider than its box (its last columns cut until scrolled), and each
    header broken inside a word."""
    problems = []
    for index, table in enumerate(page.locator("table").all()):
        box = table.evaluate("t => [t.parentElement.clientWidth, t.offsetWidth]")
        if box[1] > box[0]:
            problems.append(f"{page.url}: table {index + 1} is {box[1]} px in a {box[0]} px box")
        for cell in table.locator("th").all():
            for mid_word in cell.evaluate(BREAKS_MID_WORD):
                problems.append(f"{page.url}: table {index + 1} breaks {mid_word!r}")
    return problems


def test_phone_width_group_tables_fit_and_wrap_names_at_spaces(
    demo_league: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    """Issue #11, item 4: at 390 px the console's meet page, the public board and the score
    sheet show each group's four players without sideways scrolling, and a long name wraps
    between its words, never inside one."""
    meet = demo_league.current_season.meets.get(status=m.Meet.Status.OPEN)
    group = meet.groups.order_by("number").first()
    assert group is not None
    member = group.members.order_by("position").first()
    assert member is not None
    m.Player.objects.filter(pk=member.player_id).update(
        first_name=LONG_NAME[0], last_name=LONG_NAME[1]
    )
    official = new_page("official, phone")
    log_in(official, DEMO_USERNAME, demo_league.password)
    official.goto(f"/manage/{demo_league.league.slug}/meets/{meet.pk}/", wait_until="load")
    sheet = new_page("sheet, phone")
    sheet.goto(sheet_path(group), wait_until="load")
    board = new_page("board, phone")
    board.goto(f"/leagues/{demo_league.league.slug}/meets/{meet.pk}/", wait_until="load")

    problems = [problem for page in (official, sheet, board) for problem in tables_cut(page)]

    screenshot(official, "phone-width-console-meet-long-name")
    screenshot(sheet, "phone-width-sheet-long-name")
    screenshot(board, "phone-width-board-long-name")
    assert " ".join(LONG_NAME) in sheet.locator("#games-title ~ div table thead").inner_text()
    assert not problems, "\n".join(problems)


def test_phone_width_merge_players_confirmation_fits(
    demo_league: DemoLeague, new_page: NewContext, error_guard: ErrorGuard
) -> None:
    """Issue #13 part 5: the console's merge review shows both players' seasons on a phone."""
    kept = m.Player.objects.filter(season_entries__season=demo_league.finished_season).first()
    assert kept is not None
    summer = m.Season.objects.create(
        league=demo_league.league, name="Summer", weekday=1, start_time="19:00", number_of_meets=8
    )
    twin = m.Player.objects.create(first_name=kept.first_name, last_name=f"{kept.last_name}-X")
    m.SeasonEntry.objects.create(season=summer, player=twin)
    phone = new_page("merge, phone")
    log_in(phone, DEMO_USERNAME, demo_league.password)
    phone.goto(f"/manage/{demo_league.league.slug}/players/merge/", wait_until="load")
    phone.locator("#id_kept").select_option(value=str(kept.pk))
    phone.locator("#id_merged").select_option(value=str(twin.pk))
    phone.locator("#id_reason").fill("Entered twice.")

    phone.get_by_role("button", name="Review").tap()

    expect(phone.get_by_role("heading", name="Are these one person?")).to_be_visible()
    assert phone.evaluate("document.scrollingElement.scrollWidth") <= PHONE["width"]
