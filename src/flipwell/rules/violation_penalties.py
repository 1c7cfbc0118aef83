"""The §8.5 penalties for serious violations: which offense, what it forfeits, and on which game.

Words:
- *serious violation*: one the rules designate (interference, intentional slam tilts, and by
  default playing an opponent's ball) or conduct the LO finds exceptionally detrimental;
  cumulative over a season (§8.5).
- *offense*: the number of a serious violation in the violator's season, 1 for the first.
- *penalty decision*: what §8.5 does for one serious violation: forfeit of a game (1st and 2nd
  offense) or forfeit of the season with suspension (3rd) (R8.5-c, R8.5-e).
- *penalty game*: the game a 1st or 2nd offense penalty falls on (R8.5-c, R8.5-d, A27).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal

from flipwell.rules.checks import check_count, check_score
from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId
from flipwell.rules.violations import Violation, ViolationEffect, violation_effect

PenaltyEffect = Literal["none", "game_forfeit", "season_forfeit"]
PenaltyTarget = Literal["current_game", "best_completed_game", "next_game", "lo_decision", "none"]


THIRD_OFFENSE = 3
"""R8.5-e: the third serious violation of a season forfeits the season."""


@dataclass(frozen=True)
class PenaltyDecision:
    """The §8.5 penalty for one violation, for the night and season fold to apply.

    offense: its number in the violator's season (None when the violation is not serious).
    effect: "game_forfeit" (1st and 2nd offense) or "season_forfeit" (3rd) or "none".
    game: the 1-based game of the match penalised, when known; target says how it was chosen.
    game_penalty: how the game is penalised (`ruleset.serious_violation_penalty`, A26).
    countable_forfeit: the penalty forfeit counts toward the §2.5 season forfeit (A26).
    rescore_others: after a third offense, whether other players' games are re-scored (A36).
    """

    violator: PlayerId
    offense: int | None
    effect: PenaltyEffect
    target: PenaltyTarget
    game: int | None
    game_penalty: Literal["forfeit", "zero_score", "zero_points_others_unchanged"] | None
    countable_forfeit: bool
    scores_wiped: bool
    suspended: bool
    rescore_others: bool
    rules: tuple[str, ...]
    reason: str


def penalty_game(
    points_by_game: Sequence[int | None], *, current_game: int | None = None
) -> int | None:
    """The 1-based game of the match a serious-violation penalty falls on (§8.5).

    current_game: the game in progress, if any; the penalty forfeits it (R8.5-c).
    points_by_game: the violator's league points in the match's completed games, None (or 0)
    for a game he forfeited (A27.6). With no game in progress the penalty falls on the game
    with his highest league points, the last of equals (R8.5-d, A27.5). None when no game has
    been played yet: the caller applies `ruleset.penalty_target_before_first_game` (A27.2).
    """
    if current_game is not None:
        return check_count(current_game, what="current game", minimum=1)
    points = [0 if p is None else check_score(p, what="league points") for p in points_by_game]
    if not points:
        return None
    best = max(points)
    return max(i for i, p in enumerate(points, start=1) if p == best)


def penalty_decision(
    violation: Violation,
    *,
    prior_offenses: int,
    points_by_game: Sequence[int | None] = (),
    current_game: int | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> PenaltyDecision:
    """The §8.5 penalty for one violation, given the violator's earlier offenses this season.

    R8.5-b: serious violations are cumulative over the season: offense = prior + 1.
    R8.5-c, A26: 1st and 2nd offense forfeit the current game with a machine score of zero
    (`ruleset.serious_violation_penalty`, countable per `ruleset.penalty_forfeit_is_countable`);
    R8.5-d, A27: with no game in progress, the completed game with his highest league points,
    the last of equals; before his first game, `ruleset.penalty_target_before_first_game`.
    Under the default this forfeit supersedes an §8.2 zero for the same game (A28).
    R8.5-e, A36: the 3rd offense forfeits the season, wipes his scores and suspends him; other
    players are re-scored only if `ruleset.third_offense_rescore_others`.
    R8.5-f, R8.8-a, A38: violence, vandalism and cheating are an automatic third offense.
    Not-serious violations (R8.7-c, an accidental wrong ball per A28) give no penalty.
    """
    prior = check_count(prior_offenses, what="prior serious violations")
    effect = violation_effect(violation, ruleset=ruleset)
    player = violation.violator
    if not effect.serious:
        return _decision(
            player, None, "none", rules=effect.rules, reason="not a serious violation: no penalty"
        )
    offense = max(prior + 1, THIRD_OFFENSE) if effect.automatic_third_offense else prior + 1
    if offense >= THIRD_OFFENSE:
        rules = (*effect.rules, "R8.5-b", "R8.5-e", "A36")
        if effect.automatic_third_offense:
            rules = (*rules, "R8.5-f")
        return _decision(
            player,
            offense,
            "season_forfeit",
            scores_wiped=True,
            suspended=True,
            rescore_others=ruleset.third_offense_rescore_others,
            rules=rules,
            reason=f"offense {offense}: forfeit of season, scores wiped, suspended",
        )
    return _game_forfeit(
        player,
        offense,
        effect,
        game=penalty_game(points_by_game, current_game=current_game),
        in_progress=current_game is not None,
        ruleset=ruleset,
    )


def _game_forfeit(
    player: PlayerId,
    offense: int,
    effect: ViolationEffect,
    *,
    game: int | None,
    in_progress: bool,
    ruleset: Ruleset,
) -> PenaltyDecision:
    """A 1st or 2nd offense: the forfeit of the penalty game, or of the game the ruleset names
    before his first game (R8.5-c, R8.5-d, A26, A27)."""
    target: PenaltyTarget
    if in_progress:
        target = "current_game"
    elif game is not None:
        target = "best_completed_game"
    else:
        target = ruleset.penalty_target_before_first_game
    penalty = ruleset.serious_violation_penalty
    countable = penalty == "forfeit" and ruleset.penalty_forfeit_is_countable
    where = f"game {game}" if game is not None else target.replace("_", " ")
    return _decision(
        player,
        offense,
        "game_forfeit",
        target=target,
        game=game,
        game_penalty=penalty,
        countable_forfeit=countable,
        rules=(*effect.rules, "R8.5-b", "R8.5-c", "R8.5-d", "A26", "A27"),
        reason=f"offense {offense}: forfeit of {where} with a machine score of zero",
    )


def check_game_confirmed(game: int, confirmed: Collection[int]) -> None:
    """R8.5-c: a violation during game `game` is recorded once that game's scores are
    confirmed (`confirmed`: the group's confirmed games), so that its penalty falls on the
    game as scored. Raises RuleError before then."""
    if game not in confirmed:
        raise RuleError(
            f"confirm game {game}'s scores first, then record the violation during it: its "
            "penalty is applied to the scored game (§8.5)"
        )


def check_ruled_seriousness(
    violation: Violation, decision: PenaltyDecision, *, ruled_serious: bool | None, label: str
) -> None:
    """A28: an official's "serious" or "not serious" ruling (`ruled_serious`; None: none)
    must be what the rules decided (`decision`), except that a wrong-ball play may be ruled
    accidental. `label` names the kind of violation in the message. Raises RuleError."""
    serious = decision.offense is not None
    if ruled_serious is None or ruled_serious == serious or violation.lo_marked_not_serious:
        return
    raise RuleError(
        f"{label} is {'always' if serious else 'never'} a serious violation under the rules "
        f"({', '.join(decision.rules)}); only a wrong-ball play may be ruled accidental (A28)"
    )


def _decision(
    player: PlayerId,
    offense: int | None,
    effect: PenaltyEffect,
    *,
    rules: tuple[str, ...],
    reason: str,
    target: PenaltyTarget = "none",
    game: int | None = None,
    game_penalty: Literal["forfeit", "zero_score", "zero_points_others_unchanged"] | None = None,
    countable_forfeit: bool = False,
    scores_wiped: bool = False,
    suspended: bool = False,
    rescore_others: bool = False,
) -> PenaltyDecision:
    return PenaltyDecision(
        violator=player,
        offense=offense,
        effect=effect,
        target=target,
        game=game,
        game_penalty=game_penalty,
        countable_forfeit=countable_forfeit,
        scores_wiped=scores_wiped,
        suspended=suspended,
        rescore_others=rescore_others,
        rules=rules,
        reason=reason,
    )
