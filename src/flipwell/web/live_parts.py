"""The live pages' parts (`flipwell.serving.live_parts`), rendered on their own by the
templates their pages include, so a part sent is byte for byte the part the page holds:
- the meet board's (``board=<meet id>``): its machines line and each group's card (a card is
  rendered again only when what it shows changed: `_cards`);
- the standings page's (``standings=<season id>``): the standings, the race and the chart, one
  part, rendered again only when the revision's standings part changed.

A page asks for them through its stream's URL (its holder's ``data-live-watch``, read by
``static/flipwell/live.js``); `watches` turns the stream's query into the hub's watches. The
parts are rendered on the hub's thread, with its own database connection, once per revision
for every worker (`flipwell.serving.live_parts.shared`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from django.db import connection
from django.http import QueryDict
from django.template.loader import render_to_string
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league.derived.caches import LeastRecentlyUsed, build
from flipwell.league.selectors import revisions
from flipwell.league.selectors.public_pages import meets as meet_pages
from flipwell.league.selectors.public_pages import seasons as season_pages
from flipwell.league.selectors.public_pages.meets import GroupView
from flipwell.serving import live_events
from flipwell.serving.live_parts import OVERTAKEN, Parts, Rendered, Watch, shared, written_here
from flipwell.web.ids import parse_id
from flipwell.web.season_context import season_context

MACHINES_PART = "board-machines"
STANDINGS_PART = "standings-body"
PAGES = ("board", "standings")
"""The query names of the pages with parts, in the order a stream's entries come."""


CARDS_KEPT = 512
"""Group cards remembered by what they show (`_cards`): the current cards of twenty leagues'
boards, with room for the ones just replaced."""
_cards: LeastRecentlyUsed[tuple[int, str, GroupView], str] = LeastRecentlyUsed(CARDS_KEPT)
"""(league id, the machines' URL, the group as the board shows it) -> the card's HTML. A
card's HTML is a function of its context alone; a revision changes one group's card or none,
and rendering the other eleven again was a tenth of a busy night's interpreter time."""


class WatchQueryError(ValueError):
    """A stream's query names a page with parts by something that is not an id."""


def group_part(group_id: int) -> str:
    """The id of a group's card on the board."""
    return f"board-group-{group_id}"


def watches(slug: str, league_id: int, query: QueryDict) -> tuple[Watch, ...]:
    """The pages of the league `slug` (id `league_id`) whose parts the stream's `query` asks
    for; WatchQueryError when one is named by something other than an id."""
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
        render = partial(_exact, _Page(slug, league_id, key, page_id), _RENDERS[name])
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
        html[group_part(group.id)] = _card(league, group, machines_url)
    return html


def _card(league: m.League, group: GroupView, machines_url: str) -> str:
    """A group's card on the board, rendered again only when what it shows changed."""
    key = (league.pk, machines_url, group)
    card = _cards.get(key)
    if card is None:
        context = {"league": league, "group": group, "machines_url": machines_url}
        card = render_to_string("public/_board_group.html", context)
        _cards.put(key, card)
    return card


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


@dataclass(frozen=True)
class _Page:
    """A watched page: its league's slug and id, its watch key and its meet's or season's id."""

    slug: str
    league_id: int
    key: str
    page_id: int


def _exact(
    page: _Page, render: Callable[[m.League, int], dict[str, str] | None], revision: int
) -> Rendered:
    """A page's parts at the league's `revision` (the one its hub was told of), rendered once
    for every worker; None when the page has none; `OVERTAKEN` when the league is at another
    revision before or after the render (which revision the parts would show is not known;
    the newer revision's own event follows).

    The tag needs no query: a hub whose worker did not write the revision finds the parts
    shared by the one that did, and reads nothing from the database (five workers
    each reading the league for every page at every revision cost a tenth of a busy night's
    interpreter time)."""

    def rendered() -> Rendered:
        league = season_pages.league_by_slug(page.slug)
        if league.pk != page.league_id:  # the slug names another league now: no parts
            return None
        if league.revision != revision:
            return OVERTAKEN
        html = render(league, page.page_id)
        if html is None:
            return None
        after = revisions.of_leagues([league.pk]).get(league.pk)
        return Parts(revision, html) if after == revision else OVERTAKEN

    tag = f"{page.key}:{page.league_id}:{revision}:{build()}"
    try:
        first = written_here(page.league_id, revision)
        return shared(tag, rendered, first=first, announce=live_events.announce_parts)
    except season_pages.NotFoundError:
        return None
    except Exception:
        connection.close()  # the hub's connection: the next render connects afresh
        raise
