"""Setting a league up through the API: open it, create its seasons and change their schedule
before they begin (or cut one short once it has), build its machine pool, and read and change
its readings of the rules before its newest season begins, and set the IFPA figures its IFPA
checks use. The same services as the console's (`flipwell.league.services`): each endpoint
checks the token, finds the rows the URL names in the league, hands the body to the service
whole (the input schema's names are the service's) and renders its answer.

Opening a league needs an installation token (no league, scope ``leagues``); everything else
the scope ``manage`` of a token of the league, or of an installation token whose issuer is a
league official of it (the one who opened it is)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest
from ninja.decorators import decorate_view

from flipwell.api import queries
from flipwell.api.auth import acting_opener
from flipwell.api.endpoints.params import MachineId, SeasonId, Slug
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.schemas.ifpa import IfpaFigureChangeIn, IfpaFiguresOut
from flipwell.api.schemas.leagues import LeagueOut, SeasonOut
from flipwell.api.schemas.setup import (
    MachineChangeIn,
    MachineDetailOut,
    MachineIn,
    MachineStatusIn,
    MachineStatusOut,
    OpenLeagueIn,
    RulesetChangeIn,
    RulesetOut,
    SeasonCutIn,
    SeasonIn,
    SeasonScheduleIn,
)
from flipwell.api.writing import after_check, official, write
from flipwell.league import services
from flipwell.league.selectors.ifpa import league_ifpa_figures
from flipwell.league.selectors.readings import league_readings
from flipwell.serving.http_cache import conditional_on_revision


@router.post("/leagues", response={201: LeagueOut, **ERROR_RESPONSES}, **WRITE)
def open_league(request: HttpRequest, payload: OpenLeagueIn) -> Any:
    """Open a new league; the token's issuer becomes its league official (an installation
    token with the scope leagues, issued to an account that may open leagues). 422 on
    ``slug`` for an address another league has, on ``time_zone`` for an unknown zone."""
    return write(
        request,
        services.open_league,
        payload,
        by=acting_opener,
        location=lambda league: f"/api/v1/leagues/{league.slug}",
    )


@router.post("/leagues/{slug}/seasons", response={201: SeasonOut, **ERROR_RESPONSES}, **WRITE)
def create_season(request: HttpRequest, slug: Slug, payload: SeasonIn) -> Any:
    """Create a season of the league (R2-a; scope: manage). It takes the league's readings
    of the rules as they are now, and is being prepared (not shown to the public) while
    another season is current. 422 on ``name`` for a name the league has used."""
    league = queries.league(slug)
    return write(
        request,
        services.create_season,
        payload,
        by=official(league, "manage"),
        answer=lambda season: queries.season_with_state(season.pk),
        location=lambda season: f"/api/v1/seasons/{season.pk}",
        league=league,
    )


@router.patch("/seasons/{season_id}", response={200: SeasonOut, **ERROR_RESPONSES}, **WRITE)
def change_season_schedule(
    request: HttpRequest, season_id: SeasonId, payload: SeasonScheduleIn
) -> Any:
    """Change a season's league night, start time or number of meets before its first meet
    starts (R2-a; scope: manage); a field left out or null is kept. 409
    ``season_started`` once a meet has started; 422 on ``number_of_meets`` for fewer meets
    than the last one scheduled."""
    season = queries.season(season_id)
    return write(
        request,
        services.change_season_schedule,
        payload,
        by=official(season.league, "manage"),
        answer=lambda _: queries.season_with_state(season_id),
        season=season,
    )


@router.post("/seasons/{season_id}/cut", response={200: SeasonOut, **ERROR_RESPONSES}, **WRITE)
def cut_season(request: HttpRequest, season_id: SeasonId, payload: SeasonCutIn) -> Any:
    """End a season early or lower its number of meets once play has begun, saying why (R2-a,
    A68; scope: manage): never below the meets started; the planned meets after the new last
    one are cancelled; the reason is kept as a ruling, and the standings' playoff race follows.
    Safe to retry: a season that has that number of meets already is answered as it is. 422 on
    ``number_of_meets`` for a number below the meets started or not below the season's; 409
    ``meets_scheduled`` when the league's reading refuses a cut while such a meet is planned."""
    season = queries.season(season_id)
    return write(
        request,
        services.cut_season,
        payload,
        by=official(season.league, "manage"),
        answer=lambda _: queries.season_with_state(season_id),
        season=season,
    )


@router.post(
    "/leagues/{slug}/machines", response={201: MachineDetailOut, **ERROR_RESPONSES}, **WRITE
)
def add_machine(request: HttpRequest, slug: Slug, payload: MachineIn) -> Any:
    """Add a machine to the league's pool, playable (scope: manage). 422 on ``title`` when
    the league has that title at that location already (give a location to tell them
    apart)."""
    league = queries.league(slug)
    return write(
        request,
        services.create_machine,
        payload,
        by=official(league, "manage"),
        location=lambda machine: f"/api/v1/leagues/{slug}/machines/{machine.pk}",
        league=league,
    )


@router.get(
    "/leagues/{slug}/machines/{machine_id}", response={200: MachineDetailOut, **ERROR_RESPONSES}
)
@decorate_view(conditional_on_revision("slug"))
def get_machine(request: HttpRequest, slug: Slug, machine_id: MachineId) -> Any:
    """One machine of the league: title, balls per game, location, and whether it is in the
    pool. Its maintenance sheet is in the league's machine list."""
    return queries.machine(queries.league(slug), machine_id)


@router.patch(
    "/leagues/{slug}/machines/{machine_id}",
    response={200: MachineDetailOut, **ERROR_RESPONSES},
    **WRITE,
)
def change_machine(
    request: HttpRequest, slug: Slug, machine_id: MachineId, payload: MachineChangeIn
) -> Any:
    """Change a machine's location or balls per game (scope: manage); a field left out or
    null is kept. 422 on ``location`` when another of its title stands there."""
    league = queries.league(slug)
    return write(
        request,
        services.update_machine,
        payload,
        by=official(league, "manage"),
        machine=after_check(queries.machine, league, machine_id),
    )


@router.post(
    "/leagues/{slug}/machines/{machine_id}/status",
    response={201: MachineStatusOut, **ERROR_RESPONSES},
    **WRITE,
)
def set_machine_status(
    request: HttpRequest, slug: Slug, machine_id: MachineId, payload: MachineStatusIn
) -> Any:
    """Take a machine out of the pool (unplayable: away for repairs, or retired) or put it
    back (playable), saying why (R1.1-b; scope: manage); a Ruling records it, and the games
    played on it keep it. 422 on ``status`` for the status it has."""
    league = queries.league(slug)
    return write(
        request,
        services.set_machine_status,
        payload,
        by=official(league, "manage"),
        answer=lambda ruling: {
            "ruling_id": ruling.pk,
            "machine": queries.machine(league, machine_id),
        },
        location=f"/api/v1/leagues/{slug}/machines/{machine_id}",
        machine=after_check(queries.machine, league, machine_id),
    )


@router.get("/leagues/{slug}/ruleset", response={200: RulesetOut, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("slug"))
def get_ruleset(request: HttpRequest, slug: Slug) -> Any:
    """The league's readings of the rules (its `Ruleset`): every setting with its value, the
    rulebook's default and the passage it reads, whether one may change now and, if not,
    why. New seasons take them; a season keeps those it was created with."""
    return league_readings(queries.league(slug))


@router.patch("/leagues/{slug}/ruleset", response={200: RulesetOut, **ERROR_RESPONSES}, **WRITE)
def change_ruleset_setting(request: HttpRequest, slug: Slug, payload: RulesetChangeIn) -> Any:
    """Change one reading of the league's, and of its newest season's while it has not begun
    (scope: manage); a Ruling records who, when and why. 409 ``season_begun`` once the
    newest season's first meet has started, with the rules' reason; 422 on ``setting`` for
    an unknown name, on ``value`` for a value the setting does not allow."""
    league = queries.league(slug)
    return write(
        request,
        services.change_ruleset_setting,
        payload,
        by=official(league, "manage"),
        answer=league_readings,
        league=league,
    )


@router.get("/leagues/{slug}/ifpa-figures", response={200: IfpaFiguresOut, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("slug"))
def get_ifpa_figures(request: HttpRequest, slug: Slug) -> Any:
    """The IFPA's figures the league's IFPA checks use (GET /seasons/{id}/ifpa-compliance):
    each with the IFPA's published one, its bounds and the IFPA page it comes from."""
    return {"figures": league_ifpa_figures(queries.league(slug))}


@router.patch(
    "/leagues/{slug}/ifpa-figures", response={200: IfpaFiguresOut, **ERROR_RESPONSES}, **WRITE
)
def change_ifpa_figure(request: HttpRequest, slug: Slug, payload: IfpaFigureChangeIn) -> Any:
    """Set one IFPA figure as the league uses it (its fee in local currency, a number the
    IFPA changed), or return it to the IFPA's with an empty value (scope: manage); a Ruling
    records who, when and why. 422 on ``value`` for a value outside its bounds."""
    league = queries.league(slug)
    return write(
        request,
        services.change_ifpa_figure,
        payload,
        by=official(league, "manage"),
        answer=lambda changed: {"figures": league_ifpa_figures(changed)},
        league=league,
    )
