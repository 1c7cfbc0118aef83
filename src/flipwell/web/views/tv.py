"""The venue's TV: dark, full screen, rotating between tonight's groups, the machines, the
standings and the bracket (tv.js, every 12 s), its data refreshed by htmx every 15 s.

Public like the other pages, except the score-sheet QR codes: a code opens a group's score
sheet, so it is shown only when the browser on the TV is signed in as one of the league's
officials or scorekeepers.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from flipwell.league.selectors.public_pages import seasons as season_pages
from flipwell.league.selectors.public_pages import tv as tv_pages
from flipwell.serving.http_cache import conditional_on_revision
from flipwell.web.charts import bracket_diagram, qr_code
from flipwell.web.htmx import asked_by_htmx
from flipwell.web.scoresheet_tokens import scoresheet_url
from flipwell.web.views.public import not_found_as_404

GROUPS_PER_PANEL = 6
STANDINGS_PER_PANEL = 20
"""The most standings lines on one slide: tv.js sizes a slide's type so that its lines fill
the screen, and twenty stay readable across a bar on a 16:9 TV (720 or 1080 lines)."""


def chunks(items: tuple[Any, ...], size: int) -> list[tuple[Any, ...]]:
    """`items` in consecutive pieces of at most `size` (one TV panel each)."""
    return [items[i : i + size] for i in range(0, len(items), size)] or [()]


def even_chunks(items: tuple[Any, ...], most: int) -> list[tuple[Any, ...]]:
    """`items` on as few panels as hold at most `most` each, shared evenly: 14 lines on one
    slide, 25 on two of 13 and 12 (never a full slide and a nearly empty one)."""
    panels = -(-len(items) // most)  # rounded up
    return chunks(items, -(-len(items) // panels)) if items else [()]


@conditional_on_revision("slug")
@not_found_as_404
def tv(request: HttpRequest, slug: str) -> HttpResponse:
    """The TV page; an htmx request gets only its panels (the refresh)."""
    league = season_pages.league_by_slug(slug)
    page = tv_pages.tv_page(league, request.user)
    codes = {
        group.pk: qr_code(
            scoresheet_url(request, group), label=f"Score sheet of group {group.number}"
        )
        for group in page.sheet_groups
    }
    context = {
        "league": league,
        "page": page,
        "group_panels": chunks(page.meet.groups, GROUPS_PER_PANEL) if page.meet else [],
        "standing_panels": even_chunks(page.standings.lines, STANDINGS_PER_PANEL)
        if page.standings
        else [],
        "qualifiers": {line.player.id for line in page.standings.above_line()}
        if page.standings
        else set(),
        "diagrams": [(d, bracket_diagram(d)) for d in page.bracket.divisions]
        if page.bracket
        else [],
        "codes": codes,
    }
    template = "tv/_panels.html" if asked_by_htmx(request) else "tv/tv.html"
    return render(request, template, context)
