"""Use cases that create and configure a season.

Words: the *next season from this one* is a new season of the same league with this one's
start time, length and dues (and league night unless another is given), and this one's
players entered again, less those the official leaves out. The league's machines and
officials belong to the league, so the new season has them already; its readings of the rules
are the league's when it is created (`Season.ruleset_overrides`), kept from then on.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction

from flipwell.league.audit import record_event
from flipwell.league.models import League, Player, Season, SeasonEntry
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

    The season takes the league's readings of the rules as they are now (its ruleset
    overrides), and keeps them when the league's change later. Side effects: inserts the
    Season and an audit event ``season.created``. Raises
    PermissionDenied unless `actor` is a league official of `league`, and ValidationError
    (nothing written) for a name already used in the league, a weekday outside 0..6, fewer
    than one meet or negative dues.
    """
    with transaction.atomic():
        league_changed(league)
        require_official(actor=actor, league=league, action="create a season")
        # Locked: a reading changed meanwhile (`change_ruleset_setting`) is this season's too.
        readings = League.objects.select_for_update().get(pk=league.pk).ruleset_overrides
        season = Season(
            league=league,
            ruleset_overrides=readings,
            name=name.strip(),
            weekday=weekday,
            start_time=start_time,
            number_of_meets=number_of_meets,
            dues_cents=dues_cents,
        )
        if Season.objects.filter(league=league, name=season.name).exists():
            raise ValidationError(
                {
                    "name": f"{league.name} already has a season called “{season.name}”: "
                    "choose another name."
                }
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
                "ruleset_overrides": season.ruleset_overrides,
            },
        )
    return season


def start_next_season(
    *,
    season: Season,
    name: str,
    weekday: int | None = None,
    leave_out: Iterable[Player] = (),
    actor: User,
) -> Season:
    """Create the next season from `season` (see the module's words): named `name`, on
    `weekday` (None: `season`'s), with every player of `season` entered again except those in
    `leave_out`, each with his IFPA rank at the start of `season` until the official refreshes
    it before week 1 (R3.1-b), all joining at meet 1.

    Side effects: the Season and its ``season.created`` event (`create_season`), a SeasonEntry
    per player carried, and one audit event ``season.started_from`` on the new season (the
    season it came from, who was carried and who was left out). Raises PermissionDenied unless
    `actor` is a league official of the league, and ValidationError (nothing written) for a
    name already used, or a player left out who is not entered in `season`.
    """
    with transaction.atomic():
        require_official(actor=actor, league=season.league, action="start the next season")
        entries = list(season.entries.select_related("player").order_by("pk"))
        entered = {entry.player_id for entry in entries}
        left_out = {player.pk: player for player in leave_out}
        strangers = sorted(str(p) for pk, p in left_out.items() if pk not in entered)
        if strangers:
            raise ValidationError(
                {
                    "leave_out": f"{', '.join(strangers)} {'is' if len(strangers) == 1 else 'are'}"
                    f" not entered in {season.name}: only its players can be left out."
                }
            )
        new = create_season(
            league=season.league,
            name=name,
            weekday=season.weekday if weekday is None else weekday,
            start_time=season.start_time,
            number_of_meets=season.number_of_meets,
            dues_cents=season.dues_cents,
            actor=actor,
        )
        carried = [entry for entry in entries if entry.player_id not in left_out]
        SeasonEntry.objects.bulk_create(
            SeasonEntry(
                season=new,
                player_id=entry.player_id,
                ifpa_rank_at_start=entry.ifpa_rank_at_start,
                joined_at_meet=1,
            )
            for entry in carried
        )
        record_event(
            action="season.started_from",
            obj=new,
            league=season.league,
            actor=actor,
            data={
                "from_season": season.pk,
                "carried": [entry.player_id for entry in carried],
                "left_out": sorted(left_out),
            },
        )
    return new
