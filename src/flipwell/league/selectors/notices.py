"""Reads of the notices: a player's choice, their latest notices, a league's queue.

Words: see `flipwell.league.models.notices`.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from flipwell.league import models as m


def notice_subscription(player: m.Player, *, league: m.League) -> m.NoticeSubscription | None:
    """The player's address and chosen notices for `league`'s notices (that league's own: no
    other league's), or None when they have none there."""
    return m.NoticeSubscription.objects.filter(league=league, player=player).first()


def link_subscriptions(player_id: int, *, league_id: int | None) -> list[m.NoticeSubscription]:
    """The subscriptions a preferences link reaches (`flipwell.league.notices.
    preferences_for_token`): the player's in that league, or, for an older link naming no
    league, the player's in every league (its league's name loaded; one query)."""
    rows = m.NoticeSubscription.objects.filter(player_id=player_id).select_related("league")
    if league_id is not None:
        rows = rows.filter(league_id=league_id)
    return list(rows.order_by("league__name", "league_id"))


def player_notices(player: m.Player, *, league: m.League, limit: int = 10) -> list[m.Notice]:
    """The player's latest notices from `league`, newest first (one query)."""
    rows = m.Notice.objects.filter(player=player, league=league).order_by("-created_at", "-id")
    return list(rows[:limit])


@dataclass(frozen=True)
class NoticeQueue:
    """A league's notices: how many are in each state, and the latest ones (with players)."""

    counts: dict[str, int]
    latest: list[m.Notice]

    @property
    def by_label(self) -> list[tuple[str, int]]:
        """(the state's name for people, count), in the states' order."""
        return [(label, self.counts[state]) for state, label in m.Notice.State.choices]


def notice_queue(league: m.League, *, limit: int = 50) -> NoticeQueue:
    """The league's queue state (two queries)."""
    counts = dict.fromkeys(m.Notice.State.values, 0)
    for row in m.Notice.objects.filter(league=league).values("state").annotate(n=Count("id")):
        counts[row["state"]] = row["n"]
    latest = list(
        m.Notice.objects.filter(league=league)
        .select_related("player", "meet")
        .order_by("-created_at", "-id")[:limit]
    )
    return NoticeQueue(counts=counts, latest=latest)
