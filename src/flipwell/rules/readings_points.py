"""The readings of the points settings: the match bonus (§3.3) and the §2.4 forfeit credit.

Each entry is a `Reading` (`flipwell.rules.reading`); `flipwell.rules.readings.READINGS` puts
the groups together in the order of `Ruleset`'s fields.
"""

from __future__ import annotations

from flipwell.rules.reading import Reading

POINTS_READINGS: dict[str, Reading] = {
    "match_bonus_ge_applies_to": Reading(
        interpretations=("A07",),
        rules=("R3.3-d", "R3.3-g"),
        sections=("§3.2", "§3.3"),
        title='Match bonus: "equals or exceeds" (4-player groups) vs "exceeds"',
        text=(
            'Text: "Match bonus points are awarded in a similar manner as game points. '
            "However, there is a difference in four player groups. The first match bonus "
            'point ... if the player equals or exceeds". Game bonuses are strict ("exceeds").'
            ' For 3- and 2-player fifth games the text only says "similar manner", so they '
            "keep the strict test. Sub-question: a scheduled 4-player group in which a player"
            ' is excluded (≥3 forfeits). Is it still a "four player group" (≥), or a 3-player'
            " calculation (>)? Options: (a) ≥ only when four players are included in the "
            "calculation; (b) ≥ for any group scheduled as 4; (c) ≥ everywhere. Default: (a)."
            ' It follows R3.3-g ("excluded from the calculation") and the way §2.4 sizes '
            "games by non-forfeiting players. Setting match_bonus_ge_applies_to = "
            '"four_included_players".'
        ),
    ),
    "match_bonus_awards": Reading(
        interpretations=("A08",),
        rules=("R3.3-c",),
        sections=("§3.3",),
        title='What the "fifth game" awards',
        text=(
            'Text: "Match bonus points are allocated by treating these totals as machine '
            'scores for a \'fifth\' game", then "the first match bonus point" and "the second '
            'match bonus point". Options: (a) only the bonus points of the fifth game: 2 for '
            "4 included players, 1 for 3 or 2; (b) the full fifth game, i.e. 7/5/3/1 plus "
            'bonuses. Default: (a). The text names only a "first" and a "second" match bonus '
            "point, and (b) would more than double the weight of a night's placing. Setting "
            'match_bonus_awards = "bonus_points_only".'
        ),
    ),
    "single_player_game_points": Reading(
        interpretations=("A11",),
        rules=("R2.4-c", "R3.2-h", "R3.3-g"),
        sections=("§2.4", "§3.3"),
        title="Games or fifth games with one eligible player, or none",
        text=(
            'Text: "game points will be assigned based on the number of eligible (non-'
            'forfeiting) scores recorded". No scale exists for 1 player. §4.1 mentions only '
            "2-player matches. Options for the lone player's game points: 7 (a win, no "
            "comparison, so no bonus), 8 (win plus bonus, treating the missing loser as 0), "
            "or 0. Default: 7, no bonus. The fifth game with one included player awards no "
            "match bonus. With no players there are no points. Settings "
            "single_player_game_points = 7 and single_player_match_bonus = 0."
        ),
    ),
    "single_player_match_bonus": Reading(
        interpretations=("A11",),
        rules=("R2.4-c", "R3.2-h", "R3.3-g"),
        sections=("§2.4", "§3.3"),
        title="Games or fifth games with one eligible player, or none",
        text=(
            'Text: "game points will be assigned based on the number of eligible (non-'
            'forfeiting) scores recorded". No scale exists for 1 player. §4.1 mentions only '
            "2-player matches. Options for the lone player's game points: 7 (a win, no "
            "comparison, so no bonus), 8 (win plus bonus, treating the missing loser as 0), "
            "or 0. Default: 7, no bonus. The fifth game with one included player awards no "
            "match bonus. With no players there are no points. Settings "
            "single_player_game_points = 7 and single_player_match_bonus = 0."
        ),
    ),
    "match_bonus_tiebreak": Reading(
        interpretations=("A12",),
        rules=("R3.3-f",),
        sections=("§3.3",),
        title='Match-bonus ties beyond "most first place finishes"',
        text=(
            'Text: "In the event of a tie, the player with the most first place finishes will'
            ' receive the higher position." Ties on both totals and first places do occur. '
            "Options: (a) countback: most 2nd places, then most 3rd places; then the better "
            "ladder position at the start of the meet; (b) head-to-head within the match; (c)"
            " one-ball playoff; (d) LO decision. Default: (a). It is deterministic and needs "
            'no extra play. Setting match_bonus_tiebreak = ["most_firsts", "most_seconds", '
            '"most_thirds", "ladder_position"]. Positions only matter where they move a bonus'
            " point. The software may still always compute a full order."
        ),
    ),
    "short_match_bonus": Reading(
        interpretations=("A52",),
        rules=("R3.3-b",),
        sections=("§3.3",),
        title="Matches with fewer than four games",
        text=(
            '"After all four games of a match are played": if a night ends early or a game is'
            " voided and not replayed, default the match bonus is computed over the games "
            "completed, with LO confirmation."
        ),
    ),
    "forfeit_credit_percent": Reading(
        interpretations=(),
        rules=("R2.4-d",),
        sections=("§2.4",),
        title="The share of the all-night forfeit credit",
        text=(
            "The rulebook grants a player who forfeits every game of a night 50% of the "
            "average of the earlier nights (R2.4-d). flipwell keeps the share as a setting, a"
            " whole percentage from 1 to 100: 0 would be no credit at all, and more than 100 "
            "more than the player's own average. Default: 50."
        ),
    ),
    "forfeit_credit_basis": Reading(
        interpretations=("A14.1",),
        rules=("R2.4-d", "R2.4-e"),
        sections=("§2.4",),
        title='The all-night forfeit credit: "50% of their average scores up to that date"',
        text=(
            "*Average of what?* The player's nightly league-point totals (game points "
            "including game bonuses, plus match bonus) over earlier meets of this season at "
            "which the player played at least one game (partial-forfeit nights included). "
            "Alternatives: average points per game played × 4; game points without match "
            'bonus. Setting forfeit_credit_basis = "nightly_total_incl_match_bonus".'
        ),
    ),
    "forfeit_credit_rounding": Reading(
        interpretations=("A14.2",),
        rules=("R2.4-d", "R2.4-e"),
        sections=("§2.4",),
        title='The all-night forfeit credit: "50% of their average scores up to that date"',
        text=(
            "*Rounding?* None: keep the exact value (one half of an average can be a "
            "fraction, e.g. 19.75). Alternatives: half-up to an integer; down to an integer. "
            'Setting forfeit_credit_rounding = "none". Implementations should use decimal or '
            "rational arithmetic, not floats, for standings."
        ),
    ),
    "forfeit_credit_scope": Reading(
        interpretations=("A14.3",),
        rules=("R2.4-d", "R2.4-e"),
        sections=("§2.4",),
        title='The all-night forfeit credit: "50% of their average scores up to that date"',
        text=(
            '*"Any subsequent forfeits will receive no points"*: only the first all-night '
            "forfeit of the season earns the credit, and later ones earn 0. Alternative: "
            'every all-night forfeit earns it, with "subsequent" meaning individual game '
            "forfeits (pointless, since those already get 0). Setting forfeit_credit_scope = "
            '"first_full_night_only".'
        ),
    ),
    "late_join_forfeits_use_credit": Reading(
        interpretations=("A14.5",),
        rules=("R2.4-d", "R2.4-e"),
        sections=("§2.4",),
        title='The all-night forfeit credit: "50% of their average scores up to that date"',
        text=(
            "*Late joiners*: nights before joining are forfeits, but they neither earn the "
            "credit nor use it up, and are not in the average. Setting "
            "late_join_forfeits_use_credit = false."
        ),
    ),
    "zero_credit_without_history_uses_credit": Reading(
        interpretations=("A14.4",),
        rules=("R2.4-d", "R2.4-e"),
        sections=("§2.4",),
        title='The all-night forfeit credit: "50% of their average scores up to that date"',
        text=(
            "*No earlier nights* (first meet, or first meet after joining): credit 0, and "
            "that night is the player's credit night: a later all-night forfeit earns 0 (\"Any"
            ' subsequent forfeits will receive no points" is read literally). Setting '
            "zero_credit_without_history_uses_credit = true is the default; false (a zero "
            "credit is not used up) stays as a league's option."
        ),
    ),
    "late_join_forfeits_countable": Reading(
        interpretations=("A46",),
        rules=("R2.4-f", "R2.4-g"),
        sections=("§2.4",),
        title="Late joiners' forfeits",
        text=(
            '"join a league after the first game of a season": default every game of the '
            "season that happened before the player's first game counts as a forfeit for the "
            "player. The LO may mark them, one by one or all together, as non-countable."
        ),
    ),
}
