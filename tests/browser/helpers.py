"""Helpers of the browser tests: screen sizes, screenshots, page visits, logging in, and the
accessibility audit.

Words:
- *audit*: axe-core (vendored for the tests in tests/browser/vendor/, never served by the app)
  run over a loaded page; a *serious* or *critical* violation (a field without a label, text
  too faint to read, a button without a name, content outside any landmark...) fails it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver, reverse
from playwright.sync_api import Error, Page, ViewportSize

from flipwell.league import models as m
from flipwell.league.exchange.demo import DemoLeague
from flipwell.league.player_link_tokens import token_for
from flipwell.league.services.machine_care import report_machine_problem
from flipwell.league.services.player_links import issue_player_link

PHONE = ViewportSize(width=390, height=844)
DESKTOP = ViewportSize(width=1280, height=800)
TV = ViewportSize(width=1920, height=1080)
ROOT = Path(__file__).resolve().parents[2]
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
# The sizes every page type is photographed at: a phone at the machine, an official's laptop.
SIZES = {"phone": PHONE, "desktop": DESKTOP}
PRINT = ViewportSize(width=794, height=1123)  # an A4 page at 96 dots per inch
TIMEOUT_MS = 10_000
OK = 200
METHOD_NOT_ALLOWED = 405
SIGN_IN = re.compile(r"sign in|log in", re.IGNORECASE)
AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
SEVERE = ("serious", "critical")
# Evaluated rather than added as a <script> tag: the Content-Security-Policy (rightly) refuses
# inline scripts, and a context with bypass_csp would hide the violations the tests look for.
RUN_AXE = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    targets: v.nodes.slice(0, 5).map((n) => n.target.join(" ")),
  }));
}"""

# Every table wider than its parent's box, every cell (th, td) whose content is wider than the
# cell, and every element sticking out past the window's right edge; a chart figure and a table
# box that says it scrolls (`.scrolls-x`, with its cue) are meant to scroll, and what is inside
# one is passed over.
OVERFLOWS = """(width) => {
  const found = [];
  const name = (el) => {
    const text = (el.innerText || "").trim().replace(/\\s+/g, " ").slice(0, 40);
    const tag = el.tagName.toLowerCase() + (el.className ? "." + el.className : "");
    return `${tag} ${JSON.stringify(text)}`;
  };
  const scrolls = (el) => el.closest(".chart-figure, .scrolls-x");
  for (const table of document.querySelectorAll("table")) {
    if (scrolls(table) || !table.offsetParent) continue;
    const box = table.parentElement.clientWidth;
    if (table.offsetWidth > box) {
      found.push(`table ${table.offsetWidth} px in ${box} px: ${name(table.rows[0] || table)}`);
    }
  }
  for (const cell of document.querySelectorAll("th, td")) {
    if (scrolls(cell) || !cell.offsetParent) continue;
    if (cell.scrollWidth > cell.clientWidth + 1) {
      found.push(`cell ${cell.scrollWidth} px in ${cell.clientWidth} px: ${name(cell)}`);
    }
  }
  for (const el of document.querySelectorAll("main *")) {
    if (scrolls(el) || !el.offsetParent) continue;
    const right = el.getBoundingClientRect().right;
    if (right > width + 1) found.push(`${name(el)} ends at ${Math.round(right)} px`);
  }
  return found.slice(0, 8);
}"""


def screenshot(page: Page, name: str) -> Path:
    """Save a full-page PNG of `page` as artifacts/screenshots/<name>.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    # caret="initial": hiding the caret leaves style="" on every input, which htmx's settle
    # would copy onto the swapped-in inputs (an inline style the CSP refuses) if base.html's
    # htmx configuration let it settle style attributes (test_live_sheet checks it does not).
    try:
        page.screenshot(path=str(path), full_page=True, caret="initial")
    except Error as error:
        # Chromium refuses a capture while a navigation commits ("Unable to capture
        # screenshot"); the picture is a record, not a check, so take it once the page is in.
        if "Unable to capture screenshot" not in error.message:
            raise
        page.wait_for_load_state("load")
        page.screenshot(path=str(path), full_page=True, caret="initial")
    return path


def visit(page: Page, url: str) -> None:
    """Open `url` and require a 200 answer whose page has loaded its scripts and styles."""
    response = page.goto(url, wait_until="load")
    assert response is not None, f"no answer for {url}"
    assert response.status == 200, f"{url} answered {response.status}"


SETTLED = """() => document.readyState === "complete"
    && !document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling")"""


def settle(page: Page) -> None:
    """Wait until the page has loaded and no htmx fragment is on its way or being swapped in,
    its fonts ready: what `networkidle` waited for, without its fixed half-second of quiet
    after every page (Playwright advises against it in tests)."""
    page.wait_for_function(SETTLED, polling=50)
    page.evaluate("document.fonts.ready.then(() => true)")


def visit_all(
    page: Page, pages: Mapping[str, str], *, prefix: str = "", suffix: str = ""
) -> list[str]:
    """Visit each of `pages` (name -> URL), photograph it, and list the ones that failed.

    A page fails when it does not answer 200, does not load or fails the accessibility
    audit; an answer 405 is an action
    (POST only), not a page, and is passed over. Screenshots are named
    ``<prefix>-<name>-<suffix>``.
    """
    failures = []
    for name, url in pages.items():
        try:
            response = page.goto(url, wait_until="load")
            status = response.status if response is not None else None
            if status == METHOD_NOT_ALLOWED:
                continue
            if status != OK:
                failures.append(f"{url} answered {status}")
            settle(page)
            screenshot(page, "-".join(part for part in (prefix, name, suffix) if part))
            failures += audit(page)
        except Error as error:
            failures.append(f"{url} did not load: {error.message.splitlines()[0]}")
    return failures


def visit_all_sizes(
    new_page: Callable[..., Page],
    pages: Mapping[str, str],
    *,
    prefix: str,
    before: Callable[[Page], None] | None = None,
    sizes: Iterable[str] = tuple(SIZES),
) -> list[str]:
    """`visit_all` of `pages` at each of `sizes` (names of `SIZES`, all by default), each size
    in a browser context of its own (a phone context has touch, as a player's phone does), and
    list the pages that failed.

    `before` runs on each new page first (signing in, for the console). Screenshots are named
    ``<prefix>-<name>-<size>``, so each page type is photographed at 390x844 and 1280x800. A
    long crawl passes one size per test (parametrized), so the run's workers share its sizes.
    """
    failures = []
    for size in sizes:
        page = new_page(f"{prefix}, {size}", viewport=SIZES[size])
        if before is not None:
            before(page)
        failures += visit_all(page, pages, prefix=prefix, suffix=size)
    return failures


def audit(page: Page) -> list[str]:
    """The serious and critical accessibility violations axe-core finds on `page` as it is
    now, one line each (rule, what it asks, the first elements that break it)."""
    if not page.evaluate("typeof window.axe === 'object'"):
        page.evaluate(AXE.read_text(encoding="utf-8"))
    violations: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return [
        f"{page.url}: {v['impact']} {v['id']} ({v['help']}): {', '.join(v['targets'])}"
        for v in violations
        if v["impact"] in SEVERE
    ]


def log_in(page: Page, username: str, password: str) -> None:
    """Sign in to the official's console through its sign-in page."""
    page.goto("/manage/")  # an anonymous visitor is sent to the sign-in page
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(password)
    page.get_by_role("button", name=SIGN_IN).click()
    page.wait_for_load_state("load")
    if "login" in page.url:
        raise AssertionError(f"signing in as {username} failed: {page.inner_text('main')}")


def sheet_path(group: m.Group) -> str:
    """The path of `group`'s score sheet (what its QR code points at)."""
    from flipwell.web.scoresheet_tokens import scoresheet_path

    return scoresheet_path(group)


DOWNLOADS = (".csv", ".json", ".zip")


def console_pages(demo: DemoLeague) -> dict[str, str]:
    """Every console page (a URL under /manage/ named in the app) that the demo can fill in.

    Found in the URL configuration rather than listed, so a new console page is visited
    without editing this test; a URL whose arguments the demo cannot name is left out.
    """
    meet = demo.current_season.meets.get(status=m.Meet.Status.OPEN)
    group = meet.groups.order_by("number").first()
    player = m.Player.objects.filter(season_entries__season=demo.current_season).first()
    machine = demo.league.machines.order_by("title").first()
    values: dict[str, object] = {
        "slug": demo.league.slug,
        "league": demo.league.slug,
        "season": demo.current_season.pk,
        "season_id": demo.current_season.pk,
        "meet": meet.pk,
        "meet_id": meet.pk,
        "number": meet.number,
        "group": group.pk if group else None,
        "group_id": group.pk if group else None,
        "player": player.pk if player else None,
        "player_id": player.pk if player else None,
        "machine": machine.pk if machine else None,
        "machine_id": machine.pk if machine else None,
    }
    pages: dict[str, str] = {}
    for name, arguments in _named_urls(get_resolver(), prefix="manage/"):
        # logout and a group's actions (posted from the meet's page) are POST-only; the demo
        # official may open a league, so its page is visited.
        skipped = ("logout", "manage_meet_group")
        if name in skipped or not all(values.get(a) is not None for a in arguments):
            continue
        url = reverse(f"web:{name}", kwargs={a: values[a] for a in arguments})
        if url.endswith(DOWNLOADS):  # a file the browser saves, not a page it shows
            continue
        pages[name.removeprefix("manage_")] = url
    return pages


def _named_urls(
    resolver: URLResolver, *, prefix: str, route: str = ""
) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(name, URL argument names) of every named URL whose route starts with `prefix`."""
    for entry in resolver.url_patterns:
        here = route + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _named_urls(entry, prefix=prefix, route=here)
        elif isinstance(entry, URLPattern) and entry.name and here.startswith(prefix):
            converters = getattr(entry.pattern, "converters", {})
            yield entry.name, tuple(converters)


def overflows(page: Page, pages: dict[str, str], size: str) -> list[str]:
    """Each overflow of each of `pages` at the page's window width, photographed."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    problems = []
    for name, url in pages.items():
        response = page.goto(url, wait_until="load")
        assert response is not None, f"no answer for {url}"
        assert response.status == 200, f"{url}: {page.inner_text('main')[:300]}"
        screenshot(page, f"fit-{name}-{size}")
        document = page.evaluate("document.scrollingElement.scrollWidth")
        if document > width:
            problems.append(f"{name} at {width} px: the page is {document} px wide")
        problems += [f"{name} at {width} px: {what}" for what in page.evaluate(OVERFLOWS, width)]
    return problems


def overflows_here(page: Page, name: str, size: str) -> list[str]:
    """`overflows` of the page as it is now (its folds opened), photographed."""
    width = page.viewport_size["width"] if page.viewport_size else 0
    screenshot(page, f"fit-{name}-{size}")
    problems = []
    document = page.evaluate("document.scrollingElement.scrollWidth")
    if document > width:
        problems.append(f"{name} at {width} px: the page is {document} px wide")
    return problems + [f"{name} at {width} px: {w}" for w in page.evaluate(OVERFLOWS, width)]


def public_pages(demo: DemoLeague) -> dict[str, str]:
    slug = demo.league.slug
    meet = demo.current_season.meets.get(status=m.Meet.Status.OPEN)
    player = m.Player.objects.filter(season_entries__season=demo.current_season).first()
    assert player is not None
    link = issue_player_link(season=demo.current_season, player=player, actor=demo.official)
    machine = demo.league.machines.order_by("title").first()
    assert machine is not None
    report_machine_problem(machine=machine, text="Left flipper weak", reported_by="Sam")
    return {
        "leagues": "/",
        "standings": f"/leagues/{slug}/",
        "season-finished": f"/leagues/{slug}/seasons/{demo.finished_season.pk}/",
        "meet": f"/leagues/{slug}/meets/{meet.pk}/",
        "player": f"/leagues/{slug}/players/{player.pk}/",
        "playoffs": f"/leagues/{slug}/playoffs/",
        "machines": f"/leagues/{slug}/machines/",
        "high-scores": f"/leagues/{slug}/high-scores/",
        "maintenance": f"/leagues/{slug}/maintenance/",
        "machine": f"/leagues/{slug}/machines/{machine.pk}/",
        "report-problem": f"/leagues/{slug}/machines/{machine.pk}/report/",
        "me": f"/me/{token_for(link)}/",  # a player's personal link
    }
