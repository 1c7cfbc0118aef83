"""Read-only views of a league's setup: its machine pool, its officials, its API tokens.

Words: see `flipwell.league.services.setup.machine_pool` (machine pool) and
`flipwell.league.services.setup.officials` (official, involved official).
Each function runs a fixed number of queries, whatever the league's size.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count

from flipwell.league import models as m


@dataclass(frozen=True)
class MachineRow:
    machine: m.Machine
    games: int  # games played or in play on it: they stay when it leaves the pool

    @property
    def in_pool(self) -> bool:
        return self.machine.status == m.Machine.Status.PLAYABLE


def machine_pool(league: m.League) -> list[MachineRow]:
    """The league's machines by title, in the pool first, with their game counts (1 query)."""
    rows = (
        m.Machine.objects.filter(league=league)
        .annotate(game_count=Count("games"))
        .order_by("title", "location", "pk")
    )
    found = [MachineRow(machine=row, games=row.game_count) for row in rows]
    return sorted(found, key=lambda r: not r.in_pool)


def league_machine(league: m.League, machine_id: int) -> MachineRow | None:
    """One machine of the league with its game count, or None (1 query)."""
    row = (
        m.Machine.objects.filter(league=league, pk=machine_id)
        .annotate(game_count=Count("games"))
        .first()
    )
    return None if row is None else MachineRow(machine=row, games=row.game_count)


@dataclass(frozen=True)
class OfficialRow:
    official: m.LeagueOfficial
    username: str
    role_label: str
    player_name: str | None
    can_sign_in: bool  # False until he has used his set-password link

    @property
    def is_lo(self) -> bool:
        return self.official.role == m.LeagueOfficial.Role.LEAGUE_OFFICIAL


def league_officials(league: m.League) -> list[OfficialRow]:
    """The league's officials, league officials first, then by user name (1 query)."""
    rows = m.LeagueOfficial.objects.filter(league=league).select_related("user", "player")
    found = [
        OfficialRow(
            official=row,
            username=row.user.get_username(),
            role_label=row.get_role_display(),
            player_name=str(row.player) if row.player else None,
            can_sign_in=row.user.has_usable_password(),
        )
        for row in rows
    ]
    return sorted(found, key=lambda r: (not r.is_lo, r.username.lower()))


def league_official(league: m.League, official_id: int) -> m.LeagueOfficial | None:
    """One official of the league, with his user and player (1 query)."""
    return (
        m.LeagueOfficial.objects.filter(league=league, pk=official_id)
        .select_related("user", "player", "league")
        .first()
    )


def league_api_tokens(league: m.League) -> list[m.ApiToken]:
    """The league's API tokens, live ones first, newest first (1 query)."""
    rows = list(
        m.ApiToken.objects.filter(league=league)
        .select_related("issued_by", "revoked_by")
        .order_by("-pk")
    )
    return sorted(rows, key=lambda t: t.revoked_at is not None)
