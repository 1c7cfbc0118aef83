"""Group sizes (§4.1), the ladder (§3.1, §4.2, §4.3): R3.1-a..c, R4-a, R4.1-a..c, R4.2-a..b,
R4.3-a..c, A16, A18.
"""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import Entrant, RuleError, Ruleset, group_sizes, initial_ladder, ladder
from flipwell.rules.grouping import alphabetical, proposed_group_numbers, split_into_groups

# R4.1-b: the rulebook's table, copied literally from §4.1 (6 to 32 players).
RULEBOOK_TABLE = {
    6: [3, 3],
    7: [4, 3],
    8: [4, 4],
    9: [3, 3, 3],
    10: [4, 3, 3],
    11: [4, 4, 3],
    12: [4, 4, 4],
    13: [4, 3, 3, 3],
    14: [4, 4, 3, 3],
    15: [4, 4, 4, 3],
    16: [4, 4, 4, 4],
    17: [4, 4, 3, 3, 3],
    18: [4, 4, 4, 3, 3],
    19: [4, 4, 4, 4, 3],
    20: [4, 4, 4, 4, 4],
    21: [4, 4, 4, 3, 3, 3],
    22: [4, 4, 4, 4, 3, 3],
    23: [4, 4, 4, 4, 4, 3],
    24: [4, 4, 4, 4, 4, 4],
    25: [4, 4, 4, 4, 3, 3, 3],
    26: [4, 4, 4, 4, 4, 3, 3],
    27: [4, 4, 4, 4, 4, 4, 3],
    28: [4, 4, 4, 4, 4, 4, 4],
    29: [4, 4, 4, 4, 4, 3, 3, 3],
    30: [4, 4, 4, 4, 4, 4, 3, 3],
    31: [4, 4, 4, 4, 4, 4, 4, 3],
    32: [4, 4, 4, 4, 4, 4, 4, 4],
}


def test_group_sizes_match_rulebook_table_6_to_32():
    # R4.1-a, R4.1-b, R3.1-c: every row of the §4.1 table.
    sizes = {n: group_sizes(n) for n in range(6, 33)}

    assert sizes == RULEBOOK_TABLE


# A16: beyond 32, g = ⌈n/4⌉ groups with 4g − n threes at the bottom, worked out per n as
# (fours, threes): 33 -> 9 groups, 36 − 33 = 3 threes, 6 fours; 34 -> 9, 2, 7; ... 48 -> 12, 0.
BEYOND_TABLE = {
    33: (6, 3),
    34: (7, 2),
    35: (8, 1),
    36: (9, 0),
    37: (7, 3),
    38: (8, 2),
    39: (9, 1),
    40: (10, 0),
    41: (8, 3),
    42: (9, 2),
    43: (10, 1),
    44: (11, 0),
    45: (9, 3),
    46: (10, 2),
    47: (11, 1),
    48: (12, 0),
}


@pytest.mark.parametrize(("n", "fours_threes"), sorted(BEYOND_TABLE.items()))
def test_group_sizes_beyond_table_33_to_48_formula(n, fours_threes):
    # A16: same rule beyond the table, threes at the bottom (R3.1-c).
    fours, threes = fours_threes

    sizes = group_sizes(n)

    assert sizes == [4] * fours + [3] * threes


@pytest.mark.parametrize(("n", "expected"), [(3, [3]), (4, [4])])
def test_group_sizes_three_or_four_players_one_group(n, expected):
    # A16: a league night with 3 or 4 players present is one group.
    assert group_sizes(n) == expected


def test_group_sizes_five_players_refused():
    # A16, R4-a, R4.1-c: 5 = 4 + 1 or 3 + 2, and neither a 5 nor a 2 may be scheduled.
    with pytest.raises(RuleError, match=r"^5 players cannot be split into groups of 3 and 4"):
        group_sizes(5)


def test_group_sizes_no_players_no_groups():
    # A16: nobody to group makes no groups (and the sizes still sum to n = 0).
    assert group_sizes(0) == []


@pytest.mark.parametrize("n", [1, 2])
def test_group_sizes_fewer_than_three_players_refused(n):
    # A16: "n ≤ 2 means no match"; R4.1-c: no scheduled match has fewer than 3 players.
    with pytest.raises(RuleError, match=rf"^{n} players? cannot be grouped: a match needs"):
        group_sizes(n)


@pytest.mark.parametrize("bad", [-1, True, 6.0, "6"])
def test_group_sizes_bad_count_refused(bad):
    # The number of players is a whole number.
    with pytest.raises(RuleError, match=r"^number of players must be an integer of at least 0"):
        group_sizes(bad)


@given(st.integers(3, 500).filter(lambda n: n != 5))
def test_group_sizes_invariants(n):
    # R4-a: only 3s and 4s; R4.1-a: as many 4s as possible, so at most three 3-groups;
    # R3.1-c: the 3-groups at the bottom (non-increasing); the groups hold all n players.
    sizes = group_sizes(n)

    assert sum(sizes) == n
    assert set(sizes) <= {3, 4}
    assert sizes == sorted(sizes, reverse=True)
    assert sizes.count(3) <= 3


@given(st.integers(3, 500).filter(lambda n: n != 5))
def test_group_sizes_use_fewest_groups(n):
    # R4.1-a: "as many groups of four as possible": one group fewer could not hold n players.
    sizes = group_sizes(n)

    assert 4 * (len(sizes) - 1) < n


# --- cutting the ladder (R3.1-a, R4.2-a, R4.2-b) ------------------------------------------------


def test_split_into_groups_top_of_ladder_first():
    # R3.1-a, R4.2-a, R4.2-b: 7 players -> 4 3; the top four play together, the bottom three too.
    players = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]

    groups = split_into_groups(players, group_sizes(7))

    assert groups == [["p1", "p2", "p3", "p4"], ["p5", "p6", "p7"]]


def test_split_into_groups_thirteen_players():
    # R4.2-b, R4.1-b: 13 -> 4 3 3 3.
    players = [f"p{i}" for i in range(1, 14)]

    groups = split_into_groups(players, group_sizes(13))

    assert groups == [
        ["p1", "p2", "p3", "p4"],
        ["p5", "p6", "p7"],
        ["p8", "p9", "p10"],
        ["p11", "p12", "p13"],
    ]


@pytest.mark.parametrize("sizes", [[4, 2], [5, 1], [2, 2, 2]])
def test_split_into_groups_refuses_groups_outside_three_and_four(sizes):
    # R4-a, R4.1-c: a scheduled group has 3 or 4 players.
    players = ["a", "b", "c", "d", "e", "f"]

    with pytest.raises(RuleError, match=r"^a scheduled group has 3 or 4 players"):
        split_into_groups(players, sizes)


def test_split_into_groups_sizes_must_cover_ladder():
    # R4.2-b: every player on the ladder is in exactly one group.
    with pytest.raises(RuleError, match=r"^group sizes \[4\] add up to 4, not 7$"):
        split_into_groups(["a", "b", "c", "d", "e", "f", "g"], [4])


# --- proposed groups when an official starts a meet (§4.1, R4.1-d) ------------------------------


def test_proposed_group_numbers_follow_the_group_size_table():
    # R4.1-b, R4.2-b: 7 players are a 4 and a 3; the LO may spread them over up to 3 groups.
    assert proposed_group_numbers(7) == ([1, 1, 1, 1, 2, 2, 2], 3)


def test_proposed_group_numbers_for_players_that_cannot_be_grouped():
    # A16, R4.1-d: 5 players have no §4.1 grouping: fours from the top, the rest last, for the
    # LO to override; he may use 2 groups.
    assert proposed_group_numbers(5) == ([1, 1, 1, 1, 2], 2)


def test_proposed_group_numbers_no_players_one_group_offered():
    # R4.1-d: nobody present: no proposal, one group to choose.
    assert proposed_group_numbers(0) == ([], 1)


# --- the initial ladder (R3.1-b, R4.3-a, R4.3-b, A18) --------------------------------------------


def entrant(player, first, last, rank=None):
    return Entrant(player=player, first_name=first, last_name=last, ifpa_rank=rank)


def test_initial_ladder_by_ifpa_rank_best_first():
    # R3.1-b, R4.3-a: week 1 is seeded by IFPA rank, 1 is best.
    entrants = [
        entrant("c", "Cy", "Cole", 5000),
        entrant("a", "Al", "Avery", 12),
        entrant("b", "Bo", "Banks", 300),
    ]

    order = initial_ladder(entrants)

    assert order == ["a", "b", "c"]


def test_initial_ladder_unranked_below_ranked_alphabetical_by_last_then_first():
    # R4.3-b, A18.2-3: unranked after every ranked player (even rank 90,000), then last name,
    # then first name.
    entrants = [
        entrant("u1", "Zoe", "Adams"),
        entrant("r1", "Yan", "Young", 90_000),
        entrant("u2", "Anna", "Baker"),
        entrant("u3", "Abe", "Adams"),
    ]

    order = initial_ladder(entrants)

    assert order == ["r1", "u3", "u1", "u2"]


def test_initial_ladder_unranked_case_insensitive():
    # R4.3-b, A18.2: "de Vries" files between "Dawson" and "Dunn", not after "Zane" as "d" > "Z".
    entrants = [
        entrant("z", "Zed", "Zane"),
        entrant("v", "Vera", "de Vries"),
        entrant("w", "Will", "Dawson"),
        entrant("d", "Dot", "Dunn"),
    ]

    order = initial_ladder(entrants)

    assert order == ["w", "v", "d", "z"]


def test_initial_ladder_unranked_unicode_casefold():
    # A18.2: Unicode casefold: "STRASSE" and "straße" fold to the same "strasse", so the first
    # names decide (Anna before Bert); "Ölsen" (Ö folds to ö) files with the Os, before "Pike".
    entrants = [
        entrant("p", "Pia", "Pike"),
        entrant("s2", "Bert", "straße"),
        entrant("o", "Otto", "Ölsen"),
        entrant("s1", "Anna", "STRASSE"),
    ]

    order = initial_ladder(entrants)

    assert order == ["o", "p", "s1", "s2"]


def test_initial_ladder_unranked_accented_initial_stays_in_its_letter():
    # R4.3-b "alphabetically": Émile Éclair files among the Es, not after Zane (É > Z in code
    # points); a name typed decomposed (E + combining acute) sorts the same as composed.
    entrants = [
        entrant("z", "Zed", "Zane"),
        entrant("e2", "Emma", "E\u0301clair"),
        entrant("f", "Fay", "Fox"),
        entrant("e1", "Ada", "\u00c9clair"),
        entrant("d", "Dan", "Dale"),
    ]

    order = initial_ladder(entrants)

    assert order == ["d", "e1", "e2", "f", "z"]


def test_initial_ladder_accented_name_files_beside_its_base_letter():
    # A64: "Éclair" files beside "Eclair" (before "Zane"); unaccented last, then first name
    # decide first, so Ada Éclair precedes Bob Eclair; the accent only breaks an equal tie
    # (Ann Eclair before Ann Éclair).
    entrants = [
        entrant("z", "Al", "Zane"),
        entrant("ann_acute", "Ann", "\u00c9clair"),
        entrant("bob", "Bob", "Eclair"),
        entrant("ada_acute", "Ada", "\u00c9clair"),
        entrant("ann", "Ann", "Eclair"),
    ]

    order = initial_ladder(entrants)

    assert order == ["ada_acute", "ann", "ann_acute", "bob", "z"]


def test_initial_ladder_accented_first_name_files_under_base_letter():
    # A64, A18.2: with equal last names the first name decides, accents under their base
    # letter: Ève before Fay, Zoé after Zoe.
    entrants = [
        entrant("fay", "Fay", "Lee"),
        entrant("zoe_acute", "Zo\u00e9", "Lee"),
        entrant("eve", "\u00c8ve", "Lee"),
        entrant("zoe", "Zoe", "Lee"),
    ]

    order = initial_ladder(entrants)

    assert order == ["eve", "fay", "zoe", "zoe_acute"]


def test_alphabetical_ignores_ifpa_rank_and_files_accents_under_base_letter():
    # A64, R4.3-b: any list "alphabetically": Éclair beside Eclair, before Zane; rank ignored.
    entrants = [
        entrant("z", "Al", "Zane", 1),
        entrant("e_acute", "Ann", "\u00c9clair"),
        entrant("e", "Ann", "Eclair", 5),
    ]

    assert alphabetical(entrants) == ["e", "e_acute", "z"]


def test_initial_ladder_first_last_alternative():
    # A18.2 alternative `unranked_sort = "first_last_casefold"`: first name, then last name.
    entrants = [entrant("x", "Bea", "Adams"), entrant("y", "Al", "Zane")]
    ruleset = Ruleset(unranked_sort="first_last_casefold")

    order = initial_ladder(entrants, ruleset=ruleset)

    assert order == ["y", "x"]


def test_initial_ladder_does_not_depend_on_input_order():
    # R4.3-a, R4.3-b: equal IFPA ranks and identical names still give one order (by id).
    forward = [entrant("b", "Sam", "Lee", 7), entrant("a", "Sam", "Lee", 7)]

    order_forward = initial_ladder(forward)
    order_backward = initial_ladder(list(reversed(forward)))

    assert (order_forward, order_backward) == (["a", "b"], ["a", "b"])


@pytest.mark.parametrize("rank", [0, -3, True, "12", 1.0])
def test_initial_ladder_bad_ifpa_rank_refused(rank):
    # R4.3-a: an IFPA rank is a positive integer (or None for unranked).
    entrants = [entrant("a", "Al", "Avery", rank)]

    with pytest.raises(RuleError, match=r"^a's IFPA rank must be a positive integer"):
        initial_ladder(entrants)


def test_initial_ladder_duplicate_player_refused():
    # R4.2-a: one ladder place per player.
    entrants = [entrant("a", "Al", "Avery", 1), entrant("a", "Al", "Avery", 2)]

    with pytest.raises(RuleError, match=r"^a appears twice in the entrants$"):
        initial_ladder(entrants)


def test_initial_ladder_name_must_be_text():
    # R4.3-b sorts names, so a missing name is refused with the player named.
    entrants = [entrant("a", "Al", None)]

    with pytest.raises(RuleError, match=r"^a's last_name must be a string, got None$"):
        initial_ladder(entrants)


# --- later ladders (R3.1-b, R4.3-c, A18, A19) --------------------------------------------------


def test_ladder_by_season_points_best_first():
    # R3.1-b, R4.3-c: later meets are ranked by season league points only; the previous
    # ladder (and so IFPA rank) does not outweigh points.
    points = {"a": 10, "b": 30, "c": 20}

    order = ladder(points, previous=["a", "b", "c"])

    assert order == ["b", "c", "a"]


def test_ladder_ties_keep_previous_order():
    # A18.1: equal points, the better previous ladder position ranks higher.
    points = {"a": 20, "b": 20, "c": 20, "d": 35}

    order = ladder(points, previous=["c", "a", "d", "b"])

    assert order == ["d", "c", "a", "b"]


def test_ladder_exact_fraction_points_from_forfeit_credit():
    # A14.2, A19: a 19.75 credit counts exactly: 19.75 is below 20 and above 19.5.
    points = {"a": Fraction(79, 4), "b": 20, "c": Fraction(39, 2)}

    order = ladder(points, previous=["c", "a", "b"])

    assert order == ["b", "a", "c"]


def test_ladder_newcomer_below_equal_points_players():
    # A18.4: a newcomer with 0 points ranks below existing players on 0, and above nobody with
    # more; newcomers among themselves by player id.
    points = {"old": 0, "new2": 0, "new1": 0, "top": 5}

    order = ladder(points, previous=["old", "top", "gone"])

    assert order == ["top", "old", "new1", "new2"]


def test_ladder_leaves_out_players_without_points_entry():
    # R4.3-c, A17: only the players given (present, eligible) are on the ladder.
    order = ladder({"a": 3, "b": 4}, previous=["a", "b", "forfeited_season"])

    assert order == ["b", "a"]


@pytest.mark.parametrize("bad", [1.5, -1, "3", True])
def test_ladder_bad_points_refused(bad):
    # A14.2: league points are exact and non-negative; floats are refused.
    with pytest.raises(RuleError, match=r"^a's league points must"):
        ladder({"a": bad}, previous=[])


def test_ladder_previous_with_duplicate_refused():
    # A18.1: the previous ladder lists each player once.
    with pytest.raises(RuleError, match=r"^a appears twice in the previous ladder$"):
        ladder({"a": 1}, previous=["a", "a"])


@given(
    st.dictionaries(
        st.sampled_from([f"p{i}" for i in range(12)]),
        st.integers(0, 6).map(lambda k: Fraction(k, 2)),
    ),
    st.permutations([f"p{i}" for i in range(12)]),
)
def test_ladder_is_a_ranking_by_points_then_previous_position(points, previous):
    # R4.3-c, A18.1: every player once, points non-increasing, ties in previous order.
    order = ladder(points, previous=previous)

    keys = [(-points[p], previous.index(p)) for p in order]
    assert (sorted(order), keys) == (sorted(points), sorted(keys))


def test_split_into_groups_refuses_a_two_player_group():
    # A16, R4.1-c: a 2-player group is never scheduled.
    with pytest.raises(RuleError, match=r"a scheduled group has 3 or 4 players, got 2"):
        split_into_groups(["a", "b"], [2])
