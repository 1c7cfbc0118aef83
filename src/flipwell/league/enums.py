"""Every closed set of values flipwell stores or accepts, defined once for the models, the web
forms and the API schemas.

Words: an *enum* here is a Django `TextChoices` (the stored value and the label a page shows);
its values are the rules' `Literal` of the same name where the rules decide the set
(`flipwell.rules`), and a `Literal` defined here where only the league stores it (a meet's
status, a machine's). Each enum is a `LabelledChoices` built from its `Literal`: the class
names the Literal and gives each value its label, nothing more, and refuses at import a set
of labels that is not exactly the Literal's values, so a new value is added once (to the
Literal) and then needs its label. Models use the enum as their field's ``choices``, forms as
a select's choices, API schemas use the `Literal` as a field's type (so OpenAPI lists the
values).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal, TypeVar, get_args

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
    "LabelledChoices",
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
    "NoticeKindValue",
    "NoticeStateValue",
    "OfficialRoleValue",
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
    "season_cut",
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
NoticeKindValue = Literal["groups", "results", "reminder", "ruling"]
"""What a notice e-mail is about (`flipwell.league.models.NoticeKind`)."""
NoticeStateValue = Literal["pending", "sent", "failed", "skipped"]
"""Where a queued notice stands (`flipwell.league.models.Notice.State`)."""
OfficialRoleValue = Literal["league_official", "scorekeeper"]
"""An official's role in a league (`flipwell.league.models.LeagueOfficial.Role`)."""
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


def literal_values(literal: object) -> tuple[Any, ...]:
    """The values of a `Literal`, or of a union of `Literal`s, in order (typed by the caller:
    ``REASONS: tuple[LedgerReasonValue, ...] = literal_values(LedgerReasonValue)``)."""
    values: list[Any] = []
    for arg in get_args(literal):
        values.extend(literal_values(arg) if get_args(arg) else [arg])
    return tuple(values)


LITERALS: dict[type[models.TextChoices], object] = {}
"""Each `LabelledChoices` and the `Literal` its values are (filled as each is declared)."""


if TYPE_CHECKING:  # the stubs' TextChoices has a metaclass of its own, for its properties' types
    from django.db.models.enums import _TextChoicesType as ChoicesType
else:
    from django.db.models.enums import ChoicesType


class _LabelledType(ChoicesType):
    """Makes a `LabelledChoices`: each member's value is its name in lower case, and the
    members' values must be exactly the `values` Literal's (a TypeError at import
    otherwise: a value added to the Literal needs its label here)."""

    def __new__(
        metacls,
        classname: str,
        bases: tuple[type, ...],
        classdict: Any,
        *,
        values: object = None,
        **kwds: Any,
    ) -> Any:
        names = list(classdict._member_names)
        if values is not None:
            wanted = literal_values(values)
            if sorted(name.lower() for name in names) != sorted(wanted):
                given = ", ".join(name.lower() for name in names)
                raise TypeError(f"{classname} labels {given}; its Literal holds {wanted}")
            for name in names:  # dict's own: enum's classdict refuses a key set twice
                dict.__setitem__(classdict, name, (name.lower(), classdict[name]))
        cls = super().__new__(metacls, classname, bases, classdict, **kwds)
        if values is not None:
            LITERALS[cls] = values  # type: ignore[index]  # cls is a TextChoices class
        return cls


class LabelledChoices(models.TextChoices, metaclass=_LabelledType):
    """A Django `TextChoices` whose values are a `Literal`'s, declared once: the class names
    the Literal (``class MeetStatus(LabelledChoices, values=MeetStatusValue)``) and gives
    each value its label as a member named by the value in upper case (``OPEN = "Open"`` is
    the member ``"open"`` labelled "Open")."""

    def __init_subclass__(cls, *, values: object = None, **kwargs: Any) -> None:
        # `values` is the metaclass's; declared here too, so type checkers accept it.
        super().__init_subclass__(**kwargs)


# --- meets and games -------------------------------------------------------------------------


class MeetStatus(LabelledChoices, values=MeetStatusValue):
    """A meet's, or a playoff night's, status."""

    PLANNED = "Planned"
    OPEN = "Open"
    CLOSED = "Closed"


class ForfeitReason(LabelledChoices, values=ForfeitReasonValue):
    """Why a player forfeited a game (§2.4)."""

    ABSENT = "Absent"
    LATE = "Late, could not join"
    PENALTY = "Penalty for a serious violation"
    OTHER = "Other"


class CorrectionStatus(LabelledChoices, values=CorrectionStatusValue):
    """`flipwell.rules.corrections.CorrectionStatus` (A45)."""

    PENDING = "Waiting for the players' answers"
    APPLIED = "Applied: every player agreed"
    REFUSED = "Refused: the score sheet stands"


# --- machines ---------------------------------------------------------------------------------


class MachineStatus(LabelledChoices, values=MachineStatusValue):
    """A machine's standing status in the league's pool."""

    PLAYABLE = "Playable"
    UNPLAYABLE = "Unplayable"


class DeclarationKind(LabelledChoices, values=DeclarationKindValue):
    """What an official declares a machine at a meet (R7.3-q, R7.3-r)."""

    UNPLAYABLE = "Unplayable"
    REPAIRED = "Repaired"


class ReplacementBy(LabelledChoices, values=ReplacementByValue):
    """`flipwell.rules.machine_replacement.Replacement.by` (§5.1, A23)."""

    SELECTOR = "The player who selected the machine"
    RANDOM = "Drawn at random again"
    LO = "Designated by the league official"


class SpecialRulingKind(LabelledChoices, values=SpecialRulingKindValue):
    """`flipwell.rules.special_rulings.SpecialRulingKind` (RA-a): what a special ruling says a
    glitch is, as stored (`SpecialRuling.kind`), entered and given by the API. (Before
    migration 0013 the model stored short codes of its own: see `LEGACY_SPECIAL_RULING_KINDS`.)"""

    NOT_A_MALFUNCTION = "Not a malfunction"
    MAJOR_MALFUNCTION = "Major malfunction"
    POSITIVE_MALFUNCTION = "Positive malfunction"
    NOT_AN_EXTRA_BALL = "Not an extra ball"


LEGACY_SPECIAL_RULING_KINDS: dict[str, SpecialRulingKindValue] = {
    "not_malfunction": "not_a_malfunction",
    "major": "major_malfunction",
    "positive": "positive_malfunction",
    "not_extra_ball": "not_an_extra_ball",
}
"""The short codes `SpecialRuling.kind` stored before migration 0013 -> the rules' values (a
restore of an older backup maps them)."""


# --- malfunctions (§7) -----------------------------------------------------------------------


class MalfunctionKind(LabelledChoices, values=MalfunctionKindValue):
    """`flipwell.rules.malfunctions.MalfunctionRulingKind`: "not serious" is still recorded,
    for the maintenance sheet (R7.3-a, R7.3-u), but never compensated."""

    MAJOR = "Major"
    CATASTROPHIC = "Catastrophic"
    POSITIVE = "Positive"
    NOT_SERIOUS = "Not serious"


class MalfunctionReason(LabelledChoices, values=MalfunctionReasonValue):
    """`flipwell.rules.malfunctions.MalfunctionReason`: the cases the rulebook names (R7.3-e,
    R7.3-f, R7.3-h, R7.4, R7.7, R7.8); "other" leaves the kind to the official (R7.3-d, j)."""

    FORCED_TILT_STUCK_BALL = "Forced tilt to free a stuck ball"
    TURN_ENDED_WITH_BALLS_IN_PLAY = "Turn ended with balls in play"
    LAUNCHED_WITHOUT_PLAYER = "Ball launched without the player"
    SLAM_TILT = "Slam tilt"
    MACHINE_FAILURE = "Total failure or reset"
    POWER_LOSS = "Power loss"
    FIRE = "Fire"
    UNNECESSARY_TILT_STUCK_BALL = "Stuck ball tilted away needlessly"
    MULTIBALL_ENDED_EARLY = "Multiball ended early"
    AIRBALL_DRAIN = "Airball drain"
    KICKBACK_FAILED = "Kickback failed"
    BALL_SAVER_FAILED = "Ball saver failed"
    TILTED_BY_ANOTHER_PLAYER = "Tilted by another player"
    ONE_BALL_MULTIBALL = "One-ball multiball"
    STUCK_BALL_DURING_MULTIBALL = "Stuck ball during multiball"
    DISTRACTION = "Distraction"
    NON_LEAGUE_PLAYER = "Non-league player"
    UNFAIR_ADVANTAGE_UNAVOIDABLE = "Unavoidable unfair advantage"
    UNFAIR_ADVANTAGE_AVOIDABLE = "Avoidable unfair advantage"
    OTHER = "Other"


# --- violations (§8) -------------------------------------------------------------------------


class ViolationKind(LabelledChoices, values=ViolationKindValue):
    """`flipwell.rules.violations.ViolationKind`."""

    OWN_UNALLOWABLE_EXTRA_BALL = "Two hands on their own one-handed extra ball (§8.1)"
    OPPONENTS_BALL = "Played an opponent's ball (§8.2)"
    INTERFERENCE = "Interference (§8.3)"
    INTENTIONAL_SLAM_TILT = "Intentional slam tilt (§8.4)"
    DEATHSAVE_OR_BANGBACK = "Deathsave or bangback (§8.7)"
    CHEATING = "Cheating (§8.8)"
    VIOLENCE = "Violence (§8.5)"
    VANDALISM = "Vandalism (§8.5)"
    DETRIMENTAL_CONDUCT = "Exceptionally detrimental conduct (§8.5)"


class RemedyChoice(LabelledChoices, values=RemedyChoiceValue):
    """`flipwell.rules.ruleset.InterferenceChoice`: the victim's compensation (§8.2, §8.3)."""

    CONTINUE_NO_EXTRA = "Continue, no other compensation"
    CONTINUE_PLUS_ONE_BALL = "Continue with one additional ball"
    DRAIN_AND_EXTRA_BALL = "Drain and play one additional ball"
    REPLAY_GAME = "Replay the whole game"


# --- money (§9) ------------------------------------------------------------------------------


class LedgerAccount(LabelledChoices, values=AccountValue):
    """`flipwell.rules.treasury.Account`."""

    DUES = "Dues"
    KITTY = "Kitty"
    TREASURY = "Treasury"


class NewLedgerEntryKind(LabelledChoices, values=NewEntryKind):
    """`NewEntryKind`: the kinds of movement an official records (§9, R8.3-d, R8.6-d)."""

    DUES_PAID = "Dues paid"
    KITTY_IN = "Money into the kitty"
    KITTY_SPEND = "Kitty spent"
    TRANSFER_TO_TREASURY = "Transfer to the treasury"
    TREASURY_EXPENSE = "Treasury expense"
    INTERFERENCE_CHARGE = "Interference charge (§8.3)"
    RESTART_CHARGE = "Restart charge (§8.6)"


class LedgerReason(LabelledChoices, values=LedgerReasonValue):
    """`flipwell.rules.treasury.Reason`: the reason codes (R9-d, R9-f, R8.3-d)."""

    COIN_MECH_FAILURE = "Coin mech failed to credit (R9-d)"
    BONUS_CREDITS = "Pricing gives bonus credits (R9-d)"
    PLAYOFF_GAMES = "Playoff games (R9-f)"
    TROPHIES = "Trophies (R9-f)"
    PARTIES = "Parties (R9-f)"
    PRIZES = "Prizes (R9-f)"
    OTHER = "Other league expense (R9-f)"
    REPLAYED_GAME = "Victim's replayed game (R8.3-d)"
    BUY_IN_BALL = "Victim's buy-in ball (R8.3-d)"


# --- playoffs (§6) ---------------------------------------------------------------------------


class PlayoffRound(LabelledChoices, values=PlayoffRoundValue):
    """A playoff match's round: `flipwell.rules.playoffs.ROUND_NAMES`' values (R6.3)."""

    QUARTERFINAL = "Quarterfinal"
    SEMIFINAL = "Semifinal"
    FINAL = "Final"


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
