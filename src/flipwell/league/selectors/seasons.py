"""Which of a league's seasons is the current one: the one place that decides it.

Words:
- *begun*: a season with a meet started (open or closed); a season whose meets are all still
  planned has not begun.
- *current season*: the season the public pages, the TV, the printed standings, the API and
  the console's ledger show by default: the newest season that has begun; while none has, the
  newest season (a new league's first season shows from the day it is created).
- *being prepared*: a season created after the current one that has not begun (its roster and
  meets are being set up): the public pages keep showing the current season until its first
  meet starts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import Exists, OuterRef, QuerySet

from flipwell.league import models as m


def _begun() -> Exists:
    return Exists(
        m.Meet.objects.filter(season=OuterRef("pk")).exclude(status=m.Meet.Status.PLANNED)
    )


CURRENT_FIRST = ("-begun", "-created_at", "-pk")
"""The order that puts the current season first (see the module's words): begun seasons
before the others, then newest first."""


def seasons_newest_first(league: m.League | Any) -> QuerySet[m.Season]:
    """The league's seasons, newest first, each annotated ``begun`` (`league` may be an
    ``OuterRef`` in a subquery)."""
    return (
        m.Season.objects.filter(league=league)
        .annotate(begun=_begun())
        .order_by("-created_at", "-pk")
    )


def current_of(seasons: Sequence[m.Season]) -> m.Season | None:
    """The current season among a league's `seasons` as `seasons_newest_first` returns them
    (annotated, newest first); None when there are none."""
    return next((s for s in seasons if _has_begun(s)), seasons[0] if seasons else None)


def _has_begun(season: Any) -> bool:
    """The ``begun`` annotation of `seasons_newest_first` (an AttributeError without it)."""
    return bool(season.begun)


def current_season(league: m.League) -> m.Season | None:
    """The league's current season (see the module's words); None before its first season
    (1 query)."""
    return seasons_newest_first(league).order_by(*CURRENT_FIRST).first()


def current_season_id_subquery(league: Any) -> QuerySet[m.Season, Any]:
    """`current_season`'s id as a subquery of a league query (`league` an ``OuterRef``), so
    a list of leagues carries each one's current season in one query."""
    return seasons_newest_first(league).order_by(*CURRENT_FIRST).values("pk")[:1]


def being_prepared(seasons: Sequence[m.Season]) -> frozenset[int]:
    """The ids of the seasons being prepared among a league's `seasons` (annotated, newest
    first): those newer than the current one that have not begun."""
    current = current_of(seasons)
    if current is None:
        return frozenset()
    # Every season newer than the current one has not begun (else it would be current).
    return frozenset(s.pk for s in seasons[: list(seasons).index(current)])
