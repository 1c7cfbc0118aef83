"""When a meet starts, and until when its players may announce an absence or a lateness."""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

from flipwell.league import models as m
from flipwell.rules.attendance import announcement_open


def scheduled_start(meet: m.Meet) -> datetime.datetime:
    """The meet's date at the season's start time, in the league's time zone (R2-a)."""
    zone = ZoneInfo(meet.season.league.time_zone)
    return datetime.datetime.combine(meet.date, meet.season.start_time, tzinfo=zone)


def absence_open(meet: m.Meet, now: datetime.datetime) -> bool:
    """Whether a player may still tell, through their link, that they will miss `meet`
    (R3.1-d)."""
    return _open(meet, now)


def lateness_open(meet: m.Meet, now: datetime.datetime) -> bool:
    """Whether a player may still tell, through their link, that they will be late to `meet`
    (R2.2-a); once it is under way, even started early, they tell a league official."""
    return _open(meet, now)


def _open(meet: m.Meet, now: datetime.datetime) -> bool:
    started = meet.status != m.Meet.Status.PLANNED
    return announcement_open(meet_started=started, now=now, start=scheduled_start(meet))
