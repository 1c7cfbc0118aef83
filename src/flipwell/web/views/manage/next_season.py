"""A season's end and the next one's start in the console: the next season from this one
(start_next_season), its IFPA ranks refreshed before week 1 (refresh_ifpa_ranks), publishing it
before its first meet starts (publish_season), and any season's roster and standings as CSV
files."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.utils.text import slugify
from django.views.decorators.http import require_safe

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.exchange.exports import roster_csv, standings_csv
from flipwell.league.players_csv import PlayersCsvError
from flipwell.league.selectors.console import season_roster
from flipwell.league.selectors.season_folds import fold
from flipwell.league.selectors.seasons import current_season, publication
from flipwell.web.auth import LO_ONLY, console_page
from flipwell.web.forms import NextSeasonForm, PlayersCsvForm, show_service_errors
from flipwell.web.views.manage._common import official, page, run, season_of
from flipwell.web.words import counted


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
        new = run(form, services.start_next_season, season=season, actor=official(request))
        if new is not None:
            carried = new.entries.count()
            shown = current_season(league)
            meanwhile = (
                f" It is being prepared: the public pages show {shown.name} until its first "
                "meet starts or you publish it."
                if shown is not None and shown != new
                else ""
            )
            messages.success(
                request,
                f"{new.name} is prepared from {season.name} with {carried} of its "
                f"{counted(len(players), 'player')}.{meanwhile}",
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


@console_page(LO_ONLY)
def publish(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """Show a season being prepared to the public now, after a confirmation step: the page
    says what changes and what the public sees until then; its POST publishes
    (publish_season)."""
    season = season_of(league, season_id)
    form = forms.Form(request.POST or None)
    if request.method == "POST":
        published = run(form, services.publish_season, season=season, actor=official(request))
        if published is not None:
            messages.success(
                request,
                f"{season.name} is published: the public pages, the TV and the API show it now.",
            )
            return HttpResponseRedirect(reverse("web:manage_seasons", args=[league.slug]))
    context = {
        "league": league,
        "role": role,
        "season": season,
        "form": form,
        "publication": publication(season),
    }
    return page(request, "manage/publish_season.html", context, failed=form.is_bound)


@console_page(LO_ONLY)
def ifpa_ranks(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """Refresh the players' IFPA ranks at the start of the season from a roster CSV before its
    first meet starts (refresh_ifpa_ranks; R3.1-b, R4.3-a); after that, why not."""
    season = season_of(league, season_id)
    upload = PlayersCsvForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and upload.is_valid():
        try:
            refresh = services.refresh_ifpa_ranks(
                season=season, csv_text=upload.cleaned_data["csv_text"], actor=official(request)
            )
        except PlayersCsvError as error:
            upload.add_error(None, str(error).capitalize())
        except ValidationError as error:
            show_service_errors(upload, error)
        else:
            messages.success(request, _refreshed(season, refresh))
            return HttpResponseRedirect(request.path)
    context = {
        "league": league,
        "role": role,
        "season": season,
        "upload": upload,
        # Better rank first, unranked last by name, as the week-1 ladder orders them (R4.3-a/b).
        "entries": sorted(
            season_roster(season),
            key=lambda e: (e.ifpa_rank_at_start is None, e.ifpa_rank_at_start or 0),
        ),
        "publication": publication(season),
    }
    return page(request, "manage/ifpa_ranks.html", context, failed=upload.is_bound)


def _refreshed(season: m.Season, refresh: services.RankRefresh) -> str:
    """What a rank refresh changed, in words."""

    def rank(value: int | None) -> str:
        return "unranked" if value is None else str(value)

    changes = "; ".join(f"{p} {rank(old)} → {rank(new)}" for p, old, new in refresh.changed)
    said = f"IFPA ranks of {season.name}: {len(refresh.changed)} changed"
    said += f" ({changes})" if changes else ""
    said += f", {refresh.unchanged} the same."
    if refresh.not_in_file:
        kept = ", ".join(str(p) for p in refresh.not_in_file)
        said += f" Not in the file, so kept as they were: {kept}."
    return said
