"""`Ruleset`: every reading of an unclear rulebook passage, as one named setting.

Each field is an entry of INTERPRETATIONS.md (its ID in the comment); the default is the
product's reading, and `FWPL_V1` is the ruleset with every default. A league that reads a
passage differently builds `Ruleset(field=...)`; unknown values are refused at construction,
so a typo cannot silently change a league's scoring.

Fields marked "(flipwell)" are decisions flipwell took where INTERPRETATIONS.md describes a
default without naming a setting.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from functools import cache
from typing import Any, Literal, get_args, get_origin, get_type_hints

from flipwell.rules.errors import RuleError

MatchBonusTiebreak = Literal["most_firsts", "most_seconds", "most_thirds", "ladder_position"]
InterferenceChoice = Literal[
    "continue_no_extra", "continue_plus_one_ball", "drain_and_extra_ball", "replay_game"
]


@dataclass(frozen=True)
class InterferenceDefaults:
    """A29: the victim's choice presumed when he announced none (§8.2, §8.3)."""

    opponents_ball: InterferenceChoice = "continue_no_extra"
    other: InterferenceChoice = "continue_plus_one_ball"


@dataclass(frozen=True)
class Ruleset:
    """One league's reading of the FWPL v1.0 rulebook; see INTERPRETATIONS.md for each field."""

    # --- Playoff qualification and divisions (§6.1, §6.2) ---
    playoff_cut_rule: Literal["table_round_up", "sentence_round_down"] = "table_round_up"  # A01
    playoff_16_players_qualify: Literal[8, 12] = 8  # A02
    playoff_small_league: Literal["vacant_seeds", "top_four_final"] = "vacant_seeds"  # A03
    playoff_divisions_over_48: Literal["formula", "lo_decision"] = "formula"  # A04
    playoff_league_size: Literal["eligible_players", "all_entrants"] = "eligible_players"  # A05
    playoff_half_rule_scope: Literal["whole_league"] = "whole_league"  # A06 (flipwell)

    # --- Game points and match bonus (§3.2, §3.3) ---
    match_bonus_ge_applies_to: Literal[
        "four_included_players", "scheduled_four_player_groups", "all_groups"
    ] = "four_included_players"  # A07
    match_bonus_awards: Literal["bonus_points_only", "full_fifth_game"] = "bonus_points_only"  # A08
    single_player_game_points: Literal[7, 8, 0] = 7  # A11
    single_player_match_bonus: Literal[0, 1] = 0  # A11
    match_bonus_tiebreak: tuple[MatchBonusTiebreak, ...] = (
        "most_firsts",
        "most_seconds",
        "most_thirds",
        "ladder_position",
    )  # A12
    short_match_bonus: Literal["games_completed"] = "games_completed"  # A52 (flipwell)

    # --- The all-night forfeit credit (§2.4) ---
    forfeit_credit_percent: int = 50  # R2.4-d "50% of his average" (flipwell: 1 to 100)
    forfeit_credit_basis: Literal[
        "nightly_total_incl_match_bonus", "game_points_excl_match_bonus", "per_game_times_4"
    ] = "nightly_total_incl_match_bonus"  # A14.1
    forfeit_credit_rounding: Literal["none", "half_up", "down"] = "none"  # A14.2
    forfeit_credit_scope: Literal["first_full_night_only", "every_full_night"] = (
        "first_full_night_only"  # A14.3
    )
    late_join_forfeits_use_credit: bool = False  # A14.5
    # A14.4: with no earlier night the credit is 0, and that night *is* his credit night
    # ("Any subsequent forfeits will receive no points" read literally); False is a league's
    # option (a zero credit is not used up).
    zero_credit_without_history_uses_credit: bool = True
    late_join_forfeits_countable: bool = True  # A46 (flipwell): LO may mark them non-countable

    # --- Ties, groups and ladder (§3.1, §3.2, §4) ---
    machine_tie_resolution: Literal["recorded_playoff_order"] = "recorded_playoff_order"  # A15
    group_sizes: Literal["max_fours_threes_at_bottom"] = "max_fours_threes_at_bottom"  # A16
    ladder_tiebreak: Literal["previous_ladder_position"] = "previous_ladder_position"  # A18.1
    unranked_sort: Literal["last_first_casefold", "first_last_casefold"] = (
        "last_first_casefold"  # A18.2
    )

    # --- Machine selection and play order (§5) ---
    machine_selector: Literal["last_place_present"] = "last_place_present"  # A21
    nobody_may_pick: Literal["lo_chooses_or_draws"] = "lo_chooses_or_draws"  # A66 (flipwell)
    # A67 (flipwell): the last-placed finisher recorded absent for the rest of the match
    # (R2.4-a) is gone: the next-lowest finisher still there picks, as after a late joiner.
    absent_player_pick: Literal["next_lowest_present"] = "next_lowest_present"
    ball3_means: Literal["final_ball", "literal_ball_3"] = "final_ball"  # A22
    fallback_allows_repeat: Literal["only_if_no_unplayed_machine", "always"] = (
        "only_if_no_unplayed_machine"  # A22
    )
    replacement_selector: Literal["original_selector_else_random", "lo_designates"] = (
        "original_selector_else_random"  # A23
    )
    late_joiner_no_pick_scope: Literal["first_game_played", "whole_night"] = (
        "first_game_played"  # A24
    )
    play_order_returning_players: Literal["after_finishers_in_ladder_order"] = (
        "after_finishers_in_ladder_order"  # A25
    )
    first_machine_draw: Literal["distinct_while_enough"] = "distinct_while_enough"  # A61 (flipwell)

    # --- Attendance, forfeits, corrections (§2, §3) ---
    correction_quorum: Literal["players_in_game", "whole_group"] = "players_in_game"  # A45.1
    corrections_until: Literal["meet_closed"] = "meet_closed"  # A45.2 (flipwell)
    season_forfeit_limit: int = 12  # R2.5-a "12 countable forfeits" (flipwell: 1 to 400)
    season_forfeit_keeps_points: bool = True  # A37
    dues_period: Literal["season", "meet"] = "season"  # A47
    announced_tardiness_wait_minutes: int = 15  # A59 (§2.2 "up to 15 minutes")

    # --- A season cut short (§2, §2.5, §6.1) ---
    season_cut_planned_meets: Literal["cancelled", "refused"] = "cancelled"  # A68.1
    season_cut_forfeit_limit: Literal["unchanged"] = "unchanged"  # A68.2 (flipwell)
    season_cut_small_playoffs: Literal["allowed", "refused"] = "allowed"  # A68.3

    # --- Malfunctions and extra balls (§7) ---
    compensatory_request_deadline: Literal["at_trigger", "before_next_game"] = "at_trigger"  # A31
    current_player_remaining_balls: Literal["catastrophic", "no_compensation"] = (
        "catastrophic"  # A32
    )
    compensatory_clamp_at_zero: bool = True  # A33 (flipwell)
    eb_allowance_scope: Literal["original_game", "each_game"] = "original_game"  # A62

    # --- Illegal actions and penalties (§8) ---
    serious_violation_penalty: Literal["forfeit", "zero_score", "zero_points_others_unchanged"] = (
        "forfeit"  # A26
    )
    penalty_forfeit_is_countable: bool = True  # A26
    penalty_target_before_first_game: Literal["next_game", "lo_decision"] = "next_game"  # A27
    opponents_ball_is_serious_violation: bool = True  # A28
    interference_default_choice: InterferenceDefaults = field(
        default_factory=InterferenceDefaults
    )  # A29
    score_reduction_rounding: Literal["floor", "half_up"] = "floor"  # A35
    third_offense_rescore_others: bool = False  # A36
    cheating_penalty: Literal["third_offense"] = "third_offense"  # A38 (flipwell)

    # --- Playoff play (§6.3 to §6.6) ---
    playoff_seed_tiebreak: Literal["single_ball_playoff", "previous_ladder_position"] = (
        "single_ball_playoff"  # A39
    )
    playoff_tie_method: Literal["tiebreaker_game_if_relevant", "tiebreaker_game_always"] = (
        "tiebreaker_game_if_relevant"  # A40
    )
    withdrawal_shift: Literal["across_divisions", "within_division"] = "across_divisions"  # A41
    final_no_show_place: Literal["last"] = "last"  # A42
    playoff_play_order_seeds: Literal["original_seeds"] = "original_seeds"  # A43 (flipwell)
    playoff_no_repeat_scope: Literal["match"] = "match"  # A44 (flipwell)

    # --- Officials (§1.1) ---
    involved_official: Literal["allow_and_flag"] = "allow_and_flag"  # A55 (flipwell)

    def __post_init__(self) -> None:
        for problem in _invalid_settings(self):
            raise RuleError(problem)


@dataclass(frozen=True)
class Bounds:
    """The whole numbers a number setting may take, and why the others make no sense."""

    low: int
    high: int
    why: str


NUMBER_BOUNDS: dict[str, Bounds] = {
    "forfeit_credit_percent": Bounds(
        1, 100, "R2.4-d grants a credit, and never more than the player's own average"
    ),
    "season_forfeit_limit": Bounds(
        1, 400, "R2.5-a: at 0 every player would be out before the first game"
    ),
}
"""The bounds of the number settings that 0 (or a large number) would make meaningless (§2.4,
§2.5); another `int` setting may be any whole number from 0."""


def _invalid_settings(ruleset: Ruleset) -> list[str]:
    """Every field whose value its declared type does not allow, as a readable message."""
    hints = _ruleset_hints()
    problems = []
    for f in fields(Ruleset):
        value = getattr(ruleset, f.name)
        hint = hints[f.name]
        bounds = NUMBER_BOUNDS.get(f.name)
        whole = isinstance(value, int) and not isinstance(value, bool)
        if bounds and whole and not bounds.low <= value <= bounds.high:
            problems.append(
                f"Ruleset.{f.name} cannot be {value!r}; allowed: a whole number from "
                f"{bounds.low} to {bounds.high} ({bounds.why})"
            )
        elif not _value_fits(value, hint):
            problems.append(f"Ruleset.{f.name} cannot be {value!r}; allowed: {_describe(hint)}")
    return problems


@cache
def _ruleset_hints() -> dict[str, Any]:
    """Ruleset's field types, resolved once: resolving them took a tenth of a score entry."""
    return get_type_hints(Ruleset)


def _value_fits(value: object, hint: object) -> bool:
    origin = get_origin(hint)
    if origin is Literal:
        return any(value == allowed and type(value) is type(allowed) for allowed in get_args(hint))
    if origin is tuple:
        (item_hint, _ellipsis) = get_args(hint)
        return isinstance(value, tuple) and all(_value_fits(v, item_hint) for v in value)
    if hint is bool:
        return isinstance(value, bool)
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool) and value >= 0
    if hint is InterferenceDefaults:
        return isinstance(value, InterferenceDefaults) and all(
            _value_fits(getattr(value, f.name), InterferenceChoice)
            for f in fields(InterferenceDefaults)
        )
    raise TypeError(f"no validation for Ruleset type {hint!r}")  # a programming error


def _describe(hint: object) -> str:
    origin = get_origin(hint)
    if origin is Literal:
        return ", ".join(repr(a) for a in get_args(hint))
    if origin is tuple:
        return f"a tuple of {_describe(get_args(hint)[0])}"
    return getattr(hint, "__name__", repr(hint))


FWPL_V1 = Ruleset()
"""The FWPL Official Rules v1.0 with every INTERPRETATIONS.md default."""


def setting_choices(name: str) -> tuple[str, ...]:
    """The values a setting allows, as the texts an official picks from; () for a setting
    typed as text: a number, an order of tie-breaks or a pair of choices (`parse_setting`)."""
    hint = _hint(name)
    if get_origin(hint) is Literal:
        return tuple(str(a) for a in get_args(hint))
    if hint is bool:
        return ("yes", "no")
    return ()


def setting_text(value: object) -> str:
    """A setting's value as an official reads and types it: ``yes``, ``12``, ``a, b``."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple):
        return ", ".join(str(v) for v in value)
    if isinstance(value, InterferenceDefaults):
        return ", ".join(str(getattr(value, f.name)) for f in fields(InterferenceDefaults))
    return str(value)


def parse_setting(name: str, text: str) -> object:
    """The value an official typed or picked for setting `name`, as the league's stored
    overrides hold it (JSON: a list for an order, an object for A29's pair).

    RuleError with a plain message for a value the setting does not allow (its bounds, its
    choices); the `Ruleset` built with it checks the rest.
    """
    hint, typed = _hint(name), text.strip()
    parts = [p.strip() for p in typed.split(",") if p.strip()]
    value: object
    if hint is bool:
        if typed not in ("yes", "no"):
            raise RuleError(f"{name} is yes or no, not {typed!r}")
        value = typed == "yes"
    elif hint is int or (get_origin(hint) is Literal and typed.isdigit()):
        if not typed.isdigit():
            raise RuleError(f"{name} is a whole number, not {typed!r}")
        value = int(typed)
    elif get_origin(hint) is tuple:
        value = parts
    elif hint is InterferenceDefaults:
        names = [f.name for f in fields(InterferenceDefaults)]
        if len(parts) != len(names):
            raise RuleError(f"{name} is {len(names)} choices, for {' and '.join(names)}")
        value = dict(zip(names, parts, strict=True))
    else:
        value = typed
    return value


def check_ruleset_change(*, season: str | None, begun: bool) -> None:
    """A league's readings change only before its newest season's first meet starts (R2-a:
    the LO sets the season up before it is played): a season's games are all scored under
    one reading. RuleError, in plain words, once that meet has started.

    season: the name of the league's newest season (None before its first); begun: whether
    a meet of it has started.
    """
    if season is not None and begun:
        raise RuleError(
            f"The readings can change only before a season's first meet starts: {season} "
            "has begun, and its games are all scored under the readings it started with. "
            "Change them when the next season is being prepared."
        )


def _hint(name: str) -> object:
    hints = _ruleset_hints()
    if name not in hints:
        raise RuleError(f"no ruleset setting is called {name!r}")
    return hints[name]


def ruleset_from_overrides(overrides: Mapping[str, Any]) -> Ruleset:
    """Build a Ruleset from JSON-shaped overrides (lists for tuples, an object for A29): a
    league's or season's stored readings, or a season file's ``"readings"``.

    Raises RuleError naming the setting for an unknown name or a value it does not allow.
    """
    unknown = sorted(set(overrides) - {f.name for f in fields(Ruleset)})
    if unknown:
        raise RuleError(f"unknown ruleset setting {', '.join(unknown)}")
    values: dict[str, Any] = {}
    for name, value in overrides.items():
        if name == "interference_default_choice" and isinstance(value, Mapping):
            value = _interference_defaults(value)
        elif isinstance(value, list):
            value = tuple(value)
        values[name] = value
    return Ruleset(**values)


def _interference_defaults(value: Mapping[str, Any]) -> InterferenceDefaults:
    names = [f.name for f in fields(InterferenceDefaults)]
    unknown = sorted(set(value) - set(names))
    if unknown:
        raise RuleError(
            f"Ruleset.interference_default_choice cannot have {', '.join(map(repr, unknown))}; "
            f"allowed keys: {', '.join(map(repr, names))}"
        )
    choices = get_args(InterferenceChoice)
    for name, choice in value.items():
        if choice not in choices:
            raise RuleError(
                f"Ruleset.interference_default_choice.{name} cannot be {choice!r}; "
                f"allowed: {', '.join(map(repr, choices))}"
            )
    return InterferenceDefaults(**value)
