"""Writes of the league's records, with a token of the league and scope *manage*: a late
entrant's forfeits, ledger reversals, special rulings (Appendix A), and publishing a season
being prepared. Each endpoint checks
the token, calls one service and renders its answer."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

from django.http import HttpRequest

from flipwell.api import queries
from flipwell.api.endpoints.params import EntryId, PlayerId, SeasonId, Slug
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.idempotency import key_required
from flipwell.api.schemas.leagues import SeasonOut
from flipwell.api.schemas.ledger import LedgerEntryOut, ReversalIn
from flipwell.api.schemas.players import LateJoinForfeitsIn, LateJoinForfeitsOut
from flipwell.api.schemas.rulings import (
    AmendRulingIn,
    CopyRulingIn,
    SpecialRulingIn,
    SpecialRulingOut,
)
from flipwell.api.writing import Fields, after_check, official, write
from flipwell.league import services
from flipwell.league.models import League, SpecialRuling
from flipwell.league.selectors.machines import to_rules_ruling


def _rulings(league: League) -> Callable[[SpecialRuling], str]:
    """The league's special rulings in force on a ruling's title (where a new or amended one
    is read)."""

    def at(row: SpecialRuling) -> str:
        query = urlencode({"machine_title": row.machine_title})
        return f"/api/v1/leagues/{league.slug}/special-rulings?{query}"

    return at


@router.post(
    "/seasons/{season_id}/players/{player_id}/late-join-forfeits",
    response={200: LateJoinForfeitsOut, **ERROR_RESPONSES},
    **WRITE,
)
def designate_late_join_forfeits(
    request: HttpRequest, season_id: SeasonId, player_id: PlayerId, payload: LateJoinForfeitsIn
) -> Any:
    """Designate whether a late entrant's forfeits before he joined count toward §2.5
    (R2.4-g, R2.4-h, A46; scope: manage)."""
    season = queries.season(season_id)
    return write(
        request,
        services.designate_late_join_forfeits,
        payload,
        by=official(season.league, "manage"),
        season=season,
        player=after_check(queries.player, player_id),
    )


@router.post(
    "/leagues/{slug}/ledger/{entry_id}/reversal",
    response={201: LedgerEntryOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def reverse_ledger_entry(
    request: HttpRequest, slug: Slug, entry_id: EntryId, payload: ReversalIn
) -> Any:
    """Correct a ledger entry by appending its exact reversal (§9; scope: manage)."""
    league = queries.league(slug)
    return write(
        request,
        services.reverse_ledger_entry,
        payload,
        by=official(league, "manage"),
        location=f"/api/v1/leagues/{slug}/treasury",
        entry=after_check(queries.ledger_entry, league, entry_id),
    )


@router.post(
    "/leagues/{slug}/special-rulings/appendix-a",
    response={200: list[SpecialRulingOut], **ERROR_RESPONSES},
    **WRITE,
)
def load_appendix_a(request: HttpRequest, slug: Slug) -> Any:
    """Store the rulebook's own special rulings (RA.1-a..RA.4-a) that are missing; answers
    the ones inserted (none on a repeat; scope: manage)."""
    league = queries.league(slug)
    return write(
        request,
        services.load_appendix_a,
        by=official(league, "manage"),
        answer=lambda inserted: [to_rules_ruling(row) for row in inserted],
        league=league,
    )


@router.post(
    "/leagues/{slug}/special-rulings",
    response={201: SpecialRulingOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def add_special_ruling(request: HttpRequest, slug: Slug, payload: SpecialRulingIn) -> Any:
    """Add a special ruling on a machine title, if the glitch qualifies (RA-a, RA-e; scope:
    manage). It takes the title's next number."""
    league = queries.league(slug)
    return write(
        request,
        services.add_special_ruling,
        payload,
        by=official(league, "manage"),
        answer=to_rules_ruling,
        location=_rulings(league),
        league=league,
    )


@router.post(
    "/leagues/{slug}/special-rulings/amendments",
    response={201: SpecialRulingOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def amend_special_ruling(request: HttpRequest, slug: Slug, payload: AmendRulingIn) -> Any:
    """Amend the special ruling 'machine_title #number': a new version, never an edit (RA-a;
    scope: manage)."""
    league = queries.league(slug)

    def named(fields: Fields) -> Fields:  # the title and its number name the ruling amended
        title, number = fields.pop("machine_title"), fields.pop("number")
        return {**fields, "ruling": queries.special_ruling(league, title, number)}

    return write(
        request,
        services.amend_special_ruling,
        payload,
        by=official(league, "manage"),
        arguments=named,
        answer=to_rules_ruling,
        location=_rulings(league),
        league=league,
    )


@router.post(
    "/leagues/{slug}/special-rulings/copies",
    response={201: SpecialRulingOut, **ERROR_RESPONSES},
    **WRITE,
)
@key_required
def copy_special_ruling(request: HttpRequest, slug: Slug, payload: CopyRulingIn) -> Any:
    """Copy another league's special ruling 'machine_title #number' (its latest version) into
    this league's list as this league's own ruling, with this league's next number (scope:
    manage). Later amendments of either change only its own league's."""
    league = queries.league(slug)

    def named(fields: Fields) -> Fields:  # another league's slug, title and number
        other = queries.league(fields.pop("league"))
        title, number = fields.pop("machine_title"), fields.pop("number")
        return {**fields, "source": queries.special_ruling(other, title, number)}

    return write(
        request,
        services.copy_special_ruling,
        payload,
        by=official(league, "manage"),
        arguments=named,
        answer=to_rules_ruling,
        location=_rulings(league),
        league=league,
    )


@router.post(
    "/seasons/{season_id}/publish",
    response={200: SeasonOut, **ERROR_RESPONSES},
    **WRITE,
)
def publish_season(request: HttpRequest, season_id: SeasonId) -> Any:
    """Show a season being prepared to the public before its first meet starts: it becomes
    the league's current season (scope: manage). 409 ``season_already_public``
    for a season already shown, ``meet_open`` while a meet of the season shown is open."""
    season = queries.season(season_id)
    return write(
        request,
        services.publish_season,
        by=official(season.league, "manage"),
        answer=lambda _: queries.season_with_state(season_id),
        season=season,
    )
