"""Illegal actions (§8.1-§8.8), their effects on a game, and the §8.5 penalties.

Words:
- *violation*: an illegal action by one player, the *violator* (§8).
- *victim*: the player whose game a violation interfered with (§8.2, §8.3).
- *effect*: what a violation does to the violator's own game: a machine score of zero, balls
  plunged unplayed, a 25% *reduced score* (§8.1, §8.2, §8.7).
- *serious violation*: one the rules designate (interference, intentional slam tilts, and by
  default playing an opponent's ball) or conduct the LO finds exceptionally detrimental;
  cumulative over a season (§8.5).
- *offense*: the number of a serious violation in the violator's season, 1 for the first.
- *penalty decision*: what §8.5 does for one serious violation: forfeit of a game (1st and 2nd
  offense) or forfeit of the season with suspension (3rd) (R8.5-c, R8.5-e).
- *penalty game*: the game a 1st or 2nd offense penalty falls on (R8.5-c, R8.5-d, A27).
- *remedy*: the compensation a victim takes: continue, an additional ball, or a replay of the
  whole game (§8.2, §8.3); the violator pays for a replay or buy-in ball (R8.3-d).
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from flipwell.rules.checks import check_count, check_player, check_score
from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import FWPL_V1, InterferenceChoice, Ruleset
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

PenaltyEffect = Literal["none", "game_forfeit", "season_forfeit"]
PenaltyTarget = Literal["current_game", "best_completed_game", "next_game", "lo_decision", "none"]
GameCountOutcome = Literal["correct", "plunge_extra_games", "start_more_games", "void_and_restart"]

THIRD_OFFENSE = 3
"""R8.5-e: the third serious violation of a season forfeits the season."""

OPPONENTS_BALL_CHOICES: tuple[InterferenceChoice, ...] = (
    "continue_no_extra",
    "drain_and_extra_ball",
    "replay_game",
)
"""R8.2-c: a victim whose ball an opponent played may continue, drain and take one more ball,
or replay the whole game."""

INTERFERENCE_CHOICES: tuple[InterferenceChoice, ...] = ("continue_plus_one_ball", "replay_game")
"""R8.3-b: a victim of other interference may replay, or continue with one additional ball."""


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


@dataclass(frozen=True)
class VictimRemedy:
    """The victim's compensation after interference (§8.2, §8.3).

    additional_balls: balls he plays to replace the lost one (an earned, normally unallowable
    extra ball or a buy-in, A30). replay: he replays the whole game, alone, and the replay score
    replaces their original (R8.2-e, A49); the group waits for it (R8.2-f).
    """

    choice: InterferenceChoice | None
    additional_balls: int
    replay: bool
    presumed: bool
    rules: tuple[str, ...]
    reason: str


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


def reduced_score(score: int, *, ruleset: Ruleset = FWPL_V1) -> int:
    """A final machine score reduced by 25% (§8.1, R8.1-b), rounded down by default (A35)."""
    check_score(score)
    if ruleset.score_reduction_rounding == "half_up":
        return (score * 3 + 2) // 4  # ⌊0.75·score + ½⌋
    return score * 3 // 4


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


def opponents_ball_remedy(
    *,
    unallowable_ball: bool,
    allowable_balls_left: bool,
    announced: InterferenceChoice | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> VictimRemedy:
    """The victim's compensation when an opponent played his ball (§8.2).

    R8.2-b: an unallowable extra ball with no allowable balls left: no compensation.
    R8.2-c: otherwise continue, drain and play one additional ball, or replay the game.
    R8.2-d, A29: with no decision announced before play resumed, the default applies
    (`ruleset.interference_default_choice.opponents_ball`: continue, no other compensation).
    R8.2-e, R8.2-f, A49: a replay is his alone, replaces his score, and the group waits.
    """
    _check_flag(unallowable_ball, "unallowable_ball")
    _check_flag(allowable_balls_left, "allowable_balls_left")
    if unallowable_ball and not allowable_balls_left:
        if announced is not None and announced != "continue_no_extra":
            raise RuleError(
                "the affected ball was an unallowable extra ball and the victim has no allowable "
                "balls left: no compensation is available (R8.2-b)"
            )
        return VictimRemedy(None, 0, False, False, ("R8.2-b",), "no compensation")
    if announced is not None and announced not in OPPONENTS_BALL_CHOICES:
        raise RuleError(
            f"{announced!r} is not an option after an opponent played the ball; allowed: "
            f"{', '.join(OPPONENTS_BALL_CHOICES)} (R8.2-c)"
        )
    choice = announced or ruleset.interference_default_choice.opponents_ball
    rules = ("R8.2-c",) if announced else ("R8.2-d", "A29")
    return _remedy(choice, presumed=announced is None, rules=rules)


VICTIM_KINDS = ("opponents_ball", "interference")
"""The violations with a victim to compensate (§8.2, §8.3)."""


def victim_remedy(
    kind: ViolationKind | str,
    *,
    unallowable_ball: bool,
    allowable_balls_left: bool,
    caused_loss: bool,
    announced: InterferenceChoice | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> VictimRemedy:
    """The victim's compensation for a violation of `kind`: an opponent's ball (§8.2,
    `opponents_ball_remedy`) or other interference (§8.3, `interference_remedy`). RuleError
    for any other kind: it has no victim."""
    if kind == "opponents_ball":
        return opponents_ball_remedy(
            unallowable_ball=unallowable_ball,
            allowable_balls_left=allowable_balls_left,
            announced=announced,
            ruleset=ruleset,
        )
    if kind == "interference":
        return interference_remedy(caused_loss=caused_loss, announced=announced, ruleset=ruleset)
    raise RuleError(
        "this violation has no victim's remedy: only an opponent's ball (§8.2) or "
        "interference (§8.3) does"
    )


def interference_remedy(
    *,
    caused_loss: bool,
    announced: InterferenceChoice | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> VictimRemedy:
    """The victim's compensation for interference other than playing his ball (§8.3).

    caused_loss: the interference caused a drain or loss of turn; otherwise there is nothing
    to compensate (the violator is still penalised, R8.3-e).
    R8.3-b: replay the whole game, or continue with one additional ball.
    R8.3-c, A29: with no decision announced, he is presumed to continue
    (`ruleset.interference_default_choice.other`: with the additional ball).
    """
    _check_flag(caused_loss, "caused_loss")
    if not caused_loss:
        if announced is not None:
            raise RuleError("interference that caused no drain or loss of turn is not compensated")
        return VictimRemedy(None, 0, False, False, ("R8.3-b",), "no loss, no compensation")
    if announced is not None and announced not in INTERFERENCE_CHOICES:
        raise RuleError(
            f"{announced!r} is not an option after interference; allowed: "
            f"{', '.join(INTERFERENCE_CHOICES)} (R8.3-b)"
        )
    choice = announced or ruleset.interference_default_choice.other
    rules = ("R8.3-b",) if announced else ("R8.3-c", "A29")
    return _remedy(choice, presumed=announced is None, rules=rules)


def _remedy(choice: InterferenceChoice, *, presumed: bool, rules: tuple[str, ...]) -> VictimRemedy:
    if choice == "replay_game":
        return VictimRemedy(
            choice,
            0,
            True,
            presumed,
            (*rules, "R8.2-e", "R8.2-f", "A49"),
            "the victim replays the whole game; the replay score replaces their original",
        )
    if choice in ("drain_and_extra_ball", "continue_plus_one_ball"):
        return VictimRemedy(
            choice, 1, False, presumed, rules, "the victim plays one additional ball"
        )
    return VictimRemedy(choice, 0, False, presumed, rules, "the victim continues the plunged ball")


def violator_charge(
    remedy: VictimRemedy,
    *,
    game_price: int,
    ball_price: int,
    earned_extra_ball_used: bool = False,
) -> int:
    """What the interfering player pays for the victim's remedy, in the league's currency unit.

    R8.3-d, A30: the replayed game or the buy-in ball, even if the machine has credits; nothing
    when the victim used an earned, normally unallowable extra ball.
    """
    check_count(game_price, what="game price")
    check_count(ball_price, what="buy-in ball price")
    _check_flag(earned_extra_ball_used, "earned_extra_ball_used")
    if remedy.replay:
        return game_price
    if remedy.additional_balls and not earned_extra_ball_used:
        return ball_price * remedy.additional_balls
    return 0


def game_count_outcome(
    *, games_started: int, players: int, more_games_possible: bool = True
) -> GameCountOutcome:
    """What to do when a machine has the wrong number of games started for the group (§8.6).

    players: the players present for the game (A60). R8.6-a: too many: plunge the extra
    games' balls unplayed. R8.6-b: too few: start more games if the machine allows it.
    R8.6-c: otherwise end the game, void every score and restart on the same machine.
    """
    check_count(games_started, what="games started", minimum=1)
    check_count(players, what="players", minimum=1)
    _check_flag(more_games_possible, "more_games_possible")
    if games_started == players:
        return "correct"
    if games_started > players:
        return "plunge_extra_games"
    return "start_more_games" if more_games_possible else "void_and_restart"


_NO_RESTART = {
    "correct": "that is the right number: nothing to restart",
    "plunge_extra_games": "plunge the extra games' balls unplayed; nothing more is done (R8.6-a)",
    "start_more_games": "start more games on the machine; nothing more is done (R8.6-b)",
}


def check_restart_needed(*, games_started: int, players: int, more_games_possible: bool) -> None:
    """R8.6-c: a game is voided and restarted only when the count cannot be fixed on the
    machine (`game_count_outcome`); otherwise RuleError saying what to do instead (R8.6-a,
    R8.6-b)."""
    outcome = game_count_outcome(
        games_started=games_started, players=players, more_games_possible=more_games_possible
    )
    if outcome != "void_and_restart":
        raise RuleError(f"{games_started} games for {players} players: {_NO_RESTART[outcome]}")


def restart_charge(*, players: int, game_price: int) -> int:
    """What the player responsible for a wrong game count pays for a restart (R8.6-c, R8.6-d).

    The cost of restarting the game for all players: one game price per player.
    """
    check_count(players, what="players", minimum=1)
    check_count(game_price, what="game price")
    return players * game_price


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
    game = penalty_game(points_by_game, current_game=current_game)
    target: PenaltyTarget
    if current_game is not None:
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


def ruled_accidental(kind: ViolationKind | str, ruled_serious: bool | None) -> bool:
    """A28: whether the official's ruling makes a wrong-ball play (§8.2) accidental, so not
    serious; no other kind of violation can be ruled so."""
    return ruled_serious is False and kind == "opponents_ball"


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


def _check_flag(value: object, name: str) -> None:
    if not isinstance(value, bool):
        raise RuleError(f"{name} must be True or False, got {value!r}")
