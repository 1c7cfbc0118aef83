"""Who an IFPA submission lists: half the meets played, or the finals (issue #13; R2-b)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import (
    IfpaDecision,
    IfpaReason,
    RuleError,
    ifpa_positions,
    ifpa_selection,
)


def test_ifpa_selection_leaves_out_players_below_half_the_meets_played():
    """10 meets played: 5 needed. ann 10, bob 5 in; cat 4 out; dan 1 in as a finalist."""
    selection = ifpa_selection(
        {"ann": 10, "bob": 5, "cat": 4, "dan": 1}, meets_played=10, finalists={"dan"}
    )

    assert selection.threshold == 5
    assert selection.included == (
        IfpaDecision("ann", 10, IfpaReason.ATTENDED),
        IfpaDecision("bob", 5, IfpaReason.ATTENDED),
        IfpaDecision("dan", 1, IfpaReason.FINALIST),
    )
    assert selection.left_out == (IfpaDecision("cat", 4, IfpaReason.BELOW_ATTENDANCE),)


def test_ifpa_selection_rounds_half_of_an_odd_number_of_meets_up():
    """9 meets played: 4.5 is half, so 5 are needed; 4 is below 50%."""
    selection = ifpa_selection({"ann": 5, "bob": 4}, meets_played=9)

    assert (selection.threshold, [d.player for d in selection.left_out]) == (5, ["bob"])


def test_ifpa_selection_takes_the_leagues_own_threshold():
    selection = ifpa_selection({"ann": 2, "bob": 1}, meets_played=10, threshold=2)

    assert ([d.player for d in selection.included], selection.threshold) == (["ann"], 2)


def test_ifpa_selection_explains_each_reason_in_words():
    selection = ifpa_selection({"ann": 8, "bob": 3, "cat": 2}, meets_played=8, finalists={"bob"})

    assert [selection.explain(d) for d in (*selection.included, *selection.left_out)] == [
        "attended 8 of 8 meets",
        "attended 3 of 8 meets, fewer than the 4 needed (half the meets played), "
        "but reached the finals",
        "attended 2 of 8 meets, fewer than the 4 needed (half the meets played), "
        "and did not reach the finals",
    ]


def test_ifpa_selection_refuses_more_meets_attended_than_played():
    with pytest.raises(RuleError, match="ann attended 6 meets, more than the 5 played"):
        ifpa_selection({"ann": 6}, meets_played=5)


def test_ifpa_selection_refuses_a_finalist_with_no_attendance():
    with pytest.raises(RuleError, match="zed reached the finals but has no attendance"):
        ifpa_selection({"ann": 1}, meets_played=1, finalists={"zed"})


def test_ifpa_positions_close_up_behind_a_left_out_player_and_keep_shared_places():
    """R6.3-e: shared playoff places stay shared after b (3rd) is left out."""
    positions = [(1, "a"), (2, "c"), (3, "b"), (4, "d"), (5, "e"), (5, "f"), (7, "g")]

    assert ifpa_positions(positions, {"a", "c", "d", "e", "f", "g"}) == [
        (1, "a"), (2, "c"), (3, "d"), (4, "e"), (4, "f"), (6, "g"),
    ]  # fmt: skip


attendances = st.integers(min_value=0, max_value=12).flatmap(
    lambda played: st.tuples(
        st.just(played),
        st.dictionaries(
            st.text("abcdefgh", min_size=1, max_size=3),
            st.integers(min_value=0, max_value=played),
            max_size=12,
        ),
    )
)


@given(attendances, st.data())
def test_ifpa_selection_splits_everyone_once_and_keeps_every_finalist(case, data):
    """Nobody is both included and left out; everyone is one of them; a finalist is in."""
    played, attended = case
    players = st.sampled_from(sorted(attended)) if attended else st.nothing()
    finalists = data.draw(st.sets(players))

    selection = ifpa_selection(attended, meets_played=played, finalists=finalists)

    included = [d.player for d in selection.included]
    left_out = [d.player for d in selection.left_out]
    assert set(included).isdisjoint(left_out)
    assert sorted(included + left_out) == sorted(attended)
    assert finalists <= set(included)
    assert all(2 * d.meets_attended < played for d in selection.left_out)
