"""Recording a violation (§8) and learning its §8.5 penalty (A26, A27, A28).

Words:
- *timing*: when the violation happened: during a game of the violator's match (confirmed
  first, R8.5-c), or after the group completed some of its games (`games_completed`).
- a *serious* violation counts as an offense (R8.5-b..f); a wrong-ball play the official rules
  accidental is not serious (A28), a Ruling ``violation_not_serious``.
- the *penalty game*: the game the penalty forfeits, the official's choice where the rules
  leave it (A27.4) or the fold's (his highest points, A27).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.enums import VIOLATION_KINDS, ViolationKindValue, one_of
from flipwell.league.notices import PenaltyFacts
from flipwell.league.refusals import Refusal
from flipwell.league.services._edge import fold, group_player_ids, require_reason, rules_edge
from flipwell.league.services._protocol import Write, official_write
from flipwell.rules.ruleset import Ruleset
from flipwell.rules.season_values import SeasonResult
from flipwell.rules.violation_penalties import (
    PenaltyDecision,
    check_game_confirmed,
    check_ruled_seriousness,
    penalty_decision,
)
from flipwell.rules.violations import Violation, ruled_accidental

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class RecordedViolation:
    """A recorded violation: the stored fact and the rules' §8.5 penalty decision."""

    violation: m.Violation
    decision: PenaltyDecision


def record_violation(
    *,
    meet: m.Meet,
    player: m.Player,
    kind: ViolationKindValue,
    reason: str,
    actor: User,
    game: m.Game | None = None,
    games_completed: int = 0,
    serious: bool | None = None,
    target_game: int | None = None,
    last_allowable_ball: bool = False,
    slam_tilted: bool = False,
) -> RecordedViolation:
    """A league official records a violation and learns its §8.5 penalty (§8, A26, A27, A28):
    during `game` (confirmed first, R8.5-c) or after `games_completed`. `serious` must be the
    rules' call, except that a wrong-ball play may be ruled accidental (A28, a ruling);
    `target_game` is the official's choice where the rules leave it (A27.4). Audited
    ``violation.recorded``; the violator is sent a notice."""
    with official_write(
        league=meet.season.league, actor=actor, action="record a violation", season=meet.season
    ) as write:
        meet = write.open_meet(meet, doing="record a violation")
        write.only_meets(meet)
        why = require_reason(reason, field="reason", what="A violation")
        kind = one_of(kind, VIOLATION_KINDS, field="kind", what="violation")
        group = _group_of(meet, player)
        before, ruleset = fold(meet.season)
        games_completed = _timing(before, group, player, game, games_completed)
        facts = _facts(player, kind, serious, last_allowable_ball, slam_tilted)
        points = _completed_points(before, meet, player, games_completed, game)
        decision = _decision(facts, before, points, game, serious=serious, ruleset=ruleset)
        row = m.Violation.objects.create(
            meet=meet,
            game=game,
            player=player,
            kind=kind,
            serious=decision.offense is not None,
            games_completed=games_completed,
            target_game=target_game,
            last_allowable_ball=last_allowable_ball,
            slam_tilted=slam_tilted,
            official=actor,
            reason=why,
        )
        if facts.lo_marked_not_serious:
            write.ruling(**_accidental_ruling(row))
        decision = _with_penalty_game(decision, write.refold(), row)
        write.event("violation.recorded", row, _violation_data(row, decision))
        _notify_violator(write, row, decision, group)
    return RecordedViolation(violation=row, decision=decision)


def _facts(
    player: m.Player,
    kind: ViolationKindValue,
    serious: bool | None,
    last_allowable_ball: bool,
    slam_tilted: bool,
) -> Violation:
    """The violation as the rules take it; a wrong-ball play the official ruled not serious
    is marked so (A28)."""
    with rules_edge("kind", code="violation_refused"):
        return Violation(
            violator=player_key(player.pk),
            kind=kind,
            last_allowable_ball=last_allowable_ball,
            slam_tilted=slam_tilted,
            lo_marked_not_serious=ruled_accidental(kind, serious),
        )


def _decision(
    facts: Violation,
    before: SeasonResult,
    points: list[int | None],
    game: m.Game | None,
    *,
    serious: bool | None,
    ruleset: Ruleset,
) -> PenaltyDecision:
    """The rules' §8.5 penalty for the violation (R8.5-b..f, A26, A27), and the official's
    seriousness ruling checked against it (A28)."""
    with rules_edge("serious", code="seriousness_refused"):
        decision = penalty_decision(
            facts,
            prior_offenses=before.players[facts.violator].offenses,
            points_by_game=points,
            current_game=None if game is None else game.number,
            ruleset=ruleset,
        )
        label = str(m.Violation.Kind(facts.kind).label)
        check_ruled_seriousness(facts, decision, ruled_serious=serious, label=label)
    return decision


def _notify_violator(
    write: Write, row: m.Violation, decision: PenaltyDecision, group: m.Group
) -> None:
    """The violator's notice of the violation and its §8.5 penalty, as facts
    (`flipwell.web.words.violations` words them)."""
    about = PenaltyFacts(
        kind=row.kind,
        meet=row.meet.number,
        group=group.number,
        offense=decision.offense,
        effect=decision.effect,
        game=decision.game,
        reason=row.reason,
    )
    write.notice_of(player=row.player, meet=row.meet, key=f"violation:{row.pk}", about=about)


def _accidental_ruling(row: m.Violation) -> dict[str, Any]:
    """The official's ruling that a wrong-ball play was accidental (A28), about its player and
    game."""
    game = row.game
    return {
        "kind": "violation_not_serious",
        "subject": _subject(row),
        "reason": row.reason,
        "affected": group_player_ids(game.group) if game is not None else [row.player_id],
        "player": row.player,
        "game": game,
    }


def _subject(row: m.Violation) -> str:
    return f"{row.player}, meet {row.meet.number}: opponent's ball"


def _group_of(meet: m.Meet, player: m.Player) -> m.Group:
    """The player's group at `meet`; ValidationError when they are in none."""
    member = (
        m.GroupMember.objects.filter(group__meet=meet, player=player)
        .select_related("group")
        .first()
    )
    if member is None:
        raise Refusal(
            {"player": f"{player} is in no group of meet {meet.number}."}, code="not_in_meet"
        )
    return member.group


def _timing(
    before: SeasonResult, group: m.Group, player: m.Player, game: m.Game | None, completed: int
) -> int:
    """The games the group completed before the violation: those before `game` (checked by
    `_check_during`), else `completed` (checked against the fold)."""
    if game is None:
        _check_games_completed(before, completed, group=group, player=player)
        return completed
    _check_during(game, group, player)
    return game.number - 1


def _check_during(game: m.Game, group: m.Group, player: m.Player) -> None:
    """A violation during `game`: one of the player's group's games, already confirmed."""
    if game.group_id != group.pk:
        raise Refusal(
            {"game": f"That game is not one of group {group.number}'s, {player}'s group."},
            code="game_of_another_group",
        )
    confirmed = set(
        m.ScoreSubmission.objects.filter(game__group=group, confirmed_by__isnull=False).values_list(
            "game__number", flat=True
        )
    )
    with rules_edge("game", code="game_not_confirmed", conflict=True):
        check_game_confirmed(game.number, confirmed)


def _with_penalty_game(
    decision: PenaltyDecision, after: SeasonResult, row: m.Violation
) -> PenaltyDecision:
    """The decision naming the game the fold took as the penalty's, where the rules left it
    to the fold (the game of his highest points, A27)."""
    penalised = after.meets[row.meet.number - 1].penalties.get(player_key(row.player_id), ())
    if decision.effect == "game_forfeit" and decision.game is None and penalised:
        return dataclasses.replace(decision, game=penalised[-1])
    return decision


def _violation_data(row: m.Violation, decision: PenaltyDecision) -> dict[str, object]:
    """The audit event's data of a recorded violation."""
    return {
        "meet": row.meet_id,
        "player": row.player_id,
        "kind": row.kind,
        "serious": row.serious,
        "game": row.game_id,
        "games_completed": row.games_completed,
        "offense": decision.offense,
        "effect": decision.effect,
        "penalty_game": decision.game,
    }


def _check_games_completed(
    result: SeasonResult, completed: int, *, group: m.Group, player: m.Player
) -> None:
    """Refuse more completed games than the fold scores for the group: a game whose scores a
    positive malfunction discarded (§7.4) counts again once it is replayed."""
    meet = group.meet
    key = player_key(player.pk)
    match = next((x for x in result.meets[meet.number - 1].matches if key in x.players), None)
    scored = 0 if match is None else len(match.games)
    if not 0 <= completed <= scored:
        waiting = " (a game waiting for its replay does not count)" if scored else ""
        raise Refusal(
            {
                "games_completed": f"Group {group.number} has completed {scored} scored games"
                f"{waiting}; games_completed must be 0 to {scored}."
            },
            code="games_completed_out_of_range",
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
    # By game number, not position: a game whose scores a positive malfunction discarded
    # (§7.4) is not in the fold until it is replayed, so it has no points to take away.
    return [
        None if key in outcome.forfeits else points
        for outcome, points in zip(match.games, line.game_points, strict=True)
        if outcome.number <= completed
    ]
