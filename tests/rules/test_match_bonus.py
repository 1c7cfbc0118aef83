"""Match bonus points (§3.3): R3.3-a..g, A07, A08, A11, A12.

Each match is written out game by game as (points, place) finishes that a real §3.2 game could
produce (every 4-player game adds up to 18, every 3-player game to 13, every 2-player game to 9),
and the match totals and each bonus test are worked out by hand in the comments.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import Finish, RuleError, Ruleset, match_bonus_points
from flipwell.rules.match_bonus import score_match_bonus
from flipwell.rules.scoring import score_game


def fin(points, place):
    return Finish(points=points, place=place)


# --- four included players: "equals or exceeds" (R3.3-d, R3.3-e, A07) --------------------------

# Four identical games, A 8 / B 5 / C 3 / D 2 (18 each).
# Totals: A 32, B 20, C 12, D 8.  32 = 20 + 12 and 20 = 12 + 8: both tests are equalities.
EQUAL_SUMS = {
    "A": [fin(8, 1)] * 4,
    "B": [fin(5, 2)] * 4,
    "C": [fin(3, 3)] * 4,
    "D": [fin(2, 4)] * 4,
}


def test_match_bonus_four_included_equal_sums_go_to_first_and_second():
    """R3.3-d: 32 ≥ 20 + 12 = 32, to A. R3.3-e: 20 ≥ 12 + 8 = 20, to B."""
    points = match_bonus_points(EQUAL_SUMS, ladder_order=["A", "B", "C", "D"])

    assert points == {"A": 1, "B": 1, "C": 0, "D": 0}


def test_match_bonus_four_included_below_sums_go_to_third_and_fourth():
    # Games 1-3: A 8, B 5, C 3, D 2. Game 4: A 7, B 5, C 4, D 2 (first bonus to 3rd).
    # Totals: A 8+8+8+7 = 31, B 20, C 3+3+3+4 = 13, D 8.
    # R3.3-d: 31 ≥ 20 + 13 = 33 false, to C. R3.3-e: 20 ≥ 13 + 8 = 21 false, to D.
    results = {
        "A": [fin(8, 1), fin(8, 1), fin(8, 1), fin(7, 1)],
        "B": [fin(5, 2)] * 4,
        "C": [fin(3, 3), fin(3, 3), fin(3, 3), fin(4, 3)],
        "D": [fin(2, 4)] * 4,
    }

    points = match_bonus_points(results, ladder_order=["A", "B", "C", "D"])

    assert points == {"A": 0, "B": 0, "C": 1, "D": 1}


def test_match_bonus_four_included_first_below_second_above():
    # Games 1-2 (D forfeits, 3-player): A 7, B 4, C 2. Games 3-4: A 7, B 6, C 4, D 1.
    # Totals: A 28, B 4+4+6+6 = 20, C 2+2+4+4 = 12, D 2. D forfeited only 2: included (R3.3-g).
    # R3.3-d: 28 ≥ 20 + 12 = 32 false, to C. R3.3-e: 20 ≥ 12 + 2 = 14, to B.
    results = {
        "A": [fin(7, 1)] * 4,
        "B": [fin(4, 2), fin(4, 2), fin(6, 2), fin(6, 2)],
        "C": [fin(2, 3), fin(2, 3), fin(4, 3), fin(4, 3)],
        "D": [None, None, fin(1, 4), fin(1, 4)],
    }

    points = match_bonus_points(results, ladder_order=["A", "B", "C", "D"])

    assert points == {"A": 0, "B": 1, "C": 1, "D": 0}


def test_match_bonus_full_fifth_game_adds_place_points():
    # A08 alternative: the fifth game also awards 7 / 5 / 3 / 1.
    # With EQUAL_SUMS: A 7 + 1 (32 ≥ 32), B 5 + 1 (20 ≥ 20), C 3, D 1 = 18 in all.
    ruleset = Ruleset(match_bonus_awards="full_fifth_game")

    points = match_bonus_points(EQUAL_SUMS, ladder_order=["A", "B", "C", "D"], ruleset=ruleset)

    assert points == {"A": 8, "B": 6, "C": 3, "D": 1}


# --- exclusion (R3.3-g) and three included players (R3.3-c, A07) --------------------------------

# A scheduled 4-player group; D forfeits games 1-3.
# Games 1-3 (3-player): A 7, B 4, C 2 (13 each). Game 4: A 7, B 6, C 4, D 1 (18).
# Totals: A 28, B 4+4+4+6 = 18, C 2+2+2+4 = 10, D 1.  28 = 18 + 10.
D_EXCLUDED = {
    "A": [fin(7, 1)] * 4,
    "B": [fin(4, 2), fin(4, 2), fin(4, 2), fin(6, 2)],
    "C": [fin(2, 3), fin(2, 3), fin(2, 3), fin(4, 3)],
    "D": [None, None, None, fin(1, 4)],
}


def test_match_bonus_three_forfeits_excluded_and_three_player_test_is_strict():
    # R3.3-g: D forfeited 3 games, so he is out and the fifth game has 3 players.
    # R3.3-c, A07 (default): 3 included is strict: 28 > 18 + 10 = 28 false, to C. One point.
    # (Were D included: 28 ≥ 28 to A and 18 ≥ 10 + 1 to B.)
    points = match_bonus_points(D_EXCLUDED, ladder_order=["A", "B", "C", "D"])

    assert points == {"A": 0, "B": 0, "C": 1, "D": 0}


@pytest.mark.parametrize("scope", ["scheduled_four_player_groups", "all_groups"])
def test_match_bonus_excluded_player_group_with_ge_alternatives(scope):
    # A07 (b) and (c): ≥ applies to a scheduled 4-player group: 28 ≥ 18 + 10 = 28, to A.
    ruleset = Ruleset(match_bonus_ge_applies_to=scope)

    points = match_bonus_points(D_EXCLUDED, ladder_order=["A", "B", "C", "D"], ruleset=ruleset)

    assert points == {"A": 1, "B": 0, "C": 0, "D": 0}


def test_match_bonus_player_absent_all_night_excluded():
    # R3.3-g, A14.7: four forfeits exclude D too. Same totals as D_EXCLUDED without game 4's D:
    # Games 1-4 (3-player): A 7, B 4, C 2 -> A 28, B 16, C 8. 28 > 16 + 8 = 24, to A.
    results = {
        "A": [fin(7, 1)] * 4,
        "B": [fin(4, 2)] * 4,
        "C": [fin(2, 3)] * 4,
        "D": [None] * 4,
    }

    points = match_bonus_points(results, ladder_order=["A", "B", "C", "D"])

    assert points == {"A": 1, "B": 0, "C": 0, "D": 0}


# A scheduled 3-player group.
# G1: A 7 (1st), B 4, C 2.  G2: B 7 (1st), A 4, C 2.  G3: A 8 (1st), B 4, C 1.  G4: A 7, C 4, B 2.
# Totals: A 7+4+8+7 = 26, B 4+7+4+2 = 17, C 2+2+1+4 = 9.  26 = 17 + 9.
THREE_GROUP = {
    "A": [fin(7, 1), fin(4, 2), fin(8, 1), fin(7, 1)],
    "B": [fin(4, 2), fin(7, 1), fin(4, 2), fin(2, 3)],
    "C": [fin(2, 3), fin(2, 3), fin(1, 3), fin(4, 2)],
}


@pytest.mark.parametrize("scope", ["four_included_players", "scheduled_four_player_groups"])
def test_match_bonus_three_player_group_equal_sum_goes_to_third(scope):
    # R3.3-c, A07: a 3-player group's fifth game is strict: 26 > 17 + 9 = 26 false, to C.
    ruleset = Ruleset(match_bonus_ge_applies_to=scope)

    points = match_bonus_points(THREE_GROUP, ladder_order=["A", "B", "C"], ruleset=ruleset)

    assert points == {"A": 0, "B": 0, "C": 1}


def test_match_bonus_three_player_group_all_groups_ge():
    # A07 (c): "all_groups" uses ≥ for 3 included too: 26 ≥ 26, to A.
    ruleset = Ruleset(match_bonus_ge_applies_to="all_groups")

    points = match_bonus_points(THREE_GROUP, ladder_order=["A", "B", "C"], ruleset=ruleset)

    assert points == {"A": 1, "B": 0, "C": 0}


def test_match_bonus_three_player_full_fifth_game():
    # A08 alternative: 7 / 4 / 1 plus the strict bonus (26 > 26 false, to C): 7 / 4 / 2.
    ruleset = Ruleset(match_bonus_awards="full_fifth_game")

    points = match_bonus_points(THREE_GROUP, ladder_order=["A", "B", "C"], ruleset=ruleset)

    assert points == {"A": 7, "B": 4, "C": 2}


# --- two included players: the 3x test (R3.3-c, A09) --------------------------------------------


def two_included(a_third_game):
    # A scheduled 3-player group; C forfeits games 1-3 and is excluded (R3.3-g).
    # G1, G2 (2-player): A 8, B 1.  G3: A a_third_game, B 9 - a_third_game.
    # G4 (3-player): C 8 (1st), B 4 (2nd), A 1 (3rd).
    return {
        "A": [fin(8, 1), fin(8, 1), fin(a_third_game, 1), fin(1, 3)],
        "B": [fin(1, 2), fin(1, 2), fin(9 - a_third_game, 2), fin(4, 2)],
        "C": [None, None, None, fin(8, 1)],
    }


def test_match_bonus_two_included_exactly_three_times_goes_to_second():
    # G3 A 7, B 2. Totals: A 8+8+7+1 = 24, B 1+1+2+4 = 8.
    # R3.3-c, A09: 24 > 3 x 8 = 24 false, to B.
    points = match_bonus_points(two_included(7), ladder_order=["A", "B", "C"])

    assert points == {"A": 0, "B": 1, "C": 0}


def test_match_bonus_two_included_over_three_times_goes_to_first():
    # G3 A 8, B 1. Totals: A 25, B 7. R3.3-c: 25 > 3 x 7 = 21, to A.
    points = match_bonus_points(two_included(8), ladder_order=["A", "B", "C"])

    assert points == {"A": 1, "B": 0, "C": 0}


def test_match_bonus_two_included_all_groups_still_strict_triple():
    # A07 (c) concerns the sum tests; 2 included keep the strict 3x test: 24 > 24 false, to B.
    ruleset = Ruleset(match_bonus_ge_applies_to="all_groups")

    points = match_bonus_points(two_included(7), ladder_order=["A", "B", "C"], ruleset=ruleset)

    assert points == {"A": 0, "B": 1, "C": 0}


# --- one or no included players (A11) ----------------------------------------------------------

# G1-G3: only A plays (7 each, A11). G4: A 8, B 5, C 3, D 2. B, C, D forfeit 3: excluded.
ONLY_A = {
    "A": [fin(7, 1), fin(7, 1), fin(7, 1), fin(8, 1)],
    "B": [None, None, None, fin(5, 2)],
    "C": [None, None, None, fin(3, 3)],
    "D": [None, None, None, fin(2, 4)],
}


def test_match_bonus_single_included_player_gets_nothing():
    # A11: one included player, no match bonus.
    points = match_bonus_points(ONLY_A, ladder_order=["A", "B", "C", "D"])

    assert points == {"A": 0, "B": 0, "C": 0, "D": 0}


def test_match_bonus_single_included_player_ruleset_alternative():
    # A11 alternative: `single_player_match_bonus = 1`.
    ruleset = Ruleset(single_player_match_bonus=1)

    points = match_bonus_points(ONLY_A, ladder_order=["A", "B", "C", "D"], ruleset=ruleset)

    assert points == {"A": 1, "B": 0, "C": 0, "D": 0}


def test_match_bonus_nobody_included_no_points():
    # A11, R3.3-g: everybody forfeited 3 or more games.
    results = {"A": [None, None, None, fin(7, 1)], "B": [None] * 4}

    points = match_bonus_points(results, ladder_order=["A", "B"])

    assert points == {"A": 0, "B": 0}


def test_match_bonus_empty_group_no_points():
    # A11: no players, no points.
    points = match_bonus_points({}, ladder_order=[])

    assert points == {}


# --- ties on totals (R3.3-f, A12) ---------------------------------------------------------------

# 3-player group. G1, G2: C 7, B 4, A 2.  G3, G4: A 8, B 4, C 1.
# Totals: A 2+2+8+8 = 20, B 16, C 7+7+1+1 = 16. B and C tie; C has 2 firsts, B none.
FIRSTS_DECIDE = {
    "A": [fin(2, 3), fin(2, 3), fin(8, 1), fin(8, 1)],
    "B": [fin(4, 2)] * 4,
    "C": [fin(7, 1), fin(7, 1), fin(1, 3), fin(1, 3)],
}


def test_match_bonus_tie_most_firsts_takes_higher_position():
    """R3.3-f: C (2 firsts) is 2nd, B 3rd, though B is higher on the ladder.
    R3.3-c: 20 > 16 + 16 = 32 false, to 3rd = B."""
    points = match_bonus_points(FIRSTS_DECIDE, ladder_order=["A", "B", "C"])

    assert points == {"A": 0, "B": 1, "C": 0}


def test_match_bonus_tie_ladder_only_ruleset_changes_the_third():
    # A12 is a setting: with the ladder alone, B is 2nd and C 3rd, so C gets the point.
    ruleset = Ruleset(match_bonus_tiebreak=("ladder_position",))

    points = match_bonus_points(FIRSTS_DECIDE, ladder_order=["A", "B", "C"], ruleset=ruleset)

    assert points == {"A": 0, "B": 0, "C": 1}


# G1: B 8 (1st), C 4, A 1.  G2: C 7 (1st), A 4, B 2.  G3: A 7 (1st), C 4, B 2.  G4: A 8, B 4, C 1.
# Totals: A 1+4+7+8 = 20, B 8+2+2+4 = 16, C 4+7+4+1 = 16.
# Firsts: B 1, C 1. Seconds: B 1 (G4), C 2 (G1, G3).
SECONDS_DECIDE = {
    "A": [fin(1, 3), fin(4, 2), fin(7, 1), fin(8, 1)],
    "B": [fin(8, 1), fin(2, 3), fin(2, 3), fin(4, 2)],
    "C": [fin(4, 2), fin(7, 1), fin(4, 2), fin(1, 3)],
}


def test_match_bonus_tie_equal_firsts_most_seconds_decides():
    # A12 countback: C (2 seconds) is 2nd, B 3rd. 20 > 32 false, to B.
    points = match_bonus_points(SECONDS_DECIDE, ladder_order=["A", "B", "C"])

    assert points == {"A": 0, "B": 1, "C": 0}


def test_match_bonus_tie_without_seconds_countback_ladder_decides():
    # A12 setting without "most_seconds": firsts tie, the ladder puts B 2nd, so C (3rd) scores.
    ruleset = Ruleset(match_bonus_tiebreak=("most_firsts", "ladder_position"))

    points = match_bonus_points(SECONDS_DECIDE, ladder_order=["A", "B", "C"], ruleset=ruleset)

    assert points == {"A": 0, "B": 0, "C": 1}


# 4-player group.
# G1: B 7 (1st), A 6, D 4, C 1.   G2: C 8 (1st), A 6, B 3, D 1.
# G3: A 8 (1st), D 6, B 3, C 1.   G4: D 7 (1st), A 6, C 4, B 1.
# Totals: A 26, B 7+3+3+1 = 14, C 1+8+1+4 = 14, D 4+1+6+7 = 18 (72 in all).
# B: one 1st, no 2nd, two 3rds. C: one 1st, no 2nd, one 3rd.
THIRDS_DECIDE = {
    "A": [fin(6, 2), fin(6, 2), fin(8, 1), fin(6, 2)],
    "B": [fin(7, 1), fin(3, 3), fin(3, 3), fin(1, 4)],
    "C": [fin(1, 4), fin(8, 1), fin(1, 4), fin(4, 3)],
    "D": [fin(4, 3), fin(1, 4), fin(6, 2), fin(7, 1)],
}


def test_match_bonus_tie_equal_firsts_and_seconds_most_thirds_decides():
    # A12: B (two 3rds) ranks above C though C is higher on the ladder.
    # R3.3-d: 26 ≥ 18 + 14 = 32 false, to 3rd (B). R3.3-e: 18 ≥ 14 + 14 = 28 false, to 4th (C).
    result = score_match_bonus(THIRDS_DECIDE, ladder_order=["A", "D", "C", "B"])

    assert (result.order, result.points) == (
        ("A", "D", "B", "C"),
        {"A": 0, "B": 1, "C": 1, "D": 0},
    )


def test_match_bonus_tie_without_thirds_countback_ladder_orders():
    # A12 setting without "most_thirds": the ladder (C above B) decides.
    ruleset = Ruleset(match_bonus_tiebreak=("most_firsts", "most_seconds", "ladder_position"))

    result = score_match_bonus(THIRDS_DECIDE, ladder_order=["A", "D", "C", "B"], ruleset=ruleset)

    assert result.order == ("A", "D", "C", "B")


# 3-player group. G1: A 7, B 4, C 2.  G2: B 7, A 4, C 2.  G3: C 7, A 4, B 2.  G4: A 7, C 4, B 2.
# Totals: A 22, B 15, C 15. B and C: one 1st, one 2nd and two 3rds each.
FULL_TIE = {
    "A": [fin(7, 1), fin(4, 2), fin(4, 2), fin(7, 1)],
    "B": [fin(4, 2), fin(7, 1), fin(2, 3), fin(2, 3)],
    "C": [fin(2, 3), fin(2, 3), fin(7, 1), fin(4, 2)],
}


@pytest.mark.parametrize(
    ("ladder_order", "expected"),
    [
        (["A", "B", "C"], {"A": 0, "B": 0, "C": 1}),
        (["C", "A", "B"], {"A": 0, "B": 1, "C": 0}),
    ],
)
def test_match_bonus_tie_on_everything_ladder_position_decides(ladder_order, expected):
    # A12: the better ladder position at the start of the meet is 2nd; 22 > 30 false, to 3rd.
    points = match_bonus_points(FULL_TIE, ladder_order=ladder_order)

    assert points == expected


def test_match_bonus_tiebreak_that_cannot_separate_refused():
    # A12: a ruleset without "ladder_position" can leave a tie; it is refused, not guessed.
    ruleset = Ruleset(match_bonus_tiebreak=("most_firsts",))

    with pytest.raises(RuleError, match=r"^unresolved match-bonus tie between B and C"):
        match_bonus_points(FULL_TIE, ladder_order=["A", "B", "C"], ruleset=ruleset)


# --- explanation and input checks ---------------------------------------------------------------


def test_score_match_bonus_totals_include_game_bonuses_and_explain_exclusion():
    # R3.3-b: totals are the 4 games' league points, bonuses included (A 7 x 4 = 28).
    # R3.3-g: D's exclusion is explained.
    result = score_match_bonus(D_EXCLUDED, ladder_order=["A", "B", "C", "D"])

    lines = [(line.player, line.points, line.rule) for line in result.lines]
    assert (result.totals, lines) == (
        {"A": 28, "B": 18, "C": 10, "D": 1},
        [("D", 0, "R3.3-g"), ("C", 1, "R3.3-c")],
    )


def test_match_bonus_ladder_order_missing_player_refused():
    # A12 needs every player's ladder position.
    with pytest.raises(RuleError, match=r"^ladder_order is missing C and D$"):
        match_bonus_points(EQUAL_SUMS, ladder_order=["A", "B"])


def test_match_bonus_uneven_game_counts_refused():
    # R3.3-b: one entry per game for every player.
    results = {"A": [fin(7, 1)] * 4, "B": [fin(2, 2)] * 3}

    with pytest.raises(RuleError, match=r"^every player needs one entry per game"):
        match_bonus_points(results, ladder_order=["A", "B"])


@pytest.mark.parametrize(
    ("finish", "message"),
    [
        (fin(-1, 1), r"^A's points in game 1 must be a non-negative integer, got -1$"),
        (fin(7, 5), r"^A's place in game 1 must be 1 to 4$"),
        (fin(7, 0), r"^A's place in game 1 must be 1 to 4$"),
        (7, r"^A's game 1 must be a Finish or None$"),
    ],
)
def test_match_bonus_bad_finish_refused(finish, message):
    # R3.3-b: totals come from finishes (non-negative points, places 1 to 4).
    results = {"A": [finish], "B": [fin(1, 2)]}

    with pytest.raises(RuleError, match=message):
        match_bonus_points(results, ladder_order=["A", "B"])


# --- invariants (R3.3-c..g, A08, A11) -------------------------------------------------------------

PLAYERS = ["P1", "P2", "P3", "P4"]


@st.composite
def matches(draw):
    """A 3- or 4-player group's match: 4 real §3.2 games with random forfeits, scores, ties."""
    players = PLAYERS[: draw(st.sampled_from([3, 4]))]
    results = {p: [] for p in players}
    for _game in range(4):
        scores = {p: draw(st.one_of(st.none(), st.integers(0, 6))) for p in players}
        tied: dict[int, list[str]] = {}
        for player, score in scores.items():
            if score is not None:
                tied.setdefault(score, []).append(player)
        tie_order = [draw(st.permutations(g)) for g in tied.values() if len(g) > 1]
        game = score_game(scores, tie_order=tie_order)
        for player in players:
            results[player].append(game.finish(player))
    ladder_order = draw(st.permutations(players))
    return results, ladder_order


def included_count(results):
    return sum(1 for games in results.values() if games.count(None) < 3)


@given(matches())
def test_match_bonus_total_depends_on_included_players(match):
    # R3.3-d, R3.3-e: 2 points with 4 included; R3.3-c: 1 with 3 or 2; A11: 0 with 1 or none.
    results, ladder_order = match

    points = match_bonus_points(results, ladder_order=ladder_order)

    assert sum(points.values()) == {4: 2, 3: 1, 2: 1, 1: 0, 0: 0}[included_count(results)]


@given(matches())
def test_match_bonus_full_fifth_game_totals_like_a_game(match):
    # A08 alternative: place points plus bonuses total 18 / 13 / 9 like §3.2; A11: 0 for one.
    results, ladder_order = match
    ruleset = Ruleset(match_bonus_awards="full_fifth_game")

    points = match_bonus_points(results, ladder_order=ladder_order, ruleset=ruleset)

    assert sum(points.values()) == {4: 18, 3: 13, 2: 9, 1: 0, 0: 0}[included_count(results)]


@given(matches())
def test_match_bonus_excluded_players_get_nothing(match):
    # R3.3-g: 3 or more forfeits, no match bonus.
    results, ladder_order = match
    excluded = [p for p, games in results.items() if games.count(None) >= 3]

    points = match_bonus_points(results, ladder_order=ladder_order)

    assert {p: points[p] for p in excluded} == dict.fromkeys(excluded, 0)


@given(matches())
def test_match_bonus_order_holds_included_players_by_total(match):
    # R3.3-c, R3.3-f: the fifth game ranks each included player once, by total, best first.
    results, ladder_order = match
    included = sorted(p for p, games in results.items() if games.count(None) < 3)

    result = score_match_bonus(results, ladder_order=ladder_order)

    totals = [result.totals[p] for p in result.order]
    assert (sorted(result.order), totals) == (included, sorted(totals, reverse=True))
