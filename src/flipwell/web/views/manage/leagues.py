"""The console's front pages: the official's leagues, a league's seasons, a season's roster
and its IFPA submission preview."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.notices import enabled as notices_enabled
from flipwell.league.players_csv import PlayersCsvError
from flipwell.league.selectors import notices as notice_reads
from flipwell.league.selectors.console import (
    league_rulings,
    league_seasons,
    official_leagues,
    season_roster,
)
from flipwell.league.selectors.ifpa import ifpa_submission
from flipwell.rules import IfpaResults
from flipwell.web.auth import ANY_ROLE, LO_ONLY, console_page, signed_in
from flipwell.web.forms import (
    EditPlayerForm,
    IfpaPreviewForm,
    NoticePreferencesForm,
    PlayersCsvForm,
    RegisterPlayerForm,
    SeasonForm,
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
def player_notices(
    request: HttpRequest, league: m.League, role: str, season_id: int, player_id: int
) -> HttpResponse:
    """A roster player's e-mail address and notices (set_notice_preferences), and their latest
    notices from this league with each one's state."""
    season = season_of(league, season_id)
    entry = get_object_or_404(
        m.SeasonEntry.objects.select_related("player"), season=season, player_id=player_id
    )
    player = entry.player
    subscription = notice_reads.notice_subscription(player)
    posted = request.method == "POST"
    form = NoticePreferencesForm(
        request.POST if posted else None,
        initial={
            "email": subscription.email if subscription else "",
            **{k: bool(subscription and getattr(subscription, k)) for k in m.NoticeKind.values},
        },
    )
    if posted and form.is_valid():
        try:
            saved = services.set_notice_preferences(
                league=league,
                player=player,
                email=form.cleaned_data["email"] or "",
                kinds=form.kinds(),
                actor=official(request),
            )
        except ValidationError as error:
            show_service_errors(form, error)
        else:
            said = "saved" if saved is not None else "removed: they get none"
            messages.success(request, f"{player}'s notices are {said}.")
            return HttpResponseRedirect(request.path)
    context = {
        "league": league,
        "role": role,
        "season": season,
        "player": player,
        "subscription": subscription,
        "form": form,
        "notices": notice_reads.player_notices(player, league=league),
        "notices_on": notices_enabled(),
    }
    return page(request, "manage/player_notices.html", context, failed=posted)


@console_page(LO_ONLY)
def notices(request: HttpRequest, league: m.League, role: str) -> HttpResponse:
    """The league's e-mail notices: how many wait, were sent, failed or were skipped, and the
    latest ones (who, what, state; a failure's reason)."""
    context = {
        "league": league,
        "role": role,
        "queue": notice_reads.notice_queue(league),
        "notices_on": notices_enabled(),
    }
    return render(request, "manage/notices.html", context)
