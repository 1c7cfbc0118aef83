"""A victim's remedy for a violation (§8.2, §8.3) and the violator's charge for it (R8.3-d).

Words:
- the *announced* choice: the remedy the victim announced before play resumed; without one the
  rules' default holds (A29).
- the *charge*: what the violator pays the kitty for the remedy, a replayed game or a buy-in
  ball (R8.3-d, A30), a ledger entry ``interference_charge``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.enums import REMEDY_CHOICES, RemedyChoiceValue, one_of
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import open_meet, rules_edge
from flipwell.league.services._protocol import official_write
from flipwell.league.services.ledger import record_ledger_entry
from flipwell.rules.violation_remedies import VictimRemedy as RulesRemedy
from flipwell.rules.violation_remedies import victim_remedy, violator_charge

if TYPE_CHECKING:
    from django.contrib.auth.models import User


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
        write.only_meets(meet)
        _check_victim(violation, victim)
        remedy = _rules_remedy(
            violation,
            announced,
            unallowable_ball=unallowable_ball,
            allowable_balls_left=allowable_balls_left,
            caused_loss=caused_loss,
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


def _rules_remedy(
    violation: m.Violation,
    announced: RemedyChoiceValue | None,
    *,
    unallowable_ball: bool,
    allowable_balls_left: bool,
    caused_loss: bool,
) -> RulesRemedy:
    """The victim's remedy as the rules give it (`victim_remedy`: R8.2-b..d, R8.3-b, R8.3-c),
    from the choice `announced` (None: the rules' default, A29)."""
    choice = (
        None
        if announced is None
        else one_of(announced, REMEDY_CHOICES, field="announced", what="choice")
    )
    with rules_edge(
        lambda text: "violation" if "no victim" in text else "announced", code="remedy_refused"
    ):
        return victim_remedy(
            violation.kind,
            unallowable_ball=unallowable_ball,
            allowable_balls_left=allowable_balls_left,
            caused_loss=caused_loss,
            announced=choice,
            ruleset=season_ruleset(violation.meet.season),
        )


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
