"""Malfunctions (§7.3, §7.4): the report and the rules' ruling on it, compensatory games, and
positive malfunctions' discarded scores and their replay.

Words (see `flipwell.league.models.incidents`): a *report* is what the LO is told about a
malfunction; the rules classify it (`rule_malfunction`); every malfunction adds a line to the
machine's *maintenance sheet* (R7.3-u).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters import counted_tie_orders, player_key, ruleset_for
from flipwell.league.audit import record_event
from flipwell.league.enums import (
    MALFUNCTION_KINDS,
    MALFUNCTION_REASONS,
    SERIOUS_MALFUNCTION_KINDS,
    MalfunctionKindValue,
    MalfunctionReasonValue,
    one_of,
)
from flipwell.league.notices import queue_ruling
from flipwell.league.selectors.meet_board import machine_key
from flipwell.league.services._edge import (
    PlayerRef,
    game_subject,
    group_player_ids,
    locked_game,
    open_meet,
    record_ruling,
    ref_id,
    require_member,
    require_official,
    require_reason,
    require_scorekeeping,
    rules_edge,
    season_changed,
)
from flipwell.league.services.corrections import carried_tie_orders
from flipwell.league.services.meet_machines import declare_machine_state
from flipwell.league.services.scores import (
    SubmittedScores,
    game_points_of,
    latest_version,
    store_sheet,
)
from flipwell.rules.malfunctions import (
    AnnouncedProblem,
    Malfunction,
    MalfunctionReport,
    MalfunctionRuling,
    automatically_unplayable,
    compensatory_entitled,
    rule_malfunction,
)
from flipwell.rules.malfunctions import request_compensatory_game as grant_compensatory_game

if TYPE_CHECKING:
    from django.contrib.auth.models import User


REFUSED_SERIOUS = ("R7.1-d", "R7.3-g")
"""Rules under which a malfunction the reason code makes serious is refused as one."""


# --- Malfunctions and compensatory games (§7.3) ----------------------------------------------


@dataclass(frozen=True)
class ReportedMalfunction:
    """A recorded malfunction, the rules' ruling on it, and what follows.

    entitled: the player may now have a compensatory game (R7.3-k). compensatory: the request
    recorded with it (RA-b), if asked. machine_unplayable: the machine became automatically
    unplayable for the rest of the meet (R7.3-r).
    """

    malfunction: m.Malfunction
    ruling: MalfunctionRuling
    entitled: bool
    compensatory: m.CompensatoryRequest | None
    machine_unplayable: bool


def report_malfunction(
    *,
    game: m.Game,
    player: m.Player,
    ball: int,
    reason_code: MalfunctionReasonValue,
    kind: MalfunctionKindValue | None = None,
    note: str = "",
    problem: str = "",
    one_handed_ball: bool = False,
    ball_in_play: bool = True,
    request_compensatory: bool = False,
    actor: User,
) -> ReportedMalfunction:
    """A league official records a malfunction on `player`'s `ball` of `game` (§7.3, §7.4).

    `rule_malfunction` classifies it from `reason_code` (R7.3-e, R7.3-f, R7.3-h, R7.3-i,
    R7.4, R7.7-a, R7.8-a); reason "other" needs the official's `kind` and a `note` (R7.3-d,
    R7.3-j), recorded as a Ruling. A serious malfunction on a one-handed extra ball (R7.1-d)
    or matching a problem the LO announced before play (`problem`, R7.3-g) is refused. Every
    malfunction adds a line to the machine's maintenance sheet (R7.3-u). When every player's
    first ball ended in a major, the machine is declared unplayable for the meet (R7.3-r).
    With `request_compensatory` the player's request is recorded at the trigger (RA-b).

    Side effects: a Malfunction, a MaintenanceNote, maybe a Ruling, a MachineDeclaration and a
    CompensatoryRequest, audit events ``malfunction.reported`` (and the others'), a notice to
    the player queued when they chose it (`flipwell.league.notices.queue_ruling`). Raises
    PermissionDenied unless `actor` is a league official; ValidationError for a meet that is
    not open, a player outside the group, a refused classification, or a refused request.
    """
    with transaction.atomic():
        game = locked_game(game)
        meet = game.group.meet
        league = meet.season.league
        require_official(actor=actor, league=league, action="record a malfunction")
        open_meet(meet, doing="record a malfunction")
        members = group_player_ids(game.group)
        require_member(player, members, field="player", group=game.group)
        reason_code = one_of(reason_code, MALFUNCTION_REASONS, field="reason_code", what="reason")
        why = note.strip()
        if reason_code == "other":
            why = require_reason(note, field="note", what="The official's ruling on a malfunction")
        machine = game.machine
        key = machine_key(machine.pk, machine.title)
        announced = [
            AnnouncedProblem(key, text)
            for text in m.AnnouncedProblem.objects.filter(meet=meet, machine=machine).values_list(
                "problem", flat=True
            )
        ]
        report = MalfunctionReport(
            player=player_key(player.pk),
            machine=key,
            turn=ball,
            reason=reason_code,
            one_handed_ball=one_handed_ball,
            ball_in_play=ball_in_play,
            problem=problem,
        )
        ruleset = ruleset_for(league)
        with rules_edge("kind" if kind else "reason_code"):
            ruling = rule_malfunction(
                report,
                announced=announced,
                lo_kind=one_of(kind, MALFUNCTION_KINDS, field="kind") if kind else None,
                ruleset=ruleset,
            )
        if ruling.kind == "not_serious" and ruling.rule in REFUSED_SERIOUS:
            raise ValidationError(
                {
                    "reason_code": f"This cannot be recorded as a malfunction: {ruling.reason} "
                    f"({ruling.rule}). To note it on the maintenance sheet, record reason "
                    "'other' with kind 'not_serious'."
                },
                code="refused",
            )
        malfunction = m.Malfunction.objects.create(
            game=game,
            player=player,
            ball=ball,
            kind=ruling.kind,
            reason_code=reason_code,
            problem=problem.strip(),
            note=why,
            official=actor,
        )
        label = m.Malfunction.ReasonCode(reason_code).label
        m.MaintenanceNote.objects.create(
            machine=machine,
            meet=meet,
            text=f"{ruling.kind.replace('_', ' ')} malfunction: {label}, ball {ball}, "
            f"group {game.group.number} game {game.number} ({ruling.rule})"
            + (f". {why}" if why else ""),
            created_by=actor,
        )
        if kind is not None:
            record_ruling(
                league=league,
                official=actor,
                kind=f"malfunction_{ruling.kind}",
                subject=game_subject(game, player),
                reason=why or ruling.reason,
                affected=group_player_ids(game.group),
            )
        record_event(
            action="malfunction.reported",
            obj=malfunction,
            league=league,
            actor=actor,
            data={
                "game": game.pk,
                "player": player.pk,
                "ball": ball,
                "kind": ruling.kind,
                "reason_code": reason_code,
                "rule": ruling.rule,
            },
        )
        serious = _serious_malfunctions(game)
        entitled = compensatory_entitled(serious, player=player_key(player.pk))
        forfeited = set(m.Forfeit.objects.filter(game=game).values_list("player_id", flat=True))
        playing = [player_key(p) for p in members if p not in forfeited]
        unplayable = False
        # With every player's forfeit recorded nobody plays the machine, so R7.3-r's "every
        # player's first ball" cannot be met (and the rules refuse a game of no players).
        if (
            ruling.kind == "major"
            and playing
            and automatically_unplayable(serious, players=playing)
        ):
            unplayable = declare_machine_state(
                meet,
                machine,
                m.MachineDeclaration.Kind.UNPLAYABLE,
                actor,
                "automatic: every player's first ball ended in a major malfunction (R7.3-r)",
            )
        request = None
        if request_compensatory:
            request = _grant(game, player, serious, play_continued=False, actor=actor)
        season_changed(meet.season)
        queue_ruling(
            league=league,
            player=player,
            meet=meet,
            key=f"malfunction:{malfunction.pk}",
            what=f"a malfunction on your ball {ball} at meet {meet.number}",
            details=[
                f"{malfunction.get_kind_display()}: {label} (group {game.group.number}, "
                f"game {game.number}, {ruling.rule}).",
                "You may now ask for a compensatory game (R7.3-k)." if entitled else "",
            ],
            reason=why,
        )
    return ReportedMalfunction(
        malfunction=malfunction,
        ruling=ruling,
        entitled=entitled,
        compensatory=request,
        machine_unplayable=unplayable,
    )


def request_compensatory_game(
    *, game: m.Game, player: m.Player, play_continued: bool = False, actor: User
) -> m.CompensatoryRequest:
    """Grant `player` a compensatory game on `game` (R7.3-k, R7.3-l, RA-b, A31).

    He must have two majors or one catastrophic malfunction in the game, and ask at the
    trigger, before play continued (`play_continued` as the LO attests). The group waits for
    the game (R7.3-p) until its score is recorded.

    Side effects: a CompensatoryRequest (with its number of balls), an audit event
    ``compensatory.requested``. Raises PermissionDenied unless `actor` is a league official;
    ValidationError without entitlement, too late, for a repeat or a meet that is not open.
    """
    with transaction.atomic():
        game = locked_game(game)
        league = game.group.meet.season.league
        require_official(actor=actor, league=league, action="grant a compensatory game")
        open_meet(game.group.meet, doing="grant a compensatory game")
        require_member(player, group_player_ids(game.group), field="player", group=game.group)
        request = _grant(
            game, player, _serious_malfunctions(game), play_continued=play_continued, actor=actor
        )
        season_changed(game.group.meet.season)
    return request


def record_compensatory_game(
    *,
    game: m.Game,
    player: m.Player,
    new_score: int,
    leading_subtracted: int = 0,
    state_subtracted: int = 0,
    reason: str = "",
    actor: User,
) -> m.CompensatoryGame:
    """Record the displayed score of a granted compensatory game (R7.3-m, R7.3-n, R7.3-o).

    His final score is original + new − leading − state, computed by the rules when the
    standings are read. Subtractions are the LO's decisions (R7.3-n, R7.3-o) and need a
    `reason` (a Ruling). Refused without a granted request (R7.3-k, RA-b).

    Side effects: a CompensatoryGame, a Ruling for subtractions, an audit event
    ``compensatory.recorded``. Raises PermissionDenied unless `actor` is a league official;
    ValidationError without a granted request, for a repeat, a negative amount, or a meet
    that is not open.
    """
    with transaction.atomic():
        game = locked_game(game)
        league = game.group.meet.season.league
        require_official(actor=actor, league=league, action="record a compensatory game")
        open_meet(game.group.meet, doing="record a compensatory game")
        if not m.CompensatoryRequest.objects.filter(game=game, player=player).exists():
            raise ValidationError(
                {
                    "player": f"{player} was not granted a compensatory game in this game: it "
                    "needs 2 major or 1 catastrophic malfunction, requested at the trigger "
                    "(R7.3-k, RA-b)."
                },
                code="not_entitled",
            )
        if m.CompensatoryGame.objects.filter(game=game, player=player).exists():
            raise ValidationError({"player": f"{player}'s compensatory game is recorded."})
        amounts = {
            "new_score": new_score,
            "leading_subtracted": leading_subtracted,
            "state_subtracted": state_subtracted,
        }
        for field, amount in amounts.items():
            if isinstance(amount, bool) or not isinstance(amount, int) or amount < 0:
                raise ValidationError(
                    {field: f"Must be a whole number of 0 or more, not {amount!r}."}
                )
        why = reason.strip()
        if leading_subtracted or state_subtracted:
            why = require_reason(reason, field="reason", what="Subtracting points (R7.3-n, R7.3-o)")
            record_ruling(
                league=league,
                official=actor,
                kind="compensatory_subtraction",
                subject=game_subject(game, player),
                reason=why,
                affected=group_player_ids(game.group),
            )
        compensatory = m.CompensatoryGame.objects.create(
            game=game, player=player, official=actor, **amounts
        )
        record_event(
            action="compensatory.recorded",
            obj=compensatory,
            league=league,
            actor=actor,
            data={"game": game.pk, "player": player.pk, **amounts, "reason": why},
        )
        season_changed(game.group.meet.season)  # e.g. refused: no score to add to
    return compensatory


# --- Positive malfunctions: discarded scores and their replay (§7.4) ------------------------


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
    with transaction.atomic():
        game = locked_game(game)
        group = game.group
        league = group.meet.season.league
        require_official(actor=actor, league=league, action="discard scores")
        open_meet(group.meet, doing="discard scores")
        why = require_reason(reason, field="reason", what="Discarding scores (R7.4-c)")
        players = list(dict.fromkeys(discard_scores_of))
        if not players:
            raise ValidationError({"discard_scores_of": "Name the players whose scores go."})
        counted = _counted_submission(game)
        sheet = dict(counted.lines.values_list("player_id", "machine_score"))
        for player in players:
            if sheet.get(player.pk) is None:
                raise ValidationError(
                    {"discard_scores_of": f"{player} has no completed score on this game."}
                )
        done = set(
            m.DiscardedScore.objects.filter(game=game, version=counted.version).values_list(
                "player_id", flat=True
            )
        )
        repeats = [str(p) for p in players if p.pk in done]
        if repeats:
            raise ValidationError(
                {"discard_scores_of": f"Already discarded: {', '.join(repeats)}."}
            )
        if m.CorrectionRequest.objects.filter(
            game=game, status=m.CorrectionRequest.Status.PENDING
        ).exists():
            raise ValidationError(
                {"game": "A correction of this game waits for answers: settle it first (R3-c)."}
            )
        rows = m.DiscardedScore.objects.bulk_create(
            m.DiscardedScore(
                game=game, player=p, version=counted.version, reason=why, official=actor
            )
            for p in players
        )
        rows = list(m.DiscardedScore.objects.filter(game=game, version=counted.version))
        record_ruling(
            league=league,
            official=actor,
            kind="positive_malfunction_replay",
            subject=f"meet {group.meet.number} group {group.number} game {game.number}: "
            + ", ".join(str(p) for p in players),
            reason=why,
            affected=group_player_ids(group),
        )
        record_event(
            action="scores.discarded",
            obj=game,
            league=league,
            actor=actor,
            data={
                "game": game.pk,
                "version": counted.version,
                "players": [p.pk for p in players],
                "reason": why,
            },
        )
        season_changed(group.meet.season)
    return rows


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
    with transaction.atomic():
        game = locked_game(game)
        group = game.group
        league = group.meet.season.league
        require_scorekeeping(actor=actor, league=league, action="record a replay")
        open_meet(group.meet, doing="record a replay")
        members = group_player_ids(group)
        require_member(entered_by, members, field="entered_by", group=group)
        require_member(confirmed_by, members, field="confirmed_by", group=group)
        if entered_by.pk == confirmed_by.pk:
            raise ValidationError(
                {"confirmed_by": "Another player of the group confirms the sheet (R3-a)."}
            )
        counted = _counted_submission(game)
        waiting = set(
            m.DiscardedScore.objects.filter(game=game, version=counted.version).values_list(
                "player_id", flat=True
            )
        )
        if not waiting:
            raise ValidationError({"game": f"Game {game.number} has no discarded score to replay."})
        if set(sheet_changes) != waiting:
            names = ", ".join(
                str(p) for p in m.Player.objects.filter(pk__in=waiting).order_by("pk")
            )
            raise ValidationError({"scores": f"Give the replay scores of exactly: {names}."})
        for score in sheet_changes.values():
            if isinstance(score, bool) or not isinstance(score, int) or score < 0:
                raise ValidationError(
                    {"scores": f"A score is a whole number of 0 or more, not {score!r}."}
                )
        sheet: dict[int, int | None] = {
            **dict(counted.lines.values_list("player_id", "machine_score")),
            **sheet_changes,
        }
        stored = [list(o) for o in counted_tie_orders([game.pk]).get(game.pk, ())]
        carried = [*ties, *carried_tie_orders(stored, sheet, given=ties)]
        points = game_points_of(game, sheet, carried)
        submission = m.ScoreSubmission.objects.create(
            game=game,
            version=latest_version(game) + 1,
            entered_by=entered_by,
            confirmed_by=confirmed_by,
            confirmed_at=timezone.now(),
            recorded_by=actor,
            idempotency_key=f"replay:{uuid.uuid4().hex}",
            is_correction=True,  # a later confirmed version of the sheet (see ScoreSubmission)
            note="replay after a positive malfunction (R7.4-c)",
        )
        store_sheet(submission, sheet, carried, actor=actor)
        record_event(
            action="scores.replay_recorded",
            obj=submission,
            league=league,
            actor=actor,
            data={
                "game": game.pk,
                "version": submission.version,
                "replaced_version": counted.version,
                "scores": {str(p): s for p, s in sheet_changes.items()},
                "tie_order": carried,
            },
        )
        season_changed(group.meet.season)
    return SubmittedScores(submission=submission, points=points)


# --- helpers ---------------------------------------------------------------------------------


def _serious_malfunctions(game: m.Game) -> list[Malfunction]:
    rows = m.Malfunction.objects.filter(
        game=game, kind__in=(m.Malfunction.Kind.MAJOR, m.Malfunction.Kind.CATASTROPHIC)
    ).values_list("player_id", "ball", "kind")
    return [
        Malfunction(player_key(p), ball, one_of(kind, SERIOUS_MALFUNCTION_KINDS, field="kind"))
        for p, ball, kind in rows
    ]


def _grant(
    game: m.Game,
    player: m.Player,
    serious: list[Malfunction],
    *,
    play_continued: bool,
    actor: User,
) -> m.CompensatoryRequest:
    if m.CompensatoryRequest.objects.filter(game=game, player=player).exists():
        raise ValidationError({"player": f"{player}'s compensatory game is already granted."})
    league = game.group.meet.season.league
    with rules_edge("player"):
        granted = grant_compensatory_game(
            serious,
            player=player_key(player.pk),
            play_continued=play_continued,
            ruleset=ruleset_for(league),
        )
    request = m.CompensatoryRequest.objects.create(
        game=game, player=player, balls=granted.balls, official=actor
    )
    record_event(
        action="compensatory.requested",
        obj=request,
        league=league,
        actor=actor,
        data={"game": game.pk, "player": player.pk, "balls": granted.balls},
    )
    return request


def _counted_submission(game: m.Game) -> m.ScoreSubmission:
    counted = (
        m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False)
        .order_by("-version")
        .first()
    )
    if counted is None:
        raise ValidationError(
            {"game": f"Game {game.number} has no confirmed scores: nothing to discard yet."}
        )
    return counted
