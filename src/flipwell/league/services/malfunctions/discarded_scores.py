"""Positive malfunctions (§7.4): completed scores discarded for an unfair advantage, and
their replay (R7.4-a, R7.4-c, A58).

Words:
- the *counted sheet*: the game's latest confirmed version of its score sheet; a discarded
  score is a fact on that version.
- the *replay*: a new confirmed version of the sheet with the discarded players' new scores;
  the game counts again.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.season_facts import counted_tie_orders
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.selectors.scoresheet import latest_version
from flipwell.league.services._edge import (
    PlayerRef,
    group_player_ids,
    locked_game,
    open_meet,
    ref_id,
    require_member,
    require_reason,
)
from flipwell.league.services._protocol import Actor, league_write, official_write
from flipwell.league.services.corrections.proposal import carried_tie_orders
from flipwell.league.services.scores.entry import SubmittedScores
from flipwell.league.services.scores.sheet_points import game_points_of, store_sheet

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def record_positive_malfunction_replay(
    *,
    game: m.Game,
    discard_scores_of: Sequence[m.Player],
    reason: str,
    actor: User,
) -> list[m.DiscardedScore]:
    """The LO discards players' completed scores on a game after a positive malfunction gave an
    unfair advantage; they replay (R7.4-a, R7.4-c, A58).

    The counted sheet is kept as it was entered; each discarded score is a fact on that sheet
    version, and the game is incomplete (no points for anyone in it) until the replay is
    recorded with `record_replay_scores`. A game still being played needs no discard: enter
    the new game's sheet as usual (on another machine via `replace_machine`, R7.4-a).

    Side effects: a DiscardedScore per player, a Ruling, an audit event ``scores.discarded``.
    Raises PermissionDenied unless `actor` is a league official; ValidationError without a
    reason or players, for a meet that is not open, a game without confirmed scores, a player
    with no completed score on it, a score already discarded, or a correction pending.
    """
    meet = game.group.meet
    with official_write(
        league=meet.season.league, actor=actor, action="discard scores", season=meet.season
    ) as write:
        game = locked_game(game)
        group = game.group
        open_meet(group.meet, doing="discard scores")
        write.only_meets(group.meet)
        why = require_reason(reason, field="reason", what="Discarding scores (R7.4-c)")
        players = list(dict.fromkeys(discard_scores_of))
        counted = _check_discard(game, players)
        m.DiscardedScore.objects.bulk_create(
            m.DiscardedScore(
                game=game, player=p, version=counted.version, reason=why, official=actor
            )
            for p in players
        )
        rows = list(m.DiscardedScore.objects.filter(game=game, version=counted.version))
        write.ruling(
            kind="positive_malfunction_replay",
            subject=f"meet {group.meet.number} group {group.number} game {game.number}: "
            + ", ".join(str(p) for p in players),
            reason=why,
            affected=group_player_ids(group),
            game=game,
        )
        data = {"version": counted.version, "players": [p.pk for p in players], "reason": why}
        write.event("scores.discarded", game, {"game": game.pk, **data})
    return rows


def _check_discard(game: m.Game, players: list[m.Player]) -> m.ScoreSubmission:
    """The counted sheet whose scores of `players` are discarded: each a completed score not
    yet discarded, and no correction waiting (R7.4-c, R3-c)."""
    if not players:
        raise Refusal(
            {"discard_scores_of": "Name the players whose scores go."},
            code="discard_players_required",
        )
    counted = _counted_submission(game)
    sheet = dict(counted.lines.values_list("player_id", "machine_score"))
    for player in players:
        if sheet.get(player.pk) is None:
            raise Refusal(
                {"discard_scores_of": f"{player} has no completed score on this game."},
                code="no_completed_score",
            )
    done = set(
        m.DiscardedScore.objects.filter(game=game, version=counted.version).values_list(
            "player_id", flat=True
        )
    )
    repeats = [str(p) for p in players if p.pk in done]
    if repeats:
        raise ConflictError(
            {"discard_scores_of": f"Already discarded: {', '.join(repeats)}."},
            code="scores_already_discarded",
        )
    if m.CorrectionRequest.objects.filter(
        game=game, status=m.CorrectionRequest.Status.PENDING
    ).exists():
        raise ConflictError(
            {"game": "A correction of this game waits for answers: settle it first (R3-c)."},
            code="correction_pending",
        )
    return counted


def record_replay_scores(
    *,
    game: m.Game,
    scores: Mapping[PlayerRef, int],
    entered_by: m.Player,
    confirmed_by: m.Player,
    actor: User,
    tie_order: Sequence[Sequence[PlayerRef]] = (),
) -> SubmittedScores:
    """Record the replay of the scores discarded after a positive malfunction (R7.4-c, A58).

    `scores`: the replay's machine score of every player whose score was discarded; the others'
    scores stand. The result is a new version of the game's sheet (the counted one with the
    replay scores), entered by one player of the group and confirmed by another (R3-a), with
    the tie orders still holding and `tie_order` for new ties (R3.2-i). The game counts again.

    Side effects: a confirmed ScoreSubmission with its ScoreLines and tie orders, an audit
    event ``scores.replay_recorded``. Raises PermissionDenied unless `actor` is a league
    official or scorekeeper; ValidationError for a meet that is not open, a game with no
    discarded score waiting, scores for other players than the discarded ones, players outside
    the group, the same player entering and confirming, or a sheet the rules refuse.
    """
    sheet_changes = {ref_id(p): s for p, s in scores.items()}
    ties = [[ref_id(p) for p in order] for order in tie_order]
    season = game.group.meet.season
    # A scorekeeper may record it too, so this write is not `official_write`'s.
    with league_write(
        league=season.league,
        actor=Actor.scorekeeper(actor),
        action="record a replay",
        season=season,
    ) as write:
        game = locked_game(game)
        group = game.group
        open_meet(group.meet, doing="record a replay")
        write.only_meets(group.meet)
        _check_replayers(group, entered_by, confirmed_by)
        counted = _counted_submission(game)
        _check_replay_scores(game, counted, sheet_changes)
        sheet, carried = _replay_lines(game, counted, sheet_changes, ties)
        points = game_points_of(game, sheet, carried)
        submission = _replay_sheet(game, entered_by, confirmed_by, actor)
        store_sheet(submission, sheet, carried, actor=actor)
        write.event(
            "scores.replay_recorded",
            submission,
            {
                "game": game.pk,
                "version": submission.version,
                "replaced_version": counted.version,
                "scores": {str(p): s for p, s in sheet_changes.items()},
                "tie_order": carried,
            },
        )
    return SubmittedScores(submission=submission, points=points)


def _check_replayers(group: m.Group, entered_by: m.Player, confirmed_by: m.Player) -> None:
    """One player of the group enters the replay's sheet, another confirms it (R3-a)."""
    members = group_player_ids(group)
    require_member(entered_by, members, field="entered_by", group=group)
    require_member(confirmed_by, members, field="confirmed_by", group=group)
    if entered_by.pk == confirmed_by.pk:
        raise Refusal(
            {"confirmed_by": "Another player of the group confirms the sheet (R3-a)."},
            code="own_entry",
        )


def _check_replay_scores(
    game: m.Game, counted: m.ScoreSubmission, sheet_changes: Mapping[int, int]
) -> None:
    """The replay gives a score, a whole number of 0 or more, to exactly the players whose
    score on the counted sheet was discarded (R7.4-c)."""
    waiting = set(
        m.DiscardedScore.objects.filter(game=game, version=counted.version).values_list(
            "player_id", flat=True
        )
    )
    if not waiting:
        raise ConflictError(
            {"game": f"Game {game.number} has no discarded score to replay."},
            code="no_discarded_score",
        )
    if set(sheet_changes) != waiting:
        names = ", ".join(str(p) for p in m.Player.objects.filter(pk__in=waiting).order_by("pk"))
        raise Refusal(
            {"scores": f"Give the replay scores of exactly: {names}."},
            code="replay_players_mismatch",
        )
    for score in sheet_changes.values():
        if isinstance(score, bool) or not isinstance(score, int) or score < 0:
            raise Refusal(
                {"scores": f"A score is a whole number of 0 or more, not {score!r}."},
                code="invalid_score",
            )


def _replay_lines(
    game: m.Game,
    counted: m.ScoreSubmission,
    sheet_changes: Mapping[int, int],
    ties: list[list[int]],
) -> tuple[dict[int, int | None], list[list[int]]]:
    """The replay's sheet (the counted one with the replay scores) and its tie orders: those
    given for new ties, then the counted sheet's that still hold (R3.2-i)."""
    sheet: dict[int, int | None] = {
        **dict(counted.lines.values_list("player_id", "machine_score")),
        **sheet_changes,
    }
    stored = [list(o) for o in counted_tie_orders([game.pk]).get(game.pk, ())]
    return sheet, [*ties, *carried_tie_orders(stored, sheet, given=ties)]


def _replay_sheet(
    game: m.Game, entered_by: m.Player, confirmed_by: m.Player, actor: User
) -> m.ScoreSubmission:
    """The replay's sheet: a later confirmed version of the game's sheet (`ScoreSubmission`)."""
    return m.ScoreSubmission.objects.create(
        game=game,
        version=latest_version(game) + 1,
        entered_by=entered_by,
        confirmed_by=confirmed_by,
        confirmed_at=timezone.now(),
        recorded_by=actor,
        idempotency_key=f"replay:{uuid.uuid4().hex}",
        is_correction=True,
        note="replay after a positive malfunction (R7.4-c)",
    )


def _counted_submission(game: m.Game) -> m.ScoreSubmission:
    counted = (
        m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False)
        .order_by("-version")
        .first()
    )
    if counted is None:
        raise ConflictError(
            {"game": f"Game {game.number} has no confirmed scores: nothing to discard yet."},
            code="game_not_confirmed",
        )
    return counted
