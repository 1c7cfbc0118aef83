"""A season's end and the next one's start in the console: the question to its players about
the next season and the newcomers' sign-ups (ask_next_season, set_signups_open,
accept_signup, refuse_signup; the page's parts: `flipwell.web.views.manage.signups`), the
next season from this one built from the answers (start_next_season), its IFPA ranks
refreshed before week 1 (refresh_ifpa_ranks), publishing it before its first meet starts
(publish_season), and any season's roster and standings as CSV files."""

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
from flipwell.league.selectors.signups import CallPage, league_signup, season_call
from flipwell.web.auth import LO_ONLY, console_page
from flipwell.web.forms import NextSeasonForm, PlayersCsvForm, show_service_errors
from flipwell.web.ids import parse_id
from flipwell.web.views.manage import signups
from flipwell.web.views.manage._common import (
    action,
    attempt,
    done,
    found,
    official,
    page,
    run,
    season_of,
)
from flipwell.web.words import counted
from flipwell.web.words import signups as signup_words


@console_page(LO_ONLY)
def next_season(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """The next season from this one: the question to its players first, if the official
    asks it (its actions: `flipwell.web.views.manage.signups`), then its name and league
    night, every player ticked to be carried (those who answered yes, when asked) and the
    accepted sign-ups (start_next_season); on to the new season's roster."""
    season = season_of(league, season_id)
    call = season_call(season)
    which = action(request)
    refuse = signups.refuse_form(request, which)
    posted: dict[str, forms.Form] = {
        "ask": signups.ask_form(request, which, season, call),
        "refuse": refuse,
    }
    if which in signups.ACTIONS:
        answer = _act(request, season, call, which, posted)
        if answer is not None:
            return answer
    roster = season_roster(season)
    asked = signups.shown(request, call, which, refuse)
    form = _next_form(request if which == "next" else None, season, roster, asked["call"])
    if which == "next":
        new = run(form, services.start_next_season, season=season, actor=official(request))
        if new is not None:
            joined = len(form.cleaned_data.get("newcomers", []))
            return _prepared(request, season, new, len(roster), joined)
    context = {"league": league, "role": role, "season": season, "form": form, **posted, **asked}
    return page(request, "manage/next_season.html", context, failed=bool(which))


def _act(
    request: HttpRequest,
    season: m.Season,
    call: m.SeasonCall | None,
    which: str,
    posted: dict[str, forms.Form],
) -> HttpResponse | None:
    """Run the posted action about the question (`signups.ACTIONS`): back to the page with
    what was done (or why not), or None when a form refused it (the page shows it again)."""
    if which == "ask":
        asked = run(posted["ask"], services.ask_next_season, season=season, actor=official(request))
        if asked is None:
            return None
        verb = "changed" if call is not None else "asked"
        return done(
            request,
            f"Question {verb}: {signup_words.question(asked.name)} The players answer on their "
            "personal link; those who chose the reminders get it by e-mail.",
        )
    if call is None:
        messages.error(request, "Ask the players first.")
        return HttpResponseRedirect(request.path)
    if which == "refuse":
        signup = _posted_signup(request, season)
        refused = attempt(
            posted["refuse"],
            lambda: services.refuse_signup(
                signup=signup, actor=official(request), **posted["refuse"].cleaned_data
            ),
        )
        return None if refused is None else done(request, f"{_name(signup)}'s sign-up is refused.")
    try:
        return done(request, _decide(request, season, call, which))
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return HttpResponseRedirect(request.path)


def _decide(request: HttpRequest, season: m.Season, call: m.SeasonCall, which: str) -> str:
    """Open or close the sign-ups, or accept the sign-up posted; what was done."""
    if which in ("signups_open", "signups_close"):
        opened = services.set_signups_open(
            call=call, open_now=which == "signups_open", actor=official(request)
        )
        state = "open: share its address" if opened.signups_open else "closed"
        return f"The sign-up form for {call.name} is {state}."
    signup = _posted_signup(request, season)
    services.accept_signup(signup=signup, actor=official(request))
    return f"{_name(signup)}'s sign-up is accepted."


def _posted_signup(request: HttpRequest, season: m.Season) -> m.SignUp:
    """The sign-up posted, one of the league's (another's, or none: a 404)."""
    wanted = parse_id(request.POST.get("signup")) or 0
    return found(league_signup(season.league, wanted), "sign-up")


def _name(signup: m.SignUp) -> str:
    return f"{signup.first_name} {signup.last_name}"


def _next_form(
    request: HttpRequest | None,
    season: m.Season,
    roster: list[m.SeasonEntry],
    asked: CallPage | None,
) -> NextSeasonForm:
    """The form that builds the next season: every player ticked, or, once they were asked,
    those who answered yes and the accepted sign-ups; bound when posted."""
    players = [(entry.player_id, str(entry.player)) for entry in roster]
    data = request.POST if request is not None else None
    if asked is None:
        initial = {"weekday": season.weekday, "carried": [pk for pk, _ in players]}
        return NextSeasonForm(data, players=players, initial=initial)
    said = {row.player.pk: row.answer for row in asked.answers}
    labels = [(pk, f"{name} ({_said(said.get(pk))})") for pk, name in players]
    accepted = asked.accepted
    return NextSeasonForm(
        data,
        players=labels,
        signups=[(s.pk, f"{s.first_name} {s.last_name}") for s in accepted],
        carried_label="Players carried (those who answered yes are ticked)",
        initial={
            "name": asked.call.name,
            "weekday": asked.call.weekday,
            "carried": asked.yeses,
            "newcomers": [s.pk for s in accepted],
        },
    )


def _said(answer: str | None) -> str:
    return signup_words.ANSWERS[answer] if answer else "not answered"


def _prepared(
    request: HttpRequest, season: m.Season, new: m.Season, players: int, joined: int
) -> HttpResponse:
    """On to the new season's roster, saying what was prepared (`joined`: the newcomers)."""
    carried = new.entries.count() - joined
    newcomers = f" and {counted(joined, 'newcomer')}" if joined else ""
    shown = current_season(season.league)
    meanwhile = (
        f" It is being prepared: the public pages show {shown.name} until its first "
        "meet starts or you publish it."
        if shown is not None and shown != new
        else ""
    )
    messages.success(
        request,
        f"{new.name} is prepared from {season.name} with {carried} of its "
        f"{counted(players, 'player')}{newcomers}.{meanwhile}",
    )
    return HttpResponseRedirect(reverse("web:manage_roster", args=[season.league.slug, new.pk]))


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
