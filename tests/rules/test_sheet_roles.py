"""Who may enter and who may confirm a game's score sheet (R3-a, R2.4-a)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import RuleError, who_may_confirm, who_may_enter

GROUP = ["ann", "ben", "cy", "di"]


def test_who_may_enter_r3_a_every_player_of_the_group_without_a_forfeit() -> None:
    assert who_may_enter(group=GROUP) == ("ann", "ben", "cy", "di")


def test_who_may_enter_r2_4_a_leaves_out_a_player_who_forfeits_the_game() -> None:
    assert who_may_enter(group=GROUP, forfeited={"ben"}) == ("ann", "cy", "di")


def test_who_may_enter_r2_4_a_nobody_when_the_whole_group_forfeits() -> None:
    assert who_may_enter(group=GROUP, forfeited=set(GROUP)) == ()


def test_who_may_confirm_r3_a_another_player_who_played() -> None:
    sheet = {"ann": 100, "ben": None, "cy": 300, "di": 400}
    assert who_may_confirm(group=GROUP, entered_by="ann", sheet=sheet) == ("cy", "di")


def test_who_may_confirm_r3_a_never_the_enterer() -> None:
    sheet = dict.fromkeys(GROUP, 1)
    assert who_may_confirm(group=GROUP, entered_by="cy", sheet=sheet) == ("ann", "ben", "di")


def test_who_may_confirm_r3_a_any_other_player_when_only_the_enterer_played() -> None:
    sheet = {"ann": 100, "ben": None, "cy": None, "di": None}
    assert who_may_confirm(group=GROUP, entered_by="ann", sheet=sheet) == ("ben", "cy", "di")


def test_who_may_confirm_refuses_an_enterer_outside_the_group() -> None:
    with pytest.raises(RuleError, match="not in the group"):
        who_may_confirm(group=GROUP, entered_by="zed", sheet={})


@given(
    scores=st.lists(st.none() | st.integers(min_value=0), min_size=2, max_size=4),
    data=st.data(),
)
def test_who_may_confirm_r3_a_always_someone_else_of_the_group(
    scores: list[int | None], data: st.DataObject
) -> None:
    group = GROUP[: len(scores)]
    enterer = data.draw(st.sampled_from(group))
    confirmers = who_may_confirm(
        group=group, entered_by=enterer, sheet=dict(zip(group, scores, strict=True))
    )
    assert confirmers
    assert enterer not in confirmers
    assert set(confirmers) <= set(group)
