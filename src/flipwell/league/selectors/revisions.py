"""The revision of the league a page or API read belongs to: one indexed query each.

A league's revision changes whenever anything its pages show changes (see
`flipwell.league.models.results`), so it is the one thing a conditional request needs to
read to know whether the page it holds is still current. Each function answers None when
the object does not exist (the view then answers its own 404).

Every polled page and API read runs one of these first, so they skip the ORM's per-call work:
each query is written with the ORM once, compiled to SQL once per process (and database
engine), and then executed directly with the one parameter. Compiling a query took about
two thirds of a remembered page's time (issue #10).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

from django.db import connection
from django.db.models import QuerySet

from flipwell.league import models as m

_ANY = 0
"""The stand-in value a query is compiled with; each call passes its own."""


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


_QUERIES: dict[str, Callable[[int], QuerySet[Any, Any]]] = {
    "slug": lambda v: m.League.objects.filter(slug=v).values_list("revision"),
    "season": lambda v: m.Season.objects.filter(pk=v).values_list("league__revision"),
    "meet": lambda v: m.Meet.objects.filter(pk=v).values_list("season__league__revision"),
    "game": lambda v: m.Game.objects.filter(pk=v).values_list(
        "group__meet__season__league__revision"
    ),
    "group": lambda v: m.Group.objects.filter(pk=v).values_list("meet__season__league__revision"),
}
"""Each lookup as an ORM query of one row (filtered by a unique key) and one column."""


def _one_value(kind: str, value: int | str) -> int | None:
    with connection.cursor() as cursor:
        cursor.execute(_sql(kind, connection.vendor), [value])
        row = cursor.fetchone()
    return None if row is None else int(row[0])


@cache
def _sql(kind: str, vendor: str) -> str:
    """The SQL of lookup `kind` for database engine `vendor`, with one parameter."""
    query = _QUERIES[kind](_ANY).order_by()  # one row: no ordering to ask for
    sql, params = query.query.sql_with_params()
    if len(params) != 1:
        raise AssertionError(f"revision lookup {kind!r} compiled with parameters {params}")
    return str(sql)
