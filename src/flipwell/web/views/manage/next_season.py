"""A season's end in the console: the next season from this one (start_next_season), and any
season's roster and standings as CSV files."""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.exchange.exports import fold, roster_csv, standings_csv
from flipwell.league.selectors.console import season_roster
from flipwell.league.selectors.seasons import current_season
from flipwell.web.auth import LO_ONLY, console_page
from flipwell.web.forms import NextSeasonForm
from flipwell.web.views.manage._common import official, page, run, season_of


@console_page(LO_ONLY)
def next_season(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """The next season from this one: its name and league night, and every player ticked to
    be carried (start_next_season); on to the new season's roster."""
    season = season_of(league, season_id)
    roster = season_roster(season)
    players = {entry.player_id: entry.player for entry in roster}
    form = NextSeasonForm(
        request.POST or None,
        players=[(entry.player_id, str(entry.player)) for entry in roster],
        initial={"weekday": season.weekday, "carried": list(players)},
    )
    if request.method == "POST":
        new = run(
            form,
            lambda d: services.start_next_season(
                season=season,
                name=d["name"],
                weekday=d["weekday"],
                leave_out=[p for pk, p in players.items() if pk not in set(d["carried"])],
                actor=official(request),
            ),
        )
        if new is not None:
            carried = new.entries.count()
            shown = current_season(league)
            meanwhile = (
                f" It is being prepared: the public pages show {shown.name} until its first "
                "meet starts."
                if shown is not None and shown != new
                else ""
            )
            messages.success(
                request,
                f"{new.name} started from {season.name} with {carried} of its "
                f"{len(players)} players.{meanwhile}",
            )
            return HttpResponseRedirect(reverse("web:manage_roster", args=[league.slug, new.pk]))
    context = {"league": league, "role": role, "season": season, "form": form}
    return page(request, "manage/next_season.html", context, failed=form.is_bound)


@require_safe
@console_page(LO_ONLY)
def roster_file(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """The season's roster as CSV, in the columns a roster import reads."""
    season = season_of(league, season_id)
    return _download(roster_csv(season), f"{league.slug}-{slugify(season.name)}-roster.csv")


@require_safe
@console_page(LO_ONLY)
def standings_file(
    request: HttpRequest, league: m.League, role: str, season_id: int
) -> HttpResponse:
    """The season's standings as CSV, best first."""
    season = season_of(league, season_id)
    return _download(
        standings_csv(fold(season)), f"{league.slug}-{slugify(season.name)}-standings.csv"
    )


def _download(text: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response
