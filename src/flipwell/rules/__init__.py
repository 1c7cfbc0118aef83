"""The FWPL Official Rules v1.0 as a pure, typed library (standard library only).

Everything flipwell computes (points, groups, ladders, brackets, eligibility) is computed here,
from plain data. Rule IDs (``R3.2-a``) refer to RULES.md; interpretation IDs (``A14``) refer to
INTERPRETATIONS.md, each a field of `Ruleset`.

Where each rule lives:

=====================  ============================================================
§2, §2.1-§2.3          attendance (the league day, tardiness, joining a game in progress)
§2.4-§2.5              forfeits (the 50% credit, forfeiting the season)
§3 corrections         corrections (score-correction consent)
§3 score sheets        sheet_roles (who may enter and who may confirm a game's sheet)
§3.1, §4               grouping (group sizes, ladders)
§3.2-§3.3              scoring (game points), match_bonus; ties (recorded tie orders)
a match, a season      match, match_scoring; season, season_ladder, season_penalties,
                       season_nights (facts folded into standings); progress
                       (meets played, the open meet's provisional numbers, meets left)
§5                     selection (who picks), machine_draws, machine_choices,
                       machine_replacement, play_order
§6                     playoffs, playoff_seeding, playoff_matches, playoff_bracket,
                       playoff_machines, final_positions; race (clinched / eliminated)
§2 a season cut short  season_length (fewer meets once play has begun, A68)
IFPA league rules      ifpa (who an IFPA submission lists); ifpa_compliance (the IFPA's
                       league requirements, the TGP and fee estimates), ifpa_parameters,
                       ifpa_season_facts
the settings           ruleset; reading, readings (each setting's rulebook passage, the
                       readings_* modules by part of the rulebook)
statistics             stats (a person's record across seasons, read from folds)
ratings                rating (Glicko-2 from group games; not a rule, see §6)
§7                     extra_balls, malfunctions, compensatory_games,
                       game_ending_malfunctions; turns (a ruling about a player's turn):
                       promptness (§7.5, the slow-play warning), distractions (§7.7, §7.8)
§8                     violations, violation_penalties, violation_remedies, game_counts
§9                     treasury
§1.1, §4.1 overrides   officials
Appendix A             special_rulings
=====================  ============================================================

Everything a caller needs is importable from here: every public function, every type its
parameters and results name (and the types of those types' fields, `test_contract`), and
`fmt` / `money`, the way the rules write numbers and amounts in their messages (the front ends
show numbers the same way). The submodules are internals.
"""

from flipwell.rules.attendance import (
    AnnouncedTardiness,
    JoinDecision,
    MeetDateCheck,
    MeetDateProblem,
    announced_tardiness,
    join_game_in_progress,
    meet_date_checks,
    meet_date_warnings,
    next_meet_date,
    written_day,
)
from flipwell.rules.checks import fmt
from flipwell.rules.compensatory_games import (
    compensatory_balls,
    compensatory_entitled,
    compensatory_score,
)
from flipwell.rules.corrections import (
    AppliedCorrection,
    CorrectionOutcome,
    CorrectionRequest,
    CorrectionResponse,
    CorrectionStatus,
    LoOverride,
    decide_correction,
)
from flipwell.rules.distractions import DISTRACTION_RULES, distraction_ruling
from flipwell.rules.errors import RuleError
from flipwell.rules.extra_balls import (
    ExtraBallRuling,
    ExtraBallSource,
    allowable_extra_balls,
    extra_ball_ruling,
)
from flipwell.rules.final_positions import (
    attendance,
    attendance_threshold,
    season_final_positions,
)
from flipwell.rules.forfeits import (
    night_forfeit_credit,
    season_forfeit_game,
)
from flipwell.rules.game_ending_malfunctions import ends_the_game
from flipwell.rules.game_lines import (
    GameLine,
    ScoreAdjustment,
    ScoreChangeKind,
    game_lines,
    meet_game_lines,
    pending_game_lines,
)
from flipwell.rules.grouping import (
    alphabetical,
    group_sizes,
    initial_ladder,
    ladder,
    proposed_group_numbers,
)
from flipwell.rules.ifpa import (
    IfpaDecision,
    IfpaReason,
    IfpaResults,
    IfpaSelection,
    ifpa_positions,
    ifpa_selection,
)
from flipwell.rules.ifpa_compliance import (
    IfpaCheck,
    IfpaCompliance,
    ifpa_compliance,
    ifpa_schedule_warnings,
    tgp_percent,
)
from flipwell.rules.ifpa_parameters import (
    IFPA_DEFAULTS,
    PARAMETER_BOUNDS,
    IfpaBounds,
    IfpaCheckName,
    IfpaParameters,
    IfpaSource,
    ifpa_figure_value,
    ifpa_overrides,
    ifpa_parameters,
)
from flipwell.rules.ifpa_season_facts import (
    IfpaGames,
    IfpaSeasonFacts,
    held_meets,
    ifpa_finalists,
    ifpa_finals_games,
    ifpa_meet_games,
    planned_ifpa_facts,
)
from flipwell.rules.machine_choices import (
    MachineChoices,
    MachineState,
    RefusalCode,
    RefusedMachine,
    SelectableMachines,
    check_machine_choice,
    machine_choices,
    selectable_machines,
)
from flipwell.rules.machine_draws import FirstMachineDraw, draw_first_machines, draw_machine
from flipwell.rules.malfunctions import (
    AnnouncedProblem,
    Malfunction,
    MalfunctionKind,
    MalfunctionReason,
    MalfunctionReport,
    MalfunctionRuling,
    MalfunctionRulingKind,
    automatically_unplayable,
    rule_malfunction,
)
from flipwell.rules.match import (
    Compensatory,
    GameFacts,
    GameOutcome,
    MatchFacts,
    MatchResult,
    PlayerMatch,
)
from flipwell.rules.match_bonus import MatchBonusResult, match_bonus_points
from flipwell.rules.match_scoring import (
    match_as_played,
    night_places,
    score_match,
    violation_score_changes,
)
from flipwell.rules.play_order import play_order
from flipwell.rules.playoff_bracket import PlayoffBracketState, playoff_bracket_state
from flipwell.rules.playoff_matches import (
    MatchStatus,
    PlayoffGame,
    PlayoffMatchRecord,
    PlayoffMatchState,
    match_notes,
    playoff_match_state,
)
from flipwell.rules.playoff_seeding import (
    PlayoffQualification,
    PlayoffSeeding,
    SeedTie,
    TieLine,
    apply_withdrawals,
    playoff_qualification,
    seed_playoff_notes,
    withdrawal_notes,
)
from flipwell.rules.playoff_sheet import (
    PlayoffGameLine,
    check_machine_picker,
    check_sheet_confirmer,
    running_totals,
    tiebreaker_explanation,
)
from flipwell.rules.playoffs import (
    BRACKET_MATCHES,
    papa_points,
    playoff_divisions,
    playoff_first_round,
)
from flipwell.rules.progress import SeasonProgress, provisional_points, season_progress
from flipwell.rules.promptness import SLOW_PLAY_RULES, slow_play_warning
from flipwell.rules.race import (
    PlayoffRace,
    RaceChance,
    RaceStanding,
    RaceStatus,
    playoff_eligible,
    playoff_race,
    race_of,
    season_race,
)
from flipwell.rules.reading import Reading
from flipwell.rules.readings import READINGS
from flipwell.rules.ruleset import (
    FWPL_V1,
    NUMBER_BOUNDS,
    InterferenceChoice,
    InterferenceDefaults,
    MatchBonusTiebreak,
    Ruleset,
    check_ruleset_change,
    parse_setting,
    ruleset_from_overrides,
    setting_choices,
    setting_text,
)
from flipwell.rules.scoring import GameResult, game_points, score_game
from flipwell.rules.season import fold_season, may_play_game, scores_adjusted_at
from flipwell.rules.season_ladder import next_groups
from flipwell.rules.season_length import (
    Eligibility,
    PlaceChange,
    RacePlace,
    SeasonCut,
    check_season_cut,
    meets_started,
    race_places,
    season_cut,
)
from flipwell.rules.season_nights import Tally
from flipwell.rules.season_prefix import SeasonPrefix
from flipwell.rules.season_values import (
    MeetFacts,
    MeetResult,
    Night,
    NightStatus,
    SeasonFacts,
    SeasonResult,
    Standing,
    ViolationFacts,
)
from flipwell.rules.selection import (
    THE_LO,
    NextPick,
    NoPickCode,
    Official,
    PlayedGame,
    machine_picker,
    next_pick,
)
from flipwell.rules.sheet_roles import who_may_confirm, who_may_enter
from flipwell.rules.special_rulings import (
    APPENDIX_A,
    AdjustmentKind,
    SpecialRuling,
    SpecialRulingKind,
    check_score_adjustment,
    rulings_for,
)
from flipwell.rules.stats import (
    FoldedSeason,
    HeadToHead,
    HighScore,
    MachineRecord,
    PersonStats,
    SeasonLine,
    high_scores,
    person_stats,
)
from flipwell.rules.treasury import (
    Account,
    Balances,
    DuesStatus,
    EntryKind,
    Ledger,
    LedgerEntry,
    Reason,
    balances,
    dues_status,
    money,
)
from flipwell.rules.turns import Turn, TurnRuling, turn_ruling
from flipwell.rules.values import (
    Entrant,
    Finish,
    LeaguePoints,
    PlayoffCandidate,
    PlayoffDivision,
    PointLine,
)
from flipwell.rules.violation_penalties import (
    PenaltyDecision,
    PenaltyEffect,
    PenaltyTarget,
    penalty_decision,
    penalty_game,
)
from flipwell.rules.violations import (
    Violation,
    ViolationEffect,
    ViolationKind,
    reduced_score,
    violation_effect,
)

# The public names, one list (tests/rules/test_contract.py checks it), packed: it repeats the
# imports above, so one name a line would only double this module's length.
# fmt: off
__all__ = [
    "APPENDIX_A", "BRACKET_MATCHES", "DISTRACTION_RULES", "FWPL_V1", "IFPA_DEFAULTS",
    "NUMBER_BOUNDS", "PARAMETER_BOUNDS", "READINGS", "SLOW_PLAY_RULES", "THE_LO", "Account",
    "AdjustmentKind", "AnnouncedProblem", "AnnouncedTardiness", "AppliedCorrection", "Balances",
    "Compensatory", "CorrectionOutcome", "CorrectionRequest", "CorrectionResponse",
    "CorrectionStatus", "DuesStatus", "Eligibility", "Entrant", "EntryKind", "ExtraBallRuling",
    "ExtraBallSource", "Finish", "FirstMachineDraw", "FoldedSeason", "GameFacts", "GameLine",
    "GameOutcome", "GameResult", "HeadToHead", "HighScore", "IfpaBounds", "IfpaCheck",
    "IfpaCheckName", "IfpaCompliance", "IfpaDecision", "IfpaGames", "IfpaParameters", "IfpaReason",
    "IfpaResults", "IfpaSeasonFacts", "IfpaSelection", "IfpaSource", "InterferenceChoice",
    "InterferenceDefaults", "JoinDecision", "LeaguePoints", "Ledger", "LedgerEntry", "LoOverride",
    "MachineChoices", "MachineRecord", "MachineState", "Malfunction", "MalfunctionKind",
    "MalfunctionReason", "MalfunctionReport", "MalfunctionRuling", "MalfunctionRulingKind",
    "MatchBonusResult", "MatchBonusTiebreak", "MatchFacts", "MatchResult", "MatchStatus",
    "MeetDateCheck", "MeetDateProblem", "MeetFacts", "MeetResult", "NextPick", "Night",
    "NightStatus", "NoPickCode", "Official", "PenaltyDecision", "PenaltyEffect", "PenaltyTarget",
    "PersonStats", "PlaceChange", "PlayedGame", "PlayerMatch", "PlayoffBracketState",
    "PlayoffCandidate", "PlayoffDivision", "PlayoffGame", "PlayoffGameLine", "PlayoffMatchRecord",
    "PlayoffMatchState", "PlayoffQualification", "PlayoffRace", "PlayoffSeeding", "PointLine",
    "RaceChance", "RacePlace", "RaceStanding", "RaceStatus", "Reading", "Reason", "RefusalCode",
    "RefusedMachine", "RuleError", "Ruleset", "ScoreAdjustment", "ScoreChangeKind", "SeasonCut",
    "SeasonFacts", "SeasonLine", "SeasonPrefix", "SeasonProgress", "SeasonResult", "SeedTie",
    "SelectableMachines", "SpecialRuling", "SpecialRulingKind", "Standing", "Tally", "TieLine",
    "Turn", "TurnRuling", "Violation",
    "ViolationEffect", "ViolationFacts", "ViolationKind", "allowable_extra_balls", "alphabetical",
    "announced_tardiness", "apply_withdrawals", "attendance", "attendance_threshold",
    "automatically_unplayable", "balances", "check_machine_choice", "check_machine_picker",
    "check_ruleset_change", "check_score_adjustment", "check_season_cut", "check_sheet_confirmer",
    "compensatory_balls", "compensatory_entitled", "compensatory_score", "decide_correction",
    "distraction_ruling", "draw_first_machines", "draw_machine", "dues_status", "ends_the_game",
    "extra_ball_ruling", "fmt", "fold_season", "game_lines", "game_points", "group_sizes",
    "held_meets", "high_scores", "ifpa_compliance", "ifpa_figure_value", "ifpa_finalists",
    "ifpa_finals_games", "ifpa_meet_games", "ifpa_overrides", "ifpa_parameters", "ifpa_positions",
    "ifpa_schedule_warnings", "ifpa_selection", "initial_ladder", "join_game_in_progress", "ladder",
    "machine_choices", "machine_picker", "match_as_played", "match_bonus_points", "match_notes",
    "may_play_game", "meet_date_checks", "meet_date_warnings", "meet_game_lines", "meets_started",
    "money", "next_groups", "next_meet_date", "next_pick", "night_forfeit_credit", "night_places",
    "papa_points", "parse_setting", "penalty_decision", "penalty_game", "pending_game_lines",
    "person_stats", "planned_ifpa_facts", "play_order", "playoff_bracket_state",
    "playoff_divisions", "playoff_eligible", "playoff_first_round", "playoff_match_state",
    "playoff_qualification", "playoff_race", "proposed_group_numbers", "provisional_points",
    "race_of", "race_places", "reduced_score", "rule_malfunction", "ruleset_from_overrides",
    "rulings_for", "running_totals", "score_game", "score_match", "scores_adjusted_at",
    "season_cut", "season_final_positions", "season_forfeit_game", "season_progress", "season_race",
    "seed_playoff_notes", "selectable_machines", "setting_choices", "setting_text",
    "slow_play_warning", "tgp_percent", "tiebreaker_explanation", "turn_ruling", "violation_effect",
    "violation_score_changes", "who_may_confirm", "who_may_enter", "withdrawal_notes",
    "written_day",
]
# fmt: on
