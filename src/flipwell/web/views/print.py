"""Printable sheets, one page each (print.css): score sheets, a meet's results, playoff match
sheets, the playoff bracket, standings, maintenance sheet.

The score sheets carry each group's QR code, a key to its score sheet (see
`flipwell.web.scoresheet_tokens`), so only the league's officials and scorekeepers may print
them; the personal links' sheet (a card per player, their link's QR code) only its league
officials, as the roster shows them; a meet's results, the standings, the maintenance sheet and
the bracket are public like their pages.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league.selectors.lookups import league_season, playoff_night_of
from flipwell.league.selectors.player_links import link_sheet
from flipwell.league.selectors.playoff_sheet import printed_matches
from flipwell.league.selectors.public_pages import machines as machine_pages
from flipwell.league.selectors.public_pages import meets as meet_pages
from flipwell.league.selectors.public_pages import seasons as season_pages
from flipwell.league.selectors.public_pages import sheets as sheet_pages
from flipwell.web.auth import ANY_ROLE, LO_ONLY, console_page
from flipwell.web.charts import bracket_diagram, qr_code
from flipwell.web.player_links import player_link_url
from flipwell.web.scoresheet_tokens import match_sheet_path, scoresheet_url
from flipwell.web.views.public import not_found_as_404, optional_id


@console_page(ANY_ROLE)
@not_found_as_404
def score_sheets(request: HttpRequest, league: m.League, role: str, meet_id: int) -> HttpResponse:
    """One page per group of the meet: players in play order, a box per game, the QR code
    while the meet is open; a confirmed game's box filled with its scores, places and
    points."""
    page = sheet_pages.sheets_page(league, meet_id)
    live = page.meet.status == m.Meet.Status.OPEN
    sheets = [
        (
            sheet,
            *_sheet_code(
                scoresheet_url(request, sheet.group) if live else "",
                label=f"Score sheet of group {sheet.group.number}",
            ),
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


@console_page(LO_ONLY)
def player_links(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """Every live personal link of the season's roster as a card to cut out: the player's
    name and their link's QR code (issue_player_links issues the missing ones)."""
    season = league_season(league, season_id)
    if season is None:
        raise Http404("No such season.")
    cards = [
        (player, qr_code(player_link_url(request, link), label=f"{player}'s personal link"))
        for player, link in link_sheet(season)
    ]
    return render(
        request,
        "print/player_links.html",
        {"league": league, "season": season, "cards": cards, "role": role},
    )


@not_found_as_404
def results(request: HttpRequest, slug: str, meet_id: int) -> HttpResponse:
    """A meet's results: each group's night totals by place and its games' scores, places
    and points (the meet board's, on paper)."""
    page = meet_pages.meet_page(season_pages.league_by_slug(slug), meet_id)
    return render(request, "print/results.html", {"league": page.league, "page": page})


@not_found_as_404
def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The current season's standings (or ?season=ID's) on one page."""
    league = season_pages.league_by_slug(slug)
    page = season_pages.season_page(league, optional_id(request, "season"))
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
    """The maintenance sheet on paper, machines with open problems first, each with the QR
    code of its problem report page."""
    page = machine_pages.maintenance_page(season_pages.league_by_slug(slug))
    qr_codes = [
        (
            sheet.machine_id,
            qr_code(
                request.build_absolute_uri(
                    reverse("web:report_problem", args=[page.league.slug, sheet.machine_id])
                ),
                label=f"Report a problem on {sheet.title}",
            ),
        )
        for sheet in page.machines
    ]
    context = {"league": page.league, "page": page, "qr_codes": qr_codes}
    return render(request, "print/maintenance.html", context)


def _sheet_code(url: str, *, label: str) -> tuple[str, str]:
    """A printed sheet's QR code and its address, printed beside it for a phone that cannot
    scan ("" and "" for a sheet whose link no longer works)."""
    return (qr_code(url, label=label), url) if url else ("", "")


@console_page(ANY_ROLE)
@not_found_as_404
def playoff_sheets(
    request: HttpRequest, league: m.League, role: str, season_id: int
) -> HttpResponse:
    """One page per playoff match of the season's playoff night, with its sheet's QR code."""
    night = playoff_night_of(league_season(league, season_id))
    if night is None:
        raise Http404("This season has no playoff night yet.")
    live = night.status != m.PlayoffNight.Status.CLOSED
    matches = [
        (
            match,
            *_sheet_code(
                request.build_absolute_uri(match_sheet_path(night.pk, match.division, match.match))
                if live
                else "",
                label=f"Score sheet of {match.title}",
            ),
        )
        for match in printed_matches(night)
    ]
    divisions = len({match.division for match, _, _ in matches})
    return render(
        request,
        "print/playoff_sheets.html",
        {
            "league": league,
            "night": night,
            "matches": matches,
            "live": live,
            "divisions": divisions,
        },
    )


@not_found_as_404
def playoffs(request: HttpRequest, slug: str) -> HttpResponse:
    """The newest playoff night's bracket (or ?season=ID's) on A4/Letter portrait: each
    division's diagram, every match's points per game and why ties went as they did."""
    page = season_pages.playoffs_page(
        season_pages.league_by_slug(slug), optional_id(request, "season")
    )
    diagrams = [(d, bracket_diagram(d)) for d in page.bracket.divisions] if page.bracket else []
    return render(
        request,
        "print/playoffs.html",
        {"league": page.league, "page": page, "diagrams": diagrams},
    )
