"""Violations (§8): the violation and its §8.5 penalty, the victims' remedies and the violator's
charges (§8.2, §8.3), and a game voided and restarted for a wrong game count (§8.6).

A violation is stored as a fact with its timing (A27); its §8.5 penalty is applied by the season
fold whenever the standings are read, so no points are stored here.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import forfeited_in
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.enums import (
    REMEDY_CHOICES,
    VIOLATION_KINDS,
    RemedyChoiceValue,
    ViolationKindValue,
    one_of,
)
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import (
    fold,
    group_player_ids,
    locked_game,
    open_meet,
    require_member,
    require_reason,
    rules_edge,
)
from flipwell.league.services._protocol import Write, official_write
from flipwell.league.services.ledger import record_ledger_entry
from flipwell.rules.game_counts import check_restart_needed, restart_charge
from flipwell.rules.ruleset import Ruleset
from flipwell.rules.season_values import SeasonResult
from flipwell.rules.violation_penalties import (
    PenaltyDecision,
    check_game_confirmed,
    check_ruled_seriousness,
    penalty_decision,
)
from flipwell.rules.violation_remedies import VictimRemedy as RulesRemedy
from flipwell.rules.violation_remedies import victim_remedy, violator_charge
from flipwell.rules.violations import Violation, ruled_accidental

if TYPE_CHECKING:
    from django.contrib.auth.models import User


# --- Violations (§8) -------------------------------------------------------------------------


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
        why = require_reason(reason, field="reason", what="A violation")
        kind = one_of(kind, VIOLATION_KINDS, field="kind", what="violation")
        group = _group_of(meet, player)
        before, ruleset = fold(meet.season)
        games_completed = _timing(before, group, player, game, games_completed)
        with rules_edge("kind", code="violation_refused"):
            facts = Violation(
                violator=player_key(player.pk),
                kind=kind,
                last_allowable_ball=last_allowable_ball,
                slam_tilted=slam_tilted,
                lo_marked_not_serious=ruled_accidental(kind, serious),
            )
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
    """The violator's notice of the violation and its §8.5 penalty."""
    write.notice(
        player=row.player,
        meet=row.meet,
        key=f"violation:{row.pk}",
        what=f"a violation recorded at meet {row.meet.number}",
        details=_violation_details(row, decision, group),
        reason=row.reason,
    )


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


def _violation_details(row: m.Violation, decision: PenaltyDecision, group: m.Group) -> list[str]:
    """A violation's notice to its violator: what, and its §8.5 penalty."""
    details = [f"{row.get_kind_display()}, in group {group.number}."]
    if decision.offense is not None:
        details.append(f"It is a serious violation: your offense {decision.offense} this season.")
    if decision.effect == "game_forfeit":
        which = f"game {decision.game}" if decision.game else "a game"
        details.append(f"Penalty: {which} of your match is forfeited (§8.5).")
    elif decision.effect == "season_forfeit":
        details.append("Penalty: your season is forfeited (R8.5-e).")
    return details


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
    announced: RemedyChoiceValue | None = None,
    unallowable_ball: bool = False,
    allowable_balls_left: bool = True,
    caused_loss: bool = True,
    earned_extra_ball_used: bool = False,
    game_price_cents: int | None = None,
    ball_price_cents: int | None = None,
) -> RecordedRemedy:
    """Record what the victim of a violation takes as compensation, and charge the violator.

    `announced`: the victim's choice announced before play resumed, or None: the rules'
    default (A29). The remedy is `victim_remedy`'s (R8.2-b..d, R8.3-b, R8.3-c); the violator
    pays a replayed game or a buy-in ball (R8.3-d, A30). Audited ``violation.remedy_recorded``.
    """
    league = m.League.objects.get(seasons__meets__violations=violation.pk)
    with official_write(
        league=league, actor=actor, action="record a victim's remedy", field="announced"
    ) as write:
        violation = _locked(violation)
        meet = violation.meet
        write.season = meet.season
        open_meet(meet, doing="record a victim's remedy")
        _check_victim(violation, victim)
        choice = (
            None
            if announced is None
            else one_of(announced, REMEDY_CHOICES, field="announced", what="choice")
        )
        with rules_edge(
            lambda text: "violation" if "no victim" in text else "announced", code="remedy_refused"
        ):
            remedy = victim_remedy(
                violation.kind,
                unallowable_ball=unallowable_ball,
                allowable_balls_left=allowable_balls_left,
                caused_loss=caused_loss,
                announced=choice,
                ruleset=season_ruleset(meet.season),
            )
        amount = _remedy_charge(remedy, game_price_cents, ball_price_cents, earned_extra_ball_used)
        charge = _charge_violator(violation, victim, remedy, amount, actor) if amount else None
        row = m.VictimRemedy.objects.create(
            violation=violation,
            victim=victim,
            announced=announced or "",
            unallowable_ball=unallowable_ball,
            allowable_balls_left=allowable_balls_left,
            caused_loss=caused_loss,
            earned_extra_ball_used=earned_extra_ball_used,
            charge=charge,
            official=actor,
        )
        data = {"violation": violation.pk, "victim": victim.pk, "announced": announced}
        write.event("violation.remedy_recorded", row, {**data, **_remedy_data(remedy, amount)})
    return RecordedRemedy(row=row, remedy=remedy, charge=charge)


def _locked(violation: m.Violation) -> m.Violation:
    """The violation's row locked for this write, with its meet, season, league and player."""
    return (
        m.Violation.objects.select_for_update()
        .select_related("meet__season__league", "player")
        .get(pk=violation.pk)
    )


def _check_victim(violation: m.Violation, victim: m.Player) -> None:
    """A victim of `violation`: another player of the violator's group, not yet compensated."""
    if victim.pk == violation.player_id:
        raise Refusal(
            {"victim": f"{victim} is the violator, not a victim."}, code="victim_is_violator"
        )
    members = m.GroupMember.objects.filter(
        group__meet=violation.meet_id, group__members__player=violation.player_id
    ).values_list("player_id", flat=True)
    if victim.pk not in set(members):
        raise Refusal(
            {"victim": f"{victim} did not play in {violation.player}'s group at this meet."},
            code="victim_not_in_group",
        )
    if m.VictimRemedy.objects.filter(violation=violation, victim=victim).exists():
        raise ConflictError(
            {"victim": f"{victim}'s remedy for this violation is recorded."},
            code="remedy_already_recorded",
        )


def _remedy_charge(
    remedy: RulesRemedy, game_price: int | None, ball_price: int | None, earned_used: bool
) -> int:
    """What the violator pays for the remedy (R8.3-d, A30); each price asked for when needed."""
    if remedy.replay and game_price is None:
        raise Refusal(
            {"game_price_cents": "The violator pays the replayed game (R8.3-d): its price?"},
            code="game_price_required",
        )
    if remedy.additional_balls and not earned_used and ball_price is None:
        raise Refusal(
            {"ball_price_cents": "The violator pays the buy-in ball (R8.3-d): its price?"},
            code="ball_price_required",
        )
    with rules_edge(
        "game_price_cents" if remedy.replay else "ball_price_cents", code="invalid_price"
    ):
        return violator_charge(
            remedy,
            game_price=game_price or 0,
            ball_price=ball_price or 0,
            earned_extra_ball_used=earned_used,
        )


def _charge_violator(
    violation: m.Violation, victim: m.Player, remedy: RulesRemedy, amount: int, actor: User
) -> m.LedgerEntry:
    """The violator's ``interference_charge`` for the victim's remedy (R8.3-d)."""
    meet = violation.meet
    return record_ledger_entry(
        league=meet.season.league,
        kind="interference_charge",
        account="kitty",
        amount_cents=amount,
        season=meet.season,
        player=violation.player,
        reason="replayed_game" if remedy.replay else "buy_in_ball",
        note=f"{victim}'s {remedy.choice} after {violation.get_kind_display()}, "
        f"meet {meet.number} (R8.3-d)",
        actor=actor,
    )


def _remedy_data(remedy: RulesRemedy, amount: int) -> dict[str, object]:
    return {
        "choice": remedy.choice,
        "presumed": remedy.presumed,
        "rules": list(remedy.rules),
        "charge_cents": amount,
    }


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
    voided and restarted on the same machine, the responsible player paying one game per
    player present (R8.6-c, R8.6-d, A60), as a ``restart_charge``. A count that can be fixed
    on the machine is refused (`check_restart_needed`: R8.6-a, R8.6-b), and so is a game with
    confirmed scores. Audited ``game.restarted``; the responsible player is sent a notice.
    """
    meet = game.group.meet
    with official_write(
        league=meet.season.league,
        actor=actor,
        action="record a game restart",
        season=meet.season,
        field="games_started",
    ) as write:
        game = locked_game(game)
        group, meet = game.group, game.group.meet
        open_meet(meet, doing="record a game restart")
        members = group_player_ids(group)
        require_member(responsible, members, field="responsible", group=group)
        players = _players_present(game, members)
        check_restart_needed(
            games_started=games_started, players=players, more_games_possible=more_games_possible
        )
        with rules_edge("game_price_cents", code="invalid_price"):
            amount = restart_charge(players=players, game_price=game_price_cents)
        charge = _charge_restart(game, responsible, players, amount, actor) if amount else None
        restart = m.GameRestart.objects.create(
            game=game,
            responsible=responsible,
            games_started=games_started,
            players=players,
            charge=charge,
            note=note.strip(),
            official=actor,
        )
        write.event("game.restarted", restart, _restart_data(restart, amount))
        _notify_responsible(write, restart, amount)
    return RecordedRestart(restart=restart, charge=charge)


def _charge_restart(
    game: m.Game, responsible: m.Player, players: int, amount: int, actor: User
) -> m.LedgerEntry:
    """The responsible player's ``restart_charge``: every player's game (R8.6-d)."""
    group = game.group
    meet = group.meet
    return record_ledger_entry(
        league=meet.season.league,
        kind="restart_charge",
        account="kitty",
        amount_cents=amount,
        season=meet.season,
        player=responsible,
        note=f"restart of meet {meet.number} group {group.number} game {game.number} "
        f"for {players} players (R8.6-d)",
        actor=actor,
    )


def _notify_responsible(write: Write, restart: m.GameRestart, amount: int) -> None:
    """The responsible player's notice of the restart and its charge (R8.6-c, R8.6-d)."""
    game = restart.game
    meet = game.group.meet
    write.notice(
        player=restart.responsible,
        meet=meet,
        key=f"restart:{restart.pk}",
        what=f"game {game.number} of your group restarted at meet {meet.number}",
        details=_restart_details(restart, amount),
        reason=restart.note,
    )


def _players_present(game: m.Game, members: list[int]) -> int:
    """How many of the group play the game (A60: less its forfeits); refused once the game's
    scores are confirmed (R8.6-c: a wrong count is fixed while the game is played)."""
    if m.ScoreSubmission.objects.filter(game=game, confirmed_by__isnull=False).exists():
        raise ConflictError(
            {
                "game": f"Game {game.number} has confirmed scores: a wrong game count is "
                "fixed while the game is played (R8.6-c)."
            },
            code="game_already_confirmed",
        )
    forfeited = forfeited_in(game)
    return len([p for p in members if p not in forfeited])


def _restart_data(restart: m.GameRestart, amount: int) -> dict[str, object]:
    return {
        "game": restart.game_id,
        "responsible": restart.responsible_id,
        "games_started": restart.games_started,
        "players": restart.players,
        "charge_cents": amount,
    }


def _restart_details(restart: m.GameRestart, amount: int) -> list[str]:
    """The restart's notice to the player responsible (R8.6-c, R8.6-d)."""
    details = [
        f"{restart.games_started} games were started for {restart.players} players: the game "
        "was voided and restarted on the same machine (R8.6-c)."
    ]
    if amount:
        details.append(
            f"You are charged {amount // 100}.{amount % 100:02d} for every player's game (R8.6-d)."
        )
    return details


# --- helpers ---------------------------------------------------------------------------------


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
