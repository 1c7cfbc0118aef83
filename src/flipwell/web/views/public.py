"""Public pages: no login, nothing private (no ledger, no officials' notes or names).

Each view parses its URL, calls one selector of `flipwell.league.selectors.public_pages` and
renders; the charts are drawn here from the selector's numbers (presentation only).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.selectors import people, ratings
from flipwell.league.selectors.public_pages import machines as machine_pages
from flipwell.league.selectors.public_pages import meets as meet_pages
from flipwell.league.selectors.public_pages import seasons as season_pages
from flipwell.serving.http_cache import conditional_on_revision
from flipwell.web.charts import bracket_diagram, rating_chart
from flipwell.web.client_address import address_hash
from flipwell.web.forms import ProblemReportForm
from flipwell.web.htmx import asked_by_htmx
from flipwell.web.ids import parse_id
from flipwell.web.season_context import season_context
from flipwell.web.views.public_forms import answer_public_form

View = Callable[..., HttpResponse]


def not_found_as_404(view: View) -> View:
    """Turn the selectors' NotFoundError into a 404 page."""

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        try:
            return view(request, *args, **kwargs)
        except season_pages.NotFoundError as error:
            raise Http404(str(error)) from error

    return wrapper


def optional_id(request: HttpRequest, name: str) -> int | None:
    """An optional id query parameter (?season=3); a value that is no id is a 404."""
    raw = request.GET.get(name, "").strip()
    if not raw:
        return None
    wanted = parse_id(raw)
    if wanted is None:
        raise Http404(f"{name} must be a positive whole number, not {raw[:30]!r}.")
    return wanted


def league_list(request: HttpRequest) -> HttpResponse:
    """Every league hosted here, with its venue."""
    return render(request, "public/league_list.html", {"leagues": season_pages.league_list()})


@conditional_on_revision("slug")
@not_found_as_404
def league_home(request: HttpRequest, slug: str) -> HttpResponse:
    """The current season's standings, playoff line, race and chart."""
    return _season(request, slug, None)


@conditional_on_revision("slug")
@not_found_as_404
def season(request: HttpRequest, slug: str, season_id: int) -> HttpResponse:
    """One season's standings."""
    return _season(request, slug, season_id)


def _season(request: HttpRequest, slug: str, season_id: int | None) -> HttpResponse:
    league = season_pages.league_by_slug(slug)
    context = season_context(league, season_pages.season_page(league, season_id))
    return render(request, "public/season.html", context)


@conditional_on_revision("slug")
@not_found_as_404
def meet(request: HttpRequest, slug: str, meet_id: int) -> HttpResponse:
    """A meet's board; an htmx request gets only the board (polled every 10 s)."""
    page = meet_pages.meet_page(season_pages.league_by_slug(slug), meet_id)
    template = "public/_meet_board.html" if asked_by_htmx(request) else "public/meet.html"
    return render(request, template, {"league": page.league, "page": page, "section": "meet"})


@conditional_on_revision("slug")
@not_found_as_404
def player(request: HttpRequest, slug: str, player_id: int) -> HttpResponse:
    """One person's season, every point explained (?season=ID for another season), and their
    statistics; a row merged into another redirects to the person's own page."""
    league = season_pages.league_by_slug(slug)
    try:
        page = season_pages.player_page(league, player_id, optional_id(request, "season"))
    except people.MergedPlayerError as merged:
        target = reverse("web:player", args=[slug, merged.kept])
        query = request.GET.urlencode()
        return redirect(f"{target}?{query}" if query else target)
    context = {"league": page.league, "page": page, "section": "player"}
    return render(request, "public/player.html", context | _rating_context(page))


def _rating_context(page: season_pages.PlayerPage) -> dict[str, Any]:
    """The person's rating in `page`'s league, its chart, and his best and worst machines."""
    rating = ratings.player_rating(people.person(page.person.id), league=page.league)
    steps = [(f"{s.season.name}, meet {s.meet}", s.rating, s.low, s.high) for s in rating.history]
    best, worst = people.best_and_worst_machines(page.stats)
    return {
        "rating": rating,
        "rating_chart": rating_chart(steps, title=f"{page.person.name}'s rating after each meet"),
        "best_machine": best,
        "worst_machine": worst,
    }


@conditional_on_revision("slug")
@not_found_as_404
def ratings_page(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's players by rating (with enough games), beside the standings."""
    league = season_pages.league_by_slug(slug)
    context = {
        "league": league,
        "lines": ratings.league_ratings(league),
        "min_games": ratings.MIN_RATED_GAMES,
        "section": "ratings",
    }
    return render(request, "public/ratings.html", context)


@conditional_on_revision("slug")
@not_found_as_404
def playoffs(request: HttpRequest, slug: str) -> HttpResponse:
    """The newest playoff night: divisions, bracket diagrams, places (?season=ID)."""
    page = season_pages.playoffs_page(
        season_pages.league_by_slug(slug), optional_id(request, "season")
    )
    # Each division drawn wide, and narrow for a phone (one match under another).
    diagrams = (
        [
            (division, bracket_diagram(division), bracket_diagram(division, narrow=True))
            for division in page.bracket.divisions
        ]
        if page.bracket
        else []
    )
    return render(
        request,
        "public/playoffs.html",
        {"league": page.league, "page": page, "diagrams": diagrams, "section": "playoffs"},
    )


@conditional_on_revision("slug")
@not_found_as_404
def machines(request: HttpRequest, slug: str) -> HttpResponse:
    """The league's machines and the special rulings in force on them."""
    page = machine_pages.machines_page(season_pages.league_by_slug(slug))
    return render(
        request,
        "public/machines.html",
        {"league": page.league, "page": page, "section": "machines"},
    )


@not_found_as_404
def machine(request: HttpRequest, slug: str, machine_id: int) -> HttpResponse:
    """One machine: its open problems, history and reliability this season (R7.3-u). Not
    cached by revision: its days out of service grow with the calendar."""
    page = machine_pages.machine_page(season_pages.league_by_slug(slug), machine_id)
    return render(
        request,
        "public/machine.html",
        {"league": page.league, "page": page, "section": "machines"},
    )


@not_found_as_404
def report_problem(request: HttpRequest, slug: str, machine_id: int) -> HttpResponse:
    """Report a problem on a machine (from its QR code): it reaches the league official as
    reported, not yet ruled. One address may send a few an hour (429 beyond)."""
    league = season_pages.league_by_slug(slug)
    machine = machine_pages.league_machine(league, machine_id)
    form = ProblemReportForm(request.POST if request.method == "POST" else None)
    return answer_public_form(
        request,
        form,
        lambda: services.report_machine_problem(
            machine=machine, **form.cleaned_data, address_hash=address_hash(request)
        ),
        lambda shown, status, sent: _report_page(
            request, league, machine, shown, status=status, sent=sent is not None
        ),
    )


def _report_page(
    request: HttpRequest,
    league: m.League,
    machine: m.Machine,
    form: ProblemReportForm,
    *,
    status: int = 200,
    sent: bool = False,
) -> HttpResponse:
    context = {"league": league, "machine": machine, "form": form, "sent": sent}
    return render(request, "public/report_problem.html", context, status=status)


@conditional_on_revision("slug")
@not_found_as_404
def high_scores(request: HttpRequest, slug: str) -> HttpResponse:
    """Each machine's best scores in the league, every season."""
    page = season_pages.high_scores_page(season_pages.league_by_slug(slug))
    return render(
        request,
        "public/high_scores.html",
        {"league": page.league, "page": page, "section": "high_scores"},
    )


@conditional_on_revision("slug")
@not_found_as_404
def maintenance(request: HttpRequest, slug: str) -> HttpResponse:
    """The maintenance sheet: every machine's malfunctions, declarations and notes."""
    page = machine_pages.maintenance_page(season_pages.league_by_slug(slug))
    return render(
        request,
        "public/maintenance.html",
        {"league": page.league, "page": page, "section": "maintenance"},
    )
