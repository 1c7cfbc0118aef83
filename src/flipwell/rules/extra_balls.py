"""Extra balls (§7.1, §7.2): which are played normally and which one-handed.

Words:
- *balls per game*: the number of regulation balls the machine is set to (3 or 5, usually).
- *extra ball*: a ball the machine awards beyond the regulation balls, earned in play or from a
  replay or special (R7.2-b).
- *allowable extra ball*: the one extra ball per player per game that is played normally, on a
  machine set to 3 balls or fewer (R7.1-a). On a 4- or 5-ball machine none is allowable (A50).
- *one-handed ball* (or *unallowable extra ball*): any other extra ball; the player picks one
  hand and keeps the other off the machine (R7.1-a, R7.1-b; breaches are §8.1 violations).
- *insurance ball*: a ball a special ruling declares is not an extra ball, like F-14 Tomcat's
  "insurance", which works as a ball save (RA.3-a). It never counts against the allowance.
- *buy-in*: paying for another ball. Refused (R7.1-e), except as the additional ball a victim of
  interference may take, paid by the violator (R8.2-c, R8.3-b, A30).
- *compensation ball*: the additional ball a victim of interference plays to replace the one he
  lost, whether bought in or an earned, normally unallowable extra ball (R8.2-c, R8.3-b).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, get_args

from flipwell.rules.checks import check_count
from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import FWPL_V1, Ruleset

MAX_BALLS_FOR_AN_ALLOWABLE_EXTRA_BALL = 3
"""R7.1-a: machines set to this many balls or fewer allow one extra ball per player per game."""

ExtraBallSource = Literal["earned", "replay", "special", "insurance", "buy_in"]
EXTRA_BALL_SOURCES: tuple[ExtraBallSource, ...] = get_args(ExtraBallSource)


@dataclass(frozen=True)
class ExtraBallRuling:
    """How one awarded ball is played: whether it is an extra ball, and whether one-handed."""

    is_extra_ball: bool
    allowable: bool
    one_handed: bool
    rule: str
    reason: str


def allowable_extra_balls(balls_per_game: int) -> int:
    """Extra balls a player may play normally in one game on this machine (R7.1-a, A50).

    One on a machine set to 3 balls or fewer, none on a 4- or 5-ball machine.
    """
    check_count(balls_per_game, what="balls per game", minimum=1)
    return 1 if balls_per_game <= MAX_BALLS_FOR_AN_ALLOWABLE_EXTRA_BALL else 0


def extra_ball_ruling(
    *,
    balls_per_game: int,
    collected_before: int,
    source: ExtraBallSource = "earned",
    compensatory_game: bool = False,
    collected_in_original_game: int = 0,
    interference_compensation: bool = False,
    ruleset: Ruleset = FWPL_V1,
) -> ExtraBallRuling:
    """Whether a newly awarded ball is an allowable extra ball or must be played one-handed.

    collected_before: extra balls the player already collected in this game (insurance balls
    and compensation balls excluded). In a compensatory game, collected_in_original_game
    counts too when `ruleset.eb_allowance_scope` is "original_game" (A62); a full replay is a
    fresh game, so the caller passes compensatory_game=False for it.
    R7.1-a, A50: one allowable extra ball per player per game on machines of 3 balls or fewer.
    R7.2-b: extra balls from a replay or special follow the same rule.
    RA.3-a: an insurance ball is not an extra ball.
    R7.1-e, A30: a buy-in is refused unless it is the compensation ball of an interference
    victim (R8.2-c, R8.3-b), which, like an earned extra ball used that way, is played normally
    and leaves the allowance untouched.
    """
    allowance = allowable_extra_balls(balls_per_game)
    _check_ruling_facts(
        source=source,
        collected_before=collected_before,
        compensatory_game=compensatory_game,
        collected_in_original_game=collected_in_original_game,
    )
    played_normally = _played_normally(source, interference_compensation)
    if played_normally is not None:
        return played_normally
    counts_original = compensatory_game and ruleset.eb_allowance_scope == "original_game"
    already = collected_before + (collected_in_original_game if counts_original else 0)
    rule = "R7.2-b" if source in ("replay", "special") else "R7.1-a"
    if allowance == 0:
        return _one_handed("A50", f"a {balls_per_game}-ball machine allows no extra ball")
    if already < allowance:
        return ExtraBallRuling(
            is_extra_ball=True,
            allowable=True,
            one_handed=False,
            rule=rule,
            reason="the player's one allowable extra ball for this game",
        )
    scope = (
        " (original game included, A62)" if counts_original and collected_in_original_game else ""
    )
    return _one_handed(rule, f"the allowable extra ball was already collected{scope}")


def _one_handed(rule: str, why: str) -> ExtraBallRuling:
    """An extra ball beyond the allowance: played one-handed (R7.1-a, A50)."""
    return ExtraBallRuling(
        is_extra_ball=True,
        allowable=False,
        one_handed=True,
        rule=rule,
        reason=f"{why}: play it one-handed",
    )


def _check_ruling_facts(
    *,
    source: ExtraBallSource,
    collected_before: int,
    compensatory_game: bool,
    collected_in_original_game: int,
) -> None:
    """`extra_ball_ruling`'s facts as the rules allow them (A62); RuleError otherwise."""
    check_count(collected_before, what="extra balls collected before")
    check_count(collected_in_original_game, what="extra balls collected in the original game")
    if source not in EXTRA_BALL_SOURCES:
        allowed = ", ".join(EXTRA_BALL_SOURCES)
        raise RuleError(f"unknown extra ball source {source!r}; allowed: {allowed}")
    if collected_in_original_game and not compensatory_game:
        raise RuleError(
            "extra balls collected in the original game only matter in a compensatory game (A62)"
        )


def _played_normally(
    source: ExtraBallSource, interference_compensation: bool
) -> ExtraBallRuling | None:
    """The ruling for a ball that is no extra ball (an interference victim's additional ball,
    R8.3-b, A30; an insurance ball, RA.3-a), None for an extra ball; a buy-in for an extra ball
    is refused (R7.1-e)."""
    if interference_compensation:
        if source not in ("earned", "replay", "special", "buy_in"):
            raise RuleError(f"an {source} ball cannot be an interference compensation ball")
        return ExtraBallRuling(
            is_extra_ball=False,
            allowable=True,
            one_handed=False,
            rule="R8.3-b" if source != "buy_in" else "A30",
            reason="the additional ball replacing an interfered ball is played normally",
        )
    if source == "buy_in":
        raise RuleError(
            "buy-ins for extra balls are not allowed (R7.1-e); only an interference victim's "
            "additional ball may be bought in, paid by the violator (A30)"
        )
    if source == "insurance":
        return ExtraBallRuling(
            is_extra_ball=False,
            allowable=True,
            one_handed=False,
            rule="RA.3-a",
            reason="an insurance ball works as a ball save and is not an extra ball",
        )
    return None


def allowable_extra_balls_collected(*, balls_per_game: int, collected: int) -> int:
    """How many of the extra balls a player collected in a game were allowable (R7.1-a, R7.3-l).

    The rest were one-handed; a compensatory game never replaces those (R7.3-l).
    """
    check_count(collected, what="extra balls collected")
    return min(collected, allowable_extra_balls(balls_per_game))
