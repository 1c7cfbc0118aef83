"""Illegal actions (§8.1-§8.8) and their effects on the violator's own game.

Words:
- *violation*: an illegal action by one player, the *violator* (§8).
- *effect*: what a violation does to the violator's own game: a machine score of zero, balls
  plunged unplayed, a 25% *reduced score* (§8.1, §8.2, §8.7).
- *serious violation*: one the rules designate (interference, intentional slam tilts, and by
  default playing an opponent's ball) or conduct the LO finds exceptionally detrimental;
  cumulative over a season (§8.5).

The §8.5 penalties are `violation_penalties`', a victim's remedy `violation_remedies`' and a
wrong game count (§8.6) `game_counts`'.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from flipwell.rules.checks import check_player, check_score
from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId

ViolationKind = Literal[
    "own_unallowable_extra_ball",
    "opponents_ball",
    "interference",
    "intentional_slam_tilt",
    "deathsave_or_bangback",
    "cheating",
    "violence",
    "vandalism",
    "detrimental_conduct",
]
VIOLATION_KINDS: tuple[ViolationKind, ...] = get_args(ViolationKind)


@dataclass(frozen=True)
class Violation:
    """One illegal action by one player.

    last_allowable_ball: §8.1 only, the error came on or after his last allowable ball.
    slam_tilted: §8.7 only, the deathsave or bangback caused a slam tilt (R8.4-a).
    lo_marked_not_serious: §8.2 only, the LO ruled the wrong-ball play accidental (A28).
    """

    violator: PlayerId
    kind: ViolationKind
    last_allowable_ball: bool = False
    slam_tilted: bool = False
    lo_marked_not_serious: bool = False

    def __post_init__(self) -> None:
        check_player(self.violator)
        if self.kind not in VIOLATION_KINDS:
            raise RuleError(
                f"unknown violation {self.kind!r}; allowed: {', '.join(VIOLATION_KINDS)}"
            )
        for flag, kind in (
            ("last_allowable_ball", "own_unallowable_extra_ball"),
            ("slam_tilted", "deathsave_or_bangback"),
            ("lo_marked_not_serious", "opponents_ball"),
        ):
            value = getattr(self, flag)
            if not isinstance(value, bool):
                raise RuleError(f"{flag} must be True or False, got {value!r}")
            if value and self.kind != kind:
                raise RuleError(f"{flag} applies only to a {kind} violation, not {self.kind}")


@dataclass(frozen=True)
class ViolationEffect:
    """What a violation does to the violator's own game, and whether it is serious."""

    machine_score_zero: bool
    plunge_next_allowable_ball: bool
    plunge_remaining_balls: bool
    reduce_final_score: bool
    catastrophic_malfunction: bool
    serious: bool
    automatic_third_offense: bool
    rules: tuple[str, ...]
    reason: str


def reduced_score(score: int, *, ruleset: Ruleset = FWPL_V1) -> int:
    """A final machine score reduced by 25% (§8.1, R8.1-b), rounded down by default (A35)."""
    check_score(score)
    if ruleset.score_reduction_rounding == "half_up":
        return (score * 3 + 2) // 4  # ⌊0.75·score + ½⌋
    return score * 3 // 4


def violation_effect(violation: Violation, *, ruleset: Ruleset = FWPL_V1) -> ViolationEffect:
    """What a violation does to the violator's game, and whether it is a serious violation.

    R8.1-a, R8.1-b: own one-handed ball played with both hands: plunge the next allowable ball,
    or, on or after the last allowable ball, a 25% reduced final score.
    R8.2-a, A28: opponent's ball: machine score zero; serious unless the LO marks it not
    (`ruleset.opponents_ball_is_serious_violation`).
    R8.3-e: interference is serious. R8.4-a, R8.4-c: an intentional slam tilt is interference
    and a catastrophic malfunction. R8.7-a, R8.7-c: deathsave or bangback: machine score zero,
    remaining balls plunged, not serious unless it slam-tilts. R8.5-f: violence or vandalism is
    an automatic third offense; R8.8-a, A38: so is cheating. R8.5-a: detrimental conduct.
    """
    kind = violation.kind
    if kind == "own_unallowable_extra_ball":
        if violation.last_allowable_ball:
            return _effect(reduce=True, rules=("R8.1-b", "A35"), reason="final score reduced 25%")
        return _effect(
            plunge_next=True,
            rules=("R8.1-a",),
            reason="stop, and plunge the next allowable ball without playing it",
        )
    if kind == "opponents_ball":
        serious = (
            ruleset.opponents_ball_is_serious_violation and not violation.lo_marked_not_serious
        )
        return _effect(
            zero=True,
            serious=serious,
            rules=("R8.2-a", "A28"),
            reason="playing an opponent's ball is interference: machine score zero"
            + ("" if serious else "; the LO ruled it not a serious violation"),
        )
    if kind == "interference":
        return _effect(
            serious=True, rules=("R8.3-e",), reason="interference is a serious violation"
        )
    if kind == "intentional_slam_tilt":
        return _effect(
            catastrophic=True,
            serious=True,
            rules=("R8.4-a", "R8.4-c", "R8.3-e"),
            reason="an intentional slam tilt is interference and a catastrophic malfunction",
        )
    if kind == "deathsave_or_bangback":
        return _deathsave_effect(violation)
    return _conduct_effect(kind, ruleset)


def _deathsave_effect(violation: Violation) -> ViolationEffect:
    """R8.7-a, R8.7-c: a deathsave or bangback; serious only when it slam-tilts (R8.4)."""
    if violation.slam_tilted:
        return _effect(
            zero=True,
            plunge_rest=True,
            catastrophic=True,
            serious=True,
            rules=("R8.7-a", "R8.4-a", "R8.4-c"),
            reason="an attempted deathsave or bangback that slam-tilts is interference",
        )
    return _effect(
        zero=True,
        plunge_rest=True,
        rules=("R8.7-a", "R8.7-c"),
        reason="deathsave or bangback: machine score zero, remaining balls plunged; "
        "not a serious violation",
    )


def _conduct_effect(kind: ViolationKind | str, ruleset: Ruleset) -> ViolationEffect:
    """Cheating (R8.8-a, A38), violence or vandalism (R8.5-f), or conduct the LO found
    exceptionally detrimental (R8.5-a): serious, and some an automatic third offense."""
    if kind == "cheating":
        return _effect(
            serious=True,
            automatic_third=ruleset.cheating_penalty == "third_offense",
            rules=("R8.8-a", "A38"),
            reason="cheating: immediate suspension, treated as a third offense",
        )
    if kind in ("violence", "vandalism"):
        return _effect(
            serious=True,
            automatic_third=True,
            rules=("R8.5-f",),
            reason=f"{kind} is an automatic third offense",
        )
    return _effect(
        serious=True,
        rules=("R8.5-a",),
        reason="conduct the LO found exceptionally detrimental to the league",
    )


def _effect(
    *,
    rules: tuple[str, ...],
    reason: str,
    zero: bool = False,
    plunge_next: bool = False,
    plunge_rest: bool = False,
    reduce: bool = False,
    catastrophic: bool = False,
    serious: bool = False,
    automatic_third: bool = False,
) -> ViolationEffect:
    return ViolationEffect(
        machine_score_zero=zero,
        plunge_next_allowable_ball=plunge_next,
        plunge_remaining_balls=plunge_rest,
        reduce_final_score=reduce,
        catastrophic_malfunction=catastrophic,
        serious=serious,
        automatic_third_offense=automatic_third,
        rules=rules,
        reason=reason,
    )


def ruled_accidental(kind: ViolationKind | str, ruled_serious: bool | None) -> bool:
    """A28: whether the official's ruling makes a wrong-ball play (§8.2) accidental, so not
    serious; no other kind of violation can be ruled so."""
    return ruled_serious is False and kind == "opponents_ball"


def check_flag(value: object, name: str) -> None:
    if not isinstance(value, bool):
        raise RuleError(f"{name} must be True or False, got {value!r}")
