"""The readings of the settings of a meet's groups and machines: machine ties (§3.2), group sizes
and the ladder (§3.1, §4), machine selection and play order (§5).

Each entry is a `Reading` (`flipwell.rules.reading`); `flipwell.rules.readings.READINGS` puts
the groups together in the order of `Ruleset`'s fields.
"""

from __future__ import annotations

from flipwell.rules.reading import Reading

GROUPS_READINGS: dict[str, Reading] = {
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
}
