"""The playoff race (§6.1, §6.2): clinched, eliminated or alive, from season league points."""

from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules.errors import RuleError
from flipwell.rules.forfeits import night_forfeit_credit
from flipwell.rules.match_bonus import match_bonus_points
from flipwell.rules.playoffs import playoff_qualifier_count
from flipwell.rules.race import (
    MAX_MEET_POINTS,
    RaceStanding,
    max_meet_points,
    playoff_race,
)
from flipwell.rules.ruleset import FWPL_V1, Ruleset
from flipwell.rules.scoring import game_points
from flipwell.rules.values import Finish
from flipwell.rules.values import PlayoffCandidate as C

TEN = [
    C(player, points)
    for player, points in zip(
        "abcdefghij", (200, 190, 180, 170, 160, 150, 140, 130, 100, 90), strict=True
    )
]


def summary(race):
    return [(s.player, s.status, s.clinch_line, s.points_to_clinch) for s in race.standings]


def refusal(action):
    with pytest.raises(RuleError) as caught:
        action()
    return str(caught.value)


# --- The meet maximum -----------------------------------------------------------------------


def test_max_meet_points_default_is_33():
    """R3.2-e, R3.3-d: 4 games × (7 + 1 bonus point) + 1 match bonus point."""
    assert (max_meet_points(), MAX_MEET_POINTS) == (33, 33)


def test_max_meet_points_full_fifth_game_is_40():
    """A08 alternative: the fifth game pays 7 + 1 like a game, so 32 + 8."""
    assert max_meet_points(ruleset=Ruleset(match_bonus_awards="full_fifth_game")) == 40


@pytest.mark.parametrize(("lone", "expected"), [(0, 33), (7, 33), (8, 33)])
def test_max_meet_points_single_player_game_points_never_raise_it(lone, expected):
    """A11: a lone player's 7, 8 or 0 never beats the winner's 7 + bonus."""
    assert max_meet_points(ruleset=Ruleset(single_player_game_points=lone)) == expected


def test_max_meet_points_is_reached_by_scoring_a_real_match():
    """R3.2-c, R3.2-d, R3.3-c: winning 4 three-player games with the bonus, then the match bonus."""
    game = game_points({"ann": 1000, "bob": 10, "cal": 5})
    finishes = {p: [Finish(points=game[p], place=i)] * 4 for i, p in enumerate(game, 1)}

    bonus = match_bonus_points(finishes, ladder_order=["ann", "bob", "cal"])

    assert 4 * game["ann"] + bonus["ann"] == max_meet_points()


@given(
    st.sampled_from([FWPL_V1, Ruleset(match_bonus_awards="full_fifth_game")]),
    st.integers(min_value=2, max_value=4),
    st.lists(
        st.lists(st.integers(0, 10**9), min_size=4, max_size=4, unique=True),
        min_size=4,
        max_size=4,
    ),
)
def test_max_meet_points_bounds_every_scored_match(ruleset, size, games):
    """R3.2-h, R3.3-b: no player's league points at a meet exceed the meet maximum."""
    players = ["ann", "bob", "cal", "dee"][:size]
    results = {p: [] for p in players}
    for scores in games:
        points = game_points(dict(zip(players, scores, strict=False)), ruleset=ruleset)
        order = sorted(players, key=lambda p, s=scores: -s[players.index(p)])
        for p in players:
            results[p].append(Finish(points=points[p], place=order.index(p) + 1))

    bonus = match_bonus_points(results, ladder_order=players, ruleset=ruleset)
    totals = [sum(f.points for f in results[p]) + bonus[p] for p in players]

    assert max(totals) <= max_meet_points(ruleset=ruleset)


@given(
    st.lists(st.integers(0, MAX_MEET_POINTS), min_size=1, max_size=20),
    st.sampled_from(["none", "half_up", "down"]),
)
def test_max_meet_points_bounds_the_all_night_credit(nights, rounding):
    """R2.4-d: the 50% credit is at most half a meet maximum, so never more than one."""
    credit = night_forfeit_credit(
        nights, credit_used=False, ruleset=Ruleset(forfeit_credit_rounding=rounding)
    )

    assert credit <= MAX_MEET_POINTS


# --- Examples -------------------------------------------------------------------------------


def test_playoff_race_one_meet_left_classifies_everyone():
    """R6.1-d, R6.2-a, R6.1-e: 10 players, q = 8, one meet (33 points) left."""
    race = playoff_race(TEN, meets_left=1)

    assert race.qualifiers == 8
    assert summary(race) == [
        ("a", "clinched", 133, 0),
        ("b", "clinched", 133, 0),
        ("c", "clinched", 133, 0),
        ("d", "clinched", 133, 0),
        ("e", "clinched", 133, 0),
        ("f", "clinched", 133, 0),
        ("g", "clinched", 133, 0),
        # h must pass i's best possible 100 + 33: 4 more points.
        ("h", "alive", 133, 4),
        # i can pass only if h drops points: he needs 64 but can earn 33.
        ("i", "alive", 163, 64),
        # a..h (8 players) already have more than j's best possible 123.
        ("j", "eliminated", 163, None),
    ]


def test_playoff_race_equal_to_clinch_line_is_not_clinched():
    """R6.1-e: a tie at the line goes to a single-ball playoff, so a tie never clinches."""
    field = [
        *TEN[:7],
        C("h", 133),
        C("i", 100),
        C("j", 90),
    ]

    race = playoff_race(field, meets_left=1)

    assert (race.status("h"), race.standings[7].points_to_clinch) == ("alive", 1)


def test_playoff_race_one_point_above_clinch_line_clinches():
    """R6.1-d, R6.1-e: strictly more than the 8th best rival's best possible total clinches."""
    field = [
        *TEN[:7],
        C("h", 134),
        C("i", 100),
        C("j", 90),
    ]

    assert playoff_race(field, meets_left=1).status("h") == "clinched"


def test_playoff_race_best_possible_equal_to_rivals_is_alive():
    """R6.1-e: j could tie the 8th rival at the line and win the single-ball playoff."""
    field = [
        *TEN[:7],
        C("h", 123),
        C("i", 100),
        C("j", 90),
    ]

    race = playoff_race(field, meets_left=1)

    assert (race.status("j"), race.standings[-1].best_possible) == ("alive", 123)


def test_playoff_race_no_meets_left_tie_at_line_is_alive():
    """R6.1-e: with the season over, players tied at the cut await a single-ball playoff."""
    points = (100, 90, 80, 70, 60, 50, 40, 30, 30, 20)
    field = [C(p, v) for p, v in zip("abcdefghij", points, strict=True)]

    race = playoff_race(field, meets_left=0)

    assert [s.status for s in race.standings] == ["clinched"] * 7 + ["alive"] * 2 + ["eliminated"]


def test_playoff_race_no_meets_left_equals_the_cut():
    """R6.1-d, R6.2-a: after the last meet, the top q by season points qualify."""
    race = playoff_race(TEN, meets_left=0)

    assert [s.status for s in race.standings] == ["clinched"] * 8 + ["eliminated"] * 2


def test_playoff_race_fractional_points_need_whole_points_to_pass():
    """R6.1-e, A14.2: a line of 33.5 (a 0.5 credit + 33) is passed from 20 with 14, not 13."""
    field = [C(p, 100) for p in "abcdefg"]
    field += [
        C("h", 20),
        C("i", Fraction(1, 2)),
        C("j", 0),
    ]

    race = playoff_race(field, meets_left=1)

    assert race.standing("h") == RaceStanding(
        player="h",
        points=Fraction(20),
        best_possible=Fraction(53),
        status="alive",
        clinch_line=Fraction(67, 2),
        points_to_clinch=14,
    )


def test_playoff_race_ineligible_players_are_neither_rivals_nor_counted():
    """R6.2-a, A05: season-forfeited or suspended players cannot qualify; n counts the rest."""
    field = [C("x", 999, eligible=False), *TEN[:9]]  # 9 eligible: q = 8

    race = playoff_race(field, meets_left=0)

    assert race.qualifiers == 8
    assert [s.player for s in race.standings] == list("abcdefghi")
    assert race.status("h") == "clinched"


def test_playoff_race_league_size_counts_eligible_players_by_default():
    """A05: 16 eligible of 17 entrants gives q = 8; counting all entrants gives q = 12."""
    field = [C(f"p{i:02}", 100 - i, eligible=i != 0) for i in range(17)]

    default = playoff_race(field, meets_left=3)
    entrants = playoff_race(
        field, meets_left=3, ruleset=Ruleset(playoff_league_size="all_entrants")
    )

    assert (default.qualifiers, entrants.qualifiers) == (8, 12)


def test_playoff_race_small_league_everyone_clinches():
    """R6.2-a, A03: with 8 or fewer eligible players, every one of them qualifies."""
    field = [C(p, v) for p, v in zip("abcdef", (50, 40, 30, 20, 10, 0), strict=True)]

    race = playoff_race(field, meets_left=5)

    assert [(s.status, s.clinch_line) for s in race.standings] == [("clinched", None)] * 6


def test_playoff_race_status_of_ineligible_player_is_refused():
    field = [C("x", 10, eligible=False), *TEN]

    assert refusal(lambda: playoff_race(field, meets_left=0).status("x")) == (
        "x is not an eligible player in this race"
    )


def test_playoff_race_float_points_are_refused():
    field = [*TEN[:9], C("j", 90.5)]

    assert refusal(lambda: playoff_race(field, meets_left=1)) == (
        "j's league points must be a non-negative int or Fraction, got 90.5"
    )


def test_playoff_race_player_listed_twice_is_refused():
    assert refusal(lambda: playoff_race([*TEN, TEN[0]], meets_left=1)) == (
        "a appears twice in the contenders"
    )


def test_playoff_race_negative_meets_left_is_refused():
    assert refusal(lambda: playoff_race(TEN, meets_left=-1)) == (
        "meets left must be an integer of at least 0, got -1"
    )


def test_playoff_race_eligible_not_bool_is_refused():
    field = [*TEN[:9], C("j", 90, eligible="no")]  # type: ignore[arg-type]

    assert refusal(lambda: playoff_race(field, meets_left=1)) == (
        "j's eligible must be True or False, got 'no'"
    )


def test_playoff_race_under_six_eligible_players_is_refused():
    """§1, A03: the rules are written for six or more players."""
    assert refusal(lambda: playoff_race(TEN[:5], meets_left=1)) == (
        "5 players is below the rulebook's minimum of 6 (§1): the LO must decide the playoff format"
    )


# --- Invariants (Hypothesis) ----------------------------------------------------------------

points_values = st.one_of(
    st.integers(0, 300),
    st.builds(Fraction, st.integers(0, 1200), st.sampled_from([1, 2, 4])),
)
rulesets = st.sampled_from(
    [
        FWPL_V1,
        Ruleset(playoff_cut_rule="sentence_round_down"),
        Ruleset(match_bonus_awards="full_fifth_game"),
        Ruleset(playoff_16_players_qualify=12),
    ]
)


@st.composite
def races(draw, meets=None):
    """A field of 6..40 eligible players and a few ineligible ones, and the meets left."""
    meets = st.integers(0, 4) if meets is None else meets
    eligible = draw(st.lists(points_values, min_size=6, max_size=40))
    ineligible = draw(st.lists(points_values, max_size=3))
    field = [C(f"p{i:02}", v) for i, v in enumerate(eligible)]
    field += [C(f"x{i}", v, eligible=False) for i, v in enumerate(ineligible)]
    return draw(st.permutations(field)), draw(meets), draw(rulesets)


def oracle(field, meets_left, ruleset):
    """Brute force: (clinched, eliminated) per eligible player, straight from the definitions."""
    eligible = {c.player: Fraction(c.points) for c in field if c.eligible}
    q = playoff_qualifier_count(len(eligible), ruleset=ruleset)
    gain = meets_left * max_meet_points(ruleset=ruleset)
    verdicts = {}
    for player, points in eligible.items():
        rivals = [v for p, v in eligible.items() if p != player]
        can_reach_him = sum(1 for v in rivals if v + gain >= points)  # ties may beat him
        out_of_reach = sum(1 for v in rivals if v > points + gain)
        verdicts[player] = (can_reach_him < q, out_of_reach >= q)
    return q, verdicts


@given(races())
def test_playoff_race_never_both_clinched_and_eliminated(case):
    """R6.1-d, R6.2-a, R6.1-e: the definitions exclude each other and the race follows them."""
    field, meets_left, ruleset = case
    q, verdicts = oracle(field, meets_left, ruleset)

    race = playoff_race(field, meets_left=meets_left, ruleset=ruleset)

    assert [v for v in verdicts.values() if v == (True, True)] == []
    expected = {
        p: "clinched" if c else "eliminated" if e else "alive" for p, (c, e) in verdicts.items()
    }
    assert {s.player: s.status for s in race.standings} == expected
    assert race.qualifiers == q


@given(races(), st.randoms(use_true_random=False))
def test_playoff_race_verdicts_hold_whatever_happens(case, rng):
    """R6.1-d, R6.2-a, R6.1-e: in any finish, clinched players make the top q outright and
    eliminated players have q rivals strictly above them."""
    field, meets_left, ruleset = case
    race = playoff_race(field, meets_left=meets_left, ruleset=ruleset)
    gain = meets_left * max_meet_points(ruleset=ruleset)
    final = {s.player: s.points + rng.randint(0, gain) for s in race.standings}
    # The extremes each verdict must survive, besides the random finish above.
    now = {s.player: s.points for s in race.standings}

    def extreme(player, his_gain, their_gain):
        return {p: v + (his_gain if p == player else their_gain) for p, v in now.items()}

    for standing in race.standings:
        worst = extreme(standing.player, 0, gain)
        best = extreme(standing.player, gain, 0)
        for totals in (final, worst, best):
            mine = totals[standing.player]
            others = [v for p, v in totals.items() if p != standing.player]
            if standing.status == "clinched":
                assert sum(1 for v in others if v >= mine) < race.qualifiers
            if standing.status == "eliminated":
                assert sum(1 for v in others if v > mine) >= race.qualifiers


@given(races(meets=st.just(0)))
def test_playoff_race_no_meets_left_is_the_actual_cut(case):
    """R6.1-d, R6.2-a: with no meets left and no tie at the line, the race is the cut itself."""
    field, _, ruleset = case
    race = playoff_race(field, meets_left=0, ruleset=ruleset)
    ranked = sorted((s.points for s in race.standings), reverse=True)
    q = race.qualifiers
    if q < len(ranked) and ranked[q - 1] == ranked[q]:
        return  # a tie at the line: R6.1-e, covered by its own example test

    top = {s.player for s in race.standings if s.points >= ranked[q - 1]}

    assert {s.player for s in race.standings if s.status == "clinched"} == top
    assert {s.player for s in race.standings if s.status == "eliminated"} == (
        {s.player for s in race.standings} - top
    )


@given(races())
def test_playoff_race_counts_respect_the_qualifiers(case):
    """R6.2-a: at most q players clinch, and at least q are not yet eliminated."""
    field, meets_left, ruleset = case

    race = playoff_race(field, meets_left=meets_left, ruleset=ruleset)
    statuses = [s.status for s in race.standings]

    assert statuses.count("clinched") <= race.qualifiers
    assert len(statuses) - statuses.count("eliminated") >= race.qualifiers


@given(races())
def test_playoff_race_points_to_clinch_is_the_least_that_passes_the_line(case):
    """R6.1-e: an alive player's points_to_clinch is the fewest whole points strictly above it."""
    field, meets_left, ruleset = case

    race = playoff_race(field, meets_left=meets_left, ruleset=ruleset)

    for s in race.standings:
        if s.status == "alive":
            assert (s.points + s.points_to_clinch > s.clinch_line) is True
            assert (s.points + s.points_to_clinch - 1 <= s.clinch_line) is True
