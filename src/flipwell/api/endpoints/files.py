"""Exchange files, public: the season as JSON and CSV, IFPA results, the meets calendar."""

from __future__ import annotations

from typing import Annotated, Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from ninja import Query, Router

from flipwell.api import queries
from flipwell.api.endpoints.params import SeasonId
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.schemas.ifpa import IfpaComplianceOut, IfpaParametersIn, IfpaPreviewOut
from flipwell.league.exchange.exports import scores_csv, season_export, standings_csv
from flipwell.league.exchange.for_other_programs import ifpa_results, meets_calendar
from flipwell.league.refusals import Refusal
from flipwell.league.selectors.ifpa import (
    IfpaSubmission,
    SeasonIfpaCompliance,
    ifpa_submission,
    season_ifpa_compliance,
)
from flipwell.league.selectors.season_folds import fold
from flipwell.rules import IfpaResults, RuleError

router = Router(tags=["exchange"])


def _file(media_type: str, description: str) -> dict[str, Any]:
    """The OpenAPI description of a 200 answer that is a file, not JSON."""
    return {
        "responses": {
            200: {
                "description": description,
                "content": {media_type: {"schema": {"type": "string"}}},
            }
        }
    }


def _download(text: str, media_type: str, filename: str) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{media_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


@router.get(
    "/seasons/{season_id}/export.json",
    response=ERROR_RESPONSES,
    openapi_extra={
        "responses": {
            200: {
                "description": "The season file (flipwell.seasonfile format) with standings.",
                "content": {"application/json": {"schema": {"type": "object"}}},
            }
        }
    },
)
def export_json(request: HttpRequest, season_id: SeasonId) -> HttpResponse:
    """The season as a season file (`flipwell standings` and the season import read it)."""
    data = season_export(fold(queries.season(season_id)))
    response = JsonResponse(data)
    response["Content-Disposition"] = f'attachment; filename="season-{season_id}.json"'
    return response


@router.get(
    "/seasons/{season_id}/standings.csv",
    response=ERROR_RESPONSES,
    openapi_extra=_file("text/csv", "The standings, best first (league_points and exact)."),
)
def export_standings_csv(request: HttpRequest, season_id: SeasonId) -> HttpResponse:
    """The standings as CSV."""
    text = standings_csv(fold(queries.season(season_id)))
    return _download(text, "text/csv", f"standings-{season_id}.csv")


@router.get(
    "/seasons/{season_id}/scores.csv",
    response=ERROR_RESPONSES,
    openapi_extra=_file("text/csv", "Every player's score in every confirmed game."),
)
def export_scores_csv(request: HttpRequest, season_id: SeasonId) -> HttpResponse:
    """Every game's scores as CSV."""
    text = scores_csv(fold(queries.season(season_id)))
    return _download(text, "text/csv", f"scores-{season_id}.csv")


IfpaThreshold = Annotated[
    int | None,
    Query(
        None,
        ge=0,
        le=1000,
        description="Meets a player must attend to be listed; default half the meets played, "
        "rounded up.",
    ),
]
IfpaResultsParam = Annotated[
    IfpaResults | None,
    Query(
        None,
        description="regular_season (the standings) or post_finals (the playoff places "
        "first); default post_finals once the playoffs are complete, else regular_season.",
    ),
]


@router.get(
    "/seasons/{season_id}/ifpa.csv",
    response=ERROR_RESPONSES,
    openapi_extra=_file(
        "text/csv",
        "IFPA results: position, first_name, last_name, ifpa_number, meets_attended; players "
        "below the attendance threshold who did not reach the finals are left out.",
    ),
)
def export_ifpa_csv(
    request: HttpRequest,
    season_id: SeasonId,
    threshold: IfpaThreshold = None,
    results: IfpaResultsParam = None,
) -> HttpResponse:
    """The season's results for the IFPA, one kind of results."""
    export = ifpa_results(queries.season(season_id), results=results, threshold=threshold)
    kind = export.submission.results.value.replace("_", "-")
    return _download(export.csv, "text/csv", f"ifpa-{season_id}-{kind}.csv")


@router.get(
    "/seasons/{season_id}/ifpa/preview",
    response={200: IfpaPreviewOut, **ERROR_RESPONSES},
)
def preview_ifpa(
    request: HttpRequest,
    season_id: SeasonId,
    threshold: IfpaThreshold = None,
    results: IfpaResultsParam = None,
) -> IfpaSubmission:
    """Who the IFPA file lists and who it leaves out, and why."""
    return ifpa_submission(queries.season(season_id), results=results, threshold=threshold)


@router.get(
    "/seasons/{season_id}/ifpa-compliance",
    response={200: IfpaComplianceOut, **ERROR_RESPONSES},
)
def get_ifpa_compliance(
    request: HttpRequest, season_id: SeasonId, figures: Query[IfpaParametersIn]
) -> SeasonIfpaCompliance:
    """The IFPA's league requirements, each passed or not with its figures, the rule and the
    IFPA page it is on, and the TGP and fee estimates. Before the first meet the checks read
    the schedule. The IFPA's figures are the league's (PUT /leagues/{slug}/ifpa-figures); a
    figure in the query replaces it for this answer only."""
    given = {name: value for name, value in figures.dict().items() if value is not None}
    try:
        return season_ifpa_compliance(queries.season(season_id), figures=given)
    except RuleError as error:
        raise Refusal({"figures": [str(error)]}, code="invalid_ifpa_figures") from error


@router.get(
    "/seasons/{season_id}/meets.ics",
    response=ERROR_RESPONSES,
    openapi_extra=_file("text/calendar", "The season's meets as iCalendar (RFC 5545)."),
)
def meets_ics(request: HttpRequest, season_id: SeasonId) -> HttpResponse:
    """The season's meets as a calendar feed to subscribe to."""
    text = meets_calendar(queries.season(season_id))
    response = HttpResponse(text, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="meets-{season_id}.ics"'
    return response
