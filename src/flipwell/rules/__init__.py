"""The FWPL Official Rules v1.0 as a pure, typed library (standard library only).

Everything flipwell computes (points, groups, ladders, brackets, eligibility) is computed here,
from plain data. Rule IDs (``R3.2-a``) refer to RULES.md; interpretation IDs (``A14``) refer to
INTERPRETATIONS.md, each a field of `Ruleset`.

Where each rule lives:

=====================  ============================================================
§2.1-§2.3              attendance (tardiness, joining a game in progress)
§2.4-§2.5              forfeits (the 50% credit, forfeiting the season)
§3 corrections         corrections (score-correction consent)
§3.1, §4               grouping (group sizes, ladders)
§3.2-§3.3              scoring (game points, match bonus); ties (recorded tie orders)
a match, a season      match, season (facts folded into standings)
§5                     selection (first machines, who picks, play order)
§6                     playoffs, playoff_seeding, playoff_matches, playoff_bracket,
                       playoff_machines; race (clinched / eliminated)
§7                     extra_balls, malfunctions
§8                     violations
§9                     treasury
§1.1, §4.1 overrides   officials
Appendix A             special_rulings
=====================  ============================================================
"""

from flipwell.rules.attendance import announced_tardiness, join_game_in_progress
from flipwell.rules.corrections import decide_correction
from flipwell.rules.errors import RuleError
from flipwell.rules.extra_balls import allowable_extra_balls, extra_ball_ruling
from flipwell.rules.final_positions import attendance, attendance_threshold
from flipwell.rules.forfeits import night_forfeit_credit, season_forfeit_game
from flipwell.rules.grouping import (
    alphabetical,
    group_sizes,
    initial_ladder,
    ladder,
    proposed_group_numbers,
)
from flipwell.rules.malfunctions import (
    automatically_unplayable,
    compensatory_balls,
    compensatory_entitled,
    compensatory_score,
    rule_malfunction,
)
from flipwell.rules.match import (
    Compensatory,
    GameFacts,
    MatchFacts,
    score_match,
    violation_score_changes,
)
from flipwell.rules.playoff_bracket import playoff_bracket_state
from flipwell.rules.playoff_matches import playoff_match_state
from flipwell.rules.playoff_seeding import apply_withdrawals, playoff_qualification
from flipwell.rules.playoffs import papa_points, playoff_divisions, playoff_first_round
from flipwell.rules.race import playoff_race
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.scoring import game_points, match_bonus_points, score_game
from flipwell.rules.season import (
    MeetFacts,
    SeasonFacts,
    ViolationFacts,
    fold_season,
    may_play_game,
    next_groups,
)
from flipwell.rules.selection import (
    check_machine_choice,
    draw_first_machines,
    machine_picker,
    play_order,
    selectable_machines,
)
from flipwell.rules.special_rulings import APPENDIX_A, check_score_adjustment, rulings_for
from flipwell.rules.treasury import Ledger, LedgerEntry, balances, dues_status
from flipwell.rules.values import Entrant, Finish, PlayoffCandidate, PlayoffDivision
from flipwell.rules.violations import (
    Violation,
    penalty_decision,
    penalty_game,
    reduced_score,
    violation_effect,
)

__all__ = [
    "APPENDIX_A",
    "FWPL_V1",
    "Compensatory",
    "Entrant",
    "Finish",
    "GameFacts",
    "Ledger",
    "LedgerEntry",
    "MatchFacts",
    "MeetFacts",
    "PlayoffCandidate",
    "PlayoffDivision",
    "RuleError",
    "Ruleset",
    "SeasonFacts",
    "Violation",
    "ViolationFacts",
    "allowable_extra_balls",
    "alphabetical",
    "announced_tardiness",
    "apply_withdrawals",
    "attendance",
    "attendance_threshold",
    "automatically_unplayable",
    "balances",
    "check_machine_choice",
    "check_score_adjustment",
    "compensatory_balls",
    "compensatory_entitled",
    "compensatory_score",
    "decide_correction",
    "draw_first_machines",
    "dues_status",
    "extra_ball_ruling",
    "fold_season",
    "game_points",
    "group_sizes",
    "initial_ladder",
    "join_game_in_progress",
    "ladder",
    "machine_picker",
    "match_bonus_points",
    "may_play_game",
    "next_groups",
    "night_forfeit_credit",
    "papa_points",
    "penalty_decision",
    "penalty_game",
    "play_order",
    "playoff_bracket_state",
    "playoff_divisions",
    "playoff_first_round",
    "playoff_match_state",
    "playoff_qualification",
    "playoff_race",
    "proposed_group_numbers",
    "reduced_score",
    "rule_malfunction",
    "rulings_for",
    "score_game",
    "score_match",
    "season_forfeit_game",
    "selectable_machines",
    "violation_effect",
    "violation_score_changes",
]
