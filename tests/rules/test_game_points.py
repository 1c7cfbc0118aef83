"""Game points (§3.2) and forfeits within a game (§2.4): R3.2-a..i, R2.4-b, R2.4-c, A09..A15, A63.

Every expected value is worked out by hand in the comments: place points, then each bonus test.
"""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import FWPL_V1, RuleError, Ruleset, game_points
from flipwell.rules.scoring import score_game

# --- two players (R3.2-a, R3.2-b, A09) ----------------------------------------------------------


def test_game_points_two_players_winner_over_three_times_gets_bonus():
    # R3.2-a, R3.2-b: 7 / 1; 301 > 3 x 100 = 300, so the bonus goes to the winner: 8 / 1.
    scores = {"A": 301, "B": 100}

    points = game_points(scores)

    assert points == {"A": 8, "B": 1}


def test_game_points_two_players_exactly_three_times_bonus_to_loser():
    # R3.2-b, A09 (strict): 300 > 3 x 100 = 300 is false, so the loser gets the bonus: 7 / 2.
    scores = {"A": 300, "B": 100}

    points = game_points(scores)

    assert points == {"A": 7, "B": 2}


def test_game_points_two_players_under_three_times_bonus_to_loser():
    # R3.2-b: 250 > 3 x 100 = 300 is false: 7 / 2. The winner listed second changes nothing.
    scores = {"B": 100, "A": 250}

    points = game_points(scores)

    assert points == {"A": 7, "B": 2}


def test_game_points_two_players_loser_zero_winner_gets_bonus():
    # A09, A13: a 0 is a score. 1 > 3 x 0 = 0, so the winner gets the bonus: 8 / 1.
    scores = {"A": 1, "B": 0}

    points = game_points(scores)

    assert points == {"A": 8, "B": 1}


def test_game_points_two_players_both_zero_bonus_to_playoff_loser():
    # A09, A15: 0 = 0 is a tie; the playoff put B first. B's 0 > 3 x 0 = 0 is false: B 7, A 1 + 1.
    scores = {"A": 0, "B": 0}

    points = game_points(scores, tie_order=[["B", "A"]])

    assert points == {"B": 7, "A": 2}


def test_game_points_two_players_one_and_a_half_billion_no_overflow():
    # A09: 3 x 1,500,000,000 = 4,500,000,000 does not fit 32 bits.
    # 4,500,000,001 > 4,500,000,000: bonus to A, 8 / 1.
    scores = {"A": 4_500_000_001, "B": 1_500_000_000}

    points = game_points(scores)

    assert points == {"A": 8, "B": 1}


def test_game_points_two_players_exactly_three_times_one_and_a_half_billion_bonus_to_loser():
    # A09: 4,500,000,000 > 3 x 1,500,000,000 = 4,500,000,000 is false: 7 / 2.
    scores = {"A": 4_500_000_000, "B": 1_500_000_000}

    points = game_points(scores)

    assert points == {"A": 7, "B": 2}


def test_game_points_two_players_scores_above_ten_to_the_twelve():
    # A09: arbitrary-size ints. 3 x 10**12 = 3 x 10**12 exactly; 3 x 10**12 + 1 exceeds it.
    exact = {"A": 3 * 10**12, "B": 10**12}
    above = {"A": 3 * 10**12 + 1, "B": 10**12}

    points_exact = game_points(exact)
    points_above = game_points(above)

    assert (points_exact, points_above) == ({"A": 7, "B": 2}, {"A": 8, "B": 1})


# --- three players (R3.2-c, R3.2-d) -------------------------------------------------------------


def test_game_points_three_players_winner_exceeds_sum_gets_bonus():
    # R3.2-c, R3.2-d: 7 / 4 / 1; 500 > 300 + 199 = 499, bonus to A: 8 / 4 / 1.
    scores = {"A": 500, "B": 300, "C": 199}

    points = game_points(scores)

    assert points == {"A": 8, "B": 4, "C": 1}


def test_game_points_three_players_winner_equals_sum_bonus_to_third():
    # R3.2-d (strict): 500 > 300 + 200 = 500 is false, bonus to C (3rd): 7 / 4 / 2.
    scores = {"A": 500, "B": 300, "C": 200}

    points = game_points(scores)

    assert points == {"A": 7, "B": 4, "C": 2}


def test_game_points_three_players_winner_below_sum_bonus_to_third():
    # R3.2-d: 100 > 60 + 50 = 110 is false: 7 / 4 / 2. Input order is irrelevant.
    scores = {"C": 50, "A": 100, "B": 60}

    points = game_points(scores)

    assert points == {"A": 7, "B": 4, "C": 2}


# --- four players (R3.2-e, R3.2-f, R3.2-g, A63) -------------------------------------------------


def test_game_points_four_players_first_bonus_to_winner_second_to_fourth():
    # R3.2-e: 7 / 5 / 3 / 1.
    # R3.2-f: 1000 > 400 + 300 = 700, bonus to A. R3.2-g: 400 > 300 + 200 = 500 false, to D.
    scores = {"A": 1000, "B": 400, "C": 300, "D": 200}

    points = game_points(scores)

    assert points == {"A": 8, "B": 5, "C": 3, "D": 2}


def test_game_points_four_players_second_bonus_to_second():
    # R3.2-f: 1000 > 600 + 300 = 900, to A. R3.2-g: 600 > 300 + 200 = 500, to B.
    scores = {"A": 1000, "B": 600, "C": 300, "D": 200}

    points = game_points(scores)

    assert points == {"A": 8, "B": 6, "C": 3, "D": 1}


def test_game_points_four_players_both_sums_equal_bonuses_to_third_and_fourth():
    # R3.2-f (strict): 700 > 400 + 300 = 700 false, to C.
    # R3.2-g (strict): 400 > 300 + 100 = 400 false, to D.  7 / 5 / 3+1 / 1+1.
    scores = {"A": 700, "B": 400, "C": 300, "D": 100}

    points = game_points(scores)

    assert points == {"A": 7, "B": 5, "C": 4, "D": 2}


def test_game_points_four_players_fourth_score_not_in_first_bonus_sum():
    # A63, R3.2-f: 1st is compared with 2nd + 3rd only: 1000 > 500 + 400 = 900, to A.
    # (Summing all others, 500 + 400 + 200 = 1100, would wrongly give it to C.)
    # R3.2-g: 500 > 400 + 200 = 600 false, to D.
    scores = {"A": 1000, "B": 500, "C": 400, "D": 200}

    points = game_points(scores)

    assert points == {"A": 8, "B": 5, "C": 3, "D": 2}


def test_game_points_zero_score_ranked_last_and_wins_second_bonus():
    # A13: D's 0 is a score, so this is a 4-player game. B and C tie at 500, playoff B first.
    # R3.2-f: 1000 > 500 + 500 = 1000 false, to C. R3.2-g: 500 > 500 + 0 = 500 false, to D.
    scores = {"A": 1000, "B": 500, "C": 500, "D": 0}

    points = game_points(scores, tie_order=[["B", "C"]])

    assert points == {"A": 7, "B": 5, "C": 4, "D": 2}


# --- forfeits and small games (R2.4-b, R2.4-c, A11, A13) ----------------------------------------


def test_game_points_one_forfeit_uses_three_player_scale():
    # R2.4-b: D forfeits, 0. R2.4-c: 3 scores, so 7 / 4 / 1; R3.2-d: 500 > 300 + 100, to A.
    scores = {"A": 500, "B": 300, "C": 100, "D": None}

    points = game_points(scores)

    assert points == {"A": 8, "B": 4, "C": 1, "D": 0}


def test_game_points_two_forfeits_use_two_player_scale():
    # R2.4-c: 2 scores, 7 / 1; R3.2-b: 90 > 3 x 30 = 90 false, to B. R2.4-b: C, D get 0.
    scores = {"A": 90, "B": 30, "C": None, "D": None}

    points = game_points(scores)

    assert points == {"A": 7, "B": 2, "C": 0, "D": 0}


def test_game_points_zero_score_is_not_a_forfeit():
    # A13: B's 0 keeps this a 2-player game (8 / 1: 10 > 3 x 0); as a forfeit A would get 7 alone.
    with_zero = {"A": 10, "B": 0}
    with_forfeit = {"A": 10, "B": None}

    points_zero = game_points(with_zero)
    points_forfeit = game_points(with_forfeit)

    assert (points_zero, points_forfeit) == ({"A": 8, "B": 1}, {"A": 7, "B": 0})


def test_game_points_single_player_gets_seven_and_no_bonus():
    # A11: one eligible player gets 7, with no bonus test; R2.4-b: the three forfeits get 0.
    scores = {"A": 0, "B": None, "C": None, "D": None}

    points = game_points(scores)

    assert points == {"A": 7, "B": 0, "C": 0, "D": 0}


@pytest.mark.parametrize("single", [8, 0])
def test_game_points_single_player_follows_ruleset(single):
    # A11 alternatives: `single_player_game_points` = 8 or 0.
    ruleset = Ruleset(single_player_game_points=single)

    points = game_points({"A": 12_345, "B": None}, ruleset=ruleset)

    assert points == {"A": single, "B": 0}


def test_game_points_everyone_forfeits_no_points():
    # A11, R2.4-b: nobody present, nobody gets points.
    scores = {"A": None, "B": None, "C": None}

    points = game_points(scores)

    assert points == {"A": 0, "B": 0, "C": 0}


def test_game_points_no_players_no_points():
    # A11: an empty game awards nothing.
    points = game_points({})

    assert points == {}


def test_game_points_five_players_refused():
    # R4-a: groups hold at most 4, so a game has at most 4 scores.
    scores = {"A": 5, "B": 4, "C": 3, "D": 2, "E": 1}

    with pytest.raises(RuleError, match=r"^a game has 1 to 4 players, got 5$"):
        game_points(scores)


# --- ties (R3.2-i, A15) ---------------------------------------------------------------------


def test_game_points_unresolved_tie_refused_naming_players():
    # R3.2-i, A15: a tie without a recorded playoff order cannot be scored.
    scores = {"B": 100, "A": 100, "C": 50}

    with pytest.raises(RuleError, match=r"^unresolved tie between A and B at 100: "):
        game_points(scores)


def test_game_points_unresolved_three_way_tie_names_all_players():
    # R3.2-i: every tied player is named.
    scores = {"C": 7, "A": 7, "B": 7, "D": 1}

    with pytest.raises(RuleError, match=r"^unresolved tie between A, B and C at 7: "):
        game_points(scores)


def test_game_points_unresolved_zero_tie_refused():
    # A15: two penalty zeros still need an order.
    scores = {"A": 100, "B": 0, "C": 0}

    with pytest.raises(RuleError, match=r"^unresolved tie between B and C at 0: "):
        game_points(scores)


def test_game_points_tie_follows_recorded_order_with_bonus_on_equal_scores():
    # R3.2-i: the playoff put B above A. A15: the bonus test uses the equal machine scores:
    # B's 100 > A's 100 + C's 50 = 150 is false, bonus to C (3rd). 7 / 4 / 1 + 1.
    scores = {"A": 100, "B": 100, "C": 50}

    points = game_points(scores, tie_order=[["B", "A"]])

    assert points == {"B": 7, "A": 4, "C": 2}


def test_game_points_two_ties_in_four_player_game():
    # R3.2-i, A15: orders A over B and D over C give A, B, D, C.
    # R3.2-f: 100 > 100 + 10 = 110 false, to D (3rd). R3.2-g: 100 > 10 + 10 = 20, to B.
    scores = {"A": 100, "B": 100, "C": 10, "D": 10}

    points = game_points(scores, tie_order=[["A", "B"], ["D", "C"]])

    assert points == {"A": 7, "B": 6, "D": 4, "C": 1}


def test_game_points_tie_order_for_untied_player_refused():
    # R3.2-i: a tie order may only order players whose machine scores are equal.
    scores = {"A": 300, "B": 200, "C": 100}

    with pytest.raises(RuleError, match=r"^tie order \(A\) must name at least two players"):
        game_points(scores, tie_order=[["A"]])


def test_game_points_tie_order_of_different_scores_refused():
    # R3.2-i: A (300) and C (100) are not tied.
    scores = {"A": 300, "B": 200, "C": 100}

    with pytest.raises(
        RuleError, match=r"^tie order \(A and C\) groups players whose machine scores differ"
    ):
        game_points(scores, tie_order=[["A", "C"]])


def test_game_points_tie_order_missing_a_tied_player_refused():
    # R3.2-i: A, B and C all tie at 100; ordering only two of them leaves the tie open.
    scores = {"A": 100, "B": 100, "C": 100, "D": 5}

    with pytest.raises(
        RuleError, match=r"^tie order \(A and B\) must list every player tied at 100: A, B and C"
    ):
        game_points(scores, tie_order=[["A", "B"]])


def test_game_points_tie_order_unknown_player_refused():
    # R3.2-i: Z is not in this game.
    scores = {"A": 100, "B": 100}

    with pytest.raises(RuleError, match=r"^tie order names Z, who has no machine score"):
        game_points(scores, tie_order=[["A", "Z"]])


def test_game_points_tie_order_with_forfeit_refused():
    # R3.2-i, R2.4-b: a forfeiting player has no score to tie with.
    scores = {"A": 100, "B": 100, "C": None}

    with pytest.raises(RuleError, match=r"^tie order names C, who has no machine score"):
        game_points(scores, tie_order=[["A", "B", "C"]])


def test_game_points_tie_order_player_twice_refused():
    # R3.2-i: an order lists each player once.
    scores = {"A": 100, "B": 100}

    with pytest.raises(RuleError, match=r"^A appears twice in a tie order$"):
        game_points(scores, tie_order=[["A", "A"]])


def test_game_points_tie_order_player_in_two_orders_refused():
    # R3.2-i: one tie, one order.
    scores = {"A": 100, "B": 100}

    with pytest.raises(RuleError, match=r"^B appears in two tie orders$"):
        game_points(scores, tie_order=[["A", "B"], ["B", "A"]])


def test_game_points_tie_order_as_bare_string_refused():
    # R3.2-i: "AB" is not a list of players (it would be read as players "A" and "B").
    scores = {"A": 100, "B": 100}

    with pytest.raises(RuleError, match=r"^a tie order must be a list of players, got 'AB'$"):
        game_points(scores, tie_order=["AB"])


# --- bad input (ENFORCE, STYLE.md §9) -------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "shown"),
    [(-5, "-5"), (1.5, "1.5"), ("10", "'10'"), (True, "True"), (10.0, "10.0")],
)
def test_game_points_bad_score_refused_with_message(bad, shown):
    # R3.2-a..g compare machine scores, which are non-negative integers.
    scores = {"A": 100, "B": bad}

    with pytest.raises(RuleError) as error:
        game_points(scores)

    assert str(error.value) == f"B's machine score must be a non-negative integer, got {shown}"


@pytest.mark.parametrize("bad_player", ["", "   ", 7])
def test_game_points_bad_player_id_refused(bad_player):
    # A player is a non-empty string id.
    scores = {bad_player: 100, "B": 50}

    with pytest.raises(RuleError, match=r"^player must be a non-empty string"):
        game_points(scores)


# --- explanations -------------------------------------------------------------------------------


def test_score_game_explanation_lines_cite_rules_and_add_up():
    # R3.2-e, R3.2-f, R3.2-g, R2.4-b: one line per award, each citing its rule.
    # 4 present: 1000 > 400 + 300 (to A); 400 > 300 + 200 false (to D).
    scores = {"A": 1000, "B": 400, "C": 300, "D": 200, "E": None}

    result = score_game(scores)

    rules = [(line.player, line.points, line.rule) for line in result.lines]
    assert rules == [
        ("E", 0, "R2.4-b"),
        ("A", 7, "R3.2-e"),
        ("B", 5, "R3.2-e"),
        ("C", 3, "R3.2-e"),
        ("D", 1, "R3.2-e"),
        ("A", 1, "R3.2-f"),
        ("D", 1, "R3.2-g"),
    ]


def test_score_game_explanation_of_exact_triple_says_bonus_to_loser():
    # R3.2-b, A09: the reason shows the comparison that failed.
    result = score_game({"A": 300, "B": 100})

    bonus = [line.reason for line in result.lines if line.rule == "R3.2-b"]
    assert bonus == ["A's 300 ≤ 3 × B's 100 = 300: bonus to B"]


def test_score_game_explanation_renders_players_by_the_names_given():
    # R3.2-g: the reason is a template; the players are keys a front end writes as names.
    result = score_game({"7": 1000, "8": 400, "9": 300, "10": 200})
    line = next(x for x in result.lines if x.rule == "R3.2-g")

    assert (line.reason, line.players) == (
        "8's 400 < 9 + 10's 500 (must exceed): bonus to 10",
        {"a": "8", "b": "9", "c": "10", "to": "10"},
    )
    assert line.render({"8": "Cal Brooks", "9": "Dee Cruz", "10": "Eli Dunn"}) == (
        "Cal Brooks's 400 < Dee Cruz + Eli Dunn's 500 (must exceed): bonus to Eli Dunn"
    )


# --- invariants (R3.2-h) ------------------------------------------------------------------------

PLAYERS = ["P1", "P2", "P3", "P4"]
# Small scores make ties frequent; huge ones check arbitrary-size arithmetic (A09).
SCORE = st.one_of(st.none(), st.integers(0, 5), st.integers(0, 10**15))


@st.composite
def games(draw):
    """A game of 0..4 players (None = forfeit), with a playoff order for every tie."""
    players = draw(st.lists(st.sampled_from(PLAYERS), unique=True, max_size=4))
    scores = {p: draw(SCORE) for p in players}
    tied: dict[int, list[str]] = {}
    for player, score in scores.items():
        if score is not None:
            tied.setdefault(score, []).append(player)
    tie_order = [draw(st.permutations(group)) for group in tied.values() if len(group) > 1]
    return scores, tie_order


EXPECTED_TOTAL = {4: 18, 3: 13, 2: 9, 1: 7, 0: 0}  # R3.2-h, A11


@given(games())
def test_game_points_total_depends_only_on_present_players(game):
    # R3.2-h: 7+5+3+1+2 = 18, 7+4+1+1 = 13, 7+1+1 = 9; A11: 7 alone; nobody: 0.
    scores, tie_order = game
    present = sum(1 for s in scores.values() if s is not None)

    points = game_points(scores, tie_order=tie_order)

    assert sum(points.values()) == EXPECTED_TOTAL[present]


@given(games())
def test_game_points_forfeits_get_zero_and_every_player_is_scored(game):
    # R2.4-b: forfeits get 0; every player of the game appears in the result.
    scores, tie_order = game

    points = game_points(scores, tie_order=tie_order)

    forfeits = [p for p, s in scores.items() if s is None]
    assert sorted(points) == sorted(scores)
    assert {p: points[p] for p in forfeits} == dict.fromkeys(forfeits, 0)


@given(games())
def test_game_points_better_score_never_earns_fewer_points(game):
    # R3.2-a..g: a higher machine score never ends with fewer game points than a lower one.
    scores, tie_order = game
    present = {p: s for p, s in scores.items() if s is not None}

    points = game_points(scores, tie_order=tie_order)

    inversions = [
        (a, b)
        for a in present
        for b in present
        if present[a] > present[b] and points[a] < points[b]
    ]
    assert inversions == []


@given(games())
def test_score_game_every_present_player_gets_exactly_one_place(game):
    # R3.2-i: the finishing order holds each present player once; forfeits hold no place.
    scores, tie_order = game
    present = sorted(p for p, s in scores.items() if s is not None)

    result = score_game(scores, tie_order=tie_order)

    assert sorted(result.order) == present
    assert sorted(result.place(p) for p in present) == list(range(1, len(present) + 1))


@given(games())
def test_score_game_explanation_lines_sum_to_points(game):
    # Every point is explained: per player, the lines add up to his game points.
    scores, tie_order = game

    result = score_game(scores, tie_order=tie_order)

    explained = dict.fromkeys(scores, 0)
    for line in result.lines:
        explained[line.player] += line.points
    assert explained == result.points


@given(games())
def test_game_points_place_points_follow_the_scale(game):
    # R3.2-a, R3.2-c, R3.2-e: removing the (at most two) bonus points leaves 7/5/3/1, 7/4/1, 7/1.
    scores, tie_order = game

    result = score_game(scores, tie_order=tie_order)

    bonus_rules = {"R3.2-b", "R3.2-d", "R3.2-f", "R3.2-g"}
    place_points = [
        line.points
        for line in result.lines
        if line.rule not in bonus_rules | {"R2.4-b", "R3.2-i"}  # forfeits and tie notes
    ]
    scale = {4: [7, 5, 3, 1], 3: [7, 4, 1], 2: [7, 1], 1: [FWPL_V1.single_player_game_points]}
    assert place_points == scale.get(len(result.order), [])


def test_score_game_explains_the_tie_playoff_that_decided_the_places():
    """issue 27 §4, R3.2-i, A15: each tied player's place names the tie and the playoff."""
    scores = {"Ann": 1_000_000, "Ben": 1_000_000, "Cy": 20}

    result = score_game(scores, tie_order=[["Ann", "Ben"]])

    notes = [line.reason for line in result.lines if line.rule == "R3.2-i"]
    assert notes == [
        "Ann and Ben tied at 1,000,000: Ann won the one-ball playoff, so finished 1st",
        "Ann and Ben tied at 1,000,000: Ben lost the one-ball playoff, so finished 2nd",
    ]
    assert all(line.points == 0 for line in result.lines if line.rule == "R3.2-i")
