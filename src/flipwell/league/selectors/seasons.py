"""Which of a league's seasons is the current one: the one place that decides it.

Words:
- *begun*: a season with a meet started (open or closed); a season whose meets are all still
  planned has not begun.
- *published*: a season the official decided to show to the public before its first meet
  starts (`flipwell.league.services.publish_season`).
- *public*: begun or published.
- *current season*: the season the public pages, the TV, the printed standings, the API and
  the console's ledger show by default: the newest public season; while none is, the newest
  season (a new league's first season shows from the day it is created).
- *being prepared*: a season created after the current one that is not public (its roster and
  meets are being set up): the public pages keep showing the current season until its first
  meet starts or the official publishes it.
- *state* (the API's word for each season): ``being_prepared``; ``published`` (shown, no meet
  started yet: published, or a league's newest season while none has begun); ``played`` (a
  meet has started: being played or over).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db.models import BooleanField, Exists, ExpressionWrapper, OuterRef, Q, QuerySet

from flipwell.league import models as m


def _begun() -> Exists:
    return Exists(
        m.Meet.objects.filter(season=OuterRef("pk")).exclude(status=m.Meet.Status.PLANNED)
    )


def _public() -> ExpressionWrapper[Q]:
    return ExpressionWrapper(
        Q(published_at__isnull=False) | Q(_begun()), output_field=BooleanField()
    )


CURRENT_FIRST = ("-public", "-created_at", "-pk")
"""The order that puts the current season first (see the module's words): public seasons
before the others, then newest first."""


def seasons_newest_first(league: m.League | Any) -> QuerySet[m.Season]:
    """The league's seasons, newest first, each annotated ``begun`` and ``public`` (`league`
    may be an ``OuterRef`` in a subquery)."""
    return (
        m.Season.objects.filter(league=league)
        .annotate(begun=_begun(), public=_public())
        .order_by("-created_at", "-pk")
    )


def current_of(seasons: Sequence[m.Season]) -> m.Season | None:
    """The current season among a league's `seasons` as `seasons_newest_first` returns them
    (annotated, newest first); None when there are none."""
    return next((s for s in seasons if _is_public(s)), seasons[0] if seasons else None)


def _is_public(season: Any) -> bool:
    """The ``public`` annotation of `seasons_newest_first` (an AttributeError without it)."""
    return bool(season.public)


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
    # Every season newer than the current one is not public (else it would be current).
    return frozenset(s.pk for s in seasons[: list(seasons).index(current)])


def state_of(season: Any, prepared: frozenset[int]) -> str:
    """`season`'s state (see the module's words), given the league's seasons being prepared
    (`being_prepared`); `season` annotated ``begun``."""
    if season.pk in prepared:
        return "being_prepared"
    return "played" if season.begun else "published"
