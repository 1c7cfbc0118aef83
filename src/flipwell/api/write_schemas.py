"""Request bodies and answers of the official's console writes (meets, score sheets,
incidents, violations, money, special rulings, the playoff night).

Every request body is an `InputSchema`: unknown fields refused, no type coerced (``true`` is
not a number), and a list of scores names each player once.

Words: every id is a 64-bit database key (1..2**63-1); every text refuses the NUL character and
has a maximum length; machine scores are 0..2**63-1 (what the database stores); a *moment* is a
date-time with its UTC offset, years 1900..2999; a *day* is a date in those years. What the
schema cannot check, the services refuse with a 422 naming the field.
"""

from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal

from ninja import Field, Schema
from pydantic import AfterValidator, AwareDatetime, Strict

from flipwell.api.schemas import (
    EXACT,
    MAX_ID,
    NO_NUL,
    InputSchema,
    SubmissionOut,
    each_player_once,
)
from flipwell.league.validators import MAX_MACHINE_SCORE

MIN_YEAR, MAX_YEAR = 1900, 2999
MAX_CENTS = 10**9
"""A price in cents: ten million in money is more than any game costs."""
MAX_COUNT = 1000
"""Balls, games and meet numbers are small; larger counts name nothing."""


def _year_in_range(value: Any) -> Any:
    if not MIN_YEAR <= value.year <= MAX_YEAR:
        raise ValueError(f"must be in the years {MIN_YEAR}..{MAX_YEAR}")
    return value


# JSON carries these as ISO 8601 strings: parsed, so not strict (see `InputSchema`).
Moment = Annotated[AwareDatetime, Strict(False), AfterValidator(_year_in_range)]
Day = Annotated[datetime.date, Strict(False), AfterValidator(_year_in_range)]
Id = Annotated[int, Field(ge=1, le=MAX_ID)]


def id_field(description: str, default: Any = ...) -> Any:
    """A database id field (1..2**63-1)."""
    return Field(default, ge=1, le=MAX_ID, description=description)


def text_field(
    description: str, default: Any = ..., *, min_length: int = 0, max_length: int = 2000
) -> Any:
    """A text field without NUL, at most `max_length` characters."""
    return Field(
        default,
        min_length=min_length,
        max_length=max_length,
        pattern=NO_NUL,
        description=description,
    )


def score_field(description: str, default: Any = ...) -> Any:
    """A machine score (0..2**63-1, a JSON integer)."""
    return Field(default, ge=0, le=MAX_MACHINE_SCORE, description=description)


def id_list(description: str, *, max_length: int = 8, min_length: int = 0) -> Any:
    return Field(..., min_length=min_length, max_length=max_length, description=description)


TIE_ORDER_DESCRIPTION = (
    "For tied scores, the one-ball playoff's order of each tie (player ids), winner first (R3.2-i)."
)


# --- meets ----------------------------------------------------------------------------------


class ScheduleMeetIn(InputSchema):
    number: int = Field(..., ge=1, le=MAX_COUNT, description="The meet's number in the season.")
    date: Day = Field(..., description="The meet's date.")


class AbsenceIn(InputSchema):
    player: int = id_field("The player who will miss the meet (R2-b).")


class AbsenceOut(Schema):
    id: int = Field(..., description="The announced absence's id.")
    meet_id: int = Field(..., description="The meet's id.")
    player_id: int = Field(..., description="The player's id.")


class LatenessIn(InputSchema):
    player: int = id_field("The player who will be late (R2.2-a).")
    at: Moment | None = Field(
        None, description="When the LO was told, with its UTC offset; null: now."
    )


class LatenessOut(Schema):
    announced: bool = Field(..., description="The notice came before the start: the group waits.")
    wait_until: datetime.datetime | None = Field(
        ..., description="The latest the group waits for him (A59); null: it does not wait."
    )
    reason: str = Field(..., description="The rules' explanation.")


class ChooseMachineIn(InputSchema):
    machine: int = id_field("The machine the picker chooses (a machine of the league).")
    chosen_by: int = id_field("The player who picks (R5-c).")


class NextGameOut(Schema):
    game_id: int = Field(..., description="The new game's id.")
    number: int = Field(..., description="Its number in the match.")
    machine_id: int = Field(..., description="The machine's id.")
    machine: str = Field(..., description="The machine's title.")
    chosen_by: int | None = Field(..., description="Who chose the machine.")
    play_order: list[int] = Field(..., description="Player ids, first to play first (R5.2).")
    fallback: bool = Field(
        ..., description="No free machine was left, so the in-use restriction was lifted (R5-f)."
    )
    repeat: bool = Field(
        ..., description="The group already played this machine tonight (A22, A53)."
    )


# --- corrections ----------------------------------------------------------------------------


class CorrectedScoreIn(InputSchema):
    player: int = id_field("A group member's player id.")
    machine_score: int = score_field("His machine score.")


class CorrectionIn(InputSchema):
    requested_by: int = id_field("The player who reports the error (R3-b).")
    scores: Annotated[list[CorrectedScoreIn], AfterValidator(each_player_once)] = Field(
        ...,
        min_length=1,
        max_length=8,
        description="The claimed machine scores of the players whose score is wrong.",
    )
    reason: str = text_field("What went wrong.", min_length=1)
    tie_order: list[list[Id]] = Field(
        default_factory=list, max_length=4, description=TIE_ORDER_DESCRIPTION
    )
    override_reason: str | None = text_field(
        "After the meet is closed: why the LO accepts the request anyway (A45.2).", None
    )


class CorrectionOut(Schema):
    id: int = Field(..., description="The correction request's id (answer it by this id).")
    game_id: int = Field(..., description="The game's id.")
    status: Literal["pending", "applied", "refused"] = Field(..., description="Its status.")
    requested_by: int = Field(..., description="The player who reported the error.")
    reason: str = Field(..., description="What went wrong.")
    base_submission_id: int = Field(..., description="The confirmed sheet it corrects.")
    proposed: SubmissionOut = Field(..., description="The proposed sheet, unconfirmed.")


class CorrectionAnswerIn(InputSchema):
    player: int = id_field("A player the request asks (the quorum, A45.1).")
    agrees: bool = Field(..., description="He agrees with the correction.")


class CorrectionOutcomeOut(Schema):
    status: Literal["pending", "applied", "refused"] = Field(
        ..., description="applied (all agreed), refused (one disagreed) or pending."
    )
    score: int = Field(..., description="The machine score that stands.")
    quorum: list[int] = Field(..., description="The players asked (A45.1).")
    awaiting: list[int] = Field(..., description="Players whose answer is still awaited.")
    disagreeing: list[int] = Field(..., description="Players who disagreed.")
    rule: str = Field(..., description="The rule that decided it.")
    reason: str = Field(..., description="Why, in words.")


# --- incidents ------------------------------------------------------------------------------


class LateJoinIn(InputSchema):
    player: int = id_field("The late player (§2.3).")
    machine_allows_joining: bool = Field(
        ..., description="The machine lets a player be added to the game in progress."
    )
    last_player_not_past_ball_1: bool = Field(
        ..., description="The last player of the game has not finished ball 1."
    )


class JoinDecisionOut(Schema):
    may_join: bool = Field(..., description="He joins the game in progress and plays last.")
    forfeit: bool = Field(..., description="He forfeits this game and joins at the next.")
    reason: str = Field(..., description="The condition that decided it.")


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
MalfunctionKind = Literal["major", "catastrophic", "positive", "not_serious"]


class MalfunctionIn(InputSchema):
    player: int = id_field("The player whose ball malfunctioned.")
    ball: int = Field(..., ge=1, le=100, description="The ball number (1 = first ball).")
    reason_code: MalfunctionReason = Field(
        ..., description="What happened (R7.3-e..i, R7.4, R7.7-a, R7.8-a); 'other': the LO says."
    )
    kind: MalfunctionKind | None = Field(
        None, description="For reason 'other' only: the LO's classification (R7.3-d)."
    )
    note: str = text_field("The LO's note (needed for reason 'other').", "")
    problem: str = text_field(
        "What went wrong, matched against announced problems (R7.3-g).", "", max_length=200
    )
    one_handed_ball: bool = Field(False, description="It was a one-handed extra ball (R7.1-d).")
    ball_in_play: bool = Field(True, description="The ball was in play.")
    request_compensatory: bool = Field(
        False, description="The player asks for a compensatory game now, at the trigger (RA-b)."
    )


class RulingOut(Schema):
    kind: MalfunctionKind = Field(..., description="What the malfunction is.")
    rule: str = Field(..., description="The rule that says so.")
    reason: str = Field(..., description="Why, in words.")


class CompensatoryRequestOut(Schema):
    id: int = Field(..., description="The request's id.")
    game_id: int = Field(..., description="The game's id.")
    player_id: int = Field(..., description="The player's id.")
    balls: int = Field(..., description="The balls the compensatory game holds (R7.3-l).")


class MalfunctionOut(Schema):
    id: int = Field(..., description="The malfunction's id.")
    ruling: RulingOut = Field(..., description="The rules' ruling on it.")
    entitled: bool = Field(..., description="He may now have a compensatory game (R7.3-k).")
    compensatory: CompensatoryRequestOut | None = Field(
        ..., description="The compensatory game request recorded with it; null: none."
    )
    machine_unplayable: bool = Field(
        ..., description="The machine became unplayable for the rest of the meet (R7.3-r)."
    )


class CompensatoryRequestIn(InputSchema):
    player: int = id_field("The player entitled to a compensatory game.")
    play_continued: bool = Field(
        False, description="Play continued before he asked (then it is too late, RA-b)."
    )


class CompensatoryGameIn(InputSchema):
    player: int = id_field("The player who played the compensatory game.")
    new_score: int = score_field("The compensatory game's displayed score.")
    leading_subtracted: int = score_field("Score subtracted for a leading state (R7.3-n).", 0)
    state_subtracted: int = score_field("Score subtracted for the machine's state (R7.3-o).", 0)
    reason: str = text_field("Why anything is subtracted (needed then).", "")


class CompensatoryGameOut(Schema):
    id: int = Field(..., description="The compensatory game's id.")
    game_id: int = Field(..., description="The game's id.")
    player_id: int = Field(..., description="The player's id.")
    new_score: int = Field(..., description="Its displayed score.")
    leading_subtracted: int = Field(..., description="Subtracted for a leading state.")
    state_subtracted: int = Field(..., description="Subtracted for the machine's state.")


class MachineProblemIn(InputSchema):
    machine: int = id_field("The machine (a machine of the league).")
    problem: str = text_field(
        "The problem, as announced before play.", min_length=1, max_length=200
    )


class MachineProblemOut(Schema):
    id: int = Field(..., description="The announced problem's id.")
    meet_id: int = Field(..., description="The meet's id.")
    machine_id: int = Field(..., description="The machine's id.")
    problem: str = Field(..., description="The problem.")


class DeclarationIn(InputSchema):
    reason: str = text_field("Why (required).", min_length=1)


class DeclarationOut(Schema):
    id: int = Field(..., description="The declaration's id.")
    meet_id: int = Field(..., description="The meet's id.")
    machine_id: int = Field(..., description="The machine's id.")
    kind: Literal["unplayable", "repaired"] = Field(..., description="What was declared.")
    reason: str = Field(..., description="Why.")


class ReplaceMachineIn(InputSchema):
    reason: str = text_field("Why the machine is unplayable (required).", min_length=1)
    machine: int | None = id_field(
        "The replacement: the original selector's choice (with chosen_by), or the LO's "
        "designation (without); null for a redraw of a drawn game 1.",
        None,
    )
    chosen_by: int | None = id_field(
        "The player who selected the original machine, choosing again.", None
    )
    seed: int | None = Field(
        None, ge=0, le=MAX_ID, description="Seed of a redraw; random when null."
    )


class ReplacedOut(Schema):
    replacement_id: int = Field(..., description="The replacement's id.")
    game_id: int = Field(..., description="The game's id.")
    machine_id: int = Field(..., description="The game's machine now.")
    machine: str = Field(..., description="Its title.")
    options: list[int] = Field(..., description="The machine ids the §5 rules allowed.")


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


class ViolationIn(InputSchema):
    player: int = id_field("The violator.")
    kind: ViolationKind = Field(..., description="The violation (§8).")
    reason: str = text_field("What happened (required).", min_length=1)
    game: int | None = id_field(
        "The game it happened during (its scores confirmed); null: between games.", None
    )
    games_completed: int = Field(
        0, ge=0, le=100, description="Between games: how many games were completed."
    )
    serious: bool | None = Field(
        None, description="The LO's call where the rules allow one (A28); null: the rules'."
    )
    target_game: int | None = Field(
        None, ge=1, le=100, description="The game to penalise where the LO chooses (A27.4)."
    )
    last_allowable_ball: bool = Field(
        False, description="§8.1: it came on or after his last allowable ball."
    )
    slam_tilted: bool = Field(False, description="§8.7: the deathsave or bangback slam-tilted.")


class PenaltyOut(Schema):
    violation_id: int = Field(..., description="The recorded violation's id.")
    violator: int = Field(..., description="The violator's player id.")
    offense: int | None = Field(
        ..., description="Its number among his serious violations; null: not serious."
    )
    effect: Literal["none", "game_forfeit", "season_forfeit"] = Field(
        ..., description="The §8.5 penalty."
    )
    target: Literal["current_game", "best_completed_game", "next_game", "lo_decision", "none"] = (
        Field(..., description="How the penalised game was chosen.")
    )
    game: int | None = Field(..., description="The game of the match penalised, when known.")
    game_penalty: Literal["forfeit", "zero_score", "zero_points_others_unchanged"] | None = Field(
        ..., description="How that game is penalised (A26)."
    )
    countable_forfeit: bool = Field(..., description="The forfeit counts toward §2.5.")
    scores_wiped: bool = Field(..., description="His scores are wiped.")
    suspended: bool = Field(..., description="He is suspended.")
    rescore_others: bool = Field(..., description="Others' games are re-scored (A36).")
    rules: list[str] = Field(..., description="The rules applied.")
    reason: str = Field(..., description="Why, in words.")


RemedyChoice = Literal[
    "continue_no_extra", "continue_plus_one_ball", "drain_and_extra_ball", "replay_game"
]


class RemedyIn(InputSchema):
    victim: int = id_field("The victim of the violation.")
    announced: RemedyChoice | None = Field(
        None, description="His choice announced before play resumed; null: none (A29)."
    )
    unallowable_ball: bool = Field(False, description="§8.2: the played ball was unallowable.")
    allowable_balls_left: bool = Field(True, description="§8.2: he had allowable balls left.")
    caused_loss: bool = Field(True, description="§8.3: it caused a drain or loss of turn.")
    earned_extra_ball_used: bool = Field(
        False, description="A30: the additional ball was an earned extra ball."
    )
    game_price_cents: int | None = Field(
        None, ge=0, le=MAX_CENTS, description="A game's price, when the remedy is a replay."
    )
    ball_price_cents: int | None = Field(
        None, ge=0, le=MAX_CENTS, description="A ball's price, when it is a buy-in ball."
    )


class ChargeOut(Schema):
    id: int = Field(..., description="The ledger entry's id.")
    amount_cents: int = Field(..., description="Signed cents on its account.")


class RemedyOut(Schema):
    id: int = Field(..., description="The recorded remedy's id.")
    choice: RemedyChoice | None = Field(..., description="The remedy.")
    additional_balls: int = Field(..., description="Balls he plays to replace the lost one.")
    replay: bool = Field(..., description="He replays the whole game alone (R8.2-e).")
    presumed: bool = Field(..., description="He announced nothing: the default applies (A29).")
    rules: list[str] = Field(..., description="The rules applied.")
    reason: str = Field(..., description="Why, in words.")
    charge: ChargeOut | None = Field(..., description="The violator's charge (R8.3-d); null.")


class RestartIn(InputSchema):
    responsible: int = id_field("The player responsible for the wrong count (R8.6-d).")
    games_started: int = Field(..., ge=0, le=100, description="Games started on the machine.")
    game_price_cents: int = Field(..., ge=0, le=MAX_CENTS, description="A game's price, cents.")
    more_games_possible: bool = Field(False, description="More games can still be started.")
    note: str = text_field("A note.", "")


class RestartOut(Schema):
    id: int = Field(..., description="The restart's id.")
    game_id: int = Field(..., description="The game's id.")
    games_started: int = Field(..., description="Games that were started.")
    players: int = Field(..., description="Players present for the game.")
    charge: ChargeOut | None = Field(..., description="The restart charge; null when free.")


class DiscardIn(InputSchema):
    players: list[Id] = id_list(
        "The players whose completed scores are discarded (R7.4-c).", min_length=1
    )
    reason: str = text_field("Why (required).", min_length=1)


class DiscardedOut(Schema):
    game_id: int = Field(..., description="The game's id.")
    players: list[int] = Field(..., description="Players whose scores were discarded.")


class ReplayScoresIn(InputSchema):
    scores: Annotated[list[CorrectedScoreIn], AfterValidator(each_player_once)] = Field(
        ..., min_length=1, max_length=8, description="The replay's score of each discarded one."
    )
    entered_by: int = id_field("The group member who enters the sheet.")
    confirmed_by: int = id_field("Another group member who confirms it (R3-a).")
    tie_order: list[list[Id]] = Field(
        default_factory=list, max_length=4, description=TIE_ORDER_DESCRIPTION
    )


class LateJoinForfeitsIn(InputSchema):
    countable: bool = Field(..., description="His forfeits before he joined count (R2.4-g).")
    reason: str = text_field("Why (required).", min_length=1)


class LateJoinForfeitsOut(Schema):
    season_id: int = Field(..., description="The season's id.")
    player_id: int = Field(..., description="The player's id.")
    late_join_forfeits_countable: bool | None = Field(
        ..., description="The LO's designation; null: the league's default."
    )


# --- money and special rulings --------------------------------------------------------------


class ReversalIn(InputSchema):
    reason: str = text_field("Why it is reversed (required).", min_length=1)


SpecialRulingKind = Literal[
    "not_a_malfunction", "major_malfunction", "positive_malfunction", "not_an_extra_ball"
]


class SpecialRulingIn(InputSchema):
    machine_title: str = text_field("The machine title.", min_length=1, max_length=120)
    kind: SpecialRulingKind = Field(..., description="What the glitch is (RA-a).")
    text: str = text_field("The ruling.", min_length=1, max_length=10_000)
    reproducible: bool = Field(..., description="The glitch can be reproduced (RA-e).")
    reproduction: str = text_field("How to reproduce it (RA-e).", max_length=10_000)
    cause_and_effect: str = text_field("Its cause and effect (RA-e).", max_length=10_000)


class AmendRulingIn(SpecialRulingIn):
    number: int = Field(
        ..., ge=1, le=32767, description="The ruling's number for its title ('Title #number')."
    )
    reason: str = text_field("Why it changes (required).", min_length=1)


# --- the playoff night ----------------------------------------------------------------------


class QualifyIn(InputSchema):
    date: Day = Field(..., description="The playoff night's date.")
    cut: int | None = Field(
        None, ge=1, le=MAX_COUNT, description="The LO's number of qualifiers (A06); null: §6.1."
    )
    cut_reason: str = text_field("Why the cut is overridden (needed then).", "")


class DivisionOut(Schema):
    name: str = Field(..., description="The division's name.")
    first_rank: int = Field(..., description="Its first season rank.")
    last_rank: int = Field(..., description="Its last season rank.")
    bracket: int = Field(..., description="Bracket size (8 or 12).")


class SeedingOut(Schema):
    division: str = Field(..., description="The division's name.")
    seeds: list[int | None] = Field(..., description="Player ids, seed 1 first; null: vacant.")


class SeedTieOut(Schema):
    players: list[int] = Field(..., description="The tied players.")
    points: float = Field(..., description="Their league points (a number).")
    points_exact: str = Field(..., pattern=EXACT, description="The points exactly.")
    line: Literal["cut", "division", "seeding"] = Field(..., description="What the tie decides.")
    message: str = Field(..., description="The tie and what to do about it.")


class QualificationOut(Schema):
    league_size: int = Field(..., description="Eligible players.")
    cut: int = Field(..., description="How many qualify.")
    divisions: list[DivisionOut] = Field(..., description="The divisions.")
    seedings: list[SeedingOut] = Field(..., description="Each division's seeds (when complete).")
    reserves: list[int] = Field(..., description="Reserves, first in line first.")
    ties: list[SeedTieOut] = Field(..., description="Ties to settle by a seed playoff.")
    complete: bool = Field(..., description="No tie is left: the bracket is drawn.")


class SeedPlayoffIn(InputSchema):
    order: list[Id] = id_list("The tied players, winner first.", max_length=64, min_length=1)
    machine: int | None = id_field("The machine it was played on; null: drawn.", None)


class WithdrawalIn(InputSchema):
    player: int = id_field("The player who cannot attend (R6.6-b).")
    note: str = text_field("A note.", "")


class StartPlayoffGameIn(InputSchema):
    machine: int | None = id_field(
        "Games 2 and 3: the chooser's machine (R6.4-c); null for game 1 (drawn, R6.4-b).", None
    )


class PlayoffGameOut(Schema):
    id: int = Field(..., description="The playoff game's id.")
    division: str = Field(..., description="The division.")
    round: Literal["quarterfinal", "semifinal", "final"] = Field(..., description="The round.")
    match_number: int = Field(..., description="The match's number in its round.")
    number: int = Field(..., description="The game's number in the match (1..3).")
    machine_id: int = Field(..., description="The machine's id.")
    machine: str = Field(..., description="The machine's title.")
    chosen_by: int | None = Field(..., description="Who chose it; null: drawn.")


class PlayoffScoreIn(InputSchema):
    player: int = id_field("A present player of the match.")
    machine_score: int = score_field("His machine score.")


class PlayoffResultIn(InputSchema):
    order: list[Id] | None = Field(
        None, max_length=4, description="The finishing order, winner first; or give scores."
    )
    scores: Annotated[list[PlayoffScoreIn], AfterValidator(each_player_once)] | None = Field(
        None, max_length=4, description="Every present player's machine score; or give order."
    )
    tie_orders: list[list[Id]] = Field(
        default_factory=list,
        max_length=4,
        description="With scores: for equal scores, the one-ball playoff's order.",
    )


class TiebreakerIn(InputSchema):
    order: list[Id] = id_list("The tied players, winner first.", max_length=4, min_length=1)
    machine: int | None = id_field("Where it was played; null: drawn (R6.5-b).", None)


class TiebreakerOut(Schema):
    id: int = Field(..., description="The tiebreaker's id.")
    machine_id: int | None = Field(..., description="The machine it was played on.")
    order: list[int] = Field(..., description="The players, winner first.")


class NoShowIn(InputSchema):
    player: int = id_field("The player not present at the match's start (R6.6-c).")
    note: str = text_field("A note.", "")


class NoShowOut(Schema):
    id: int = Field(..., description="The no-show's id.")
    player_id: int = Field(..., description="The player's id.")
    recorded_at: datetime.datetime = Field(..., description="When it was recorded.")


class PlayoffLatenessIn(InputSchema):
    player: int = id_field("The player who will be late (R6.6-a).")
    at: Moment | None = Field(None, description="When the LO was told; null: now.")


class PlayoffLatenessOut(Schema):
    id: int = Field(..., description="The notice's id.")
    player_id: int = Field(..., description="The player's id.")
    start: datetime.datetime = Field(..., description="The match start it preceded.")
    wait_until: datetime.datetime = Field(..., description="The latest the match waits.")


class PlayoffNightOut(Schema):
    season_id: int = Field(..., description="The season's id.")
    date: datetime.date = Field(..., description="The playoff night's date.")
    status: Literal["planned", "open", "closed"] = Field(..., description="Its status.")
