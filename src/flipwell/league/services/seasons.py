"""Use cases that create and configure a season."""

from __future__ import annotations

import datetime
from typing import TYPE_CHECKING

from django.db import transaction

from flipwell.league.audit import record_event
from flipwell.league.models import League, Season
from flipwell.league.services._edge import league_changed, require_official

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def create_season(
    *,
    league: League,
    name: str,
    weekday: int,
    start_time: datetime.time,
    number_of_meets: int,
    dues_cents: int = 0,
    actor: User,
) -> Season:
    """Create a season of `league`: its weekday (Monday = 0), start time, length, dues (R2-a).

    Side effects: inserts the Season and an audit event ``season.created``. Raises
    PermissionDenied unless `actor` is a league official of `league`, and ValidationError
    (nothing written) for a name already used in the league, a weekday outside 0..6, fewer
    than one meet or negative dues.
    """
    with transaction.atomic():
        league_changed(league)
        require_official(actor=actor, league=league, action="create a season")
        season = Season(
            league=league,
            name=name.strip(),
            weekday=weekday,
            start_time=start_time,
            number_of_meets=number_of_meets,
            dues_cents=dues_cents,
        )
        season.full_clean()
        season.save()
        record_event(
            action="season.created",
            obj=season,
            league=league,
            actor=actor,
            data={
                "name": season.name,
                "weekday": season.weekday,
                "start_time": season.start_time.isoformat(),
                "number_of_meets": season.number_of_meets,
                "dues_cents": season.dues_cents,
            },
        )
    return season
