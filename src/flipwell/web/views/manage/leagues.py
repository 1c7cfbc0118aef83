"""The console's front pages: the official's leagues, a league's seasons, a season's roster,
its IFPA submission preview, and merging two players who are one person."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.players_csv import PlayersCsvError
from flipwell.league.selectors.console import (
    league_rulings,
    league_seasons,
    official_leagues,
    season_roster,
)
from flipwell.league.selectors.ifpa import ifpa_submission
from flipwell.league.selectors.people import league_merges, merge_candidates
from flipwell.rules import IfpaResults
from flipwell.web.auth import ANY_ROLE, LO_ONLY, console_page, signed_in
from flipwell.web.forms import (
    EditPlayerForm,
    IfpaPreviewForm,
    MergePlayersForm,
    PlayersCsvForm,
    RegisterPlayerForm,
    SeasonForm,
    UndoMergeForm,
    show_service_errors,
)
from flipwell.web.views.manage._common import action, done, official, page, run, season_of


@signed_in
def home(request: HttpRequest) -> HttpResponse:
    """The leagues the signed-in official has a role in."""
    context = {
        "leagues": official_leagues(request.user),
        "may_create_league": services.may_create_league(request.user),
    }
    return render(request, "manage/home.html", context)


@console_page(ANY_ROLE)
def league(request: HttpRequest, league: m.League, role: str) -> HttpResponse:
    """A league's hub: its seasons (with the open meet of each) and its latest rulings."""
    context = {
        "league": league,
        "role": role,
        "seasons": league_seasons(league),
        "rulings": league_rulings(league, limit=10) if role == "league_official" else [],
    }
    return render(request, "manage/league.html", context)


@console_page(LO_ONLY)
def seasons(request: HttpRequest, league: m.League, role: str) -> HttpResponse:
    """The league's seasons and the form that creates one (create_season)."""
    form = SeasonForm(request.POST or None)
    if request.method == "POST":
        season = run(
            form, lambda d: services.create_season(league=league, actor=official(request), **d)
        )
        if season is not None:
            return done(request, f"Season “{season.name}” created.")
    context = {"league": league, "role": role, "seasons": league_seasons(league), "form": form}
    return page(request, "manage/seasons.html", context, failed=form.is_bound)


@console_page(LO_ONLY)
def roster(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """A season's players: register one (register_player), import a CSV (import_players_csv),
    or correct one's name or IFPA number (edit_player; ``?edit=<player id>`` opens the form)."""
    season = season_of(league, season_id)
    which = action(request)
    edit = EditPlayerForm(request.POST) if which == "edit" else _opened_edit(request, season)
    if which == "edit" and edit is not None:
        edited = run(
            edit,
            lambda d: services.edit_player(
                season=season,
                player=get_object_or_404(m.Player, pk=d["player"]),
                first_name=d["first_name"],
                last_name=d["last_name"],
                ifpa_number=d["ifpa_number"],
                actor=official(request),
            ),
        )
        if edited is not None:
            messages.success(request, f"{edited} is saved.")
            return HttpResponseRedirect(request.path)
    register = RegisterPlayerForm(request.POST if which == "register" else None)
    upload = PlayersCsvForm(
        request.POST if which == "import" else None,
        request.FILES if which == "import" else None,
    )
    if which == "register":
        entry = run(
            register,
            lambda d: services.register_player(season=season, actor=official(request), **d),
        )
        if entry is not None:
            return done(request, f"{entry.player} registered in {season.name}.")
    elif which == "import" and upload.is_valid():
        try:
            result = services.import_players_csv(
                season=season, csv_text=upload.cleaned_data["csv_text"], actor=official(request)
            )
        except PlayersCsvError as error:
            upload.add_error(None, str(error).capitalize())
        else:
            return done(
                request,
                f"{len(result.entries)} players imported "
                f"({len(result.created_players)} new to flipwell).",
            )
    context = {
        "league": league,
        "role": role,
        "season": season,
        "entries": season_roster(season),
        "register": register,
        "upload": upload,
        "edit": edit,
    }
    return page(request, "manage/roster.html", context, failed=bool(which))


def _opened_edit(request: HttpRequest, season: m.Season) -> EditPlayerForm | None:
    """The edit form opened by ``?edit=<player id>``, prefilled (None: closed; a player not on
    this roster opens nothing)."""
    wanted = request.GET.get("edit", "")
    entry = (
        season.entries.select_related("player").filter(player_id=wanted).first()
        if wanted.isdigit()
        else None
    )
    if entry is None:
        return None
    player = entry.player
    return EditPlayerForm(
        initial={
            "player": player.pk,
            "first_name": player.first_name,
            "last_name": player.last_name,
            "ifpa_number": player.ifpa_number,
        }
    )


@console_page(LO_ONLY)
def ifpa(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """Who the IFPA file lists and who it leaves out, and why (issue #13); read-only.

    The download link asks the API for the same results and threshold as the preview shows.
    """
    season = season_of(league, season_id)
    form = IfpaPreviewForm(request.GET or {})
    submission = None
    if form.is_valid():
        choice = form.cleaned_data["results"]
        threshold = form.cleaned_data["threshold"]
        try:
            submission = ifpa_submission(
                season, results=IfpaResults(choice) if choice else None, threshold=threshold
            )
        except ValidationError as error:
            show_service_errors(form, error)
    download = ""
    if submission is not None:
        query = {"results": submission.results.value}
        if form.cleaned_data["threshold"] is not None:
            query["threshold"] = str(form.cleaned_data["threshold"])
        url = reverse("api-v1:export_ifpa_csv", args=[season.pk])
        download = f"{url}?{urlencode(query)}"
    context = {
        "league": league,
        "role": role,
        "season": season,
        "form": form,
        "submission": submission,
        "download": download,
    }
    return page(request, "manage/ifpa.html", context, failed=submission is None)


@console_page(LO_ONLY)
def merge_players(request: HttpRequest, league: m.League, role: str) -> HttpResponse:
    """Record that two players of the league are one person, after a confirmation showing
    both players' seasons (merge_players); list the league's merges and undo one
    (undo_player_merge). A person sees names and seasons, never ids."""
    which = action(request)
    candidates = merge_candidates(league)
    by_id = {c.id: c for c in candidates}
    form = MergePlayersForm(
        request.POST if which in ("review", "merge") else None,
        choices=[(c.id, c.label) for c in candidates],
    )
    undo = UndoMergeForm(request.POST if which == "undo" else None)
    confirm = None
    if which == "review":
        checked = run(form, _checked_pair)
        if checked is not None:
            confirm = (by_id[checked[0]], by_id[checked[1]])
    elif which == "merge":
        merge = run(
            form,
            lambda d: services.merge_players(
                league=league,
                kept=get_object_or_404(m.Player, pk=d["kept"]),
                merged=get_object_or_404(m.Player, pk=d["merged"]),
                reason=d["reason"],
                actor=official(request),
            ),
        )
        if merge is not None:
            return done(request, f"{merge.merged} is merged into {merge.kept}.")
    elif which == "undo":
        undone = run(
            undo,
            lambda d: services.undo_player_merge(
                league=league,
                merge=get_object_or_404(m.PlayerMerge, pk=d["merge"]),
                reason=d["reason"],
                actor=official(request),
            ),
        )
        if undone is not None:
            return done(request, f"{undone.merged} is a player of their own again.")
    context = {
        "league": league,
        "role": role,
        "form": form,
        "confirm": confirm,
        "merges": league_merges(league),
        "undo": undo,
    }
    failed = (which in ("review", "merge") and confirm is None) or which == "undo"
    return page(request, "manage/merge_players.html", context, failed=failed)


def _checked_pair(data: dict[str, Any]) -> tuple[int, int]:
    """The chosen (kept, merged) ids once the pair passes the merge's checks (nothing written)."""
    kept = get_object_or_404(m.Player, pk=data["kept"])
    merged = get_object_or_404(m.Player, pk=data["merged"])
    services.check_merge_players(kept=kept, merged=merged)
    return kept.pk, merged.pk
