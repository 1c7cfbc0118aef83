"""A machine's open problems, which machine a game was on, and its reliability (R7.3-u,
R7.3-q, R7.3-r, R7.3-s)."""

import datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from flipwell.rules import RuleError, draw_first_machines
from flipwell.rules.machine_care import (
    Move,
    Problem,
    Span,
    StatusChange,
    days_out_of_service,
    has_open_problem,
    machine_at,
    machines_played,
    out_of_service_spans,
    problem_states,
    reliability,
)

UTC = datetime.UTC


def at(day: int, hour: int = 20) -> datetime.datetime:
    return datetime.datetime(2026, 3, day, hour, tzinfo=UTC)


def test_problem_open_until_a_repair_after_it_r7_3_u():
    """R7.3-u, R7.3-r: a problem stays open until a repair at or after it; a later problem
    is open again."""
    states = problem_states(
        [Problem("malfunction:1", at(2)), Problem("report:1", at(9))], repairs=[at(5)]
    )

    assert [(s.key, s.open, s.repaired_at) for s in states] == [
        ("malfunction:1", False, at(5)),
        ("report:1", True, None),
    ]


def test_problem_closed_by_the_official_is_not_open_r7_3_u():
    """R7.3-u: a report the official closed (no fault found) is not open, and not repaired."""
    (state,) = problem_states([Problem("report:1", at(2), closed_at=at(3))], repairs=[])

    assert (state.open, state.repaired_at, state.closed_at) == (False, None, at(3))


def test_has_open_problem_r7_3_r():
    """R7.3-r: a machine declared unplayable has an open problem until marked repaired."""
    declared = [Problem("declaration:1", at(2))]

    assert has_open_problem(declared, repairs=[]) is True
    assert has_open_problem(declared, repairs=[at(2, 22)]) is False


def test_problem_keys_must_be_unique_r7_3_u():
    """R7.3-u: each problem keeps its own line, so two with one key are refused."""
    with pytest.raises(RuleError, match="own key"):
        problem_states([Problem("a", at(1)), Problem("a", at(2))], repairs=[])


def test_machine_at_names_the_machine_that_failed_r7_3_s():
    """R7.3-s: a game moved to another machine; a malfunction before the move belongs to the
    old machine, one after it to the new one."""
    moves = [Move(at=at(2, 21), old="afm", new="mm")]

    assert machine_at("mm", moves, at(2, 20)) == "afm"
    assert machine_at("mm", moves, at(2, 22)) == "mm"
    assert machines_played("mm", moves) == ("afm", "mm")


def test_out_of_service_spans_pair_changes_r7_3_q():
    """R7.3-q: out from the day it left the pool to the day it came back; still out when it
    has not."""
    spans = out_of_service_spans(
        [
            StatusChange(datetime.date(2026, 3, 1), out=True),
            StatusChange(datetime.date(2026, 3, 4), out=False),
            StatusChange(datetime.date(2026, 3, 10), out=True),
        ]
    )

    assert spans == (
        Span(datetime.date(2026, 3, 1), datetime.date(2026, 3, 4)),
        Span(datetime.date(2026, 3, 10), None),
    )


def test_days_out_of_service_within_the_season_r7_3_u():
    """R7.3-u: days out count only the season's days, each once, both ends counted."""
    spans = [
        Span(datetime.date(2026, 2, 25), datetime.date(2026, 3, 2)),
        Span(datetime.date(2026, 3, 2), datetime.date(2026, 3, 3)),
        Span(datetime.date(2026, 3, 30), None),
    ]

    days = days_out_of_service(
        spans, first_day=datetime.date(2026, 3, 1), last_day=datetime.date(2026, 3, 31)
    )

    assert days == 3 + 2


def test_reliability_malfunctions_per_100_games_r7_3_u():
    """R7.3-u: 3 malfunctions in 40 games are 7.5 per 100 games; no games, no rate."""
    day = datetime.date(2026, 3, 1)
    found = reliability(games=40, malfunctions=3, spans=[], first_day=day, last_day=day)
    none = reliability(games=0, malfunctions=0, spans=[], first_day=day, last_day=day)

    assert (found.per_100_games, found.days_out, found.days) == (7.5, 0, 1)
    assert none.per_100_games is None


def test_reliability_refuses_a_season_ending_before_it_starts_r7_3_u():
    """R7.3-u: the season's days must run forwards."""
    with pytest.raises(RuleError, match="before its first day"):
        days_out_of_service(
            [], first_day=datetime.date(2026, 3, 2), last_day=datetime.date(2026, 3, 1)
        )


@given(
    st.lists(st.tuples(st.integers(0, 60), st.one_of(st.none(), st.integers(0, 60))), max_size=6)
)
def test_days_out_never_exceed_the_seasons_days_r7_3_u(raw):
    """R7.3-u (invariant): days out of service are between 0 and the season's days."""
    base = datetime.date(2026, 1, 1)
    spans = [
        Span(base + datetime.timedelta(a), None if b is None else base + datetime.timedelta(a + b))
        for a, b in raw
    ]
    first, last = base + datetime.timedelta(10), base + datetime.timedelta(40)

    assert 0 <= days_out_of_service(spans, first_day=first, last_day=last) <= 31


def test_first_machine_draw_says_which_machines_it_left_out_r5_a():
    """R5-a, R7.3-r: the draw skips unplayable machines and names them."""
    draw = draw_first_machines(2, ["afm", "mm", "tz"], seed=7, unplayable=["tz"])

    assert draw.left_out == ("tz",)
    assert "tz" not in draw.machines
