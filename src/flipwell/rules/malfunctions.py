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
  score is added to the original (R7.3-k..o). A *replay* replaces the whole game instead.
- *open game*: a compensatory game or victim's replay the rest of the group must wait for
  (R7.3-p, R8.2-f).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal, get_args

from flipwell.rules.checks import check_count, check_player, check_score, check_unique
from flipwell.rules.errors import RuleError, about_player
from flipwell.rules.extra_balls import allowable_extra_balls_collected
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

OpenGameKind = Literal["compensatory", "replay"]


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


@dataclass(frozen=True)
class CompensatoryGame:
    """A granted compensatory game: the player and how many balls he plays (R7.3-k, R7.3-l)."""

    player: PlayerId
    balls: int


@dataclass(frozen=True)
class OpenGame:
    """A compensatory game or a victim's replay still being played (R7.3-p, R8.2-f)."""

    player: PlayerId
    kind: OpenGameKind


def compensatory_score(
    original: int,
    new: int,
    *,
    leading_subtracted: int = 0,
    state_subtracted: int = 0,
    ruleset: Ruleset = FWPL_V1,
) -> int:
    """The final machine score after a compensatory game (§7.3, R7.3-m, R7.3-n, R7.3-o, A33).

    final = original + new − score of the plunged leading balls − incidental state-setting
    points, never below 0 (`ruleset.compensatory_clamp_at_zero`; without the clamp, a
    subtraction beyond the total is refused).
    """
    parts = (
        check_score(original, what="original score"),
        check_score(new, what="compensatory game score"),
        check_score(leading_subtracted, what="leading balls' score"),
        check_score(state_subtracted, what="state-setting points"),
    )
    final = parts[0] + parts[1] - parts[2] - parts[3]
    if final < 0 and not ruleset.compensatory_clamp_at_zero:
        raise RuleError(
            f"the subtracted points ({parts[2] + parts[3]:,}) exceed the original and new "
            f"scores together ({parts[0] + parts[1]:,}) (R7.3-n, R7.3-o)"
        )
    return max(0, final)


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


def catastrophic_event(
    *,
    current_player: PlayerId,
    ball_in_play: bool,
    next_turn: Mapping[PlayerId, int],
    balls_per_game: int,
    extra_balls_collected: Mapping[PlayerId, int] | None = None,
    slammer: PlayerId | None = None,
    ruleset: Ruleset = FWPL_V1,
) -> tuple[Malfunction, ...]:
    """The malfunctions a catastrophic event that ends a game gives each of its players.

    next_turn: for every player in the game, the turn he would play next; for the current
    player, the turn he is on. extra_balls_collected: extra balls each collected in the game;
    only the allowable ones are owed (R7.3-l).
    R7.3-h: every playable turn never launched is a catastrophic malfunction.
    R7.3-i: the current player's ball already in play is a major instead; A32: his later balls
    are catastrophic by default (`ruleset.current_player_remaining_balls`).
    R8.4-a, A32: an intentional slammer gets nothing (he takes the §8.5 penalty instead).
    """
    check_player(current_player)
    if not isinstance(ball_in_play, bool):
        raise RuleError(f"ball_in_play must be True or False, got {ball_in_play!r}")
    if current_player not in next_turn:
        raise about_player(
            "the current player {player} is not among the game's players", current_player
        )
    if slammer is not None:
        check_player(slammer)
    collected = dict(extra_balls_collected or {})
    for player in collected:
        if player not in next_turn:
            raise about_player(
                "{player} collected extra balls but is not among the game's players", player
            )
    malfunctions: list[Malfunction] = []
    for player, turn in next_turn.items():
        check_player(player)
        owed = balls_per_game + allowable_extra_balls_collected(
            balls_per_game=balls_per_game, collected=collected.get(player, 0)
        )
        check_count(turn, what="{player}'s next turn", player=player, minimum=1)
        if turn > owed + 1:
            raise about_player(
                "{player}'s next turn {turn} is beyond their {owed} balls",
                player,
                turn=str(turn),
                owed=str(owed),
            )
        if player == slammer:
            continue
        denied = range(turn, owed + 1)
        if player == current_player and ball_in_play and turn <= owed:
            malfunctions.append(Malfunction(player, turn, "major"))
            if ruleset.current_player_remaining_balls == "no_compensation":
                continue
            denied = range(turn + 1, owed + 1)
        malfunctions.extend(Malfunction(player, t, "catastrophic") for t in denied)
    return tuple(malfunctions)


def ends_the_game(reason: str) -> bool:
    """Whether a malfunction of this reason ends the game for every player on the machine:
    total failure or reset, power loss, fire (R7.3-h) or a slam tilt (R8.4-c)."""
    return reason in GAME_ENDING_REASONS


def next_turns(
    play_order: Sequence[PlayerId],
    *,
    current_player: PlayerId,
    turn: int,
    balls_per_game: int | None = None,
    extra_balls_collected: Mapping[PlayerId, int] | None = None,
) -> dict[PlayerId, int]:
    """Each player's next turn when a game stops on `current_player`'s `turn` (R7.3-h, R7.3-i).

    Players before him in the play order have played that turn and are next on turn + 1; he
    and the players after him are on `turn`. With `balls_per_game`, no other player's next
    turn is past their last ball + 1 (`last_ball`: he had played them all), as when the game
    stops on an extra ball. Which ball an extra ball was is not foreseen: the LO adjusts a
    player's turn himself. This is `catastrophic_event`'s `next_turn` by default.
    """
    order = check_unique(play_order, what="the play order")
    check_player(current_player)
    check_count(turn, what="turn", minimum=1)
    if current_player not in order:
        raise about_player(
            "the current player {player} is not in the game's play order", current_player
        )
    at = order.index(current_player)
    turns = {p: turn + 1 if i < at else turn for i, p in enumerate(order)}
    if balls_per_game is None:
        return turns
    collected = extra_balls_collected or {}
    return {
        p: n
        if p == current_player
        else min(n, last_ball(balls_per_game, extra_balls_collected=collected.get(p, 0)) + 1)
        for p, n in turns.items()
    }


def last_ball(balls_per_game: int, *, extra_balls_collected: int = 0) -> int:
    """A player's last turn of a game: its balls and the allowable extra balls they collected
    (R7.1-a, R7.3-l); an unallowable (one-handed) extra ball is not a turn owed."""
    check_count(balls_per_game, what="balls per game", minimum=1)
    return balls_per_game + allowable_extra_balls_collected(
        balls_per_game=balls_per_game, collected=extra_balls_collected
    )


def major_count(malfunctions: Sequence[Malfunction], *, player: PlayerId) -> int:
    """Major malfunctions to one player in one game, a turn counted once (R7.3-c, A51)."""
    check_player(player)
    return len({m.turn for m in malfunctions if m.player == player and m.kind == "major"})


def compensatory_entitled(malfunctions: Sequence[Malfunction], *, player: PlayerId) -> bool:
    """Whether a player may have a compensatory game (R7.3-k, A51).

    Two or more majors, or one catastrophic malfunction, to that player in the game; another
    player's malfunctions never count toward his.
    """
    catastrophic = any(m.player == player and m.kind == "catastrophic" for m in malfunctions)
    return catastrophic or major_count(malfunctions, player=player) >= COMPENSATORY_MAJORS


def compensatory_balls(malfunctions: Sequence[Malfunction], *, player: PlayerId) -> int:
    """Balls a compensatory game holds: the player's affected turns (R7.3-l).

    Turns ended early by a major, and turns never launched (recorded as catastrophic, which
    covers collected allowable extra balls but not uncollected or one-handed ones), each once.
    """
    check_player(player)
    return len({m.turn for m in malfunctions if m.player == player})


def request_compensatory_game(
    malfunctions: Sequence[Malfunction],
    *,
    player: PlayerId,
    play_continued: bool,
    next_game_started: bool = False,
    ruleset: Ruleset = FWPL_V1,
) -> CompensatoryGame:
    """Grant a player's request for a compensatory game, or refuse it (R7.3-k, R7.3-l, RA-b).

    play_continued: play went on after the triggering malfunction (the second major or the
    catastrophic one) before the request. RA-b, A31: by default the request must come at the
    trigger, before play continues (`ruleset.compensatory_request_deadline`); the alternative
    accepts it until the group's next game starts.
    """
    check_player(player)
    if not compensatory_entitled(malfunctions, player=player):
        majors = major_count(malfunctions, player=player)
        raise about_player(
            "{player} has {majors} major and no catastrophic malfunction in this game; a "
            "compensatory game needs 2 majors or 1 catastrophic (R7.3-k)",
            player,
            majors=str(majors),
        )
    late = (
        play_continued
        if ruleset.compensatory_request_deadline == "at_trigger"
        else next_game_started
    )
    if late:
        when = (
            "at the triggering malfunction, before play continues"
            if ruleset.compensatory_request_deadline == "at_trigger"
            else "before the group's next game starts"
        )
        raise about_player(
            "{player}'s compensatory game request is too late: it must be made {when} (RA-b, A31)",
            player,
            when=when,
        )
    return CompensatoryGame(player, compensatory_balls(malfunctions, player=player))


def check_next_game_may_start(open_games: Sequence[OpenGame]) -> None:
    """Refuse the group's next game while a compensatory game or replay is open (R7.3-p, R8.2-f)."""
    for game in open_games:
        check_player(game.player)
        if game.kind == "compensatory":
            raise about_player(
                "the group must wait: {player}'s compensatory game is not finished (R7.3-p)",
                game.player,
            )
        if game.kind == "replay":
            raise about_player(
                "the group must wait: {player}'s replayed game is not finished (R8.2-f)",
                game.player,
            )
        raise RuleError(f"unknown open game kind {game.kind!r}; allowed: compensatory, replay")


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
