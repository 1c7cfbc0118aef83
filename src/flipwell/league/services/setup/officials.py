"""The league's officials: changing an official's role, removing one, linking one to his
player record.

Words:
- *official*: a user with a role in the league (`LeagueOfficial`): league official (LO) or
  scorekeeper. A league always keeps at least one LO: the last one can be neither removed nor
  demoted (a superuser is an LO everywhere but holds no row, so he does not count). An
  account gets a role only by accepting an invitation
  (`flipwell.league.services.invitations`); here an official's role is changed or removed.
- *involved official*: an official linked to his own player record, so a ruling on a group
  he plays in is flagged (R1.1-a, A55).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import league_changed
from flipwell.league.services._protocol import Write, official_write

if TYPE_CHECKING:
    from django.contrib.auth.models import User


LO = m.LeagueOfficial.Role.LEAGUE_OFFICIAL


ROLES = {role.value: role.label.lower() for role in m.LeagueOfficial.Role}


def role_named(role: str) -> m.LeagueOfficial.Role:
    if role not in ROLES:
        raise Refusal(
            {"role": f"Unknown role “{role}”; allowed: {', '.join(ROLES.values())}."},
            code="unknown_role",
        )
    return m.LeagueOfficial.Role(role)


def _check_player(league: m.League, player: m.Player, *, exclude: int | None = None) -> None:
    """The player must have played in the league and not be linked to another official."""
    if not m.SeasonEntry.objects.filter(season__league=league, player=player).exists():
        raise Refusal(
            {"player": f"{player} has no season in {league}."}, code="player_not_in_league"
        )
    taken = m.LeagueOfficial.objects.filter(league=league, player=player)
    if exclude is not None:
        taken = taken.exclude(pk=exclude)
    other = taken.select_related("user").first()
    if other is not None:
        raise Refusal(
            {"player": f"{player} is already linked to official {other.user.get_username()}."},
            code="player_linked_elsewhere",
        )


def _lo_rows(league: m.League) -> list[int]:
    """The ids of the league's LO rows, locked (two demotions cannot both see two LOs)."""
    return list(
        m.LeagueOfficial.objects.select_for_update()
        .filter(league=league, role=LO)
        .values_list("pk", flat=True)
    )


def _refuse_last_lo(official: m.LeagueOfficial, *, doing: str, field: str | None) -> None:
    if official.role == LO and _lo_rows(official.league) == [official.pk]:
        message = (
            f"{official.user.get_username()} is the last league official of {official.league}: "
            f"add another league official before you {doing}."
        )
        raise ConflictError({field: message} if field else message, code="last_league_official")


def change_official_role(*, official: m.LeagueOfficial, role: str, actor: User) -> m.LeagueOfficial:
    """Give an official of the league another role (he holds one there already, so he is
    asked nothing; a new official is invited: `flipwell.league.services.invitations`).

    Side effects: his role changed; an audit event ``official.role_changed``; a new league
    revision. Raises PermissionDenied unless `actor` is a league official of his league;
    ValidationError for an unknown role, the role he has, or demoting the last LO.
    """
    wanted = role_named(role)
    doing = "change officials' roles"
    with official_write(league=official.league, actor=actor, action=doing) as write:
        league_changed(official.league)
        locked = (
            m.LeagueOfficial.objects.select_for_update()
            .select_related("user", "league")
            .get(pk=official.pk)
        )
        write.event("official.role_changed", locked, change_role(locked, wanted))
    return locked


def change_role(official: m.LeagueOfficial, wanted: m.LeagueOfficial.Role) -> dict[str, object]:
    """Give `official` (locked by the caller) the role `wanted`: refused when he holds it, or
    when he is the last LO and `wanted` is not LO. Returns the data of its audit event
    ``official.role_changed`` (the caller records it: an official's write, or an account
    accepting an invitation)."""
    name = official.user.get_username()
    if official.role == wanted:
        raise ConflictError(
            {"username": f"{name} is already a {ROLES[wanted]} of {official.league}."},
            code="role_already_held",
        )
    _refuse_last_lo(official, doing=f"make {name} a {ROLES[wanted]}", field="role")
    before = official.role
    official.role = wanted
    official.save(update_fields=["role"])
    return {"username": name, "from": before, "to": wanted.value}


def remove_official(*, official: m.LeagueOfficial, actor: User) -> None:
    """Take away an official's role in his league (his account and past rulings stay), and
    revoke the API tokens he issued for it: a token acts as him, so it dies with his role.

    Side effects: deletes the LeagueOfficial; sets revoked_at and revoked_by on his live API
    tokens of the league; writes an audit event ``official.removed`` (about the league, with
    his user name, role and the prefixes of the tokens revoked). Raises PermissionDenied
    unless `actor` is an LO of the official's league; ValidationError when he is its last LO.
    """
    with official_write(league=official.league, actor=actor, action="remove officials") as write:
        league_changed(official.league_id)
        official = (
            m.LeagueOfficial.objects.select_for_update()
            .select_related("user", "league")
            .get(pk=official.pk)
        )
        league = official.league
        name = official.user.get_username()
        _refuse_last_lo(official, doing=f"remove {name}", field=None)
        data = {
            "official": official.pk,
            "username": name,
            "role": official.role,
            "player": official.player_id,
            "revoked_tokens": _revoke_tokens(official, actor=actor),
        }
        official.delete()
        write.event("official.removed", league, data)


def _revoke_tokens(official: m.LeagueOfficial, *, actor: User) -> list[str]:
    """Revoke the live API tokens `official` issued for his league; their prefixes (2 queries)."""
    tokens = m.ApiToken.objects.filter(league=official.league, issued_by_id=official.user_id)
    now = timezone.now()
    tokens.filter(revoked_at__isnull=True).update(revoked_at=now, revoked_by=actor)
    return list(
        tokens.filter(revoked_at=now, revoked_by=actor)
        .order_by("pk")
        .values_list("prefix", flat=True)
    )


def _link(write: Write, official: m.LeagueOfficial, player: m.Player | None) -> m.LeagueOfficial:
    if player is not None:
        _check_player(official.league, player, exclude=official.pk)
    before = official.player_id
    official.player = player
    official.save(update_fields=["player"])
    data = {
        "username": official.user.get_username(),
        "from": before,
        "to": player.pk if player else None,
    }
    write.event("official.player_linked", official, data)
    return official


def link_official_player(
    *, official: m.LeagueOfficial, player: m.Player | None, actor: User
) -> m.LeagueOfficial:
    """Link an official to his own player record (None: unlink), so that his rulings on a
    group he plays in are flagged as made by an involved official (R1.1-a, A55).

    Side effects: updates LeagueOfficial.player, an audit event ``official.player_linked``.
    Raises PermissionDenied unless `actor` is an LO of the official's league; ValidationError
    (on ``player``) for a player with no season in the league or linked to another official.
    """
    doing = "link officials to players"
    with official_write(league=official.league, actor=actor, action=doing) as write:
        league_changed(official.league_id)
        official = (
            m.LeagueOfficial.objects.select_for_update()
            .select_related("user", "league")
            .get(pk=official.pk)
        )
        if official.player_id == (player.pk if player else None):
            return official
        return _link(write, official, player)
