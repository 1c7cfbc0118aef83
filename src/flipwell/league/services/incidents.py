"""League-night incidents: forfeits, late joins, malfunctions and compensatory games, machine
declarations and replacements, violations with their victims' remedies and charges, game
restarts, and positive malfunctions' discarded scores and replays (§2.3, §2.4, §5.1, §7.3,
§7.4, §8).

Words (see `flipwell.league.models.incidents`): a *report* is what the LO is told about a
malfunction; the rules classify it (`rule_malfunction`); every malfunction adds a line to the
machine's *maintenance sheet* (R7.3-u). A violation is stored as a fact with its timing (A27);
its §8.5 penalty is applied by the season fold whenever the standings are read, so no points
are stored here.
"""

from __future__ import annotations

import dataclasses
import secrets
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
from flipwell.league.selectors.meet_board import machine_id_of, machine_key, machine_states
from flipwell.league.services._edge import (
    call_rules,
    fold,
    group_player_ids,
    open_meet,
    record_ruling,
    require_member,
    require_official,
    require_reason,
    require_scorekeeping,
    rules_edge,
    season_changed,
)
from flipwell.league.services._season_forfeit import refuse_if_season_forfeited
from flipwell.league.services.corrections import carried_tie_orders
from flipwell.league.services.ledger import record_ledger_entry
from flipwell.league.services.meets import SEED_LIMIT
from flipwell.league.services.scores import (
    PlayerRef,
    SubmittedScores,
    game_points_of,
    store_sheet,
)
from flipwell.rules.attendance import JoinDecision, join_game_in_progress
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
from flipwell.rules.ruleset import InterferenceChoice
from flipwell.rules.season import SeasonResult
from flipwell.rules.selection import replacement_machine
from flipwell.rules.violations import (
    PenaltyDecision,
    Violation,
    game_count_outcome,
    interference_remedy,
    opponents_ball_remedy,
    penalty_decision,
    restart_charge,
    violator_charge,
)
from flipwell.rules.violations import VictimRemedy as RulesRemedy

if TYPE_CHECKING:
    from django.contrib.auth.models import User

REFUSED_SERIOUS = ("R7.1-d", "R7.3-g")
"""Rules under which a malfunction the reason code makes serious is refused as one."""


# --- Forfeits and late joins (§2.3, §2.4) ----------------------------------------------------


def record_forfeit(
    *,
    game: m.Game,
    player: m.Player,
    countable: bool = True,
    reason: str = m.Forfeit.Reason.ABSENT,
    note: str = "",
    actor: User,
) -> m.Forfeit:
    """Record that `player` forfeits `game` (R2.4-a): 0 points, the others re-scored (R2.4-c).

    Every forfeit is countable toward the §2.5 season forfeit (R2.4-h) unless a league
    official designates it not (R2.4-g): `countable=False` needs an LO and a `note` saying why,
    and is recorded as a Ruling. His score on the game's sheet must then be empty.

    Side effects: a Forfeit, a Ruling for a non-countable designation, an audit event
    ``forfeit.recorded``. Raises PermissionDenied unless `actor` is a league official or
    scorekeeper (an LO for non-countable); ValidationError for a meet that is not open, a
    player outside the group, a confirmed score for him, a repeat, a penalty forfeit
    (those follow from a recorded violation, §8.5), or a player who forfeited the season
    before this game (R2.5-b, A65).
    """
    with transaction.atomic():
        game = _locked_game(game)
        league = game.group.meet.season.league
        require_scorekeeping(actor=actor, league=league, action="record a forfeit")
        open_meet(game.group.meet, doing="record a forfeit")
        require_member(player, group_player_ids(game.group), field="player", group=game.group)
        if reason not in (m.Forfeit.Reason.ABSENT, m.Forfeit.Reason.LATE, m.Forfeit.Reason.OTHER):
            raise ValidationError(
                {
                    "reason": "A forfeit's reason is absent, late or other; a penalty forfeit "
                    "follows from a recorded serious violation (§8.5)."
                }
            )
        why = note.strip()
        if not countable:
            require_official(actor=actor, league=league, action="make a forfeit non-countable")
            why = require_reason(note, field="note", what="A non-countable forfeit (R2.4-g)")
        score = _confirmed_score(game, player)
        if score is not None:
            raise ValidationError(
                {
                    "player": f"{player} has a confirmed score of {score:,} in this game: a "
                    "forfeit cannot replace it (request a correction instead, R3-b)."
                }
            )
        if m.Forfeit.objects.filter(game=game, player=player).exists():
            raise ValidationError({"player": f"{player}'s forfeit of this game is recorded."})
        forfeit = m.Forfeit.objects.create(
            game=game, player=player, countable=countable, reason=reason, note=why,
            recorded_by=actor,
        )  # fmt: skip
        if not countable:
            record_ruling(
                league=league,
                official=actor,
                kind="forfeit_not_countable",
                subject=_subject(game, player),
                reason=why,
                affected=group_player_ids(game.group),
            )
        record_event(
            action="forfeit.recorded",
            obj=forfeit,
            league=league,
            actor=actor,
            data={"game": game.pk, "player": player.pk, "countable": countable, "reason": reason},
        )
        folded, _ = season_changed(game.group.meet.season)
        refuse_if_season_forfeited(  # A65; rolls the forfeit back
            game=game, players=[player.pk], field="player", refused="a forfeit", result=folded
        )
    return forfeit


def record_late_join(
    *,
    game: m.Game,
    player: m.Player,
    machine_allows_joining: bool,
    last_player_not_past_ball_1: bool,
    actor: User,
) -> JoinDecision:
    """A late player arrives during `game`: he joins it, or forfeits it (§2.3, R2.3-a, A60).

    `join_game_in_progress` decides from the two attested conditions; he then plays last in
    it (R5.2-c) and does not pick the next machine (R5.2-d, A24). Otherwise the game is a
    forfeit for him (reason "late") and he joins at the next game.

    Side effects: a LateJoin, or a Forfeit (late); an audit event ``game.late_arrival``.
    Raises PermissionDenied unless `actor` is a league official or scorekeeper;
    ValidationError for a meet that is not open, a confirmed game, a player outside the group,
    one who already played a game tonight, or a repeat.
    """
    with transaction.atomic():
        game = _locked_game(game)
        league = game.group.meet.season.league
        require_scorekeeping(actor=actor, league=league, action="record a late arrival")
        open_meet(game.group.meet, doing="record a late arrival")
        require_member(player, group_player_ids(game.group), field="player", group=game.group)
        if m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False).exists():
            raise ValidationError(
                {"game": f"Game {game.number}'s scores are confirmed: it is no longer in progress."}
            )
        played_before = m.ScoreLine.objects.filter(
            submission__game__group=game.group,
            submission__game__number__lt=game.number,
            submission__confirmed_by__isnull=False,
            player=player,
            machine_score__isnull=False,
        ).exists()
        if played_before:
            raise ValidationError(
                {"player": f"{player} already played an earlier game tonight: he is not late."}
            )
        if (
            m.LateJoin.objects.filter(game=game, player=player).exists()
            or m.Forfeit.objects.filter(game=game, player=player).exists()
        ):
            raise ValidationError({"player": f"{player}'s arrival in this game is recorded."})
        decision = call_rules(
            join_game_in_progress,
            machine_permits=machine_allows_joining,
            last_player_started_ball_1=not last_player_not_past_ball_1,
        )
        row: m.LateJoin | m.Forfeit
        if decision.may_join:
            row = m.LateJoin.objects.create(
                game=game, player=player, machine_allows_joining=True,
                last_player_not_past_ball_1=True, recorded_by=actor,
            )  # fmt: skip
        else:
            row = m.Forfeit.objects.create(
                game=game, player=player, reason=m.Forfeit.Reason.LATE, note=decision.reason,
                recorded_by=actor,
            )  # fmt: skip
        record_event(
            action="game.late_arrival",
            obj=row,
            league=league,
            actor=actor,
            data={
                "game": game.pk,
                "player": player.pk,
                "joined": decision.may_join,
                "machine_allows_joining": machine_allows_joining,
                "last_player_not_past_ball_1": last_player_not_past_ball_1,
            },
        )
        season_changed(game.group.meet.season)
    return decision


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
    reason_code: str,
    kind: str | None = None,
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
    CompensatoryRequest, audit events ``malfunction.reported`` (and the others'). Raises
    PermissionDenied unless `actor` is a league official; ValidationError for a meet that is
    not open, a player outside the group, a refused classification, or a refused request.
    """
    with transaction.atomic():
        game = _locked_game(game)
        meet = game.group.meet
        league = meet.season.league
        require_official(actor=actor, league=league, action="record a malfunction")
        open_meet(meet, doing="record a malfunction")
        members = group_player_ids(game.group)
        require_member(player, members, field="player", group=game.group)
        if reason_code not in m.Malfunction.ReasonCode.values:
            allowed = ", ".join(m.Malfunction.ReasonCode.values)
            raise ValidationError(
                {"reason_code": f"Unknown reason {reason_code!r}; use {allowed}."}
            )
        why = note.strip()
        if reason_code == m.Malfunction.ReasonCode.OTHER:
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
            reason=reason_code,  # type: ignore[arg-type]  # checked against the choices above
            one_handed_ball=one_handed_ball,
            ball_in_play=ball_in_play,
            problem=problem,
        )
        ruleset = ruleset_for(league)
        with rules_edge("kind" if kind else "reason_code"):
            ruling = rule_malfunction(
                report,
                announced=announced,
                lo_kind=kind,  # type: ignore[arg-type]  # the rules refuse an unknown kind
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
            game=game, player=player, ball=ball, kind=ruling.kind, reason_code=reason_code,
            problem=problem.strip(), note=why, official=actor,
        )  # fmt: skip
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
                subject=_subject(game, player),
                reason=why or ruling.reason,
                affected=group_player_ids(game.group),
            )
        record_event(
            action="malfunction.reported",
            obj=malfunction,
            league=league,
            actor=actor,
            data={"game": game.pk, "player": player.pk, "ball": ball, "kind": ruling.kind,
                  "reason_code": reason_code, "rule": ruling.rule},
        )  # fmt: skip
        serious = _serious_malfunctions(game)
        entitled = compensatory_entitled(serious, player=player_key(player.pk))
        forfeited = set(m.Forfeit.objects.filter(game=game).values_list("player_id", flat=True))
        unplayable = False
        if ruling.kind == "major" and automatically_unplayable(
            serious, players=[player_key(p) for p in members if p not in forfeited]
        ):
            unplayable = _declare(
                meet, machine, m.MachineDeclaration.Kind.UNPLAYABLE, actor,
                "automatic: every player's first ball ended in a major malfunction (R7.3-r)",
            )  # fmt: skip
        request = None
        if request_compensatory:
            request = _grant(game, player, serious, play_continued=False, actor=actor)
        season_changed(meet.season)
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
        game = _locked_game(game)
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
        game = _locked_game(game)
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
                subject=_subject(game, player),
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


# --- Machines at a meet (§7.3) ---------------------------------------------------------------


def declare_machine_unplayable(
    *, meet: m.Meet, machine: m.Machine, reason: str, actor: User
) -> m.MachineDeclaration:
    """The LO declares a machine unplayable for the meet, until repaired (R7.3-q, R7.3-r).

    Side effects: a MachineDeclaration, an audit event ``machine.declared_unplayable``.
    Raises PermissionDenied unless `actor` is a league official; ValidationError without a
    reason, for a closed meet, or a machine already unplayable.
    """
    return _declaration(meet, machine, m.MachineDeclaration.Kind.UNPLAYABLE, reason, actor)


def declare_machine_repaired(
    *, meet: m.Meet, machine: m.Machine, reason: str, actor: User
) -> m.MachineDeclaration:
    """The LO declares an unplayable machine repaired: it is playable again (R7.3-r).

    Side effects and errors as `declare_machine_unplayable` (refused for a playable machine).
    """
    return _declaration(meet, machine, m.MachineDeclaration.Kind.REPAIRED, reason, actor)


def announce_machine_problem(
    *, meet: m.Meet, machine: m.Machine, problem: str, actor: User
) -> m.AnnouncedProblem:
    """The LO announces a machine problem before play; it is never a major malfunction (R7.3-g).

    Side effects: an AnnouncedProblem, an audit event ``machine.problem_announced``. Raises
    PermissionDenied unless `actor` is a league official; ValidationError for a closed meet or
    an empty problem.
    """
    with transaction.atomic():
        league = meet.season.league
        require_official(actor=actor, league=league, action="announce a machine problem")
        _check_machine_at(meet, machine)
        text = problem.strip()
        if not text:
            raise ValidationError({"problem": "Say what the problem is."})
        row = m.AnnouncedProblem.objects.create(
            meet=meet, machine=machine, problem=text, official=actor
        )
        record_event(
            action="machine.problem_announced",
            obj=row,
            league=league,
            actor=actor,
            data={"meet": meet.pk, "machine": machine.pk, "problem": text},
        )
        season_changed(meet.season)
    return row


# --- Violations (§8) -------------------------------------------------------------------------


def record_violation(
    *,
    meet: m.Meet,
    player: m.Player,
    kind: str,
    reason: str,
    actor: User,
    game: m.Game | None = None,
    games_completed: int = 0,
    serious: bool | None = None,
    target_game: int | None = None,
    last_allowable_ball: bool = False,
    slam_tilted: bool = False,
) -> PenaltyDecision:
    """A league official records a violation and learns its §8.5 penalty (§8, A26, A27, A28).

    The fact stored is the violation with its timing: during `game` (whose scores must be
    confirmed first, so the fold can score it) or between games after `games_completed`. The
    penalty (offense number, the game forfeited, or the season forfeit) is applied by the
    season fold on every read; this returns the rules' `PenaltyDecision` to show. `serious`
    is the rules' call, except that an LO may rule a wrong-ball play accidental (A28: serious
    False), recorded as a Ruling. `target_game` is the LO's choice where the rules leave it
    to him (A27.4).

    Side effects: a Violation, maybe a Ruling, an audit event ``violation.recorded``. Raises
    PermissionDenied unless `actor` is a league official; ValidationError without a reason,
    for a meet that is not open, a player not grouped at it, a game outside his group or not
    yet confirmed, an impossible timing, or a seriousness the rules do not allow.
    """
    with transaction.atomic():
        meet = m.Meet.objects.select_for_update().select_related("season__league").get(pk=meet.pk)
        league = meet.season.league
        require_official(actor=actor, league=league, action="record a violation")
        open_meet(meet, doing="record a violation")
        why = require_reason(reason, field="reason", what="A violation")
        if kind not in m.Violation.Kind.values:
            allowed = ", ".join(m.Violation.Kind.values)
            raise ValidationError({"kind": f"Unknown violation {kind!r}; use {allowed}."})
        member = (
            m.GroupMember.objects.filter(group__meet=meet, player=player)
            .select_related("group")
            .first()
        )
        if member is None:
            raise ValidationError({"player": f"{player} is in no group of meet {meet.number}."})
        group = member.group
        confirmed = sorted(
            set(
                m.ScoreSubmission.objects.filter(
                    game__group=group, confirmed_by__isnull=False
                ).values_list("game__number", flat=True)
            )
        )
        if game is not None:
            if game.group_id != group.pk:
                raise ValidationError(
                    {"game": f"That game is not one of group {group.number}'s, {player}'s group."}
                )
            if game.number not in confirmed:
                raise ValidationError(
                    {
                        "game": f"Confirm game {game.number}'s scores first, then record the "
                        "violation during it: its penalty is applied to the scored game (§8.5)."
                    }
                )
            games_completed = game.number - 1
        elif not 0 <= games_completed <= len(confirmed):
            raise ValidationError(
                {
                    "games_completed": f"Group {group.number} has completed {len(confirmed)} "
                    f"games; games_completed must be 0 to {len(confirmed)}."
                }
            )
        accidental = serious is False and kind == m.Violation.Kind.OPPONENTS_BALL
        with rules_edge("kind"):
            violation = Violation(
                violator=player_key(player.pk),
                kind=kind,  # type: ignore[arg-type]  # checked against the choices above
                last_allowable_ball=last_allowable_ball,
                slam_tilted=slam_tilted,
                lo_marked_not_serious=accidental,
            )
        ruleset = ruleset_for(league)
        before, _ = fold(meet.season)
        with rules_edge("serious"):
            decision = penalty_decision(
                violation,
                prior_offenses=before.players[player_key(player.pk)].offenses,
                points_by_game=_completed_points(before, meet, player, games_completed, game),
                current_game=None if game is None else game.number,
                ruleset=ruleset,
            )
        is_serious = decision.offense is not None
        if serious is not None and serious != is_serious and not accidental:
            label = m.Violation.Kind(kind).label
            raise ValidationError(
                {
                    "serious": f"{label} is {'always' if is_serious else 'never'} a serious "
                    f"violation under the rules ({', '.join(decision.rules)}); only a wrong-ball "
                    "play may be ruled accidental (A28)."
                }
            )
        row = m.Violation.objects.create(
            meet=meet, game=game, player=player, kind=kind, serious=is_serious,
            games_completed=games_completed, target_game=target_game,
            last_allowable_ball=last_allowable_ball, slam_tilted=slam_tilted, official=actor,
            reason=why,
        )  # fmt: skip
        if accidental:
            record_ruling(
                league=league,
                official=actor,
                kind="violation_not_serious",
                subject=f"{player}, meet {meet.number}: opponent's ball",
                reason=why,
                affected=group_player_ids(game.group) if game is not None else [player.pk],
            )
        after, _ = season_changed(meet.season)
        penalised = after.meets[meet.number - 1].penalties.get(player_key(player.pk), ())
        if decision.effect == "game_forfeit" and decision.game is None and penalised:
            decision = dataclasses.replace(decision, game=penalised[-1])
        record_event(
            action="violation.recorded",
            obj=row,
            league=league,
            actor=actor,
            data={"meet": meet.pk, "player": player.pk, "kind": kind, "serious": is_serious,
                  "game": None if game is None else game.pk, "games_completed": games_completed,
                  "offense": decision.offense, "effect": decision.effect,
                  "penalty_game": decision.game},
        )  # fmt: skip
    return decision


# --- helpers ---------------------------------------------------------------------------------


def _locked_game(game: m.Game) -> m.Game:
    return (
        m.Game.objects.select_for_update()
        .select_related("group__meet__season__league", "machine")
        .get(pk=game.pk)
    )


def _subject(game: m.Game, player: m.Player) -> str:
    meet = game.group.meet
    return f"{player}, meet {meet.number} group {game.group.number} game {game.number}"[:200]


def _confirmed_score(game: m.Game, player: m.Player) -> int | None:
    return (
        m.ScoreLine.objects.filter(
            submission__game=game, submission__confirmed_by__isnull=False, player=player
        )
        .order_by("-submission__version")
        .values_list("machine_score", flat=True)
        .first()
    )


def _serious_malfunctions(game: m.Game) -> list[Malfunction]:
    rows = m.Malfunction.objects.filter(
        game=game, kind__in=(m.Malfunction.Kind.MAJOR, m.Malfunction.Kind.CATASTROPHIC)
    ).values_list("player_id", "ball", "kind")
    return [Malfunction(player_key(p), ball, kind) for p, ball, kind in rows]  # type: ignore[arg-type]


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
    granted = call_rules(
        grant_compensatory_game,
        serious,
        player=player_key(player.pk),
        play_continued=play_continued,
        ruleset=ruleset_for(league),
        field="player",
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


def _check_machine_at(meet: m.Meet, machine: m.Machine) -> None:
    if machine.league_id != meet.season.league_id:
        raise ValidationError({"machine": f"{machine} is not a machine of this league."})
    if meet.status == m.Meet.Status.CLOSED:
        raise ValidationError({"meet": f"Meet {meet.number} is closed."})


def _unplayable_now(meet: m.Meet, machine: m.Machine) -> bool:
    latest = (
        m.MachineDeclaration.objects.filter(meet=meet, machine=machine)
        .order_by("-created_at", "-id")
        .values_list("kind", flat=True)
        .first()
    )
    return latest == m.MachineDeclaration.Kind.UNPLAYABLE


def _declare(meet: m.Meet, machine: m.Machine, kind: str, actor: User, reason: str) -> bool:
    """Insert a declaration unless the machine is already in that state; True if inserted."""
    if _unplayable_now(meet, machine) == (kind == m.MachineDeclaration.Kind.UNPLAYABLE):
        return False
    row = m.MachineDeclaration.objects.create(
        meet=meet, machine=machine, kind=kind, official=actor, reason=reason
    )
    record_event(
        action=f"machine.declared_{kind}",
        obj=row,
        league=meet.season.league,
        actor=actor,
        data={"meet": meet.pk, "machine": machine.pk, "reason": reason},
    )
    return True


def _declaration(
    meet: m.Meet, machine: m.Machine, kind: str, reason: str, actor: User
) -> m.MachineDeclaration:
    with transaction.atomic():
        meet = m.Meet.objects.select_for_update().select_related("season__league").get(pk=meet.pk)
        league = meet.season.league
        require_official(actor=actor, league=league, action="declare a machine's state")
        _check_machine_at(meet, machine)
        why = require_reason(reason, field="reason", what="A machine declaration (R7.3-q)")
        if not _declare(meet, machine, kind, actor, why):
            state = "unplayable" if kind == m.MachineDeclaration.Kind.UNPLAYABLE else "playable"
            raise ValidationError({"machine": f"{machine} is already {state} at this meet."})
        season_changed(meet.season)
    return m.MachineDeclaration.objects.filter(meet=meet, machine=machine).latest(
        "created_at", "id"
    )


def _completed_points(
    result: SeasonResult, meet: m.Meet, player: m.Player, completed: int, game: m.Game | None
) -> list[int | None]:
    """His league points in the games his group completed (None where he forfeited, A27)."""
    if game is not None or completed == 0:
        return []
    key = player_key(player.pk)
    match = next((x for x in result.meets[meet.number - 1].matches if key in x.players), None)
    if match is None:
        return []
    line = match.players[key]
    return [
        None if key in match.games[i].forfeits else line.game_points[i] for i in range(completed)
    ]


# --- Late joiners' forfeits (§2.4) -----------------------------------------------------------


def designate_late_join_forfeits(
    *, season: m.Season, player: m.Player, countable: bool, reason: str, actor: User
) -> m.SeasonEntry:
    """The LO designates, all together, whether a late entrant's forfeits count (R2.4-g, A46).

    The forfeits a player accumulates for the games before he joined (R2.4-f) count toward
    forfeiting the season (R2.5-a) unless the LO designates otherwise (R2.4-h); this stores
    his designation on the player's season entry, which the standings read.

    Side effects: SeasonEntry.late_join_forfeits_countable, a Ruling, an audit event
    ``season.late_join_forfeits_designated``. Raises PermissionDenied unless `actor` is a
    league official; ValidationError without a reason, for a player not entered or one who
    joined at the first meet, or for countable forfeits when the league's ruleset makes every
    late-join forfeit non-countable (the rules cannot count one player's then).
    """
    with transaction.atomic():
        league = season.league
        require_official(actor=actor, league=league, action="designate late-join forfeits")
        why = require_reason(
            reason, field="reason", what="A late-join forfeit designation (R2.4-g)"
        )
        entry = (
            m.SeasonEntry.objects.select_for_update().filter(season=season, player=player).first()
        )
        if entry is None:
            raise ValidationError({"player": f"{player} is not entered in {season.name}."})
        if entry.joined_at_meet <= 1:
            raise ValidationError(
                {
                    "player": f"{player} joined {season.name} at its first meet: he has no "
                    "late-join forfeits (R2.4-f)."
                }
            )
        with rules_edge():
            ruleset = ruleset_for(league)
        if countable and not ruleset.late_join_forfeits_countable:
            raise ValidationError(
                {
                    "countable": "This league's ruleset makes every late-join forfeit "
                    "non-countable (late_join_forfeits_countable = false): one player's cannot be "
                    "made countable."
                }
            )
        entry.late_join_forfeits_countable = countable
        entry.save(update_fields=["late_join_forfeits_countable"])
        record_ruling(
            league=league,
            official=actor,
            kind="late_join_forfeits_countable"
            if countable
            else "late_join_forfeits_not_countable",
            subject=f"{player}, {season.name}: forfeits before meet {entry.joined_at_meet}",
            reason=why,
        )
        record_event(
            action="season.late_join_forfeits_designated",
            obj=entry,
            league=league,
            actor=actor,
            data={"season": season.pk, "player": player.pk, "countable": countable, "reason": why},
        )
        season_changed(season)
    return entry


# --- Replacing a machine that became unplayable (§5.1, §7.3) ---------------------------------


@dataclass(frozen=True)
class ReplacedMachine:
    """A game moved to another machine: the stored replacement and the machine ids the §5
    rules allowed (`options`; an LO designation may go outside them, R7.3-s)."""

    replacement: m.MachineReplacement
    game: m.Game
    options: tuple[int, ...]


def replace_machine(
    *,
    game: m.Game,
    reason: str,
    actor: User,
    machine: m.Machine | None = None,
    chosen_by: m.Player | None = None,
    seed: int | None = None,
) -> ReplacedMachine:
    """A game's machine became unplayable during it: the game moves to a replacement machine
    (R5.1-a, R7.3-r, R7.3-s, A23) and the old machine is unplayable for the rest of the meet.

    Who decides (`flipwell.rules.selection.replacement_machine`): the player who selected the
    machine chooses under the §5 constraints (`chosen_by` him, `machine` his choice); a machine
    that was drawn at random (game 1) is drawn again from `seed` (a fresh random one when None),
    which is recorded: leave `machine` and `chosen_by` None. Instead, the league official may
    designate the machine (`machine` without `chosen_by`, R7.3-s), an override recorded as a
    Ruling with `reason`; under `replacement_selector = "lo_designates"` he always does.
    `reason` says why the machine is unplayable (the declaration's reason).

    Side effects: the Game's machine changes, a MachineReplacement (by, chooser, seed), a
    MachineDeclaration (unplayable) unless the machine already is, a Ruling for a designation,
    audit events ``game.machine_replaced`` and ``machine.declared_unplayable``. Raises
    PermissionDenied unless `actor` is a league official; ValidationError without a reason,
    for a meet that is not open, a game with confirmed scores, a chooser who is not the
    original selector, or a machine the rules (or, for a designation, its state) refuse.
    """
    with transaction.atomic():
        game = _locked_game(game)
        group = game.group
        meet = group.meet
        league = meet.season.league
        require_official(actor=actor, league=league, action="replace a game's machine")
        open_meet(meet, doing="replace a machine")
        why = require_reason(reason, field="reason", what="Replacing an unplayable machine")
        if m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False).exists():
            raise ValidationError(
                {
                    "game": f"Game {game.number} of group {group.number} has confirmed scores: "
                    "it was played to its end, so its machine is no longer replaced (R5.1-a)."
                }
            )
        if machine is not None and machine.league_id != league.pk:
            raise ValidationError({"machine": f"{machine} is not a machine of this league."})
        old = game.machine
        states_titles = machine_states(meet)
        states = [s for s, _ in states_titles]
        titles = {machine_id_of(s.machine): t for s, t in states_titles}
        played = [
            machine_key(pk, title)
            for pk, title in group.games.exclude(pk=game.pk).values_list(
                "machine_id", "machine__title"
            )
        ]
        selector = game.chosen_by_id
        drawn = selector is None
        draw_seed = seed if seed is not None else (secrets.randbelow(SEED_LIMIT) if drawn else None)
        ruleset = ruleset_for(league)
        replacement = call_rules(
            replacement_machine,
            machine_key(old.pk, old.title),
            states,
            group=group.number,
            selector=None if selector is None else player_key(selector),
            played=played,
            seed=draw_seed,
            ruleset=ruleset,
            field="seed",
        )
        options = tuple(machine_id_of(k) for k in replacement.options)
        allowed = ", ".join(titles[pk] for pk in options) or "none"
        new_id, by, chooser, stored_seed = _replacement_choice(
            game, replacement.by, replacement.machine, machine, chosen_by, options, allowed
        )
        if by == m.MachineReplacement.By.RANDOM:
            stored_seed = draw_seed
        if by == m.MachineReplacement.By.LO:
            state = next(s for s in states if machine_id_of(s.machine) == new_id)
            if new_id == old.pk or state.unplayable:
                raise ValidationError(
                    {"machine": f"{titles[new_id]} is unplayable at this meet; allowed: {allowed}."}
                )
        game.machine_id = new_id
        game.save(update_fields=["machine"])
        row = m.MachineReplacement.objects.create(
            game=game, old_machine=old, new_machine_id=new_id, by=by, chosen_by=chooser,
            seed=stored_seed, reason=why, official=actor,
        )  # fmt: skip
        _declare(meet, old, m.MachineDeclaration.Kind.UNPLAYABLE, actor, why)
        if by == m.MachineReplacement.By.LO:
            record_ruling(
                league=league,
                official=actor,
                kind="replacement_machine_designated",
                subject=f"meet {meet.number} group {group.number} game {game.number}: "
                f"{old.title} -> {titles[new_id]}",
                reason=why,
                affected=group_player_ids(group),
            )
        record_event(
            action="game.machine_replaced",
            obj=row,
            league=league,
            actor=actor,
            data={"game": game.pk, "old_machine": old.pk, "new_machine": new_id, "by": by,
                  "chosen_by": None if chooser is None else chooser.pk, "seed": stored_seed,
                  "options": list(options), "within_options": new_id in options, "reason": why},
        )  # fmt: skip
        season_changed(meet.season)
    game.refresh_from_db()
    return ReplacedMachine(replacement=row, game=game, options=options)


def _replacement_choice(
    game: m.Game,
    rules_by: str,
    drawn: str | None,
    machine: m.Machine | None,
    chosen_by: m.Player | None,
    options: tuple[int, ...],
    allowed: str,
) -> tuple[int, str, m.Player | None, int | None]:
    """(new machine id, by, chooser, seed placeholder) for a replacement, or a refusal."""
    selector = game.chosen_by
    if chosen_by is not None:
        if rules_by != "selector" or selector is None or chosen_by.pk != selector.pk:
            who = (
                f"{selector} selected {game.machine.title}, so he chooses its replacement "
                "(R5.1-a, A23)"
                if rules_by == "selector" and selector is not None
                else f"{game.machine.title} was drawn at random, so its replacement is drawn "
                "again (R5.1-a, A23)"
                if rules_by == "random"
                else "the league official designates the replacement (R7.3-s)"
            )
            raise ValidationError(
                {"chosen_by": f"{who}; the league official may designate one instead."}
            )
        if machine is None:
            raise ValidationError({"machine": f"Say which machine {chosen_by} chose: {allowed}."})
        if machine.pk not in options:
            raise ValidationError(
                {
                    "machine": f"{machine.title} cannot replace {game.machine.title} under the §5 "
                    f"rules (R5-d, R5-e, R7.3-r); allowed: {allowed}."
                }
            )
        return machine.pk, m.MachineReplacement.By.SELECTOR, chosen_by, None
    if machine is None:
        if rules_by == "random" and drawn is not None:
            return machine_id_of(drawn), m.MachineReplacement.By.RANDOM, None, None
        if rules_by == "selector":
            raise ValidationError(
                {
                    "machine": f"{selector} chooses the replacement (give chosen_by and machine, "
                    "R5.1-a), or the league official designates one (give machine)."
                }
            )
        raise ValidationError(
            {"machine": "The league official designates the replacement (R7.3-s): give it."}
        )
    return machine.pk, m.MachineReplacement.By.LO, None, None


# --- Victims' remedies and the violator's charges (§8.2, §8.3, §8.6) -------------------------


@dataclass(frozen=True)
class RecordedRemedy:
    """A victim's remedy: the stored facts, the rules' remedy, and the violator's charge (if
    any: R8.3-d, a replayed game or a buy-in ball)."""

    row: m.VictimRemedy
    remedy: RulesRemedy
    charge: m.LedgerEntry | None


def record_victim_remedy(
    *,
    violation: m.Violation,
    victim: m.Player,
    actor: User,
    announced: str | None = None,
    unallowable_ball: bool = False,
    allowable_balls_left: bool = True,
    caused_loss: bool = True,
    earned_extra_ball_used: bool = False,
    game_price_cents: int | None = None,
    ball_price_cents: int | None = None,
) -> RecordedRemedy:
    """Record what the victim of a violation takes as compensation, and charge the violator.

    `announced`: the victim's choice announced before play resumed, or None when he announced
    none: the rules' default applies (A29). An opponent who played his ball (§8.2,
    `opponents_ball_remedy`: R8.2-b..d) or other interference (§8.3, `interference_remedy`:
    R8.3-b, R8.3-c). The violator pays for a replayed game or a buy-in ball even if the machine
    has credits (R8.3-d, A30; `violator_charge`), at `game_price_cents` or `ball_price_cents`
    (required when the remedy needs it), as an ``interference_charge`` in the ledger.

    Side effects: a VictimRemedy, maybe a LedgerEntry (via `record_ledger_entry`, with its
    audit event), an audit event ``violation.remedy_recorded``. Raises PermissionDenied unless
    `actor` is a league official; ValidationError for a violation without a victim (not §8.2 or
    §8.3), a victim outside the violator's group or the violator himself, a repeat, a choice
    the rules refuse, a missing price, or a meet that is not open.
    """
    with transaction.atomic():
        violation = (
            m.Violation.objects.select_for_update()
            .select_related("meet__season__league", "player")
            .get(pk=violation.pk)
        )
        meet = violation.meet
        league = meet.season.league
        require_official(actor=actor, league=league, action="record a victim's remedy")
        open_meet(meet, doing="record a victim's remedy")
        if violation.kind not in (m.Violation.Kind.OPPONENTS_BALL, m.Violation.Kind.INTERFERENCE):
            raise ValidationError(
                {
                    "violation": f"{violation.get_kind_display()} has no victim's remedy: only "
                    "an opponent's ball (§8.2) or interference (§8.3) does."
                }
            )
        if victim.pk == violation.player_id:
            raise ValidationError({"victim": f"{victim} is the violator, not a victim."})
        members = list(
            m.GroupMember.objects.filter(
                group__meet=meet, group__members__player=violation.player_id
            ).values_list("player_id", flat=True)
        )
        if victim.pk not in members:
            raise ValidationError(
                {"victim": f"{victim} did not play in {violation.player}'s group at this meet."}
            )
        if m.VictimRemedy.objects.filter(violation=violation, victim=victim).exists():
            raise ValidationError({"victim": f"{victim}'s remedy for this violation is recorded."})
        if announced is not None and announced not in m.VictimRemedy.Choice.values:
            allowed = ", ".join(m.VictimRemedy.Choice.values)
            raise ValidationError({"announced": f"Unknown choice {announced!r}; use {allowed}."})
        ruleset = ruleset_for(league)
        choice: InterferenceChoice | None = announced  # type: ignore[assignment]  # checked above
        if violation.kind == m.Violation.Kind.OPPONENTS_BALL:
            remedy = call_rules(
                opponents_ball_remedy, unallowable_ball=unallowable_ball,
                allowable_balls_left=allowable_balls_left, announced=choice, ruleset=ruleset,
                field="announced",
            )  # fmt: skip
        else:
            remedy = call_rules(
                interference_remedy, caused_loss=caused_loss, announced=choice, ruleset=ruleset,
                field="announced",
            )  # fmt: skip
        if remedy.replay and game_price_cents is None:
            raise ValidationError(
                {"game_price_cents": "The violator pays the replayed game (R8.3-d): its price?"}
            )
        if remedy.additional_balls and not earned_extra_ball_used and ball_price_cents is None:
            raise ValidationError(
                {"ball_price_cents": "The violator pays the buy-in ball (R8.3-d): its price?"}
            )
        amount = call_rules(
            violator_charge, remedy, game_price=game_price_cents or 0,
            ball_price=ball_price_cents or 0, earned_extra_ball_used=earned_extra_ball_used,
            field="game_price_cents" if remedy.replay else "ball_price_cents",
        )  # fmt: skip
        charge = None
        if amount:
            charge = record_ledger_entry(
                league=league, kind="interference_charge", account="kitty", amount_cents=amount,
                season=meet.season, player=violation.player,
                reason="replayed_game" if remedy.replay else "buy_in_ball",
                note=f"{victim}'s {remedy.choice} after {violation.get_kind_display()}, "
                f"meet {meet.number} (R8.3-d)",
                actor=actor,
            )  # fmt: skip
        row = m.VictimRemedy.objects.create(
            violation=violation, victim=victim, announced=announced or "",
            unallowable_ball=unallowable_ball, allowable_balls_left=allowable_balls_left,
            caused_loss=caused_loss, earned_extra_ball_used=earned_extra_ball_used,
            charge=charge, official=actor,
        )  # fmt: skip
        record_event(
            action="violation.remedy_recorded",
            obj=row,
            league=league,
            actor=actor,
            data={"violation": violation.pk, "victim": victim.pk, "announced": announced,
                  "choice": remedy.choice, "presumed": remedy.presumed,
                  "rules": list(remedy.rules), "charge_cents": amount},
        )  # fmt: skip
        season_changed(meet.season)
    return RecordedRemedy(row=row, remedy=remedy, charge=charge)


@dataclass(frozen=True)
class RecordedRestart:
    """A voided and restarted game (R8.6-c) and the responsible player's charge (R8.6-d)."""

    restart: m.GameRestart
    charge: m.LedgerEntry | None


def record_game_restart(
    *,
    game: m.Game,
    responsible: m.Player,
    games_started: int,
    game_price_cents: int,
    actor: User,
    more_games_possible: bool = False,
    note: str = "",
) -> RecordedRestart:
    """A machine has the wrong number of games started and it cannot be fixed: the game is
    voided and restarted on the same machine, the responsible player paying the restart for
    all players (R8.6-c, R8.6-d, A60).

    `flipwell.rules.violations.game_count_outcome` decides from `games_started`, the players
    present for the game (the group less its forfeits, A60) and `more_games_possible`; too
    many games (R8.6-a) or too few that can still be started (R8.6-b) are fixed on the machine
    and nothing more is done, so they are refused here. The charge is `restart_charge` (one
    game price per player) as a ``restart_charge`` ledger entry. The restarted game's sheet is
    then entered as usual: the voided attempt is kept only as this record.

    Side effects: a GameRestart, a LedgerEntry when the price is not zero (via
    `record_ledger_entry`), an audit event ``game.restarted``. Raises PermissionDenied unless
    `actor` is a league official; ValidationError for a meet that is not open, a game with
    confirmed scores, a responsible player outside the group, or a count that needs no
    restart.
    """
    with transaction.atomic():
        game = _locked_game(game)
        group = game.group
        meet = group.meet
        league = meet.season.league
        require_official(actor=actor, league=league, action="record a game restart")
        open_meet(meet, doing="record a game restart")
        members = group_player_ids(group)
        require_member(responsible, members, field="responsible", group=group)
        if m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False).exists():
            raise ValidationError(
                {
                    "game": f"Game {game.number} has confirmed scores: a wrong game count is "
                    "fixed while the game is played (R8.6-c)."
                }
            )
        forfeited = set(m.Forfeit.objects.filter(game=game).values_list("player_id", flat=True))
        players = len([p for p in members if p not in forfeited])
        outcome = call_rules(
            game_count_outcome, games_started=games_started, players=players,
            more_games_possible=more_games_possible, field="games_started",
        )  # fmt: skip
        if outcome != "void_and_restart":
            fix = {
                "correct": "that is the right number: nothing to restart",
                "plunge_extra_games": "plunge the extra games' balls unplayed; nothing more is "
                "done (R8.6-a)",
                "start_more_games": "start more games on the machine; nothing more is done "
                "(R8.6-b)",
            }[outcome]
            raise ValidationError(
                {"games_started": f"{games_started} games for {players} players: {fix}."}
            )
        amount = call_rules(
            restart_charge, players=players, game_price=game_price_cents, field="game_price_cents"
        )
        charge = None
        if amount:
            charge = record_ledger_entry(
                league=league, kind="restart_charge", account="kitty", amount_cents=amount,
                season=meet.season, player=responsible,
                note=f"restart of meet {meet.number} group {group.number} game {game.number} "
                f"for {players} players (R8.6-d)",
                actor=actor,
            )  # fmt: skip
        restart = m.GameRestart.objects.create(
            game=game, responsible=responsible, games_started=games_started, players=players,
            charge=charge, note=note.strip(), official=actor,
        )  # fmt: skip
        record_event(
            action="game.restarted",
            obj=restart,
            league=league,
            actor=actor,
            data={"game": game.pk, "responsible": responsible.pk, "games_started": games_started,
                  "players": players, "charge_cents": amount},
        )  # fmt: skip
        season_changed(meet.season)
    return RecordedRestart(restart=restart, charge=charge)


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
        game = _locked_game(game)
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
            data={"game": game.pk, "version": counted.version,
                  "players": [p.pk for p in players], "reason": why},
        )  # fmt: skip
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
    sheet_changes = {_pid(p): s for p, s in scores.items()}
    ties = [[_pid(p) for p in order] for order in tie_order]
    with transaction.atomic():
        game = _locked_game(game)
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
            version=max(game.submissions.values_list("version", flat=True)) + 1,
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
            data={"game": game.pk, "version": submission.version,
                  "replaced_version": counted.version,
                  "scores": {str(p): s for p, s in sheet_changes.items()}, "tie_order": carried},
        )  # fmt: skip
        season_changed(group.meet.season)
    return SubmittedScores(submission=submission, points=points)


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


def _pid(player: PlayerRef) -> int:
    return player if isinstance(player, int) else player.pk
