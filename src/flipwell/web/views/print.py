"""Printable sheets, one page each (print.css): score sheets, standings, maintenance sheet,
the playoff bracket.

The score sheets carry each group's QR code, a key to its score sheet (see
`flipwell.web.scoresheet_tokens`), so only the league's officials and scorekeepers may print
them; the standings, the maintenance sheet and the bracket are public like their pages.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from flipwell.league import models as m
from flipwell.league.selectors import public_pages as pages
from flipwell.web.auth import ANY_ROLE, console_page
from flipwell.web.charts import bracket_diagram, qr_code
from flipwell.web.scoresheet_tokens import scoresheet_url
from flipwell.web.views.public import not_found_as_404, optional_id


@console_page(ANY_ROLE)
@not_found_as_404
def score_sheets(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """One page per group of the meet: players in play order, a box per game, the QR code."""
    page = pages.sheets_page(league, meet_id)
    live = page.meet.status == m.Meet.Status.OPEN
    sheets = [
        (
            sheet,
            qr_code(
                scoresheet_url(request, sheet.group),
                label=f"Score sheet of group {sheet.group.number}",
            )
            if live
            else "",
        )
        for sheet in page.groups
    ]
    return render(
        request,
        "print/score_sheets.html",
        {
            "league": league,
            "page": page,
            "sheets": sheets,
            "live": live,
        },
    )


@not_found_as_404
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The current season's standings (or ?season=ID's) on one page."""
    league = pages.league_by_slug(slug)
    page = pages.season_page(league, optional_id(request, "season"))
    above = page.standings.above_line() if page else ()
    return render(
        request,
        "print/standings.html",
        {
            "league": league,
            "page": page,
            "qualifiers": {line.player.id for line in above},
            "cut_after": above[-1].player.id if above else None,
        },
    )


@not_found_as_404
def maintenance(request: HttpRequest, slug: str) -> HttpResponse:
    """The maintenance sheet on paper."""
    page = pages.maintenance_page(pages.league_by_slug(slug))
    return render(request, "print/maintenance.html", {"league": page.league, "page": page})


@not_found_as_404
def playoffs(request: HttpRequest, slug: str) -> HttpResponse:
    """The newest playoff night's bracket (or ?season=ID's) on A4/Letter portrait: each
    division's diagram, every match's points per game and why ties went as they did."""
    page = pages.playoffs_page(pages.league_by_slug(slug), optional_id(request, "season"))
    diagrams = [(d, bracket_diagram(d)) for d in page.bracket.divisions] if page.bracket else []
    return render(
        request,
        "print/playoffs.html",
        {"league": page.league, "page": page, "diagrams": diagrams},
    )
