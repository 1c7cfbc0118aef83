"""The revision of the league a page or API read belongs to: one indexed query each.

A league's revision changes whenever anything its pages show changes (see
`flipwell.league.models.results`), so it is the one thing a conditional request needs to
read to know whether the page it holds is still current. Each function answers None when
the object does not exist (the view then answers its own 404).
"""

from __future__ import annotations

from flipwell.league import models as m


def by_slug(slug: str) -> int | None:
    """The revision of the league `slug`."""
    return m.League.objects.filter(slug=slug).values_list("revision", flat=True).first()


def by_season(season_id: int) -> int | None:
    """The revision of the league season `season_id` belongs to."""
    rows = m.Season.objects.filter(pk=season_id).values_list("league__revision", flat=True)
    return rows.first()


def by_meet(meet_id: int) -> int | None:
    """The revision of the league meet `meet_id` belongs to."""
    rows = m.Meet.objects.filter(pk=meet_id).values_list("season__league__revision", flat=True)
    return rows.first()


def by_game(game_id: int) -> int | None:
    """The revision of the league game `game_id` belongs to."""
    rows = m.Game.objects.filter(pk=game_id).values_list(
        "group__meet__season__league__revision", flat=True
    )
    return rows.first()


def by_group(group_id: int) -> int | None:
    """The revision of the league group `group_id` belongs to (a score sheet)."""
    rows = m.Group.objects.filter(pk=group_id).values_list(
        "meet__season__league__revision", flat=True
    )
    return rows.first()
