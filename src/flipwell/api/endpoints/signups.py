"""The question about the next season, read by an official (scope: read_private: the
sign-ups hold e-mail addresses). Asking it and deciding the sign-ups are the console's
(`flipwell.web.views.manage.next_season`)."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from flipwell.api import queries
from flipwell.api.auth import acting_official
from flipwell.api.endpoints.params import SeasonId
from flipwell.api.endpoints.public import router
from flipwell.api.endpoints.writes import WRITE
from flipwell.api.errors import ERROR_RESPONSES
from flipwell.api.schemas.signups import NextSeasonOut
from flipwell.league.selectors.signups import call_page, season_call


@router.get(
    "/seasons/{season_id}/next-season",
    response={200: NextSeasonOut, **ERROR_RESPONSES},
    **WRITE,
)
def get_next_season_answers(request: HttpRequest, season_id: SeasonId) -> Any:
    """The question asked of the season's players about the next season, who answered what,
    and the newcomers' sign-ups (scope: read_private); an empty answer before it is asked."""
    season = queries.season(season_id)
    acting_official(request, league=season.league, scope="read_private")
    call = season_call(season)
    if call is None:
        return {"season_id": season.pk, "call": None, "answers": [], "signups": []}
    page = call_page(call)
    return {
        "season_id": season.pk,
        "call": {
            "name": call.name,
            "weekday": call.weekday,
            "starts_on": call.starts_on,
            "dues_cents": call.dues_cents,
            "signups_open": call.signups_open,
            "asked_at": call.asked_at,
            "built_season_id": call.built_id,
        },
        "answers": [
            {
                "player_id": row.player.pk,
                "player": str(row.player),
                "answer": row.answer,
                "answered_at": row.answered_at,
                "changes": row.changes,
            }
            for row in page.answers
        ],
        "signups": [
            {
                "id": s.pk,
                "first_name": s.first_name,
                "last_name": s.last_name,
                "email": s.email,
                "ifpa_number": s.ifpa_number,
                "received_at": s.received_at,
                "decision": s.decision,
                "decided_at": s.decided_at,
                "reason": s.reason,
            }
            for s in page.signups
        ],
    }
