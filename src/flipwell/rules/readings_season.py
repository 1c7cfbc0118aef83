"""The readings of the season's other settings: score corrections (§3), forfeiting the season
(§2.5), dues (§9), announced tardiness (§2.2) and malfunctions (§7).

Each entry is a `Reading` (`flipwell.rules.reading`); `flipwell.rules.readings.READINGS` puts
the groups together in the order of `Ruleset`'s fields.
"""

from __future__ import annotations

from flipwell.rules.reading import Reading

SEASON_READINGS: dict[str, Reading] = {
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
    "season_cut_planned_meets": Reading(
        interpretations=("A68.1",),
        rules=("R2-a",),
        sections=("§2",),
        title="A season cut short: its meets already started and those planned",
        text=(
            "The LO designates the season's length (R2-a) and the rulebook never says it may "
            "change once play has begun. Default: the LO may end a season early or lower its "
            "number of meets, with a reason, never below the meets already started: a meet "
            "whose groups are drawn is played out, or closed unfinished (A52). The planned "
            "meets beyond the new number are cancelled with the cut, with their announced "
            "absences and lateness notices. Alternative: the cut is refused while such a meet "
            "is still scheduled, until the LO cancels it. Setting season_cut_planned_meets = "
            '"cancelled".'
        ),
    ),
    "season_cut_forfeit_limit": Reading(
        interpretations=("A68.2",),
        rules=("R2.5-a",),
        sections=("§2.5",),
        title="A season cut short: the forfeit limit that forfeits the season",
        text=(
            "R2.5-a counts countable forfeits, not a share of the season. Default: a shorter "
            "season keeps the same limit (12): lowering it would forfeit, after the fact, the "
            "season of a player who stayed within the limit the season was played under. "
            'Setting season_cut_forfeit_limit = "unchanged".'
        ),
    ),
    "season_cut_small_playoffs": Reading(
        interpretations=("A68.3",),
        rules=("R6.1-d", "R6.2-a"),
        sections=("§2", "§6.1"),
        title="A season cut short: playoff entry",
        text=(
            "Entry is decided after the final regular week (R6.1-d): the new last meet. "
            "Eligibility stays A05's (a game played): the rulebook sets no minimum "
            "attendance, so none is added, and a player yet to play a first game is not "
            "eligible once no meet is left. The IFPA's 50% attendance counts the meets held, "
            "and a season under the IFPA's minimum of meets is warned about before the cut. "
            "Default: a cut that leaves fewer than six eligible players (no playoff line, §1, "
            "A03) is allowed, and the LO decides the playoffs. Alternative: such a cut is "
            'refused. Setting season_cut_small_playoffs = "allowed".'
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
}
