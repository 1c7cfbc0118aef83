"""Use cases that say two player rows are one person, and take it back (issue #13 part 5).

Words: see `flipwell.league.models.players` (*person*, *merge*, *kept* row, *undo*).

Who may merge: a superuser, or a league official (LO) of a league in which both rows have
played (each entered in some season of it). The LO is the one who knows the people of their
league by sight and signs off on its results; requiring both rows to have played in their
league keeps an LO of one league from rewriting how another league's pages name its players.
An undo is allowed to the same people, in a league of the merge.

What is refused: a row merged into itself; a row that is already merged, or a kept row that
is (merges are one level deep, so a person is always one kept row and its merged rows); two
rows entered in the same season (one person is entered once per season, so they are two
people); two rows with different IFPA numbers (the IFPA number identifies a person, so they
are two people). Nothing a row played is rewritten, so an undo is exact.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied, ValidationError
from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from flipwell.league.audit import record_event
from flipwell.league.models import (
    League,
    LeagueOfficial,
    Player,
    PlayerMerge,
    Season,
    SeasonEntry,
)
from flipwell.league.models.results import new_revision
from flipwell.league.services._edge import require_reason

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def merge_players(
    *, league: League, kept: Player, merged: Player, reason: str, actor: User
) -> PlayerMerge:
    """Record that `merged` is the same person as `kept` (from `league`'s console).

    Side effects: sets `merged.merged_into` to `kept`, inserts a PlayerMerge (who, when, why),
    writes an audit event ``player.merged``, and gives every league either row played in a
    new revision (their player pages change). Raises PermissionDenied unless `actor` may merge
    (module docstring), and ValidationError (nothing written) for a refused pair or a missing
    reason.
    """
    why = require_reason(reason, field="reason", what="A merge")
    with transaction.atomic():
        rows = {
            p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[kept.pk, merged.pk])
        }
        kept_row, merged_row = rows[kept.pk], rows[merged.pk]
        _require_merger(actor=actor, league=league, players=(kept_row, merged_row))
        _check_pair(kept_row, merged_row)
        merged_row.merged_into = kept_row
        merged_row.save(update_fields=["merged_into"])
        merge = PlayerMerge.objects.create(
            kept=kept_row, merged=merged_row, reason=why, merged_by=actor
        )
        record_event(
            action="player.merged",
            obj=merge,
            league=league,
            actor=actor,
            data={"kept": kept_row.pk, "merged": merged_row.pk, "reason": why},
        )
        _leagues_changed((kept_row, merged_row))
    return merge


def undo_player_merge(
    *, league: League, merge: PlayerMerge, reason: str, actor: User
) -> PlayerMerge:
    """Undo a standing merge: the merged row is a person of its own again.

    Side effects: clears `merged_into` on the merged row, records who undid the merge, when and
    why on the PlayerMerge, writes an audit event ``player.merge_undone``, and gives every
    league either row played in a new revision. Raises PermissionDenied as `merge_players`
    does, and ValidationError for a merge already undone or a missing reason.
    """
    why = require_reason(reason, field="reason", what="Undoing a merge")
    with transaction.atomic():
        locked = PlayerMerge.objects.select_for_update().get(pk=merge.pk)
        kept = Player.objects.get(pk=locked.kept_id)
        merged = Player.objects.get(pk=locked.merged_id)
        _require_merger(actor=actor, league=league, players=(kept, merged))
        if locked.undone_at is not None:
            raise ValidationError(f"The merge of {merged} into {kept} was already undone.")
        Player.objects.filter(pk=merged.pk).update(merged_into=None)
        locked.undone_at = timezone.now()
        locked.undone_by = actor
        locked.undo_reason = why
        locked.save(update_fields=["undone_at", "undone_by", "undo_reason"])
        record_event(
            action="player.merge_undone",
            obj=locked,
            league=league,
            actor=actor,
            data={"kept": kept.pk, "merged": merged.pk, "reason": why},
        )
        _leagues_changed((kept, merged))
    return locked


def check_merge_players(*, kept: Player, merged: Player) -> None:
    """Refuse (ValidationError, keyed by field) a pair that cannot be one person, as
    `merge_players` would, without writing anything: the console's review step."""
    _check_pair(kept, merged)


def may_merge_in(*, actor: User, league: League) -> bool:
    """Whether `actor` may merge players from `league`'s console at all (an LO or superuser)."""
    if not actor.is_authenticated:
        return False
    return (
        actor.is_superuser
        or LeagueOfficial.objects.filter(
            user=actor, league=league, role=LeagueOfficial.Role.LEAGUE_OFFICIAL
        ).exists()
    )


def _require_merger(*, actor: User, league: League, players: tuple[Player, Player]) -> None:
    if actor.is_superuser:
        return
    if not may_merge_in(actor=actor, league=league):
        raise PermissionDenied(f"Only a league official of {league} may merge players.")
    played = set(
        SeasonEntry.objects.filter(season__league=league, player__in=players).values_list(
            "player_id", flat=True
        )
    )
    strangers = [str(p) for p in players if p.pk not in played]
    if strangers:
        who = " and ".join(strangers)
        raise PermissionDenied(
            f"{who} never played in {league}: only an official of a league both played in "
            "may merge them."
        )


def _check_pair(kept: Player, merged: Player) -> None:
    """ValidationError (keyed by field) for a pair that cannot be one person (module words)."""
    if kept.pk == merged.pk:
        raise ValidationError({"merged": "Choose two different players."})
    if merged.merged_into_id is not None:
        raise ValidationError({"merged": f"{merged} is already merged into another player."})
    if kept.merged_into_id is not None:
        raise ValidationError(
            {"kept": f"{kept} is merged into another player: merge into that player instead."}
        )
    if Player.objects.filter(merged_into=merged).exists():
        raise ValidationError(
            {"merged": f"Players are merged into {merged}: merge {kept} into {merged} instead."}
        )
    if kept.ifpa_number and merged.ifpa_number and kept.ifpa_number != merged.ifpa_number:
        raise ValidationError(
            {
                "merged": f"{kept} and {merged} have different IFPA numbers "
                f"({kept.ifpa_number} and {merged.ifpa_number}): they are two people."
            }
        )
    shared = (
        Season.objects.filter(entries__player=kept)
        .filter(entries__player=merged)
        .select_related("league")
        .first()
    )
    if shared is not None:
        raise ValidationError(
            {
                "merged": f"{kept} and {merged} are both entered in {shared.name} of "
                f"{shared.league}: they are two people."
            }
        )


def _leagues_changed(players: tuple[Player, Player]) -> None:
    """New revisions for the leagues either row played in: their player pages change. The
    seasons' facts do not change (nobody's scores or points are rewritten), so their folds
    stand."""
    League.objects.filter(
        Q(seasons__entries__player=players[0]) | Q(seasons__entries__player=players[1])
    ).update(revision=new_revision())
