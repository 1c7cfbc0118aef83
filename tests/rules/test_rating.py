"""Glicko-2 ratings (flipwell.rules.rating): not an FWPL rule (the standings alone decide the
playoffs, §6, R6.1-d); the paper's worked example and the invariants a rating must keep."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules.rating import (
    START_DEVIATION,
    RatedMeet,
    Rating,
    Result,
    between_seasons,
    expected_score,
    idle,
    pairwise,
    plain_range,
    rate,
    rate_all,
    rate_meet,
    rated_meets,
    rating_history,
    rating_range,
    win_chances,
)
from tests.rules.two_seasons import PERSON_OF, two_seasons

PAPER_PLAYER = Rating(1500, 200, 0.06)
PAPER_RESULTS = [
    Result(Rating(1400, 30), 1),
    Result(Rating(1550, 100), 0),
    Result(Rating(1700, 300), 0),
]


def test_glickman_worked_example_to_its_printed_precision():
    """Glickman, "Example of the Glicko-2 system" (2013): r' = 1464.06, RD' = 151.52,
    σ' = 0.05999, with τ = 0.5."""
    after = rate(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)

    # The paper converts its printed μ' and φ' (four places) back to the Glicko scale, so r'
    # and RD' agree with it through those: within 173.7178 x 0.00005 ≈ 0.009 of ours, plus
    # the paper's own rounding to two places (0.005).
    assert round(173.7178 * round(after.mu, 4) + 1500, 2) == 1464.06
    assert round(173.7178 * round(after.phi, 4), 2) == 151.52
    assert abs(after.rating - 1464.06) < 0.014
    assert abs(after.deviation - 151.52) < 0.014
    assert math.floor(after.volatility * 100_000) == 5_999  # printed cut at five places


def test_glickman_example_intermediate_quantities():
    """The paper's μ' = -0.2069 and φ' = 0.8722 on the Glicko-2 scale."""
    after = rate(PAPER_PLAYER, PAPER_RESULTS, tau=0.5)

    assert round(after.mu, 4) == -0.2069
    assert round(after.phi, 4) == 0.8722


def test_a_period_without_games_only_widens_the_deviation():
    after = rate(PAPER_PLAYER, [])

    assert after.rating == PAPER_PLAYER.rating
    assert after.volatility == PAPER_PLAYER.volatility
    expected = 173.7178 * math.sqrt(PAPER_PLAYER.phi**2 + 0.06**2)
    assert math.isclose(after.deviation, expected)


def test_deviation_never_grows_past_a_new_players():
    assert idle(Rating(1600, 340), periods=500).deviation == START_DEVIATION


def test_between_seasons_the_deviation_grows():
    settled = Rating(1650, 60, 0.06)

    assert between_seasons(settled).deviation > idle(settled).deviation > settled.deviation


def test_a_four_player_game_is_six_pairwise_results():
    results = pairwise([("ann", 1), ("bob", 2), ("cy", 3), ("di", 3)])

    assert len(results) == 6
    assert ("ann", "bob", 1.0) in results
    assert ("bob", "cy", 1.0) in results
    assert ("cy", "di", 0.5) in results


def test_a_meet_rates_games_and_lets_the_absent_idle():
    before = {"ann": Rating(1500, 100), "absent": Rating(1500, 100)}
    after = rate_meet(before, [[("ann", 1), ("bob", 2)]], players=["cy"])

    assert after["ann"].rating > 1500
    assert after["bob"].rating < 1500
    assert after["absent"].rating == 1500
    assert after["absent"].deviation > 100
    assert after["cy"] == idle(Rating())


def test_plain_range_reads_in_tens():
    assert plain_range(Rating(1648.7, 61.2)) == "about 1,650 ± 120"
    assert rating_range(Rating(1648.7, 61.2)) == (1530, 1770)


ratings = st.builds(
    Rating,
    rating=st.floats(800, 2400),
    deviation=st.floats(30, 350),
    volatility=st.floats(0.03, 0.09),
)


@given(ratings, st.lists(ratings, min_size=1, max_size=6))
def test_winning_every_game_raises_a_rating_and_losing_lowers_it(player, opponents):
    won = rate(player, [Result(o, 1) for o in opponents])
    lost = rate(player, [Result(o, 0) for o in opponents])

    assert lost.rating < player.rating < won.rating
    # Games narrow the deviation below what a period without them would leave, at the
    # volatility the period ended with (a surprise raises the volatility, step 5).
    assert won.deviation <= idle(replace(player, volatility=won.volatility)).deviation
    assert lost.deviation <= idle(replace(player, volatility=lost.volatility)).deviation


@given(st.lists(ratings, min_size=2, max_size=4))
def test_win_chances_add_up_to_one_and_follow_the_rating(players):
    chances = win_chances(players)

    assert math.isclose(sum(chances), 1.0)
    assert all(0 < c < 1 for c in chances)
    same_deviation = [Rating(p.rating, 100) for p in players]
    fair = win_chances(same_deviation)
    ordered = sorted(zip(same_deviation, fair, strict=True), key=lambda pair: pair[0].rating)
    assert all(a[1] <= b[1] + 1e-12 for a, b in itertools.pairwise(ordered))


@given(ratings, ratings)
def test_expected_scores_are_chances(a, b):
    assert 0 < expected_score(a, b) < 1
    if a.rating > b.rating and a.deviation == b.deviation:
        assert expected_score(a, b) > 0.5


def test_history_rates_meets_in_order_and_widens_between_seasons():
    meets = [
        RatedMeet("m1", "s1", ["ann", "bob"], [[("ann", 1), ("bob", 2)]]),
        RatedMeet("m2", "s1", ["ann", "bob"], [[("ann", 1), ("bob", 2)]]),
        RatedMeet("m3", "s2", ["ann", "cy"], [[("cy", 1), ("ann", 2)]]),
    ]

    history = rating_history(meets)

    assert [point.meet for point in history["ann"]] == ["m1", "m2", "m3"]
    assert [point.meet for point in history["bob"]] == ["m1", "m2"]
    first, second, third = (point.rating for point in history["ann"])
    assert first.rating < second.rating  # won again
    assert third.rating < second.rating  # lost to a newcomer
    expected = rate_meet(
        {"ann": between_seasons(second), "cy": Rating()}, [[("cy", 1), ("ann", 2)]]
    )
    assert third == expected["ann"]


def test_history_an_absent_roster_player_idles():
    meets = [
        RatedMeet("m1", "s1", ["ann", "bob"], [[("ann", 1), ("bob", 2)]]),
        RatedMeet("m2", "s1", ["ann", "bob"], []),
    ]

    history = rating_history(meets)

    assert history["bob"][1].rating == idle(history["bob"][0].rating)


def test_rated_meets_read_places_from_the_fold_by_person():
    """Each game's places come from its finishing order (§3.2); a forfeit is no game (R2.4-b);
    a merged row is rated as its person (the seasons of tests/rules/two_seasons.py)."""
    meets = rated_meets(two_seasons(), person_of=PERSON_OF)

    assert [m.meet for m in meets] == [(1, 1), (2, 1), (2, 2)]
    first = meets[0].games
    assert first[0] == [("1", 1), ("2", 2), ("3", 3), ("4", 4)]
    assert first[2] == [("1", 1), ("3", 2), ("4", 3)]  # "2" forfeited: no place
    assert meets[1].games == [[("3", 1), ("1", 2), ("2", 3)]]  # "5" is person "1"
    assert "1" in meets[2].roster
    assert all(player != "1" for game in meets[2].games for player, _ in game)
    history = rating_history(meets)
    assert len(history["1"]) == 3  # absent at season 2's meet 2: an idle period


def test_rivalries_count_expected_and_actual_wins_from_ratings_before_the_meet():
    meets = [
        RatedMeet("m1", "s1", ["ann", "bob"], [[("ann", 1), ("bob", 2)]]),
        RatedMeet("m2", "s1", ["ann", "bob"], [[("bob", 1), ("ann", 2)]]),
    ]

    book = rate_all(meets)

    ann_vs_bob = book.rivalries["ann"][("bob", "s1")]
    assert ann_vs_bob.games == 2
    assert ann_vs_bob.actual == 1
    after_first = book.history["ann"][0].rating
    bob_first = book.history["bob"][0].rating
    assert math.isclose(
        ann_vs_bob.expected, 0.5 + expected_score(after_first, bob_first)
    )  # even at meet 1, favoured at meet 2
    assert math.isclose(
        ann_vs_bob.expected + book.rivalries["bob"][("ann", "s1")].expected, 2, rel_tol=0.05
    )
    assert book.games("ann") == 2
    assert book.rivals("ann")["bob"] == ann_vs_bob
    assert book.rivals("ann", seasons={"s2"}) == {}
    assert book.current("ann") == book.history["ann"][-1].rating
    assert book.current("nobody") is None
