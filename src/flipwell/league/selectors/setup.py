"""Read-only views of a league's setup: its machine pool, its officials, its API tokens.

Words: see `flipwell.league.services.setup.machine_pool` (machine pool) and
`flipwell.league.services.setup.officials` (official, involved official).
Each function runs a fixed number of queries, whatever the league's size.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Permission
from django.db.models import Count, Q

from flipwell.league import models as m

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User


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


OPEN_LEAGUE_PERMISSION = "league.add_league"
"""Django's own permission on the League model: an account holding it may open leagues
(granted by ``flipwell createofficial`` and to the demo official)."""


def may_create_league(user: User | AnonymousUser) -> bool:
    """Whether `user` may open a new league: staff, superusers and holders of the
    `OPEN_LEAGUE_PERMISSION` always; anybody signed in while no league exists yet (the first
    user of a fresh install sets his league up)."""
    if not user.is_authenticated:
        return False
    if user.is_staff or user.is_superuser or user.has_perm(OPEN_LEAGUE_PERMISSION):
        return True
    return not m.League.objects.exists()


def league_openers(*, besides: str = "") -> bool:
    """Whether an account other than `besides` (a username) may open a league: staff, a
    superuser or a holder of `OPEN_LEAGUE_PERMISSION`. `make run` asks it to tell a fresh
    installation how to make its first official (``flipwell createofficial``)."""
    permission = open_league_permission()
    granted = (
        Q(is_staff=True)
        | Q(is_superuser=True)
        | Q(user_permissions=permission)
        | Q(groups__permissions=permission)
    )
    users = get_user_model()._default_manager.filter(granted, is_active=True)
    return users.exclude(username=besides).exists()


def open_league_permission() -> Permission:
    """The `OPEN_LEAGUE_PERMISSION` row (Django creates it with the League model's table)."""
    app, codename = OPEN_LEAGUE_PERMISSION.split(".")
    return Permission.objects.get(content_type__app_label=app, codename=codename)


def token_hash(secret: str) -> str:
    """The stored form of a token: its SHA-256, hex."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()
