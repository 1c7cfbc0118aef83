"""Another player of the group confirms a game's entered score sheet: it now counts (R3-a).

Words:
- *score sheet*: every group member's machine score for one game, None for a player who did
  not play it (a forfeit, §2.4), and the order a one-ball playoff gave tied players (R3.2-i).
- *version*: each entry of a game's sheet is a new `ScoreSubmission`; an unconfirmed one may
  be replaced by a later one; once one is confirmed by another player of the group (R3-a) the
  sheet changes only through a correction (`flipwell.league.services.corrections`).
- *confirmer*: the player who confirms: one of the group, not the one who entered the sheet,
  who played the game when another who played it may confirm (`who_may_confirm`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.db import IntegrityError
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import absent_at, match_absences, sheet_facts
from flipwell.league.adapters.keys import player_key
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import group_player_ids, open_meet, require_member
from flipwell.league.services._protocol import Actor, league_write, savepoint
from flipwell.league.services.scores.sheet_checks import (
    check_forfeits,
    check_not_confirmed,
    fold_with_sheet,
    game_held_for_scores,
    version_among,
    versions_of,
)
from flipwell.rules import who_may_confirm

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def confirm_scores(
    *, submission: m.ScoreSubmission, confirmed_by: m.Player, actor: User | None = None
) -> m.ScoreSubmission:
    """Another player of the group confirms a game's entered sheet (R3-a): it now counts.

    The game row is locked (select_for_update) and the database allows one confirmed entry per
    game, so of two confirmations racing exactly one wins; the other gets a ConflictError
    naming who confirmed. Only the latest version can be confirmed; a correction's sheet is
    applied by agreement, not by confirmation (R3-d).

    Side effects: sets confirmed_by and confirmed_at, audit event ``scores.confirmed``. Raises
    ConflictError when the game is already confirmed; ValidationError when the meet is not
    open, the sheet was replaced by a later version, `confirmed_by` entered it himself or
    is not in the group, or it scores a player who forfeited the season meanwhile (A65).
    """
    with league_write(league=None, actor=Actor.player(actor), action="confirm scores") as write:
        game = game_held_for_scores(submission.game_id)
        write.league = game.group.meet.season.league
        versions = versions_of(game)
        submission = version_among(versions, submission.pk)
        open_meet(game.group.meet, doing="confirm scores")
        _check_confirmable(game, versions, submission)
        sheet = _check_confirmer(game, submission, confirmed_by)
        check_forfeits(game, sheet)
        submission.confirmed_by = confirmed_by
        submission.confirmed_at = timezone.now()
        try:
            with savepoint():
                submission.save(update_fields=["confirmed_by", "confirmed_at"])
        except IntegrityError:
            check_not_confirmed(game, versions_of(game))  # names the winner
            raise
        write.event(
            "scores.confirmed",
            submission,
            {"game": game.pk, "version": submission.version, "confirmed_by": confirmed_by.pk},
        )
        fold_with_sheet(write, game, sheet)  # the sheet must score with the rest
    return submission


def _check_confirmable(
    game: m.Game, versions: Sequence[m.ScoreSubmission], submission: m.ScoreSubmission
) -> None:
    """Refuse to confirm a correction's sheet (applied by agreement, R3-d), a game already
    confirmed, or a version replaced by a later one."""
    if submission.is_correction:
        raise Refusal(
            "This sheet is a correction: it is applied when every player asked agrees "
            "(R3-d), not by confirmation.",
            code="sheet_is_correction",
        )
    check_not_confirmed(game, versions)
    latest = versions[-1].version
    if submission.version != latest:
        raise ConflictError(
            f"Version {submission.version} of game {game.number}'s sheet was replaced by "
            f"version {latest}: confirm version {latest}.",
            code="stale_version",
        )


def _check_confirmer(
    game: m.Game, submission: m.ScoreSubmission, confirmed_by: m.Player
) -> dict[int, int | None]:
    """Refuse a confirmer the rules do not allow (`who_may_confirm`, R3-a): a player outside
    the group, the enterer, or one who did not play the game while another who played it may
    confirm. The sheet's scores by player id."""
    members = group_player_ids(game.group)
    require_member(confirmed_by, members, field="confirmed_by", group=game.group)
    if confirmed_by.pk == submission.entered_by_id:
        raise Refusal(
            {
                "confirmed_by": f"{confirmed_by} entered this sheet: another player of the "
                "group must confirm it (R3-a)."
            },
            code="own_entry",
        )
    sheet = dict(submission.lines.values_list("player_id", "machine_score"))
    absent = match_absences([game.group_id]).get(game.group_id, {})
    allowed = who_may_confirm(
        group=[player_key(p) for p in members],
        entered_by=player_key(submission.entered_by_id),
        sheet=sheet_facts(sheet),
        absent=[player_key(p) for p in absent_at(absent, game.number)],
    )
    if confirmed_by.pk in absent_at(absent, game.number):
        raise Refusal(
            {
                "confirmed_by": f"{confirmed_by} is absent for the rest of the match: another "
                "player of the group confirms the sheet (R3-a, R2.4-a)."
            },
            code="absent_for_the_match",
        )
    if player_key(confirmed_by.pk) not in allowed:
        raise Refusal(
            {
                "confirmed_by": f"{confirmed_by} did not play game {game.number} (no score on "
                "the sheet): a player who played it confirms it (R3-a)."
            },
            code="not_played",
        )
    return sheet
