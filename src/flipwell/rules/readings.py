"""What each `Ruleset` setting reads: its rulebook passage and its interpretation (§1-§9).

Words: a *reading* is one setting's explanation for the official who may change it: the rule
IDs of RULES.md it reads (``R2.5-a``), the rulebook sections, the INTERPRETATIONS.md entries
(``A14.1``; none for a plain number of the rulebook the league may change), the entry's title
and its text (the question and flipwell's default). `READINGS` has one reading per field, in
the fields' order (tests/rules/test_readings.py checks it against both documents).

The text, as INTERPRETATIONS.md words it, names settings in code (``Setting playoff_cut_rule =
"table_round_up"``); its *plain text* leaves those out for a person, who reads the setting's
value in words beside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

SETTING_IN_CODE = re.compile(
    r"\s*\bSettings? [a-z][a-z0-9_]* ?=.*?(?:\.(?=\s|$)|$)"  # a sentence naming settings
    r"|\s*\([a-z][a-z0-9_]* = [^()]*\)",  # or a bracket naming one
    re.S,
)


@dataclass(frozen=True)
class Reading:
    """One `Ruleset` setting as the official reads it."""

    interpretations: tuple[str, ...]
    rules: tuple[str, ...]
    sections: tuple[str, ...]
    title: str
    text: str

    @property
    def plain_text(self) -> str:
        """The text without the sentences (or brackets) that name settings in code."""
        return SETTING_IN_CODE.sub("", self.text).strip()


READINGS: dict[str, Reading] = {
    "playoff_cut_rule": Reading(
        interpretations=("A01",),
        rules=("R6.1-c", "R6.2-b"),
        sections=("§6.1", "§6.2"),
        title="The cut sentence contradicts the division table and the 50% rule",
        text=(
            'Text: "The playoff cut will be the top half of the players rounded down to the '
            'nearest multiple of four." Also: "Leagues having between 16 and 24 players ... '
            'top 12" and "No less than 50% of the players will qualify." Problem: rounding '
            "down gives n=20 → ⌊10/4⌋·4 = 8 (40%, against §6.2), while the table gives 12. "
            "Rounding down agrees with the table only at n = 16, 24, 32, 40 and 48. It "
            "disagrees at n = 6..7 (0 vs all), 8..15 (4 vs 8), 17..23 (8 vs 12), 25..31 (12 "
            "vs 16), 33..39 (16 vs 20) and 41..47 (20 vs 24). Rounding up, q = 4·⌈n/8⌉, "
            "reproduces the table for every n from 9 to 48 and always satisfies the 50% rule."
            " Options: (a) the table, i.e. half rounded up to a multiple of 4; (b) the "
            "sentence, i.e. rounded down; (c) the sentence with a floor of 50%. Default: (a),"
            " q = 4·⌈n/8⌉ for n ≥ 9, and all players (at most 8) for n ≤ 8. The sentence is "
            'treated as a typo for "rounded up". Setting playoff_cut_rule = "table_round_up",'
            ' with alternative "sentence_round_down".'
        ),
    ),
    "playoff_16_players_qualify": Reading(
        interpretations=("A02",),
        rules=("R6.1-f",),
        sections=("§6.1",),
        title="16 players appears in two rows",
        text=(
            'Text: "16 or fewer players ... top 8" and "between 16 and 24 players ... top '
            '12". Default: 16 → one division of 8 (50% exactly, matches A01(a), and the later'
            ' rows read "25 and 32" and "33 and 40" as inclusive ranges starting one above '
            "the previous row's end). The second row is read as 17..24. Setting "
            "playoff_16_players_qualify = 8."
        ),
    ),
    "playoff_small_league": Reading(
        interpretations=("A03",),
        rules=("R6.1-f",),
        sections=("§1", "§6.1", "§6.3"),
        title="Leagues of 6-8 players, or fewer than 8 qualifiers",
        text=(
            'Text: "top 8 players participating" for ≤16. With n = 6 or 7 there are not 8 '
            "players, and for n = 8 the 50% rule alone would need only 4. Options: (a) all n "
            "qualify; run the 8-player bracket with the missing seeds (7, 8) vacant, so the "
            "affected semifinals are 3-player rounds scored 4-2-1 with one eliminated, per "
            "§6.6. (b) A single 4-player final of the top 4. (c) LO discretion. Default: (a),"
            ' with q = min(n, 8) for n ≤ 8. Setting playoff_small_league = "vacant_seeds". '
            "Fewer than 6 players is outside the rules (§1) and needs an LO decision."
        ),
    ),
    "playoff_divisions_over_48": Reading(
        interpretations=("A04",),
        rules=("R6.1-j",),
        sections=("§6.1",),
        title="Leagues over 48 players",
        text=(
            "The table stops at 48. Default generalisation: q = 4·⌈n/8⌉ qualifiers, split "
            "into k = ⌈q/12⌉ divisions of 8 or 12. The (q − 8k)/4 twelve-player divisions are"
            " the *lowest* divisions, as in the table (33..40 gives A 8, B 12). Thus 49..56 →"
            " 8/8/12, 57..64 → 8/12/12, 65..72 → 12/12/12, 73..80 → 8/8/12/12. Setting "
            'playoff_divisions_over_48 = "formula".'
        ),
    ),
    "playoff_league_size": Reading(
        interpretations=("A05",),
        rules=("R6.1-b",),
        sections=("§6.1", "§6.2"),
        title='What "league size" counts',
        text=(
            "Unstated: whether players who forfeited the season (12 forfeits, §2.5), were "
            "suspended (§8.5, §8.8) or never played count toward n. Default: n = players "
            "still eligible at the end of the regular season (not season-forfeited, not "
            "suspended, at least one game played). Setting playoff_league_size = "
            '"eligible_players".'
        ),
    ),
    "playoff_half_rule_scope": Reading(
        interpretations=("A06",),
        rules=("R6.2-b",),
        sections=("§6.2",),
        title='"Within each division ... No less than 50% of the players will qualify"',
        text=(
            'Divisions are defined by qualifiers (A = ranks 1-8, B = ranks 9-16 ...), so "50%'
            ' within each division" has no meaning of its own. Default: check the 50% rule '
            "against the whole league (qualifiers ≥ ⌈n/2⌉), and use it as a validation on LO "
            "overrides of the cut."
        ),
    ),
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
    "machine_tie_resolution": Reading(
        interpretations=("A15",),
        rules=("R3.2-i",),
        sections=("§3.2",),
        title="Tied machine scores",
        text=(
            "The software cannot run the one-ball playoff. It records the playoff's order and"
            " refuses to finalise a game with an unordered tie. Bonus tests use the recorded "
            "machine scores, which stay equal, not the playoff balls. Ties at zero from "
            "penalties (two deathsaves) still need an order entered: default LO-entered "
            "order, by one-ball playoff if they play one. Setting machine_tie_resolution = "
            '"recorded_playoff_order".'
        ),
    ),
    "group_sizes": Reading(
        interpretations=("A16",),
        rules=("R4.1-b",),
        sections=("§4.1",),
        title="Group sizes beyond 32 and below 6",
        text=(
            "The table (6..32) equals g = ⌈n/4⌉ groups with (4g − n) three-player groups at "
            'the bottom, which is "as many groups of four as possible" under the 3-or-4 '
            "constraint. Default for 33..48 and beyond: the same formula. With few players "
            "present: n = 3 → [3], n = 4 → [4], and n = 5 has no valid split (a group of 5 is"
            " not allowed, and a 2-player group cannot be scheduled), so the software refuses"
            " and asks for an LO override. n ≤ 2 means no match. Setting group_sizes = "
            '"max_fours_threes_at_bottom". Note: more groups than machines means waiting. '
            "Warn when groups > playable machines."
        ),
    ),
    "ladder_tiebreak": Reading(
        interpretations=("A18.1",),
        rules=("R3.1-b", "R4.3-b", "R4.3-c"),
        sections=("§3.1", "§4.3"),
        title="Ladder order ties, alphabetical order and newcomers",
        text=(
            'Ties in season points ("seeded by current season league points only"): default '
            "the better previous ladder position, which traces back to IFPA and alphabetical "
            "order in week 1. Alternatives: IFPA rank, alphabetical, random. Setting "
            'ladder_tiebreak = "previous_ladder_position".'
        ),
    ),
    "unranked_sort": Reading(
        interpretations=("A18.2",),
        rules=("R3.1-b", "R4.3-b", "R4.3-c"),
        sections=("§3.1", "§4.3"),
        title="Ladder order ties, alphabetical order and newcomers",
        text=(
            '"Unranked players are placed alphabetically": default last name, then first '
            "name, case-insensitive (Unicode casefold). Setting unranked_sort = "
            '"last_first_casefold".'
        ),
    ),
    "machine_selector": Reading(
        interpretations=("A21",),
        rules=("R5-c",),
        sections=("§5",),
        title='"The fourth place player ... will decide the next game"',
        text=(
            "3-player groups have no 4th place, and nor do games reduced by forfeits. "
            "Default: the last-placed player among those who played the previous game (3rd of"
            " 3, 2nd of 2). Forfeiters never pick. If that player is a late joiner in the "
            "game the player joined (A24), the pick passes to the next-lowest finisher. "
            'Setting machine_selector = "last_place_present".'
        ),
    ),
    "nobody_may_pick": Reading(
        interpretations=("A66",),
        rules=("R5-c",),
        sections=("§5",),
        title="When nobody may pick the next machine",
        text=(
            "R5-c names the last-placed player of the previous game; A21 leaves out "
            "forfeiters. When every player of the group forfeited that game (a whole group "
            "absent without notice, which §3.1 does not regroup, or all late for game 1), "
            "nobody played it, so no player may pick, and A21's default says nothing of it. "
            "Default: the LO chooses the next machine under the §5 constraints (R5-d..g, "
            "R4-b, R7.3-r), or draws it at random among them as game 1's is drawn (R5-a, "
            "A61), the seed recorded. A player who returns for a later game picks again as "
            "usual once the player has played. Setting nobody_may_pick = "
            '"lo_chooses_or_draws".'
        ),
    ),
    "absent_player_pick": Reading(
        interpretations=("A67",),
        rules=("R5-c", "R2.4-a"),
        sections=("§5", "§2.4"),
        title="The player who would pick the next machine has left for the rest of the match",
        text=(
            "R5-c gives the pick to the last-placed player of the previous game. When that "
            "player is recorded absent for the rest of the match (R2.4-a), the player is gone "
            "and forfeits the next game, and A21 says forfeiters never pick. Default: the "
            "next-lowest finisher of the previous game who is still there picks, as after a "
            "late joiner (A24); when no finisher is left, the LO chooses or draws the machine "
            '(A66). Setting absent_player_pick = "next_lowest_present".'
        ),
    ),
    "ball3_means": Reading(
        interpretations=("A22",),
        rules=("R4-b", "R5-d", "R5-f"),
        sections=("§5",),
        title=(
            '"must not be currently in use by another group, or at ball 3 ..." and the fallback'
        ),
        text=(
            'Grammar: read it with the next sentence ("If no open games or games with matches'
            ' at ball 3 are available"). Selectable = free, OR in use by a group that is on '
            'ball 3. "Ball 3" = that group\'s final regulation ball, so ball 5 on a 5-ball '
            'machine. Setting ball3_means = "final_ball". Fallback "any game may be chosen": '
            'default the in-use restriction is lifted, but the no-repeat rule (§5, "cannot '
            'select a game that has already been played that night") and the unplayable '
            "status still apply. A machine the group has already played is allowed only if no"
            ' playable unplayed machine exists (§4 "four different machines (if possible)"). '
            'Setting fallback_allows_repeat = "only_if_no_unplayed_machine".'
        ),
    ),
    "fallback_allows_repeat": Reading(
        interpretations=("A22",),
        rules=("R4-b", "R5-d", "R5-f"),
        sections=("§5",),
        title=(
            '"must not be currently in use by another group, or at ball 3 ..." and the fallback'
        ),
        text=(
            'Grammar: read it with the next sentence ("If no open games or games with matches'
            ' at ball 3 are available"). Selectable = free, OR in use by a group that is on '
            'ball 3. "Ball 3" = that group\'s final regulation ball, so ball 5 on a 5-ball '
            'machine. Setting ball3_means = "final_ball". Fallback "any game may be chosen": '
            'default the in-use restriction is lifted, but the no-repeat rule (§5, "cannot '
            'select a game that has already been played that night") and the unplayable '
            "status still apply. A machine the group has already played is allowed only if no"
            ' playable unplayed machine exists (§4 "four different machines (if possible)"). '
            'Setting fallback_allows_repeat = "only_if_no_unplayed_machine".'
        ),
    ),
    "replacement_selector": Reading(
        interpretations=("A23",),
        rules=("R5.1-a", "R7.3-s"),
        sections=("§5.1", "§7.3"),
        title="Who picks a replacement machine",
        text=(
            '§5.1: "a replacement machine must be chosen by the individual who selected the '
            'machine". §7.3: "the entire game is replayed immediately on a machine designated'
            ' by the LO". Default: the original selector chooses, under the §5 constraints. '
            "If the machine was randomly assigned (game 1, or a playoff game 1 or "
            "tiebreaker), the replacement is drawn at random again. The LO may override "
            "(DISCRETION, logged). Setting replacement_selector = "
            '"original_selector_else_random".'
        ),
    ),
    "late_joiner_no_pick_scope": Reading(
        interpretations=("A24",),
        rules=("R5.2-d",),
        sections=("§5.2",),
        title='Late joiners "will not be given machine selection"',
        text=(
            "Scope is unclear: the next pick only, or the whole night? Default: a player who "
            "joined late does not pick after the first game the player plays. The pick goes "
            "to the next-lowest finisher. Later picks are normal. Setting "
            'late_joiner_no_pick_scope = "first_game_played".'
        ),
    ),
    "play_order_returning_players": Reading(
        interpretations=("A25",),
        rules=("R5.2-b",),
        sections=("§5.2",),
        title="Play order after a forfeited game",
        text=(
            "A player who forfeited the previous game has no result. Default: the players who"
            " played come first in finishing order, then the players returning from a "
            "forfeit, in ladder order, and a late joiner in the player's first game takes the"
            " last position (R5.2-c). Setting play_order_returning_players = "
            '"after_finishers_in_ladder_order".'
        ),
    ),
    "first_machine_draw": Reading(
        interpretations=("A61",),
        rules=("R5-a",),
        sections=("§5",),
        title="Random first-game assignment",
        text=(
            "Unstated whether groups must get distinct machines. Default: draw without "
            "replacement among playable machines while machines ≥ groups. Otherwise allow "
            "duplicates, and those groups queue. Record the RNG seed."
        ),
    ),
    "correction_quorum": Reading(
        interpretations=("A45.1",),
        rules=("R3-c", "R3-e"),
        sections=("§3",),
        title="Score corrections",
        text=(
            '"contact all the players in the affected group ... If all players agree": '
            "default the players who played that game (a player who forfeited it has no "
            'recollection to give). Setting correction_quorum = "players_in_game".'
        ),
    ),
    "corrections_until": Reading(
        interpretations=("A45.2",),
        rules=("R3-c", "R3-e"),
        sections=("§3",),
        title="Score corrections",
        text=(
            "No deadline: default corrections are accepted until the LO closes the meet. "
            "Later ones need an LO override with a reason."
        ),
    ),
    "season_forfeit_limit": Reading(
        interpretations=(),
        rules=("R2.5-a",),
        sections=("§2.5",),
        title="How many countable forfeits forfeit the season",
        text=(
            "The rulebook says 12 countable forfeits in a season forfeit it (R2.5-a): the "
            "player is out from the game of that forfeit on, even in the middle of a night "
            "(A65). flipwell keeps the number as a setting, a whole number from 1 to 400: at "
            "0 every player would be out before the first game. Default: 12."
        ),
    ),
    "season_forfeit_keeps_points": Reading(
        interpretations=("A37",),
        rules=("R2.5-a",),
        sections=("§2.5",),
        title="Forfeiting the season by 12 countable forfeits",
        text=(
            "Unstated: whether the player's points stay in the standings, whether the player "
            "can enter the playoffs, and whether the player counts toward league size. "
            'Default: the player\'s points stay visible, marked "season forfeited". The player'
            ' is removed from future ladders and groups (§2.5 "may not play"), is ineligible '
            "for the playoffs, and is not counted in n for the playoffs (A05). Other players'"
            " past game points are unchanged. Setting season_forfeit_keeps_points = true."
        ),
    ),
    "dues_period": Reading(
        interpretations=("A47",),
        rules=("R9-a",),
        sections=("§9",),
        title='"session" means both a night and a season',
        text=(
            '§2.4: "as their score for the session" means the night. §4.3: "accrued points '
            'for the current league session" means the season. §9: "dues ... at the start of '
            'each league session" is ambiguous. Default: dues are per season, with amount and'
            ' period configurable (dues_period = "season"). Amounts are unspecified '
            "everywhere in §9."
        ),
    ),
    "announced_tardiness_wait_minutes": Reading(
        interpretations=("A59",),
        rules=("R2.2-a",),
        sections=("§2.2", "§6.6"),
        title="Announced tardiness: what happens after the 15 minutes",
        text=(
            'The text says the group "will wait up to 15 minutes". Default: when the wait '
            "expires (or the player arrives), the group starts. The games the player misses "
            "are forfeits, and the player joins later under §2.3. The notice must be recorded"
            " before the start time, or the §2.3 rules apply instead. In the playoffs (§6.6 "
            '"per section 2.2") the same deadline applies to the match start.'
        ),
    ),
    "compensatory_request_deadline": Reading(
        interpretations=("A31",),
        rules=("RA-b",),
        sections=("§7.3",),
        title="When a compensatory game must be asked for",
        text=(
            'The Appendix says "it takes two major malfunctions on one game to get a replay '
            "of the game and ... a replay must be requested at the time of the second "
            'malfunction before play continues". §7.3 describes a compensatory game for the '
            "affected balls only, added to the original score. The Appendix also omits the "
            'single-catastrophic trigger. Default: "replay" means the §7.3 compensatory game.'
            " It is optional and must be requested when the second major is recorded (or, for"
            " a catastrophic malfunction, when it is recorded), before play continues. The "
            "triggers are those of §7.3. Setting compensatory_request_deadline = "
            '"at_trigger".'
        ),
    ),
    "current_player_remaining_balls": Reading(
        interpretations=("A32",),
        rules=("R7.3-i", "R8.4-c"),
        sections=("§7.3", "§8.4"),
        title="Slam tilts and the player on the ball",
        text=(
            '§7.3: a catastrophic event is "not considered catastrophic for the ball the '
            'player is currently playing ... That player receives a major malfunction". It '
            "says nothing of the player's later balls, which the player never gets to play. "
            "Read literally, the player has one major and no compensation. Default: the "
            "player's current ball is a major, and each later ball never launched is "
            "catastrophic, so the player is entitled to a compensatory game for all of them. "
            "The intentional slammer (§8.4) is the violator: the player gets no compensation "
            "and takes the §8.5 penalty. The victims get compensatory games. Setting "
            'current_player_remaining_balls = "catastrophic".'
        ),
    ),
    "compensatory_clamp_at_zero": Reading(
        interpretations=("A33",),
        rules=("R7.3-l",),
        sections=("§7.3",),
        title="Compensatory arithmetic",
        text=(
            "final = original + new − leading-balls score − state-setting points. Defaults: "
            "clamp at 0 (cannot normally go negative). A §8.1 25% reduction applies to the "
            "final overall score, after the addition. A second compensatory game inside a "
            "compensatory game is not contemplated (A57)."
        ),
    ),
    "eb_allowance_scope": Reading(
        interpretations=("A62",),
        rules=("R7.1-a", "R7.2-b"),
        sections=("§7.1", "§7.3", "§8.2"),
        title="Extra balls in a compensatory or replayed game",
        text=(
            '"one (1) extra ball may be played per player per game". A compensatory game is a'
            " new game on the machine, but it completes the original one. Default: the "
            "allowance belongs to the *original* game. If the player already collected the "
            "player's allowable EB there (collected-but-unplayed EBs are among the "
            "compensatory balls), further EBs in the compensatory game are one-handed. A full"
            " replay (§8.2/§8.3 victim, §7.3 unplayable machine, §8.6 restart) is a fresh "
            'game with a fresh allowance. Setting eb_allowance_scope = "original_game".'
        ),
    ),
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
    "playoff_seed_tiebreak": Reading(
        interpretations=("A39",),
        rules=("R6.1-e",),
        sections=("§6.1",),
        title="Ties for the cut and for seeding",
        text=(
            '"Ties will be settled by single ball play on a random machine." Default: applies'
            " to any tie that straddles the qualification line or a division boundary, and to"
            " ties among qualifiers that change bracket placement. All tied players play one "
            "ball each, and the order is recorded. Setting playoff_seed_tiebreak = "
            '"single_ball_playoff" (alternative "previous_ladder_position").'
        ),
    ),
    "playoff_tie_method": Reading(
        interpretations=("A40",),
        rules=("R6.5-a",),
        sections=("§6.5",),
        title=(
            '"decided by the head-to-head game between the tied players during that playoff match"'
        ),
        text=(
            "This could mean their head-to-head record in the 3 games just played, or a new "
            'tiebreaker game ("Machine selection for tiebreaker games will be random"). '
            "Default: one extra game among the tied players only, on a random machine, with "
            "its finishing order breaking the tie. It is played only when the tie affects "
            "advancement or final placing (a tie for 1st in a semifinal is not broken: ). A "
            "4-way tie cannot happen (21 points over 4 players). In 3-player rounds, a 3-way "
            '7-7-7 tie can. Setting playoff_tie_method = "tiebreaker_game_if_relevant".'
        ),
    ),
    "withdrawal_shift": Reading(
        interpretations=("A41",),
        rules=("R6.6-b",),
        sections=("§6.6",),
        title="Withdrawals across divisions",
        text=(
            '"all lower-seeded players advance one spot, and the highest ranked player that '
            "did not qualify ... is now qualified\". With two divisions, does B's top seed "
            "move up into A? Default: yes. Seeds are one ladder across divisions, everyone "
            "below shifts up one, and the first non-qualifier enters the last division. "
            'Setting withdrawal_shift = "across_divisions" (alternative "within_division"). '
            "If the player reached declines, go on down the list."
        ),
    ),
    "final_no_show_place": Reading(
        interpretations=("A42",),
        rules=("R6.6-d",),
        sections=("§6.6",),
        title="No-shows beyond the single 3-player case",
        text=(
            "1. A no-show in the final: the final is a 3-player round (4-2-1), and the no-"
            'show is placed 4th. Setting final_no_show_place = "last". 2. A no-show among '
            "seeds 1-4 of a 12-player bracket: the semifinal is a 3-player round. 3. Two no-"
            "shows in one match: a 2-player round scored 4-2 (by extension). In a semifinal "
            "both advance. 4. Vacant seeds (A03) are treated like announced no-shows. The "
            "4-2-1 round applies."
        ),
    ),
    "playoff_play_order_seeds": Reading(
        interpretations=("A43",),
        rules=("R5.3-a",),
        sections=('§"5.3"',),
        title='"order of seeding" in later playoff rounds',
        text=(
            "Default: the original playoff seeds, not the finishing positions of the previous"
            " round."
        ),
    ),
    "playoff_no_repeat_scope": Reading(
        interpretations=("A44",),
        rules=("R6.4-a",),
        sections=("§5", "§6.4"),
        title='"already played that night by the group" in playoffs',
        text=(
            "Default: no repeats within one playoff match (3 games). A machine may recur in "
            "later rounds. Tiebreaker machines are drawn at random from all playable "
            "machines."
        ),
    ),
    "involved_official": Reading(
        interpretations=("A55",),
        rules=("R1.1-a",),
        sections=("§1.1",),
        title='"an uninvolved official"',
        text=(
            "If every official present is involved, the text is silent. Default: allow the "
            'ruling and flag it "involved official".'
        ),
    ),
}
