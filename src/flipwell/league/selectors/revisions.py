"""The revision of the league a page or API read belongs to: one indexed query each.

A league's revision changes whenever anything its pages show changes (see
`flipwell.league.models.results`), so it is the one thing a conditional request needs to
read to know whether the page it holds is still current. Each function answers None when
the object does not exist (the view then answers its own 404).

Every polled page and API read runs one of these first, so each is a `CompiledQuery`: written
with the ORM, compiled to SQL once per process (and database engine), executed directly.
"""

from __future__ import annotations

from collections.abc import Iterable

from flipwell.league import models as m
from flipwell.league.derived.compiled import CompiledQuery


def by_slug(slug: str) -> int | None:
    """The revision of the league `slug`."""
    return _one_value("slug", slug)


def by_season(season_id: int) -> int | None:
    """The revision of the league season `season_id` belongs to."""
    return _one_value("season", season_id)


def by_meet(meet_id: int) -> int | None:
    """The revision of the league meet `meet_id` belongs to."""
    return _one_value("meet", meet_id)


def by_game(game_id: int) -> int | None:
    """The revision of the league game `game_id` belongs to."""
    return _one_value("game", game_id)


def by_group(group_id: int) -> int | None:
    """The revision of the league group `group_id` belongs to (a score sheet)."""
    return _one_value("group", group_id)


def by_playoff_night(night_id: int) -> int | None:
    """The revision of the league playoff night `night_id` belongs to (a match sheet)."""
    return _one_value("playoff_night", night_id)


_QUERIES = {
    "slug": CompiledQuery(
        lambda v: m.League.objects.filter(slug=v).order_by().values_list("revision")
    ),
    "season": CompiledQuery(
        lambda v: m.Season.objects.filter(pk=v).order_by().values_list("league__revision")
    ),
    "meet": CompiledQuery(
        lambda v: m.Meet.objects.filter(pk=v).order_by().values_list("season__league__revision")
    ),
    "game": CompiledQuery(
        lambda v: (
            m.Game.objects.filter(pk=v)
            .order_by()
            .values_list("group__meet__season__league__revision")
        )
    ),
    "group": CompiledQuery(
        lambda v: (
            m.Group.objects.filter(pk=v).order_by().values_list("meet__season__league__revision")
        )
    ),
    "playoff_night": CompiledQuery(
        lambda v: (
            m.PlayoffNight.objects.filter(pk=v).order_by().values_list("season__league__revision")
        )
    ),
}
"""Each lookup: one row (filtered by a unique key, so with no ordering) and one column."""


def _one_value(kind: str, value: int | str) -> int | None:
    rows = _QUERIES[kind].rows(value)
    return int(rows[0][0]) if rows else None


def league_by_slug(slug: str) -> tuple[int, int] | None:
    """The id and revision of the league `slug`, or None (a live stream's first read)."""
    row = m.League.objects.filter(slug=slug).values_list("pk", "revision").first()
    return (int(row[0]), int(row[1])) if row else None


def of_leagues(league_ids: Iterable[int]) -> dict[int, int]:
    """The revision of each of the leagues `league_ids` that exists, by id (one query: a live
    stream hub's read of every league it has viewers of)."""
    rows = m.League.objects.filter(pk__in=list(league_ids)).order_by().values_list("pk", "revision")
    return {int(pk): int(revision) for pk, revision in rows}
