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
from dataclasses import dataclass
from typing import Any

from django.db.models import (
    BooleanField,
    Case,
    CharField,
    Exists,
    ExpressionWrapper,
    F,
    OuterRef,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)

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


def with_state(seasons: QuerySet[m.Season]) -> QuerySet[m.Season]:
    """`seasons` annotated in SQL with their ``state`` (as `state_of` says) and ``is_current``,
    for a list read a page at a time (the API): the current season of each one's league is a
    subquery, so a page costs one query."""
    current = seasons_newest_first(OuterRef("league")).order_by(*CURRENT_FIRST)
    newer = Q(created_at__gt=F("current_created_at")) | Q(
        created_at=F("current_created_at"), pk__gt=F("current_id")
    )
    return seasons.annotate(
        begun=_begun(),
        public=_public(),
        current_id=Subquery(current.values("pk")[:1]),
        current_created_at=Subquery(current.values("created_at")[:1]),
    ).annotate(
        is_current=ExpressionWrapper(Q(pk=F("current_id")), output_field=BooleanField()),
        state=Case(
            When(begun=True, then=Value("played")),
            When(Q(public=True) | Q(pk=F("current_id")), then=Value("published")),
            When(newer, then=Value("being_prepared")),
            default=Value("published"),
            output_field=CharField(),
        ),
    )


def state_of(season: Any, prepared: frozenset[int]) -> str:
    """`season`'s state (see the module's words), given the league's seasons being prepared
    (`being_prepared`); `season` annotated ``begun``."""
    if season.pk in prepared:
        return "being_prepared"
    return "played" if season.begun else "published"


def first_started_meet(season: m.Season) -> int | None:
    """The number of `season`'s first meet started (open or closed); None before (1 query)."""
    return (
        season.meets.exclude(status=m.Meet.Status.PLANNED)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )


@dataclass(frozen=True)
class Publication:
    """Where `season` stands with the public: its state, the season shown meanwhile, its
    first meet started (None before), and who published it and when (None: not published)."""

    season: m.Season
    state: str
    shown: m.Season | None
    started_meet: int | None
    published_by: str | None
    open_meet_shown: int | None
    """The number of the shown season's open meet (None: none open)."""


def publication(season: m.Season) -> Publication:
    """`season`'s `Publication` (3 or 4 queries)."""
    seasons = list(seasons_newest_first(season.league).select_related("published_by"))
    this = next(s for s in seasons if s.pk == season.pk)
    started = first_started_meet(season)
    shown = current_of(seasons)
    tonight = (
        m.Meet.objects.filter(season=shown, status=m.Meet.Status.OPEN)
        .values_list("number", flat=True)
        .first()
        if shown is not None and shown.pk != season.pk
        else None
    )
    return Publication(
        season=this,
        state=state_of(this, being_prepared(seasons)),
        shown=shown,
        started_meet=started,
        published_by=this.published_by.get_username() if this.published_by else None,
        open_meet_shown=tonight,
    )
