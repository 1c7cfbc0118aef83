"""A victim's compensation for a violation, and what the violator pays for it (§8.2, §8.3).

Words:
- *victim*: the player whose game a violation interfered with (§8.2, §8.3).
- *remedy*: the compensation a victim takes: continue, an additional ball, or a replay of the
  whole game (§8.2, §8.3).
- *charge*: what the violator pays for a replay or buy-in ball the victim takes (R8.3-d), in
  the league's currency unit.
"""

from __future__ import annotations

from dataclasses import dataclass

from flipwell.rules.checks import check_count
from flipwell.rules.errors import RuleError
from flipwell.rules.ruleset import FWPL_V1, InterferenceChoice, Ruleset
from flipwell.rules.violations import ViolationKind, check_flag

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
    check_flag(unallowable_ball, "unallowable_ball")
    check_flag(allowable_balls_left, "allowable_balls_left")
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
    check_flag(caused_loss, "caused_loss")
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
    check_flag(earned_extra_ball_used, "earned_extra_ball_used")
    if remedy.replay:
        return game_price
    if remedy.additional_balls and not earned_extra_ball_used:
        return ball_price * remedy.additional_balls
    return 0
