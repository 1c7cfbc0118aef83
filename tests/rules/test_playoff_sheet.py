"""A playoff match's sheet: running PAPA totals, who confirms, who picks, tiebreakers in words
(R6.3-a..c, R6.4-b, R6.4-c, R6.5-a, R6.5-b, R6.6-d, R3-a, A40)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules.errors import RuleError
from flipwell.rules.playoff_matches import PlayoffGame, PlayoffMatchRecord, playoff_match_state
from flipwell.rules.playoff_sheet import (
    check_machine_picker,
    check_sheet_confirmer,
    running_totals,
    tiebreaker_explanation,
)
from flipwell.rules.sheet_roles import who_may_confirm

P = ("1", "4", "5", "8")
NAMES = {"1": "Ann", "4": "Ben", "5": "Cy", "8": "Dee"}


def test_running_totals_r6_3_a_papa_points_accrue_game_by_game() -> None:
    lines = running_totals(P, [("1", "4", "5", "8"), ("8", "5", "4", "1")])
    assert dict(lines[0].points) == {"1": 4, "4": 2, "5": 1, "8": 0}
    assert dict(lines[1].totals) == {"1": 4, "4": 3, "5": 3, "8": 4}
    assert [line.number for line in lines] == [1, 2]


def test_running_totals_r6_6_d_three_player_round_is_4_2_1() -> None:
    lines = running_totals(("1", "4", "5"), [("5", "4", "1")])
    assert dict(lines[0].points) == {"5": 4, "4": 2, "1": 1}


def test_running_totals_refuses_a_game_without_the_match_players() -> None:
    with pytest.raises(RuleError):
        running_totals(P, [("1", "4", "5")])


@given(st.lists(st.permutations(P), min_size=3, max_size=3))
def test_running_totals_r6_3_c_three_games_always_add_to_21(orders: list[list[str]]) -> None:
    assert sum(running_totals(P, orders)[-1].totals.values()) == 21


def test_check_sheet_confirmer_r3_a_refuses_the_enterer() -> None:
    with pytest.raises(RuleError, match="another player of the match"):
        check_sheet_confirmer(players=P, entered_by="1", confirmed_by="1")


def test_check_sheet_confirmer_refuses_a_stranger_and_accepts_another_player() -> None:
    with pytest.raises(RuleError, match="does not play"):
        check_sheet_confirmer(players=P, entered_by="1", confirmed_by="9")
    assert check_sheet_confirmer(players=P, entered_by="1", confirmed_by="4") == "4"


def test_check_sheet_confirmer_r3_a_is_who_may_confirm_for_the_present_players() -> None:
    # One source for R3-a: on a playoff sheet every present player is at the machine.
    for entered in P:
        allowed = who_may_confirm(group=P, entered_by=entered, sheet=dict.fromkeys(P, 1))
        for confirming in P:
            if confirming in allowed:
                assert (
                    check_sheet_confirmer(players=P, entered_by=entered, confirmed_by=confirming)
                    == confirming
                )
            else:
                with pytest.raises(RuleError, match="another player of the match"):
                    check_sheet_confirmer(players=P, entered_by=entered, confirmed_by=confirming)


def test_check_sheet_confirmer_r3_a_r6_6_c_a_no_show_neither_enters_nor_confirms() -> None:
    present = ("1", "4", "5")  # 8 is a no-show
    assert check_sheet_confirmer(players=present, entered_by="1", confirmed_by="5") == "5"
    with pytest.raises(RuleError, match="does not play"):
        check_sheet_confirmer(players=present, entered_by="1", confirmed_by="8")
    with pytest.raises(RuleError, match="not in the group"):
        check_sheet_confirmer(players=present, entered_by="8", confirmed_by="1")


def test_check_machine_picker_r6_4_b_game_1_is_drawn_for_anyone() -> None:
    state = playoff_match_state(P, match="SF1")
    assert check_machine_picker(state, "5") is None
    assert check_machine_picker(state, None) is None


def test_check_machine_picker_r6_4_c_only_the_loser_picks() -> None:
    record = PlayoffMatchRecord(games=(PlayoffGame("m1", order=("1", "4", "5", "8")),))
    state = playoff_match_state(P, record, match="SF1")
    assert check_machine_picker(state, "8") == "8"
    with pytest.raises(RuleError, match="picks the machine for game 2") as refused:
        check_machine_picker(state, "1")
    assert refused.value.render(NAMES).startswith("Dee finished last in game 1")


def test_check_machine_picker_refuses_a_no_show() -> None:
    state = playoff_match_state(P, PlayoffMatchRecord(absent=("8",)), match="SF1")
    with pytest.raises(RuleError, match="does not play"):
        check_machine_picker(state, "8")


def _games(*orders: tuple[str, ...]) -> PlayoffMatchRecord:
    return PlayoffMatchRecord(
        games=tuple(PlayoffGame(f"m{i}", order=o) for i, o in enumerate(orders))
    )


def test_tiebreaker_explanation_r6_5_a_semifinal_tie_at_the_cut() -> None:
    # Ann 4+2+2 = 8, Ben 2+0+4 = 6, Cy 1+4+1 = 6, Dee 0+1+0 = 1.
    record = _games(("1", "4", "5", "8"), ("5", "1", "8", "4"), ("4", "1", "5", "8"))
    state = playoff_match_state(P, record, match="SF1")
    assert state.totals["4"] == state.totals["5"] == 6
    assert tiebreaker_explanation(state, NAMES) == (
        "Ben and Cy both have 6 points, and only one of them goes on to the next round. "
        "They play one more game, just the two of them, on a machine drawn at random: "
        "its winner goes on."
    )


def test_tiebreaker_explanation_r6_5_a_final_places() -> None:
    record = _games(("1", "4", "5", "8"), ("5", "1", "8", "4"), ("4", "1", "5", "8"))
    state = playoff_match_state(P, record, match="F")
    assert state.status == "tiebreaker_needed"
    text = tiebreaker_explanation(state, NAMES)
    assert text.startswith("Ben and Cy both have 6 points. They play one more game")
    assert text.endswith("its order decides 2nd and 3rd place.")


def test_tiebreaker_explanation_three_way_semifinal_tie() -> None:
    # Ann 4+2+0 = 6, Ben 2+0+4 = 6, Cy 1+4+1 = 6, Dee 0+1+2 = 3: two of the three go on.
    record = _games(("1", "4", "5", "8"), ("5", "1", "8", "4"), ("4", "8", "5", "1"))
    state = playoff_match_state(P, record, match="SF1")
    text = tiebreaker_explanation(state, NAMES)
    assert text.startswith("Ann, Ben and Cy all have 6 points, and only two of them go on")
    assert "just the 3 of them" in text
    assert text.endswith("its top 2 go on.")


def test_tiebreaker_explanation_empty_without_a_tie() -> None:
    assert tiebreaker_explanation(playoff_match_state(P, match="F"), NAMES) == ""
