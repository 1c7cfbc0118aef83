"""The FWPL Official Rules v1.0 as a pure, typed library (standard library only).

Everything flipwell computes (points, groups, ladders, brackets, eligibility) is computed here,
from plain data. Rule IDs (``R3.2-a``) refer to RULES.md; interpretation IDs (``A14``) refer to
INTERPRETATIONS.md, each a field of `Ruleset`.
"""

from flipwell.rules.errors import RuleError
from flipwell.rules.forfeits import night_forfeit_credit
from flipwell.rules.grouping import group_sizes, initial_ladder, ladder
from flipwell.rules.malfunctions import compensatory_score
from flipwell.rules.playoffs import papa_points, playoff_divisions, playoff_first_round
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.scoring import game_points, match_bonus_points
from flipwell.rules.values import Entrant, Finish, PlayoffDivision
from flipwell.rules.violations import penalty_game, reduced_score

__all__ = [
    "FWPL_V1",
    "Entrant",
    "Finish",
    "PlayoffDivision",
    "RuleError",
    "Ruleset",
    "compensatory_score",
    "game_points",
    "group_sizes",
    "initial_ladder",
    "ladder",
    "match_bonus_points",
    "night_forfeit_credit",
    "papa_points",
    "penalty_game",
    "playoff_divisions",
    "playoff_first_round",
    "reduced_score",
]
