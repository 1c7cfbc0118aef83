"""League-night incidents: forfeits, late joins, malfunctions and compensatory games, machine
declarations, and violations (§2.3, §2.4, §7.3, §8).

Words (see `flipwell.league.models.incidents`): a *report* is what the LO is told about a
malfunction; the rules classify it (`rule_malfunction`); every malfunction adds a line to the
machine's *maintenance sheet* (R7.3-u). A violation is stored as a fact with its timing (A27);
its §8.5 penalty is applied by the season fold whenever the standings are read, so no points
are stored here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction

from flipwell.league import models as m
from flipwell.league.adapters import player_key, ruleset_for
from flipwell.league.audit import record_event
from flipwell.league.selectors.meet_board import machine_key
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
from flipwell.rules.season import SeasonResult
from flipwell.rules.violations import PenaltyDecision, Violation, penalty_decision

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
    player outside the group, a confirmed score for him, a repeat, or a penalty forfeit
    (those follow from a recorded violation, §8.5).
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
        return _grant(
            game, player, _serious_malfunctions(game), play_continued=play_continued, actor=actor
        )


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
        fold(game.group.meet.season)  # e.g. refused for a player with no score to add to
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
        after, _ = fold(meet.season)
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
