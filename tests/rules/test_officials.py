"""League officials' checks (§1, §1.1, §4.1): R1-a, R1.1-a, R4-a, R4.1-c, R4.1-d, R4.1-e, A55."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import RuleError
from flipwell.rules.officials import (
    TABLE_SCHEME,
    check_grouping_override,
    regrouping_warnings,
    ruling_warnings,
    season_warnings,
)

# --- League size (R1-a) --------------------------------------------------------------------------


def test_season_warnings_design_size_no_warning():
    # R1-a: six players on four machines is what the rules are designed for.
    assert season_warnings(players=6, machines=4) == []


def test_season_warnings_too_few_players_and_machines():
    # R1-a: warn, do not block, under 6 players or under 4 machines.
    warnings = season_warnings(players=5, machines=3)

    assert warnings == [
        "the season has 5 players; the FWPL rules are designed for 6 or more (R1-a)",
        "the season has 3 machines; the FWPL rules are designed for 4 or more (R1-a)",
    ]


def test_season_warnings_negative_count_refused():
    with pytest.raises(RuleError, match="number of machines must be an integer of at least 0"):
        season_warnings(players=8, machines=-1)


@given(players=st.integers(0, 40), machines=st.integers(0, 12))
def test_season_warnings_one_per_shortfall(players, machines):
    # R1-a: one warning per count below its minimum.
    warnings = season_warnings(players=players, machines=machines)

    assert len(warnings) == (players < 6) + (machines < 4)


# --- The official making a ruling (R1.1-a, A55) --------------------------------------------------


def test_ruling_warnings_uninvolved_official_no_warning():
    # R1.1-a: Eve does not play in the affected group.
    warnings = ruling_warnings(official="Eve", affected=["Ann", "Bob", "Cy"])

    assert warnings == []


def test_ruling_warnings_involved_official_with_uninvolved_present():
    # R1.1-a: Ann plays in the affected group while Eve, uninvolved, is present.
    warnings = ruling_warnings(
        official="Ann", affected=["Ann", "Bob", "Cy"], officials_present=["Ann", "Eve"]
    )

    assert warnings == [
        "involved official: Ann plays in the affected group, and Eve present and uninvolved "
        "should rule (R1.1-a)"
    ]


def test_ruling_warnings_every_official_involved_allowed_and_flagged():
    # A55: every official present plays in the group: allow the ruling and flag it.
    warnings = ruling_warnings(
        official="Ann", affected=["Ann", "Bob", "Cy"], officials_present=["Ann", "Bob"]
    )

    assert warnings == [
        "involved official: Ann plays in the affected group and no uninvolved official is "
        "present; the ruling stands, flagged (R1.1-a, A55)"
    ]


def test_ruling_warnings_empty_official_refused():
    with pytest.raises(RuleError, match="player must be a non-empty string"):
        ruling_warnings(official="", affected=["Ann"])


# --- LO grouping overrides (R4.1-d, R4-a, R4.1-c) ------------------------------------------------

PRESENT = ["A", "B", "C", "D", "E", "F", "G"]


def test_check_grouping_override_valid_groups_returned():
    # R4.1-d: the LO puts 7 players in groups of 3 and 4 other than the table's 4-3.
    groups = check_grouping_override(
        [["A", "B", "C"], ["D", "E", "F", "G"]], present=PRESENT, reason="two machines per bank"
    )

    assert groups == [["A", "B", "C"], ["D", "E", "F", "G"]]


def test_check_grouping_override_group_of_five_refused():
    # R4-a: groups have 3 or 4 players.
    with pytest.raises(RuleError) as error:
        check_grouping_override(
            [["A", "B", "C", "D", "E"], ["F", "G"]], present=PRESENT, reason="one bank"
        )

    assert str(error.value) == (
        "group 1 has 5 players; a scheduled group has 3 or 4 (R4-a, R4.1-c)"
    )


def test_check_grouping_override_group_of_two_refused():
    # R4.1-c: no scheduled match has fewer than 3 players.
    with pytest.raises(RuleError) as error:
        check_grouping_override(
            [["A", "B", "C"], ["D", "E"], ["F", "G"]], present=PRESENT, reason="pairs"
        )

    assert str(error.value) == "group 2 has 2 players; a scheduled group has 3 or 4 (R4-a, R4.1-c)"


def test_check_grouping_override_player_twice_refused():
    # R4.1-d: every present player exactly once.
    with pytest.raises(RuleError, match="A appears twice in the grouping override"):
        check_grouping_override(
            [["A", "B", "C"], ["A", "E", "F", "G"]], present=PRESENT, reason="swap"
        )


def test_check_grouping_override_missing_present_player_refused():
    # R4.1-d: every present player exactly once.
    with pytest.raises(RuleError) as error:
        check_grouping_override([["A", "B", "C"], ["D", "E", "F"]], present=PRESENT, reason="x")

    assert str(error.value) == "the grouping override leaves out present player(s) G (R4.1-d)"


def test_check_grouping_override_absent_player_refused():
    # R3.1-e, R4.1-d: only present players are grouped.
    with pytest.raises(RuleError) as error:
        check_grouping_override(
            [["A", "B", "C"], ["D", "E", "F", "Z"]], present=PRESENT[:6], reason="x"
        )

    assert str(error.value) == "the grouping override includes Z, not present at this meet"


def test_check_grouping_override_without_reason_refused():
    # R4.1-d: an override needs a reason.
    with pytest.raises(RuleError, match=r"needs a reason \(R4.1-d\)"):
        check_grouping_override([["A", "B", "C"]], present=["A", "B", "C"], reason=" ")


@given(sizes=st.lists(st.sampled_from([2, 3, 4, 5]), min_size=1, max_size=6))
def test_check_grouping_override_accepts_exactly_threes_and_fours(sizes):
    # R4-a, R4.1-c: valid exactly when every group has 3 or 4 players.
    names = iter(f"P{i}" for i in range(sum(sizes)))
    groups = [[next(names) for _ in range(size)] for size in sizes]
    present = [p for g in groups for p in g]

    if all(size in (3, 4) for size in sizes):
        assert check_grouping_override(groups, present=present, reason="LO") == groups
    else:
        with pytest.raises(RuleError, match=r"\(R4-a, R4.1-c\)"):
            check_grouping_override(groups, present=present, reason="LO")


# --- Mid-season regrouping (R4.1-e) --------------------------------------------------------------


def test_regrouping_warnings_same_scheme_all_season():
    # R4.1-e: no change, no warning.
    assert regrouping_warnings([TABLE_SCHEME, TABLE_SCHEME, TABLE_SCHEME]) == []


def test_regrouping_warnings_change_mid_season():
    # R4.1-e: meet 3 switches to an LO override, meet 4 back to the table: two warnings.
    warnings = regrouping_warnings([TABLE_SCHEME, TABLE_SCHEME, "banks of 3", TABLE_SCHEME])

    assert warnings == [
        "meet 3 changes the grouping scheme from 'table' to 'banks of 3': mid-season "
        "regrouping should be avoided (R4.1-e)",
        "meet 4 changes the grouping scheme from 'banks of 3' to 'table': mid-season "
        "regrouping should be avoided (R4.1-e)",
    ]


def test_regrouping_warnings_first_meet_sets_scheme():
    # R4.1-e: an override from meet 1 is not a mid-season change.
    assert regrouping_warnings(["banks of 3"]) == []


def test_regrouping_warnings_empty_scheme_refused():
    with pytest.raises(RuleError, match="meet 2's grouping scheme must be a non-empty string"):
        regrouping_warnings([TABLE_SCHEME, ""])
