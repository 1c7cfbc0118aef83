"""The rows of one table for a list a front end pages through (the API's lists,
`flipwell.api.queries`): lazy queries, which the list orders and cuts into pages.

Everything computed (standings, boards, brackets, sheets) has its own selector; these are
the plain lists.
"""

from __future__ import annotations

from django.db.models import OuterRef, QuerySet, Subquery

from flipwell.league import models as m
from flipwell.league.selectors.seasons import current_season_id_subquery, with_state


def leagues_with_current_season() -> QuerySet[m.League]:
    """Every league, each with its current season's id (``current_season_id``)."""
    return m.League.objects.annotate(
        current_season_id=Subquery(current_season_id_subquery(OuterRef("pk")))
    )


def league_seasons(league: m.League) -> QuerySet[m.Season]:
    """A league's seasons, each with its ``state`` and ``is_current`` (`with_state`)."""
    return with_state(m.Season.objects.filter(league=league).select_related("league"))


def season_entries(season: m.Season) -> QuerySet[m.SeasonEntry]:
    """A season's entries with their players."""
    return m.SeasonEntry.objects.filter(season=season).select_related("player")


def season_meets(season: m.Season) -> QuerySet[m.Meet]:
    """A season's meets (planned, open and closed)."""
    return m.Meet.objects.filter(season=season)


def live_player_links(season: m.Season) -> QuerySet[m.PlayerLink]:
    """The season's live personal links."""
    return m.PlayerLink.objects.filter(season=season, revoked_at__isnull=True)
