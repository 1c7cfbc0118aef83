"""Use cases that say two player rows are one person, and take it back.

Words: see `flipwell.league.models.players` (*person*, *merge*, *kept* row, *undo*).

Who may merge: a superuser (an installation admin), or a league official (LO) of a league in
which both rows have played (each entered in some season of it) who is also an LO of every
other league either row (or a row merged into it) plays in. The LO is the one who knows the
people of their league by sight and signs off on its results; a merge changes what every
league the person plays in shows (its player page then names the kept row), so an LO of one
league never rewrites another league's pages. An undo is allowed to the same
people. The audit event of a merge or undo is filed under every league it changes, so each
league's officials see it in their own log.

The same holds for a rename (`flipwell.league.services.players.editing.edit_player`):
`require_official_everywhere` is the one check, with a message that names the other leagues.

What is refused: a row merged into itself; a row that is already merged, or a kept row that
is (merges are one level deep, so a person is always one kept row and its merged rows); two
rows entered in the same season (one person is entered once per season, so they are two
people); two rows with different IFPA numbers (the IFPA number identifies a person, so they
are two people). Nothing a row played is rewritten, so an undo is exact.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.utils import timezone

from flipwell.league.models import (
    League,
    LeagueOfficial,
    Player,
    PlayerMerge,
    Season,
    SeasonEntry,
)
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.revisions import announce_many, league_revision
from flipwell.league.selectors.people import leagues_showing, may_merge_in
from flipwell.league.services._edge import require_reason
from flipwell.league.services._protocol import Actor, league_write

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def merge_players(
    *, league: League, kept: Player, merged: Player, reason: str, actor: User
) -> PlayerMerge:
    """Record that `merged` is the same person as `kept` (from `league`'s console).

    Side effects: sets `merged.merged_into` to `kept`, inserts a PlayerMerge (who, when, why),
    writes an audit event ``player.merged`` in every league either row plays in, and gives
    each of them a new revision (their player pages change). Raises PermissionDenied unless
    `actor` may merge (module docstring: an official of every league either row plays in),
    and ValidationError (nothing written) for a refused pair or a missing reason.
    """
    why = require_reason(reason, field="reason", what="A merge")
    # An account: an official of every league either row plays in (`_require_merger`).
    with league_write(league=league, actor=Actor.account(actor), action="merge players") as write:
        rows = {
            p.pk: p for p in Player.objects.select_for_update().filter(pk__in=[kept.pk, merged.pk])
        }
        kept_row, merged_row = rows[kept.pk], rows[merged.pk]
        changed = _require_merger(actor=actor, league=league, players=(kept_row, merged_row))
        _check_pair(kept_row, merged_row)
        merged_row.merged_into = kept_row
        merged_row.save(update_fields=["merged_into"])
        merge = PlayerMerge.objects.create(
            kept=kept_row, merged=merged_row, reason=why, merged_by=actor
        )
        data = {"kept": kept_row.pk, "merged": merged_row.pk, "reason": why}
        for shown in changed:  # each league whose pages change logs it
            write.event("player.merged", merge, data, league=shown)
        _leagues_changed((kept_row, merged_row))
    return merge


def undo_player_merge(
    *, league: League, merge: PlayerMerge, reason: str, actor: User
) -> PlayerMerge:
    """Undo a standing merge: the merged row is a person of its own again.

    Side effects: clears `merged_into` on the merged row, records who undid the merge, when and
    why on the PlayerMerge, writes an audit event ``player.merge_undone`` in every league
    either row plays in, and gives every
    league either row played in a new revision. Raises PermissionDenied as `merge_players`
    does, and ValidationError for a merge already undone or a missing reason.
    """
    why = require_reason(reason, field="reason", what="Undoing a merge")
    undoer = Actor.account(actor)
    with league_write(league=league, actor=undoer, action="undo a merge") as write:
        locked = PlayerMerge.objects.select_for_update().get(pk=merge.pk)
        kept = Player.objects.get(pk=locked.kept_id)
        merged = Player.objects.get(pk=locked.merged_id)
        changed = _require_merger(actor=actor, league=league, players=(kept, merged))
        if locked.undone_at is not None:
            raise ConflictError(
                f"The merge of {merged} into {kept} was already undone.",
                code="merge_already_undone",
            )
        Player.objects.filter(pk=merged.pk).update(merged_into=None)
        locked.undone_at = timezone.now()
        locked.undone_by = actor
        locked.undo_reason = why
        locked.save(update_fields=["undone_at", "undone_by", "undo_reason"])
        data = {"kept": kept.pk, "merged": merged.pk, "reason": why}
        for shown in changed:
            write.event("player.merge_undone", locked, data, league=shown)
        _leagues_changed((kept, merged))
    return locked


def check_merge_players(*, league: League, kept: Player, merged: Player, actor: User) -> None:
    """Refuse a merge as `merge_players` would, without writing anything: the console's review
    step. PermissionDenied unless `actor` may merge the pair (module docstring), ValidationError
    (keyed by field) for a pair that cannot be one person."""
    _require_merger(actor=actor, league=league, players=(kept, merged))
    _check_pair(kept, merged)


def require_official_everywhere(
    *, actor: User, league: League, players: Sequence[Player], doing: str
) -> list[League]:
    """The leagues whose pages show `players` (`leagues_showing`, `league` always among them),
    once `actor` may change what all of them show: a superuser (an installation admin), or a
    league official of each. PermissionDenied otherwise, naming who plays in which other
    league and who may `doing` (a verb phrase on "them": "rename them")."""
    shown = leagues_showing(players)
    leagues = list(shown)
    if league not in shown:
        leagues.insert(0, league)
    if actor.is_superuser:
        return leagues
    officiated = set(
        LeagueOfficial.objects.filter(
            user=actor, league__in=leagues, role=LeagueOfficial.Role.LEAGUE_OFFICIAL
        ).values_list("league_id", flat=True)
    )
    others = [other for other in leagues if other.pk not in officiated]
    if others:
        who = list({p.pk: p for other in others for p in shown.get(other, [])}.values())
        names = _names([str(p) for p in who])
        plays = "plays" if len(who) == 1 else "play"
        also = "also " if league.pk in officiated else ""
        raise PermissionDenied(
            f"{names} {also}{plays} in {_names([str(other) for other in others])}: only an "
            "official of every league they play in, or an installation admin, can "
            f"{doing}."
        )
    return leagues


def _names(names: Sequence[str]) -> str:
    """``Ann``, ``Ann and Ben``, ``Ann, Ben and Cat``."""
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} and {names[-1]}"


def _require_merger(*, actor: User, league: League, players: tuple[Player, Player]) -> list[League]:
    """The leagues the merge (or undo) of `players` changes, once `actor` may change them all
    (module docstring); PermissionDenied otherwise."""
    if actor.is_superuser:
        return require_official_everywhere(
            actor=actor, league=league, players=players, doing="merge them"
        )
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
    return require_official_everywhere(
        actor=actor, league=league, players=players, doing="merge them"
    )


def _check_pair(kept: Player, merged: Player) -> None:
    """ValidationError (keyed by field) for a pair that cannot be one person (module words)."""
    if kept.pk == merged.pk:
        raise Refusal({"merged": "Choose two different players."}, code="same_player")
    if merged.merged_into_id is not None:
        raise ConflictError(
            {"merged": f"{merged} is already merged into another player."},
            code="player_already_merged",
        )
    if kept.merged_into_id is not None:
        raise Refusal(
            {"kept": f"{kept} is merged into another player: merge into that player instead."},
            code="kept_player_merged",
        )
    if Player.objects.filter(merged_into=merged).exists():
        raise Refusal(
            {"merged": f"Players are merged into {merged}: merge {kept} into {merged} instead."},
            code="merged_player_has_merges",
        )
    if kept.ifpa_number and merged.ifpa_number and kept.ifpa_number != merged.ifpa_number:
        raise Refusal(
            {
                "merged": f"{kept} and {merged} have different IFPA numbers "
                f"({kept.ifpa_number} and {merged.ifpa_number}): they are two people."
            },
            code="different_ifpa_numbers",
        )
    shared = (
        Season.objects.filter(entries__player=kept)
        .filter(entries__player=merged)
        .select_related("league")
        .first()
    )
    if shared is not None:
        raise Refusal(
            {
                "merged": f"{kept} and {merged} are both entered in {shared.name} of "
                f"{shared.league}: they are two people."
            },
            code="same_season_entries",
        )


def _leagues_changed(players: tuple[Player, Player]) -> None:
    """New revisions for the leagues either row played in: their player pages change. The
    seasons' facts do not change (nobody's scores or points are rewritten), so their folds
    stand."""
    League.objects.filter(
        Q(seasons__entries__player=players[0]) | Q(seasons__entries__player=players[1])
    ).update(revision=league_revision())
    announce_many()
