"""The readings of the playoff settings (§6): who qualifies, how the playoffs are seeded and played.

Each entry is a `Reading` (`flipwell.rules.reading`); `flipwell.rules.readings.READINGS` puts
the groups together in the order of `Ruleset`'s fields.
"""

from __future__ import annotations

from flipwell.rules.reading import Reading

PLAYOFF_CUT_READINGS: dict[str, Reading] = {
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
}

PLAYOFF_PLAY_READINGS: dict[str, Reading] = {
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
