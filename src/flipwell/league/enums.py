"""Every closed set of values flipwell stores or accepts, defined once for the models, the web
forms and the API schemas.

Words: an *enum* here is a Django `TextChoices` (the stored value and the label a page shows);
its values are the rules' `Literal` of the same name where the rules decide the set
(`flipwell.rules`), and a `Literal` defined here where only the league stores it (a meet's
status, a machine's). `tests/league/test_enums.py` keeps each enum's values equal to its
`Literal`. Models use the enum as their field's ``choices``, forms as a select's choices, API
schemas use the `Literal` as a field's type (so OpenAPI lists the values).
"""

from __future__ import annotations

from typing import Any, Literal, TypeVar, get_args

from django.db import models

from flipwell.league.refusals import Refusal
from flipwell.rules import MalfunctionKind as SeriousMalfunctionKind
from flipwell.rules.corrections import CorrectionStatus as CorrectionStatusValue
from flipwell.rules.malfunctions import MalfunctionReason as MalfunctionReasonValue
from flipwell.rules.malfunctions import MalfunctionRulingKind as MalfunctionKindValue
from flipwell.rules.playoff_seeding import TieLine
from flipwell.rules.race import RaceStatus
from flipwell.rules.ruleset import InterferenceChoice as RemedyChoiceValue
from flipwell.rules.special_rulings import SpecialRulingKind as SpecialRulingKindValue
from flipwell.rules.treasury import Account as AccountValue
from flipwell.rules.treasury import EntryKind
from flipwell.rules.treasury import Reason as LedgerReasonValue
from flipwell.rules.violation_penalties import PenaltyEffect, PenaltyTarget
from flipwell.rules.violations import ViolationKind as ViolationKindValue

__all__ = [
    "AccountValue",
    "CorrectionStatus",
    "CorrectionStatusValue",
    "DeclarationKind",
    "DeclarationKindValue",
    "EntryKind",
    "ForfeitReason",
    "ForfeitReasonValue",
    "GamePenalty",
    "LedgerAccount",
    "LedgerReason",
    "LedgerReasonValue",
    "MachineStatus",
    "MachineStatusValue",
    "MalfunctionKind",
    "MalfunctionKindValue",
    "MalfunctionReason",
    "MalfunctionReasonValue",
    "MeetStatus",
    "MeetStatusValue",
    "NewEntryKind",
    "NewLedgerEntryKind",
    "PenaltyEffect",
    "PenaltyTarget",
    "PlayoffRound",
    "PlayoffRoundValue",
    "RaceStatus",
    "RecordedForfeitReason",
    "RemedyChoice",
    "RemedyChoiceValue",
    "ReplacementBy",
    "ReplacementByValue",
    "SpecialRulingKind",
    "SpecialRulingKindValue",
    "TieLine",
    "ViolationKind",
    "ViolationKindValue",
    "choices_of",
    "one_of",
]

# --- the league's own sets (no rule decides them) --------------------------------------------

RulingKindValue = Literal[
    # about one player's turn (flipwell.league.turn_rulings.KINDS)
    "slow_play_warning",
    "distraction_ruling",
    # about a game
    "malfunction_major",
    "malfunction_catastrophic",
    "malfunction_positive",
    "malfunction_not_serious",
    "compensatory_subtraction",
    "positive_malfunction_replay",
    "forfeit_not_countable",
    "late_join_forfeits_countable",
    "violation_not_serious",
    "late_correction",
    "replacement_machine_designated",
    "interference_charge",
    "restart_charge",
    # about a meet
    "grouping_override",
    "meet_closed_unfinished",
    "meet_rescheduled",
    "meet_date",
    "meet_cancelled",
    "photos_removed",
    # about the league, its season or its machines
    "playoff_cut_override",
    "ifpa_figure",
    "ruleset_setting",
    "machine_report_closed",
    "machine_status",
    "special_ruling.added",
    "special_ruling.amended",
    "special_ruling.copied",
]
"""Every kind of `Ruling` a service records (tests/league/test_ruling_kinds.py holds it to the
services' calls)."""
MeetStatusValue = Literal["planned", "open", "closed"]
MachineStatusValue = Literal["playable", "unplayable"]
DeclarationKindValue = Literal["unplayable", "repaired"]
ForfeitReasonValue = Literal["absent", "late", "penalty", "other"]
RecordedForfeitReason = Literal["absent", "late", "other"]
"""The reasons an official records a forfeit with; "penalty" is §8.5's, written by a violation."""
PlayoffRoundValue = Literal["quarterfinal", "semifinal", "final"]
"""`flipwell.rules.playoffs.ROUND_NAMES`' values, as a type."""
ReplacementByValue = Literal["selector", "random", "lo"]
"""`flipwell.rules.machine_replacement.Replacement.by`."""
NewEntryKind = Literal[
    "dues_paid",
    "kitty_in",
    "kitty_spend",
    "transfer_to_treasury",
    "treasury_expense",
    "interference_charge",
    "restart_charge",
]
"""The rules' `EntryKind` an official records; a "reversal" is made by reversing an entry."""
GamePenalty = Literal["forfeit", "zero_score", "zero_points_others_unchanged"]
"""`flipwell.rules.Ruleset.serious_violation_penalty` (A26): how a penalised game counts."""


def choices_of(
    enum: type[models.TextChoices], *, blank: str | None = None, within: object = None
) -> list[tuple[str, str]]:
    """A select's choices: the enum's (only those `within` a `Literal`, when given), after an
    empty choice labelled `blank` when given."""
    allowed = None if within is None else set(literal_values(within))
    head = [] if blank is None else [("", blank)]
    return [*head, *[(v, label) for v, label in enum.choices if allowed is None or v in allowed]]


# --- meets and games -------------------------------------------------------------------------


class MeetStatus(models.TextChoices):
    """A meet's, or a playoff night's, status."""

    PLANNED = "planned", "Planned"
    OPEN = "open", "Open"
    CLOSED = "closed", "Closed"


class ForfeitReason(models.TextChoices):
    """Why a player forfeited a game (§2.4)."""

    ABSENT = "absent", "Absent"
    LATE = "late", "Late, could not join"
    PENALTY = "penalty", "Penalty for a serious violation"
    OTHER = "other", "Other"


class CorrectionStatus(models.TextChoices):
    """`flipwell.rules.corrections.CorrectionStatus` (A45)."""

    PENDING = "pending", "Waiting for the players' answers"
    APPLIED = "applied", "Applied: every player agreed"
    REFUSED = "refused", "Refused: the score sheet stands"


# --- machines ---------------------------------------------------------------------------------


class MachineStatus(models.TextChoices):
    """A machine's standing status in the league's pool."""

    PLAYABLE = "playable", "Playable"
    UNPLAYABLE = "unplayable", "Unplayable"


class DeclarationKind(models.TextChoices):
    """What an official declares a machine at a meet (R7.3-q, R7.3-r)."""

    UNPLAYABLE = "unplayable", "Unplayable"
    REPAIRED = "repaired", "Repaired"


class ReplacementBy(models.TextChoices):
    """`flipwell.rules.machine_replacement.Replacement.by` (§5.1, A23)."""

    SELECTOR = "selector", "The player who selected the machine"
    RANDOM = "random", "Drawn at random again"
    LO = "lo", "Designated by the league official"


class SpecialRulingKind(models.TextChoices):
    """`flipwell.rules.special_rulings.SpecialRulingKind` (RA-a): what a special ruling says a
    glitch is, as stored (`SpecialRuling.kind`), entered and given by the API. (Before
    migration 0013 the model stored short codes of its own: see `LEGACY_SPECIAL_RULING_KINDS`.)"""

    NOT_A_MALFUNCTION = "not_a_malfunction", "Not a malfunction"
    MAJOR_MALFUNCTION = "major_malfunction", "Major malfunction"
    POSITIVE_MALFUNCTION = "positive_malfunction", "Positive malfunction"
    NOT_AN_EXTRA_BALL = "not_an_extra_ball", "Not an extra ball"


LEGACY_SPECIAL_RULING_KINDS: dict[str, SpecialRulingKindValue] = {
    "not_malfunction": "not_a_malfunction",
    "major": "major_malfunction",
    "positive": "positive_malfunction",
    "not_extra_ball": "not_an_extra_ball",
}
"""The short codes `SpecialRuling.kind` stored before migration 0013 -> the rules' values (a
restore of an older backup maps them)."""


# --- malfunctions (§7) -----------------------------------------------------------------------


class MalfunctionKind(models.TextChoices):
    """`flipwell.rules.malfunctions.MalfunctionRulingKind`: "not serious" is still recorded,
    for the maintenance sheet (R7.3-a, R7.3-u), but never compensated."""

    MAJOR = "major", "Major"
    CATASTROPHIC = "catastrophic", "Catastrophic"
    POSITIVE = "positive", "Positive"
    NOT_SERIOUS = "not_serious", "Not serious"


class MalfunctionReason(models.TextChoices):
    """`flipwell.rules.malfunctions.MalfunctionReason`: the cases the rulebook names (R7.3-e,
    R7.3-f, R7.3-h, R7.4, R7.7, R7.8); "other" leaves the kind to the official (R7.3-d, j)."""

    FORCED_TILT_STUCK_BALL = "forced_tilt_stuck_ball", "Forced tilt to free a stuck ball"
    TURN_ENDED_WITH_BALLS_IN_PLAY = (
        "turn_ended_with_balls_in_play",
        "Turn ended with balls in play",
    )
    LAUNCHED_WITHOUT_PLAYER = "launched_without_player", "Ball launched without the player"
    SLAM_TILT = "slam_tilt", "Slam tilt"
    MACHINE_FAILURE = "machine_failure", "Total failure or reset"
    POWER_LOSS = "power_loss", "Power loss"
    FIRE = "fire", "Fire"
    UNNECESSARY_TILT_STUCK_BALL = (
        "unnecessary_tilt_stuck_ball",
        "Stuck ball tilted away needlessly",
    )
    MULTIBALL_ENDED_EARLY = "multiball_ended_early", "Multiball ended early"
    AIRBALL_DRAIN = "airball_drain", "Airball drain"
    KICKBACK_FAILED = "kickback_failed", "Kickback failed"
    BALL_SAVER_FAILED = "ball_saver_failed", "Ball saver failed"
    TILTED_BY_ANOTHER_PLAYER = "tilted_by_another_player", "Tilted by another player"
    ONE_BALL_MULTIBALL = "one_ball_multiball", "One-ball multiball"
    STUCK_BALL_DURING_MULTIBALL = (
        "stuck_ball_during_multiball",
        "Stuck ball during multiball",
    )
    DISTRACTION = "distraction", "Distraction"
    NON_LEAGUE_PLAYER = "non_league_player", "Non-league player"
    UNFAIR_ADVANTAGE_UNAVOIDABLE = (
        "unfair_advantage_unavoidable",
        "Unavoidable unfair advantage",
    )
    UNFAIR_ADVANTAGE_AVOIDABLE = "unfair_advantage_avoidable", "Avoidable unfair advantage"
    OTHER = "other", "Other"


# --- violations (§8) -------------------------------------------------------------------------


class ViolationKind(models.TextChoices):
    """`flipwell.rules.violations.ViolationKind`."""

    OWN_UNALLOWABLE_EXTRA_BALL = (
        "own_unallowable_extra_ball",
        "Two hands on their own one-handed extra ball (§8.1)",
    )
    OPPONENTS_BALL = "opponents_ball", "Played an opponent's ball (§8.2)"
    INTERFERENCE = "interference", "Interference (§8.3)"
    INTENTIONAL_SLAM_TILT = "intentional_slam_tilt", "Intentional slam tilt (§8.4)"
    DEATHSAVE_OR_BANGBACK = "deathsave_or_bangback", "Deathsave or bangback (§8.7)"
    CHEATING = "cheating", "Cheating (§8.8)"
    VIOLENCE = "violence", "Violence (§8.5)"
    VANDALISM = "vandalism", "Vandalism (§8.5)"
    DETRIMENTAL_CONDUCT = "detrimental_conduct", "Exceptionally detrimental conduct (§8.5)"


class RemedyChoice(models.TextChoices):
    """`flipwell.rules.ruleset.InterferenceChoice`: the victim's compensation (§8.2, §8.3)."""

    CONTINUE_NO_EXTRA = "continue_no_extra", "Continue, no other compensation"
    CONTINUE_PLUS_ONE_BALL = "continue_plus_one_ball", "Continue with one additional ball"
    DRAIN_AND_EXTRA_BALL = "drain_and_extra_ball", "Drain and play one additional ball"
    REPLAY_GAME = "replay_game", "Replay the whole game"


# --- money (§9) ------------------------------------------------------------------------------


class LedgerAccount(models.TextChoices):
    """`flipwell.rules.treasury.Account`."""

    DUES = "dues", "Dues"
    KITTY = "kitty", "Kitty"
    TREASURY = "treasury", "Treasury"


class NewLedgerEntryKind(models.TextChoices):
    """`NewEntryKind`: the kinds of movement an official records (§9, R8.3-d, R8.6-d)."""

    DUES_PAID = "dues_paid", "Dues paid"
    KITTY_IN = "kitty_in", "Money into the kitty"
    KITTY_SPEND = "kitty_spend", "Kitty spent"
    TRANSFER_TO_TREASURY = "transfer_to_treasury", "Transfer to the treasury"
    TREASURY_EXPENSE = "treasury_expense", "Treasury expense"
    INTERFERENCE_CHARGE = "interference_charge", "Interference charge (§8.3)"
    RESTART_CHARGE = "restart_charge", "Restart charge (§8.6)"


class LedgerReason(models.TextChoices):
    """`flipwell.rules.treasury.Reason`: the reason codes (R9-d, R9-f, R8.3-d)."""

    COIN_MECH_FAILURE = "coin_mech_failure", "Coin mech failed to credit (R9-d)"
    BONUS_CREDITS = "bonus_credits", "Pricing gives bonus credits (R9-d)"
    PLAYOFF_GAMES = "playoff_games", "Playoff games (R9-f)"
    TROPHIES = "trophies", "Trophies (R9-f)"
    PARTIES = "parties", "Parties (R9-f)"
    PRIZES = "prizes", "Prizes (R9-f)"
    OTHER = "other", "Other league expense (R9-f)"
    REPLAYED_GAME = "replayed_game", "Victim's replayed game (R8.3-d)"
    BUY_IN_BALL = "buy_in_ball", "Victim's buy-in ball (R8.3-d)"


# --- playoffs (§6) ---------------------------------------------------------------------------


class PlayoffRound(models.TextChoices):
    """A playoff match's round: `flipwell.rules.playoffs.ROUND_NAMES`' values (R6.3)."""

    QUARTERFINAL = "quarterfinal", "Quarterfinal"
    SEMIFINAL = "semifinal", "Semifinal"
    FINAL = "final", "Final"


LITERALS: dict[type[models.TextChoices], object] = {
    MeetStatus: MeetStatusValue,
    ForfeitReason: ForfeitReasonValue,
    CorrectionStatus: CorrectionStatusValue,
    MachineStatus: MachineStatusValue,
    DeclarationKind: DeclarationKindValue,
    ReplacementBy: ReplacementByValue,
    SpecialRulingKind: SpecialRulingKindValue,
    MalfunctionKind: MalfunctionKindValue,
    MalfunctionReason: MalfunctionReasonValue,
    ViolationKind: ViolationKindValue,
    RemedyChoice: RemedyChoiceValue,
    LedgerAccount: AccountValue,
    NewLedgerEntryKind: NewEntryKind,
    LedgerReason: LedgerReasonValue,
    PlayoffRound: PlayoffRoundValue,
}
"""Each enum and the `Literal` its values must equal (a test checks it)."""


def literal_values(literal: object) -> tuple[Any, ...]:
    """The values of a `Literal`, or of a union of `Literal`s, in order (typed by the caller:
    ``REASONS: tuple[LedgerReasonValue, ...] = literal_values(LedgerReasonValue)``)."""
    values: list[Any] = []
    for arg in get_args(literal):
        values.extend(literal_values(arg) if get_args(arg) else [arg])
    return tuple(values)


# --- the typed edge: a stored or entered string as one of a Literal's values ------------------

V = TypeVar("V")


def one_of(value: object, allowed: tuple[V, ...], *, field: str, what: str | None = None) -> V:
    """`value` as one of `allowed` (a `Literal`'s values, typed: see `ACCOUNTS` and the tuples
    below it), so a plain string meets the rules typed. Raises ValidationError keyed by
    `field`, naming the value and the allowed ones ("Unknown reason 'x'; use a, b."), for a
    value `allowed` does not hold; `what` words the value (default: the field's name)."""
    for option in allowed:
        if value == option:
            return option
    words = ", ".join(map(str, allowed))
    message = f"Unknown {what or field.replace('_', ' ')} {value!r}; use {words}."
    raise Refusal({field: message}, code="invalid_choice")


ACCOUNTS: tuple[AccountValue, ...] = literal_values(AccountValue)
LEDGER_REASONS: tuple[LedgerReasonValue, ...] = literal_values(LedgerReasonValue)
MALFUNCTION_REASONS: tuple[MalfunctionReasonValue, ...] = literal_values(MalfunctionReasonValue)
MALFUNCTION_KINDS: tuple[MalfunctionKindValue, ...] = literal_values(MalfunctionKindValue)
SERIOUS_MALFUNCTION_KINDS: tuple[SeriousMalfunctionKind, ...] = literal_values(
    SeriousMalfunctionKind
)
VIOLATION_KINDS: tuple[ViolationKindValue, ...] = literal_values(ViolationKindValue)
REMEDY_CHOICES: tuple[RemedyChoiceValue, ...] = literal_values(RemedyChoiceValue)
SPECIAL_RULING_KINDS: tuple[SpecialRulingKindValue, ...] = literal_values(SpecialRulingKindValue)
