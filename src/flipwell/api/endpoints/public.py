"""Public reads: leagues, seasons, players, meets, a group's next machine, games, standings,
playoffs, machines and special rulings. No token is needed.

Each read of one league's data answers with an ETag from the league's revision and 304 to a
matching If-None-Match (`flipwell.serving.http_cache`): a client polling unchanged standings costs
one indexed query."""

from __future__ import annotations

import re
from typing import Annotated, Any

from django.http import HttpRequest
from ninja import Query, Router
from ninja.decorators import decorate_view
from pydantic import AfterValidator, StringConstraints, WithJsonSchema

from flipwell.api import queries
from flipwell.api.endpoints.params import (
    Cursor,
    GameId,
    GroupId,
    Limit,
    MeetId,
    PlayerId,
    SeasonId,
    Slug,
)
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.paging import page_of_queryset, page_of_sequence
from flipwell.api.schemas.choices import AllowedMachinesOut
from flipwell.api.schemas.leagues import LeagueOut, LeaguePage, SeasonOut, SeasonPage
from flipwell.api.schemas.machines import MachinePage
from flipwell.api.schemas.meets import MeetBoardOut, MeetPage
from flipwell.api.schemas.players import EntryPage
from flipwell.api.schemas.playoffs import PlayoffsOut
from flipwell.api.schemas.rulings import SpecialRulingPage
from flipwell.api.schemas.sheets import GameOut
from flipwell.api.schemas.standings import LadderOut, PlayerHistoryOut, StandingsOut
from flipwell.league import models as m
from flipwell.league.selectors.allowed_machines import allowed_machines
from flipwell.league.selectors.machines import (
    maintenance_sheet,
    special_rulings_in_force,
    stored_special_rulings,
)
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.playoffs.bracket import playoff_bracket
from flipwell.league.selectors.standings import ladder, player_history, standings
from flipwell.serving.http_cache import conditional_on_revision

router = Router(tags=["public"])

# Characters a reader cannot see: controls, spaces (every Unicode and ECMAScript space, the
# byte order mark, NEL) and the zero-width and direction marks. Spelled out rather than `\s`,
# whose members differ between Python, pydantic's Rust engine and the ECMAScript regex that
# the OpenAPI schema's clients use (a title of one U+FEFF was accepted by the server though
# the schema forbids it).
_INVISIBLE = r"\x00-\x20\x7f-\xa0\u1680\u180e\u2000-\u200f\u2028-\u202f\u205f-\u206f\u3000\ufeff"
VISIBLE_TITLE = rf"^[^\x00-\x1f]*[^{_INVISIBLE}][^\x00-\x1f]*$"
"""A machine title in a query: no control character, at least one visible character."""


def _visible_title(value: str) -> str:
    if not re.fullmatch(VISIBLE_TITLE, value):
        raise ValueError(
            "A machine title needs at least one visible character and no control character."
        )
    return value


MACHINE_TITLE_LENGTH = 120
MachineTitle = Annotated[
    str,
    # The schema says what _visible_title checks, so the refusal is in plain words.
    WithJsonSchema(
        {
            "type": "string",
            "minLength": 1,
            "maxLength": MACHINE_TITLE_LENGTH,
            "pattern": VISIBLE_TITLE,
        }
    ),
    StringConstraints(max_length=MACHINE_TITLE_LENGTH),
    AfterValidator(_visible_title),
]


@router.get("/leagues", response={200: LeaguePage, **ERROR_RESPONSES})
def list_leagues(request: HttpRequest, cursor: Cursor = None, limit: Limit = 50) -> Any:
    """Every league, a page at a time."""
    items, next_url = page_of_queryset(request, queries.leagues(), cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.get("/leagues/{slug}", response={200: LeagueOut, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("slug"))
def get_league(request: HttpRequest, slug: Slug) -> Any:
    """One league."""
    return queries.league(slug)


@router.get("/leagues/{slug}/seasons", response={200: SeasonPage, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("slug"))
def list_seasons(request: HttpRequest, slug: Slug, cursor: Cursor = None, limit: Limit = 50) -> Any:
    """A league's seasons, a page at a time: each says whether it is being prepared (not
    shown to the public yet), published or played, and which one is current."""
    rows = queries.seasons(queries.league(slug))
    items, next_url = page_of_queryset(request, rows, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.get("/leagues/{slug}/machines", response={200: MachinePage, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("slug"))
def list_machines(
    request: HttpRequest, slug: Slug, cursor: Cursor = None, limit: Limit = 50
) -> Any:
    """The league's machines with their maintenance sheets (R7.3-u), by title."""
    sheets = maintenance_sheet(queries.league(slug))
    items, next_url = page_of_sequence(request, sheets, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


TitleQuery = Annotated[
    MachineTitle | None,
    Query(
        None,
        description="Only the rulings in force on this title (RA-a); without it, every "
        "stored version of every ruling of the league. At least one visible character, no "
        "control character.",
    ),
]


@router.get("/leagues/{slug}/special-rulings", response={200: SpecialRulingPage, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("slug"))
def list_league_special_rulings(
    request: HttpRequest,
    slug: Slug,
    machine_title: TitleQuery = None,
    cursor: Cursor = None,
    limit: Limit = 50,
) -> Any:
    """The league's special rulings (Appendix A as the league keeps it): in force on one
    title, or every stored version. Another league's rulings are never among them."""
    return _special_rulings(request, queries.league(slug), machine_title, cursor, limit)


@router.get("/special-rulings", response={200: SpecialRulingPage, **ERROR_RESPONSES})
def list_special_rulings(
    request: HttpRequest,
    league: Annotated[
        str,
        Query(
            ...,
            max_length=60,
            pattern=r"^[-a-zA-Z0-9_]+$",
            description="The league's slug (required): each league keeps its own rulings.",
        ),
    ],
    machine_title: TitleQuery = None,
    cursor: Cursor = None,
    limit: Limit = 50,
) -> Any:
    """One league's special rulings, as ``/leagues/{slug}/special-rulings``."""
    return _special_rulings(request, queries.league(league), machine_title, cursor, limit)


def _special_rulings(
    request: HttpRequest,
    league: m.League,
    machine_title: str | None,
    cursor: str | None,
    limit: int,
) -> dict[str, Any]:
    rulings = (
        stored_special_rulings(league)
        if machine_title is None
        else special_rulings_in_force(league, machine_title)
    )
    items, next_url = page_of_sequence(request, rulings, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.get("/seasons/{season_id}", response={200: SeasonOut, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("season_id"))
def get_season(request: HttpRequest, season_id: SeasonId) -> Any:
    """One season, with whether it is shown to the public yet (``state``, ``is_current``)."""
    return queries.season_with_state(season_id)


@router.get("/seasons/{season_id}/players", response={200: EntryPage, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("season_id"))
def list_players(
    request: HttpRequest, season_id: SeasonId, cursor: Cursor = None, limit: Limit = 50
) -> Any:
    """The players entered in a season, with IFPA number and starting rank."""
    rows = queries.entries(queries.season(season_id))
    items, next_url = page_of_queryset(request, rows, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.get(
    "/seasons/{season_id}/players/{player_id}/history",
    response={200: PlayerHistoryOut, **ERROR_RESPONSES},
)
@decorate_view(conditional_on_revision("season_id"))
def get_player_history(request: HttpRequest, season_id: SeasonId, player_id: PlayerId) -> Any:
    """One player's season: every meet, every game, every point explained with its rule."""
    season = queries.season(season_id)
    return player_history(season, queries.season_player(season, player_id))


@router.get("/seasons/{season_id}/meets", response={200: MeetPage, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("season_id"))
def list_meets(
    request: HttpRequest, season_id: SeasonId, cursor: Cursor = None, limit: Limit = 50
) -> Any:
    """A season's meets (planned, open, closed)."""
    rows = queries.meets(queries.season(season_id))
    items, next_url = page_of_queryset(request, rows, cursor=cursor, limit=limit)
    return {"results": items, "next": next_url}


@router.get("/seasons/{season_id}/standings", response={200: StandingsOut, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("season_id"))
def get_standings(request: HttpRequest, season_id: SeasonId) -> Any:
    """The standings with the playoff line and race (§3.3, §6.1); a player's points are
    explained by his history."""
    return standings(queries.season(season_id))


@router.get("/seasons/{season_id}/ladder", response={200: LadderOut, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("season_id"))
def get_ladder(request: HttpRequest, season_id: SeasonId) -> Any:
    """The next meet's ladder and groups (§4)."""
    return ladder(queries.season(season_id))


@router.get("/seasons/{season_id}/playoffs", response={200: PlayoffsOut, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("season_id"))
def get_playoffs(request: HttpRequest, season_id: SeasonId) -> Any:
    """The playoff night: each division's bracket and what each match needs (§6)."""
    return playoff_bracket(queries.season(season_id))


@router.get("/meets/{meet_id}", response={200: MeetBoardOut, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("meet_id"))
def get_meet(request: HttpRequest, meet_id: MeetId) -> Any:
    """A meet's board: groups, games, each confirmed game's lines as the season fold decides
    them (the score that counts, the score entered, adjustments, place, points), who picks
    next, machines."""
    return meet_board(queries.meet(meet_id))


@router.get(
    "/groups/{group_id}/allowed-machines", response={200: AllowedMachinesOut, **ERROR_RESPONSES}
)
@decorate_view(conditional_on_revision("group_id"))
def get_allowed_machines(request: HttpRequest, group_id: GroupId) -> Any:
    """A group's next machine (§5): who may pick it now (a player, the official when nobody
    played the previous game, or nobody and why), the machines the rules allow, and every
    other machine of the league with why it may not be chosen (a stable code, plain words, the
    rules). POST /groups/{id}/next-game (or .../by-official) accepts exactly the machines
    listed as allowed, and refuses any other with the reason listed here."""
    return allowed_machines(queries.group(group_id))


@router.get("/games/{game_id}", response={200: GameOut, **ERROR_RESPONSES})
@decorate_view(conditional_on_revision("game_id"))
def get_game(request: HttpRequest, game_id: GameId) -> Any:
    """A game, every version of its score sheet as entered (to confirm one, use its id), and
    its result as the season fold decides it (the score that counts, the score entered, the
    adjustments, place and points)."""
    return queries.game_read(game_id)
