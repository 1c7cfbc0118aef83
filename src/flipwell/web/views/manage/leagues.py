"""The console's front pages: the official's leagues, a league's seasons, a season's roster,
its IFPA submission preview, and merging two players who are one person."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import PermissionDenied, ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.notices import enabled as notices_enabled
from flipwell.league.players_csv import PlayersCsvError
from flipwell.league.selectors import notices as notice_reads
from flipwell.league.selectors.console import (
    league_rulings,
    league_seasons,
    season_roster,
)
from flipwell.league.selectors.ifpa import (
    IfpaSubmission,
    ifpa_submission,
    league_ifpa_figures,
    season_ifpa_compliance,
)
from flipwell.league.selectors.lookups import season_entry
from flipwell.league.selectors.people import league_merges, merge_candidates
from flipwell.league.selectors.player_links import season_links
from flipwell.league.selectors.seasons import current_season, first_started_meet
from flipwell.rules import IfpaResults
from flipwell.web.auth import ANY_ROLE, LO_ONLY, console_page, signed_in
from flipwell.web.charts import qr_code
from flipwell.web.forms import (
    EditPlayerForm,
    IfpaFigureForm,
    IfpaPreviewForm,
    MergePlayersForm,
    NoticePreferencesForm,
    PlayersCsvForm,
    RegisterPlayerForm,
    SeasonForm,
    UndoMergeForm,
    show_service_errors,
)
from flipwell.web.ids import parse_id
from flipwell.web.player_links import player_link_url
from flipwell.web.views.manage._common import action, done, found, official, page, run, season_of
from flipwell.web.views.manage.invitations import home_page
from flipwell.web.words import counted

if TYPE_CHECKING:
    from django.contrib.auth.models import User

T = TypeVar("T")


@signed_in
def home(request: HttpRequest) -> HttpResponse:
    """The leagues the signed-in official has a role in, and the invitations to a role that
    wait for his answer."""
    return home_page(request)


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
        season = run(form, services.create_season, league=league, actor=official(request))
        if season is not None:
            shown = current_season(league)
            meanwhile = (
                f" It is being prepared: the public pages show {shown.name} until its first "
                "meet starts or you publish it."
                if shown is not None and shown != season
                else ""
            )
            return done(request, f"Season “{season.name}” created.{meanwhile}")
    context = {"league": league, "role": role, "seasons": league_seasons(league), "form": form}
    return page(request, "manage/seasons.html", context, failed=form.is_bound)


@console_page(LO_ONLY)
def roster(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """A season's players: register one (register_player), import a CSV (import_players_csv),
    correct one's name or IFPA number (edit_player; ``?edit=<player id>`` opens the form),
    issue, show and revoke one's personal link (``?link=<player id>``; issue_player_link,
    revoke_player_link), or issue a link to every player without one (issue_player_links)."""
    season = season_of(league, season_id)
    which = action(request)
    if which in ("link_issue", "link_revoke"):
        return _link_action(request, season, which)
    if which == "links_issue_all":
        return _issue_every_link(request, season)
    posted = _roster_forms(request, season, which)
    answer = _roster_action(request, season, which, posted)
    if answer is not None:
        return answer
    entries = season_roster(season)
    links = season_links(season)
    context = {
        "league": league,
        "role": role,
        "season": season,
        "entries": entries,
        "rows": [(entry, links.get(entry.player.pk)) for entry in entries],
        "linked": sum(1 for entry in entries if entry.player.pk in links),
        "shown_link": _opened_link(request, season, links),
        "started": first_started_meet(season) is not None,
        **posted,
    }
    return page(request, "manage/roster.html", context, failed=bool(which))


def _roster_forms(request: HttpRequest, season: m.Season, which: str) -> dict[str, Any]:
    """The roster's forms (the edit form only when posted or opened), the posted one bound."""
    post = request.POST
    return {
        "edit": (
            EditPlayerForm(post, season=season)
            if which == "edit"
            else _opened_edit(request, season)
        ),
        "register": RegisterPlayerForm(post if which == "register" else None),
        "upload": PlayersCsvForm(
            post if which == "import" else None, request.FILES if which == "import" else None
        ),
    }


def _roster_action(
    request: HttpRequest, season: m.Season, which: str, posted: dict[str, Any]
) -> HttpResponse | None:
    """Edit, register or import, as posted; None when refused (the form says why) or when
    nothing was posted."""
    if which == "edit":
        edited = run(
            posted["edit"],
            refused_on_form(services.edit_player),
            season=season,
            actor=official(request),
        )
        if edited is not None:
            messages.success(request, f"{edited} is saved.")
            return HttpResponseRedirect(request.path)
    elif which == "register":
        entry = run(
            posted["register"], services.register_player, season=season, actor=official(request)
        )
        if entry is not None:
            return done(request, f"{entry.player} registered in {season.name}.")
    elif which == "import":
        return _import(request, season, posted["upload"])
    return None


def _import(request: HttpRequest, season: m.Season, upload: PlayersCsvForm) -> HttpResponse | None:
    """Import the roster CSV posted (import_players_csv); None when refused."""
    if not upload.is_valid():
        return None
    try:
        result = services.import_players_csv(
            season=season, csv_text=upload.cleaned_data["csv_text"], actor=official(request)
        )
    except PlayersCsvError as error:
        upload.add_error(None, str(error).capitalize())
        return None
    return done(
        request,
        f"{counted(len(result.entries), 'player')} imported "
        f"({len(result.created_players)} new to flipwell).",
    )


def _issue_every_link(request: HttpRequest, season: m.Season) -> HttpResponse:
    """A personal link to every player of the roster without one (issue_player_links)."""
    issued = services.issue_player_links(season=season, actor=official(request))
    count = f"{len(issued)} personal link{'' if len(issued) == 1 else 's'}"
    return done(
        request,
        f"{count} issued: every player of the roster has one, ready to print."
        if issued
        else "Every player of the roster already has a personal link.",
    )


def _link_action(request: HttpRequest, season: m.Season, which: str) -> HttpResponse:
    """Issue (or reissue) or revoke the personal link of the roster's player posted."""
    wanted = parse_id(request.POST.get("player"))
    entry = (
        season.entries.select_related("player").filter(player_id=wanted).first()
        if wanted is not None
        else None
    )
    if entry is None:
        messages.error(request, "Choose a player of this season's roster.")
        return HttpResponseRedirect(request.path)
    player = entry.player
    shown = f"{request.path}?{urlencode({'link': player.pk})}#player-link"
    try:
        if which == "link_issue":
            services.issue_player_link(season=season, player=player, actor=official(request))
            messages.success(request, f"{player}'s new personal link is ready: give it to them.")
        else:
            live = season_links(season).get(player.pk)
            if live is None:
                raise ValidationError(f"{player} has no personal link to revoke.")
            services.revoke_player_link(link=live, actor=official(request))
            messages.success(request, f"{player}'s personal link is revoked: it no longer works.")
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return HttpResponseRedirect(shown)


def _opened_entry(request: HttpRequest, season: m.Season, parameter: str) -> m.SeasonEntry | None:
    """The roster entry a panel's ``?<parameter>=<player id>`` opens (None: no such player on
    this roster, or no panel asked for)."""
    wanted = parse_id(request.GET.get(parameter))
    if wanted is None:
        return None
    return season.entries.select_related("player").filter(player_id=wanted).first()


def _opened_link(
    request: HttpRequest, season: m.Season, links: dict[int, m.PlayerLink]
) -> dict[str, object] | None:
    """The personal-link panel opened by ``?link=<player id>``: the player, their live link,
    its URL and QR code (None: closed; a player not on this roster opens nothing)."""
    entry = _opened_entry(request, season, "link")
    if entry is None:
        return None
    link = links.get(entry.player.pk)
    url = player_link_url(request, link) if link is not None else ""
    return {
        "player": entry.player,
        "link": link,
        "url": url,
        "qr": qr_code(url, label=f"Personal link of {entry.player}") if url else "",
    }


def _opened_edit(request: HttpRequest, season: m.Season) -> EditPlayerForm | None:
    """The edit form opened by ``?edit=<player id>``, prefilled (None: closed; a player not on
    this roster opens nothing)."""
    entry = _opened_entry(request, season, "edit")
    if entry is None:
        return None
    player = entry.player
    return EditPlayerForm(
        season=season,
        initial={
            "player": player.pk,
            "first_name": player.first_name,
            "last_name": player.last_name,
            "ifpa_number": player.ifpa_number,
        },
    )


@console_page(LO_ONLY)
def ifpa(request: HttpRequest, league: m.League, role: str, season_id: int) -> HttpResponse:
    """The IFPA's league requirements checked (`season_ifpa_compliance`), the IFPA figures the
    checks use and the form that sets one (change_ifpa_figure), and who the IFPA file lists
    and who it leaves out, and why.

    The download link asks the API for the same results and threshold as the preview shows.
    """
    season = season_of(league, season_id)
    figure = IfpaFigureForm(request.POST if request.method == "POST" else None)
    if request.method == "POST":
        changed = run(figure, services.change_ifpa_figure, league=league, actor=official(request))
        if changed is not None:
            name = figure.cleaned_data["figure"]
            now = next(line for line in league_ifpa_figures(changed) if line.name == name)
            messages.success(request, f"{now.words}: now {now.value}.")
            url = reverse("web:manage_ifpa", args=[league.slug, season.pk])
            return HttpResponseRedirect(f"{url}#ifpa-figures")
    form = IfpaPreviewForm(request.GET or {})
    submission = _ifpa_preview(form, season)
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
        "compliance": season_ifpa_compliance(season),
        "figures": league_ifpa_figures(league),
        "figure_form": figure,
    }
    failed = submission is None or request.method == "POST"
    return page(request, "manage/ifpa.html", context, failed=failed)


def _ifpa_preview(form: IfpaPreviewForm, season: m.Season) -> IfpaSubmission | None:
    """The submission the preview's choices ask for; None (the form says why) when refused."""
    if not form.is_valid():
        return None
    choice = form.cleaned_data["results"]
    try:
        return ifpa_submission(
            season,
            results=IfpaResults(choice) if choice else None,
            threshold=form.cleaned_data["threshold"],
        )
    except ValidationError as error:
        show_service_errors(form, error)
        return None


@console_page(LO_ONLY)
def player_notices(
    request: HttpRequest, league: m.League, role: str, season_id: int, player_id: int
) -> HttpResponse:
    """A roster player's e-mail address and notices (set_notice_preferences), and their latest
    notices from this league with each one's state."""
    season = season_of(league, season_id)
    entry = found(season_entry(season, player_id), "player in this season")
    player = entry.player
    subscription = notice_reads.notice_subscription(player, league=league)
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
        checked = run(form, refused_on_form(_check_pair), league=league, actor=official(request))
        if checked is not None:
            confirm = (by_id[checked[0]], by_id[checked[1]])
    elif which == "merge":
        merge = run(
            form, refused_on_form(services.merge_players), league=league, actor=official(request)
        )
        if merge is not None:
            return done(request, f"{merge.merged} is merged into {merge.kept}.")
    elif which == "undo":
        undone = run(
            undo,
            refused_on_form(services.undo_player_merge),
            league=league,
            actor=official(request),
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


def _check_pair(
    *, league: m.League, kept: m.Player, merged: m.Player, reason: str, actor: User
) -> tuple[int, int]:
    """The chosen (kept, merged) ids once the pair passes the merge's checks (nothing written;
    the reason is the merge's, asked again on its confirmation)."""
    services.check_merge_players(league=league, kept=kept, merged=merged, actor=actor)
    return kept.pk, merged.pk


def refused_on_form(service: Callable[..., T]) -> Callable[..., T]:
    """`service`, with a refusal for want of a role in another league (the person also plays
    there: `services.require_official_everywhere`) shown on the form, as the service words
    it, instead of a bare 403 page: the official learns who can do it."""

    def shown(**arguments: Any) -> T:
        try:
            return service(**arguments)
        except PermissionDenied as refusal:
            raise ValidationError(str(refusal), code="other_league") from refusal

    return shown
