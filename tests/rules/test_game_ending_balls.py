"""A game-ending event's balls with extra balls collected and an intentional slammer
(R7.3-h, R7.3-i, R7.3-l, R7.1-a, R8.4-a, A32)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules.game_ending_malfunctions import catastrophic_event, last_ball, next_turns


def test_last_ball_r7_1_a_one_allowable_extra_ball_on_a_3_ball_game() -> None:
    assert last_ball(3) == 3
    assert last_ball(3, extra_balls_collected=1) == 4
    assert last_ball(3, extra_balls_collected=2) == 4  # the second is one-handed


def test_last_ball_r7_1_a_no_allowable_extra_ball_on_a_5_ball_game() -> None:
    assert last_ball(5, extra_balls_collected=1) == 5


def test_next_turns_r7_3_l_capped_after_each_players_last_ball() -> None:
    """B is on his extra ball (turn 4 of a 3-ball game): A, before him, had played all her
    balls (next turn 4, not 5); C, after him, is on 4 too: nothing left to deny."""
    turns = next_turns(
        ["A", "B", "C"],
        current_player="B",
        turn=4,
        balls_per_game=3,
        extra_balls_collected={"B": 1},
    )

    assert turns == {"A": 4, "B": 4, "C": 4}
    found = catastrophic_event(
        current_player="B",
        ball_in_play=True,
        next_turn=turns,
        balls_per_game=3,
        extra_balls_collected={"B": 1},
    )
    assert [(f.player, f.turn, f.kind) for f in found] == [("B", 4, "major")]


def test_next_turns_without_balls_per_game_is_the_play_order_alone() -> None:
    assert next_turns(["A", "B"], current_player="B", turn=4) == {"A": 5, "B": 4}


def test_catastrophic_event_r8_4_a_slammer_owed_nothing_the_others_their_balls() -> None:
    found = catastrophic_event(
        current_player="B",
        ball_in_play=True,
        next_turn={"A": 3, "B": 2, "C": 2},
        balls_per_game=3,
        slammer="C",
    )

    assert {f.player for f in found} == {"A", "B"}


@given(
    turn=st.integers(min_value=1, max_value=4),
    at=st.integers(min_value=0, max_value=3),
    extra=st.lists(st.integers(min_value=0, max_value=2), min_size=4, max_size=4),
)
def test_next_turns_r7_3_h_never_past_a_players_last_ball_plus_one(
    turn: int, at: int, extra: list[int]
) -> None:
    """Capped, the defaults are always turns `catastrophic_event` takes (R7.3-h, R7.3-l)."""
    order = ["A", "B", "C", "D"]
    collected = dict(zip(order, extra, strict=True))
    if turn > last_ball(3, extra_balls_collected=collected[order[at]]):
        return
    turns = next_turns(
        order, current_player=order[at], turn=turn, balls_per_game=3,
        extra_balls_collected=collected,
    )  # fmt: skip

    for p, n in turns.items():
        assert n <= last_ball(3, extra_balls_collected=collected[p]) + 1
    catastrophic_event(
        current_player=order[at],
        ball_in_play=True,
        next_turn=turns,
        balls_per_game=3,
        extra_balls_collected=collected,
    )
