"""What a player sees through their personal link, and what the console lists of the links.

Words: see `flipwell.league.models.player_links`. A *coming meet* is a meet of the link's
season that is scheduled (planned) or open tonight; closed meets are in the player's season
history, every point explained (the public player page's `player_history`).
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass

from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.selectors.meet_times import absence_open, lateness_open, scheduled_start
from flipwell.league.selectors.public_pages.seasons import PlayerPage, player_page


@dataclass(frozen=True)
class ComingMeet:
    """A meet of the season not closed yet, and what the player told about it."""

    number: int
    start: datetime.datetime
    """Its scheduled start, in the league's time zone: the notices' deadline (R2.2-a)."""
    status: str
    absence_told_at: datetime.datetime | None
    lateness_told_at: datetime.datetime | None
    can_announce_absence: bool
    can_announce_lateness: bool
    can_withdraw: bool = False
    """What they told can still be withdrawn: the meet has not started, nor its start time
    come."""


@dataclass(frozen=True)
class TonightGroup:
    """The player's group at the open meet, players in the game-1 play order (R5.2-a)."""

    meet: int
    number: int
    players: tuple[str, ...]
    others: tuple[str, ...]
    """The other players of the group, in the same order."""


@dataclass(frozen=True)
class PlayerLinkPage:
    """The player's own page: their coming meets, tonight's group and their season."""

    link: m.PlayerLink
    league: m.League
    player: m.Player
    meets: tuple[ComingMeet, ...]
    group: TonightGroup | None
    season: PlayerPage
    season_over: bool = False
    """Every meet of the season is closed: none is left to come."""


def player_link_page(link: m.PlayerLink, now: datetime.datetime | None = None) -> PlayerLinkPage:
    """The page of a live `link` (loaded by `live_link`) at `now` (default now); the coming
    meets start at the one the player joins the season at (R2.4-f)."""
    at = now or timezone.now()
    season, player = link.season, link.player
    joins = (
        m.SeasonEntry.objects.filter(season=season, player=player)
        .values_list("joined_at_meet", flat=True)
        .first()
    )
    meets = list(
        m.Meet.objects.filter(season=season, number__gte=joins or 1)
        .exclude(status=m.Meet.Status.CLOSED)
        .select_related("season__league")
        .order_by("number")
    )
    absences = dict(
        m.AnnouncedAbsence.objects.filter(meet__in=meets, player=player).values_list(
            "meet_id", "recorded_at"
        )
    )
    lateness = dict(
        m.LatenessNotice.objects.filter(meet__in=meets, player=player).values_list(
            "meet_id", "recorded_at"
        )
    )
    coming = tuple(
        ComingMeet(
            number=meet.number,
            start=scheduled_start(meet),
            status=meet.status,
            absence_told_at=absences.get(meet.pk),
            lateness_told_at=lateness.get(meet.pk),
            can_announce_absence=meet.pk not in absences and absence_open(meet, at),
            can_announce_lateness=meet.pk not in lateness
            and meet.pk not in absences
            and lateness_open(meet, at),
            can_withdraw=(meet.pk in absences or meet.pk in lateness) and absence_open(meet, at),
        )
        for meet in meets
    )
    return PlayerLinkPage(
        link=link,
        league=season.league,
        player=player,
        meets=coming,
        group=_tonight_group(season, player),
        season=player_page(season.league, player.pk, season.pk),
        season_over=not meets
        and m.Meet.objects.filter(season=season, status=m.Meet.Status.CLOSED).count()
        >= season.number_of_meets,
    )


def _tonight_group(season: m.Season, player: m.Player) -> TonightGroup | None:
    member = (
        m.GroupMember.objects.filter(
            player=player, group__meet__season=season, group__meet__status=m.Meet.Status.OPEN
        )
        .select_related("group__meet")
        .first()
    )
    if member is None:
        return None
    rows = list(
        m.GroupMember.objects.filter(group=member.group)
        .select_related("player")
        .order_by("position")
    )
    return TonightGroup(
        meet=member.group.meet.number,
        number=member.group.number,
        players=tuple(str(row.player) for row in rows),
        others=tuple(str(row.player) for row in rows if row.player_id != player.pk),
    )


def season_links(season: m.Season) -> dict[int, m.PlayerLink]:
    """The season's live personal links by player id (one query), for the console's roster."""
    return {
        link.player_id: link
        for link in m.PlayerLink.objects.filter(season=season, revoked_at__isnull=True)
    }


def link_sheet(season: m.Season) -> list[tuple[m.Player, m.PlayerLink]]:
    """The season's players who have a live personal link, with it, by name (one query): the
    printed sheet of personal links."""
    links = m.PlayerLink.objects.filter(season=season, revoked_at__isnull=True).select_related(
        "player"
    )
    return [
        (link.player, link)
        for link in links.order_by("player__last_name", "player__first_name", "pk")
    ]
