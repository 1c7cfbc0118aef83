"""The live pages' parts (`flipwell.serving.live_parts`), rendered on their own by the
templates their pages include, so a part sent is byte for byte the part the page holds:
- the meet board's (``board=<meet id>``): its machines line and each group's card;
- the standings page's (``standings=<season id>``): the standings, the race and the chart, one
  part, rendered again only when the revision's standings part changed.

A page asks for them through its stream's URL (its holder's ``data-live-watch``, read by
``static/flipwell/live.js``); `watches` turns the stream's query into the hub's watches. The
parts are rendered on the hub's thread, with its own database connection, once per revision
for every worker (`flipwell.serving.live_parts.shared`).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from django.db import connection
from django.http import QueryDict
from django.template.loader import render_to_string
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league.derived.caches import build
from flipwell.league.selectors import revisions
from flipwell.league.selectors.public_pages import meets as meet_pages
from flipwell.league.selectors.public_pages import seasons as season_pages
from flipwell.serving.live_parts import OVERTAKEN, Parts, Rendered, Watch, shared, written_here
from flipwell.web.ids import parse_id
from flipwell.web.season_context import season_context

MACHINES_PART = "board-machines"
STANDINGS_PART = "standings-body"
PAGES = ("board", "standings")
"""The query names of the pages with parts, in the order a stream's entries come."""


class WatchQueryError(ValueError):
    """A stream's query names a page with parts by something that is not an id."""


def group_part(group_id: int) -> str:
    """The id of a group's card on the board."""
    return f"board-group-{group_id}"


def watches(slug: str, query: QueryDict) -> tuple[Watch, ...]:
    """The pages of the league `slug` whose parts the stream's `query` asks for; WatchQueryError
    when one is named by something other than an id."""
    found = []
    for name in PAGES:
        raw = query.get(name)
        if raw is None:
            continue
        page_id = parse_id(raw)
        if page_id is None:
            raise WatchQueryError(
                f"{name} is a {_WHAT[name]}'s id (?{name}=12), or not given at all."
            )
        key = f"{name}={page_id}"
        render = partial(_exact, slug, _RENDERS[name], page_id, key)
        found.append(Watch(key, render, standings=name == "standings"))
    return tuple(found)


def board_parts(league: m.League, meet_id: int) -> dict[str, str] | None:
    """The board of meet `meet_id`'s parts; None when it is not the league's or not open."""
    page = meet_pages.meet_page(league, meet_id)
    if page.meet.status != "open":
        return None
    html: dict[str, str] = {
        MACHINES_PART: render_to_string("public/_board_machines.html", {"page": page})
    }
    machines_url = reverse("web:machines", args=[league.slug])
    for group in page.groups:
        context = {"league": league, "group": group, "machines_url": machines_url}
        html[group_part(group.id)] = render_to_string("public/_board_group.html", context)
    return html


def standings_parts(league: m.League, season_id: int) -> dict[str, str] | None:
    """The standings of season `season_id`'s part; None when it is not the league's or no
    meet of it is open (its page is not live)."""
    page = season_pages.season_page(league, season_id)
    if page is None or page.open_meet is None:
        return None
    context = season_context(league, page)
    return {STANDINGS_PART: render_to_string("public/_standings_live.html", context)}


_RENDERS: dict[str, Callable[[m.League, int], dict[str, str] | None]] = {
    "board": board_parts,
    "standings": standings_parts,
}
_WHAT = {"board": "meet", "standings": "season"}


def _exact(
    slug: str,
    render: Callable[[m.League, int], dict[str, str] | None],
    page_id: int,
    page: str,
) -> Rendered:
    """A page's parts now, exact as of the league's revision (rendered once for every worker);
    None when the page has none; `OVERTAKEN` when a write came in while they were rendered
    (which revision they show is not known; the write's own event follows)."""
    try:
        league = season_pages.league_by_slug(slug)

        def rendered() -> Rendered:
            html = render(league, page_id)
            if html is None:
                return None
            after = revisions.of_leagues([league.pk]).get(league.pk)
            return Parts(league.revision, html) if after == league.revision else OVERTAKEN

        tag = f"{page}:{league.pk}:{league.revision}:{build()}"
        return shared(tag, rendered, first=written_here(league.pk, league.revision))
    except season_pages.NotFoundError:
        return None
    except Exception:
        connection.close()  # the hub's connection: the next render connects afresh
        raise
