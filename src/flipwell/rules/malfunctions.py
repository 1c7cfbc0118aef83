"""Machine malfunctions (§7.3, §7.4, §8.4), compensatory games and unplayable machines.

Words:
- *turn*: one of a player's balls in a game, numbered from 1 in the order he plays them, extra
  balls included. An active multiball is part of one turn (R7.3-c).
- *playable turn*: the current turn and every ball the player is entitled to, which excludes
  unallowable (one-handed) extra balls and uncollected extra balls (R7.3-b, R7.3-l).
- *major malfunction*: premature loss of a playable turn that is not a normal part of the game
  (R7.3-b, R7.3-e).
- *catastrophic malfunction*: a playable turn denied with no chance to play the ball: slam tilt,
  total machine failure or reset, loss of power, fire (R7.3-h, R8.4-c).
- *positive malfunction*: one that gives a player an exceptionally unfair advantage (§7.4).
- *not serious*: anything else; a note for the maintenance sheet, never compensated (R7.3-a).
- *reason code*: what happened, from the rulebook's examples, which fixes the kind; "other"
  leaves the kind to the league official (R7.3-d, R7.3-j).
- *announced problem*: a machine problem the LO announced before play; it is never a serious
  malfunction (R7.3-g).
- *compensatory game*: a new game on the same machine for the affected balls, whose displayed
  score is added to the original (R7.3-k..o): `compensatory_games`.

A malfunction that ends the game for everyone on the machine is `game_ending_malfunctions`'.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from flipwell.rules.checks import check_count, check_player, check_unique
from flipwell.rules.errors import RuleError, about_player
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.values import PlayerId

MalfunctionKind = Literal["major", "catastrophic"]
MalfunctionRulingKind = Literal["major", "catastrophic", "positive", "not_serious"]
MALFUNCTION_RULING_KINDS: tuple[MalfunctionRulingKind, ...] = get_args(MalfunctionRulingKind)

MalfunctionReason = Literal[
    "forced_tilt_stuck_ball",
    "turn_ended_with_balls_in_play",
    "launched_without_player",
    "slam_tilt",
    "machine_failure",
    "power_loss",
    "fire",
    "unnecessary_tilt_stuck_ball",
    "multiball_ended_early",
    "airball_drain",
    "kickback_failed",
    "ball_saver_failed",
    "tilted_by_another_player",
    "one_ball_multiball",
    "stuck_ball_during_multiball",
    "distraction",
    "non_league_player",
    "unfair_advantage_unavoidable",
    "unfair_advantage_avoidable",
    "other",
]
MALFUNCTION_REASONS: tuple[MalfunctionReason, ...] = get_args(MalfunctionReason)

REASON_RULINGS: Mapping[str, tuple[MalfunctionRulingKind, str, str]] = {
    # R7.3-e: the rulebook's examples of major malfunctions.
    "forced_tilt_stuck_ball": ("major", "R7.3-e", "forced to tilt to free a stuck ball"),
    "turn_ended_with_balls_in_play": ("major", "R7.3-e", "the turn ended with balls in play"),
    "launched_without_player": (
        "major",
        "R7.3-e",
        "a ball was shot into play without the player and lost",
    ),
    # R7.3-h, R8.4-c: catastrophic events.
    "slam_tilt": ("catastrophic", "R8.4-c", "every slam tilt is a catastrophic malfunction"),
    "machine_failure": ("catastrophic", "R7.3-h", "total machine failure or reset"),
    "power_loss": ("catastrophic", "R7.3-h", "loss of electrical power"),
    "fire": ("catastrophic", "R7.3-h", "fire due to overheated components"),
    # R7.3-f: not major malfunctions.
    "unnecessary_tilt_stuck_ball": (
        "not_serious",
        "R7.3-f",
        "the stuck ball was tilted away when it was not clearly necessary",
    ),
    "multiball_ended_early": (
        "not_serious",
        "R7.3-f",
        "a multiball ended early without loss of turn",
    ),
    "airball_drain": ("not_serious", "R7.3-f", "a ball went airborne and drained"),
    "kickback_failed": ("not_serious", "R7.3-f", "a lit kickback failed"),
    "ball_saver_failed": ("not_serious", "R7.3-f", "a ball saver failed"),
    "tilted_by_another_player": (
        "not_serious",
        "R7.3-f",
        "another player tilted the ball: that is interference (§8.3), not a malfunction",
    ),
    # R7.4-e: not an exceptionally unfair advantage.
    "one_ball_multiball": (
        "not_serious",
        "R7.4-e",
        'a one-ball "multiball" is not an exceptionally unfair advantage',
    ),
    "stuck_ball_during_multiball": (
        "not_serious",
        "R7.4-e",
        "a stuck ball during multiball is not an exceptionally unfair advantage",
    ),
    # R7.7-a, R7.8-a: distractions are normal play conditions.
    "distraction": ("not_serious", "R7.7-a", "distractions are normal play: no allowance"),
    "non_league_player": (
        "not_serious",
        "R7.8-a",
        "a non-league customer playing the ball is a distraction, not interference",
    ),
    # §7.4: positive malfunctions.
    "unfair_advantage_unavoidable": (
        "positive",
        "R7.4-a",
        "stop the game and start a new one, on this or another machine as the LO decides",
    ),
    "unfair_advantage_avoidable": (
        "positive",
        "R7.4-b",
        "report it to the LO and avoid it from now on; the LO may replay the game (R7.4-c)",
    ),
}
"""Each listed reason code's kind, rule ID and explanation; "other" is the LO's call."""

GAME_ENDING_REASONS: frozenset[MalfunctionReason] = frozenset(
    {"slam_tilt", "machine_failure", "power_loss", "fire"}
)
"""Reasons that end the game for every player on the machine: total failure or reset, loss of
power, fire (R7.3-h) and any slam tilt (R8.4-c). Each player's balls never launched are then
catastrophic malfunctions and the current ball a major (R7.3-i, A32): `catastrophic_event`.
Reason "other" is never among them: the LO rules each player's ball himself (R7.3-j)."""

SERIOUS: tuple[MalfunctionRulingKind, ...] = ("major", "catastrophic")
COMPENSATORY_MAJORS = 2
"""R7.3-k: this many major malfunctions to one player in one game give a compensatory game."""


@dataclass(frozen=True)
class MalfunctionReport:
    """A malfunction reported to the LO for one player's turn of one game.

    one_handed_ball: the turn was an unallowable extra ball (R7.1-d).
    ball_in_play: for a catastrophic event, the ball had been put into play before it (R7.3-i);
    for the whole group's balls after such an event, and an intentional slammer, use
    `catastrophic_event`.
    problem: what went wrong, as the form's announced-problem choice words it (R7.3-g).
    """

    player: PlayerId
    machine: str
    turn: int
    reason: MalfunctionReason
    one_handed_ball: bool = False
    ball_in_play: bool = True
    problem: str = ""


@dataclass(frozen=True)
class AnnouncedProblem:
    """A machine problem the LO announced to the players before league play (R7.3-g)."""

    machine: str
    problem: str


@dataclass(frozen=True)
class Malfunction:
    """A serious malfunction ruled for one player on one turn of one game."""

    player: PlayerId
    turn: int
    kind: MalfunctionKind


@dataclass(frozen=True)
class MalfunctionRuling:
    """What a reported malfunction is, the rule that says so, and the serious record if any."""

    kind: MalfunctionRulingKind
    rule: str
    reason: str
    malfunction: Malfunction | None


def rule_malfunction(
    report: MalfunctionReport,
    *,
    announced: Collection[AnnouncedProblem] = (),
    lo_kind: MalfunctionRulingKind | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> MalfunctionRuling:
    """Classify a reported malfunction: major, catastrophic, positive or not serious.

    R7.3-a: only major and catastrophic malfunctions affect play. R7.3-e, R7.3-f, R7.3-h,
    R7.4-e, R7.7-a, R7.8-a, R8.4-c: a listed reason code fixes the kind (distractions and
    non-league players are never compensated). R7.3-i: a catastrophic event is a major for a
    ball already in play. R7.3-d, R7.3-j: reason "other" needs the LO's `lo_kind`.
    R7.1-d, R7.3-b, R7.3-h: a one-handed extra ball is never a serious malfunction; R7.3-g: nor
    is a problem the LO announced before play. Asking for a serious kind then is refused.
    """
    _check_report(report)
    if lo_kind is not None and lo_kind not in MALFUNCTION_RULING_KINDS:
        raise RuleError(
            f"unknown malfunction kind {lo_kind!r}; allowed: {', '.join(MALFUNCTION_RULING_KINDS)}"
        )
    kind, rule, reason = _listed_kind(report, lo_kind)
    if kind in SERIOUS:
        refusal = _serious_refusal(report, announced)
        if refusal is not None:
            refused_rule, refused_reason = refusal
            if lo_kind in SERIOUS:
                raise about_player(
                    "{player}'s turn {turn} on {machine} cannot be a {kind} malfunction: "
                    "{reason} ({rule})",
                    report.player,
                    turn=str(report.turn),
                    machine=report.machine,
                    kind=lo_kind,
                    reason=refused_reason,
                    rule=refused_rule,
                )
            return MalfunctionRuling("not_serious", refused_rule, refused_reason, None)
        serious: MalfunctionKind = "major" if kind == "major" else "catastrophic"
        return MalfunctionRuling(
            kind, rule, reason, Malfunction(report.player, report.turn, serious)
        )
    return MalfunctionRuling(kind, rule, reason, None)


REFUSED_SERIOUS = ("R7.1-d", "R7.3-g")
"""Rules under which a malfunction its reason code makes serious is refused as one."""


def check_recordable(ruling: MalfunctionRuling) -> None:
    """R7.1-d, R7.3-g: a malfunction its reason code makes serious, ruled not serious because
    it happened on a one-handed extra ball or is a problem the LO announced before play, is not
    recorded as a malfunction; the official may still note it on the maintenance sheet with
    reason "other" and kind not serious (R7.3-d). Raises RuleError."""
    if ruling.kind == "not_serious" and ruling.rule in REFUSED_SERIOUS:
        raise RuleError(
            f"This cannot be recorded as a malfunction: {ruling.reason} ({ruling.rule}). To "
            "note it on the maintenance sheet, record reason 'other' with kind 'not_serious'."
        )


def _check_report(report: MalfunctionReport) -> None:
    check_player(report.player)
    check_count(report.turn, what="turn", minimum=1)
    if not isinstance(report.machine, str) or not report.machine.strip():
        raise RuleError(f"machine must be a non-empty title, got {report.machine!r}")
    if report.reason not in MALFUNCTION_REASONS:
        allowed = ", ".join(MALFUNCTION_REASONS)
        raise RuleError(f"unknown malfunction reason {report.reason!r}; allowed: {allowed}")


def _listed_kind(
    report: MalfunctionReport, lo_kind: MalfunctionRulingKind | None
) -> tuple[MalfunctionRulingKind, str, str]:
    if report.reason == "other":
        if lo_kind is None:
            raise RuleError(
                "a malfunction not among the rulebook's examples needs the LO's ruling "
                "(R7.3-d, R7.3-j): major, catastrophic, positive or not_serious"
            )
        return lo_kind, "R7.3-d", "ruled by the league official"
    kind, rule, reason = REASON_RULINGS[report.reason]
    if kind == "catastrophic" and report.ball_in_play:
        kind, rule, reason = "major", "R7.3-i", f"{reason}, with the ball already in play"
    if lo_kind is not None and lo_kind != kind:
        raise RuleError(
            f"reason {report.reason!r} is always {kind.replace('_', ' ')} ({rule}); record "
            "reason 'other' for the LO to rule a disputed case"
        )
    return kind, rule, reason


def _serious_refusal(
    report: MalfunctionReport, announced: Collection[AnnouncedProblem]
) -> tuple[str, str] | None:
    if report.one_handed_ball:
        return "R7.1-d", "a one-handed (unallowable) extra ball is never compensated"
    if report.problem.strip() and any(
        _same(a.machine, report.machine) and _same(a.problem, report.problem) for a in announced
    ):
        return "R7.3-g", f"the LO announced this problem before play: {report.problem.strip()}"
    return None


def _same(a: str, b: str) -> bool:
    return " ".join(a.casefold().split()) == " ".join(b.casefold().split())


def automatically_unplayable(
    malfunctions: Sequence[Malfunction],
    *,
    players: Sequence[PlayerId],
    play_cannot_continue: bool = False,
) -> bool:
    """Whether a machine is automatically unplayable for the rest of the meet (R7.3-r).

    When every player's first ball ended in a major malfunction, or play cannot continue on the
    machine for any reason. The whole game is then replayed elsewhere (R7.3-s).
    """
    listed = check_unique(players, what="the game's players")
    if not listed:
        raise RuleError("a game needs at least one player")
    first_ball_majors = {m.player for m in malfunctions if m.turn == 1 and m.kind == "major"}
    return play_cannot_continue or all(p in first_ball_majors for p in listed)
