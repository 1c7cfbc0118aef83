"""The readings of the violation settings (§8): penalties, remedies, reductions and cheating.

Each entry is a `Reading` (`flipwell.rules.reading`); `flipwell.rules.readings.READINGS` puts
the groups together in the order of `Ruleset`'s fields.
"""

from __future__ import annotations

from flipwell.rules.reading import Reading

VIOLATION_READINGS: dict[str, Reading] = {
    "serious_violation_penalty": Reading(
        interpretations=("A26",),
        rules=("R8.5-c",),
        sections=("§8.5",),
        title='What "Forfeit the current game with a machine score of zero" does',
        text=(
            "§2.4 defines a forfeit (0 points, the game re-scored on non-forfeiting players)."
            ' §8.2 and §8.7 say only "machine score of zero" (the player stays ranked). '
            "Options: (a) forfeit: the violator gets 0 league points and the game is re-"
            "scored among the remaining players (a 4-player game drops to the 3-player "
            "scale); (b) zero score: the player's machine score becomes 0 and the player is "
            "ranked, usually last, keeping last-place points; (c) hybrid: 0 points for the "
            "player, others scored as if the player finished last with 0. Default: (a), the "
            'literal meaning of "forfeit" in these rules. The penalty forfeit counts as a '
            "forfeit for the ≥3-forfeit match-bonus exclusion and as a countable forfeit "
            '(§2.4: "Unless designated by the LO, all forfeits are considered to be '
            'countable"). The match bonus is recomputed. Settings serious_violation_penalty ='
            ' "forfeit" (alternatives "zero_score" and "zero_points_others_unchanged") and '
            "penalty_forfeit_is_countable = true."
        ),
    ),
    "penalty_forfeit_is_countable": Reading(
        interpretations=("A26",),
        rules=("R8.5-c",),
        sections=("§8.5",),
        title='What "Forfeit the current game with a machine score of zero" does',
        text=(
            "§2.4 defines a forfeit (0 points, the game re-scored on non-forfeiting players)."
            ' §8.2 and §8.7 say only "machine score of zero" (the player stays ranked). '
            "Options: (a) forfeit: the violator gets 0 league points and the game is re-"
            "scored among the remaining players (a 4-player game drops to the 3-player "
            "scale); (b) zero score: the player's machine score becomes 0 and the player is "
            "ranked, usually last, keeping last-place points; (c) hybrid: 0 points for the "
            "player, others scored as if the player finished last with 0. Default: (a), the "
            'literal meaning of "forfeit" in these rules. The penalty forfeit counts as a '
            "forfeit for the ≥3-forfeit match-bonus exclusion and as a countable forfeit "
            '(§2.4: "Unless designated by the LO, all forfeits are considered to be '
            'countable"). The match bonus is recomputed. Settings serious_violation_penalty ='
            ' "forfeit" (alternatives "zero_score" and "zero_points_others_unchanged") and '
            "penalty_forfeit_is_countable = true."
        ),
    ),
    "penalty_target_before_first_game": Reading(
        interpretations=("A27",),
        rules=("R8.5-d",),
        sections=("§8.5",),
        title="When a serious violation has no game to hit",
        text=(
            "\"If the violator's group does not have a 'current' game ... the game of the "
            "current match for which the violator has the highest league points. If there is "
            'more than one such game, the last such game". Gaps and defaults: (1) between '
            "games: the candidates are the games completed so far. (2) Before the match's "
            "first game: the penalty falls on the next game the player plays that night. (3) "
            "After the match ends (same meet): all 4 games are candidates. (4) Not at a meet:"
            " LO decision. (5) Ties compare per-game league points including game bonus, and "
            "the latest game among equals is chosen. (6) A game the player forfeited scores 0"
            " and is chosen only if every candidate is 0. Setting "
            'penalty_target_before_first_game = "next_game".'
        ),
    ),
    "opponents_ball_is_serious_violation": Reading(
        interpretations=("A28",),
        rules=("R8.2-a",),
        sections=("§8.2", "§8.3"),
        title="Is playing an opponent's ball also a serious violation?",
        text=(
            '§8.2 calls it "Interference", and §8.3 makes interference a serious violation. '
            "Accidentally playing the wrong ball is harsh to count toward suspension. "
            "Default: it counts (the text chains it). The LO may mark an accidental one as "
            "not serious (DISCRETION, logged). Setting opponents_ball_is_serious_violation = "
            "true. Under the default the §8.5 forfeit supersedes the §8.2 zero for the same "
            "game."
        ),
    ),
    "interference_default_choice": Reading(
        interpretations=("A29",),
        rules=("R8.2-d", "R8.3-c"),
        sections=("§8.2", "§8.3"),
        title="No decision announced after interference",
        text=(
            '§8.2: "If the player continues play without announcing a decision, then no other'
            ' compensation will be provided." §8.3: "the victim is presumed to wish to '
            'continue the player\'s game", where "continue" in §8.3 comes *with* one '
            "additional ball. Default: §8.2 case (opponent played the player's ball): "
            "continue, no extra ball. §8.3 case (other interference): continue with the one "
            'additional ball. Setting interference_default_choice = {"opponents_ball": '
            '"continue_no_extra", "other": "continue_plus_one_ball"}.'
        ),
    ),
    "score_reduction_rounding": Reading(
        interpretations=("A35",),
        rules=("R8.1-b",),
        sections=("§8.1",),
        title="Rounding of the 25% reduction",
        text=(
            "0.75 × a score can be fractional. Default: round down to an integer. Setting "
            'score_reduction_rounding = "floor".'
        ),
    ),
    "third_offense_rescore_others": Reading(
        interpretations=("A36",),
        rules=("R8.5-e",),
        sections=("§8.5",),
        title='"The player\'s scores are wiped" on a third offense',
        text=(
            "Unstated whether other players' past game points are recomputed as if the player"
            " had forfeited. Default: no retroactive recomputation of other players. The "
            "player's season points become 0, the player is removed from the standings, "
            "ladder and playoffs, and the player is suspended for the rest of the season. "
            "Setting third_offense_rescore_others = false."
        ),
    ),
    "cheating_penalty": Reading(
        interpretations=("A38",),
        rules=("R8.8-a",),
        sections=("§8.8",),
        title="Cheating suspension",
        text=(
            "The length of the suspension and the fate of the player's points are "
            "unspecified. Default: treat as a third offense (§8.5 effects) unless the LO "
            "records otherwise."
        ),
    ),
}
