"""`quick_init` (issue #10): the hot result types keep every dataclass behaviour."""

from __future__ import annotations

import dataclasses
import pickle
from fractions import Fraction

import pytest

from flipwell.rules.match import GameOutcome, MatchResult, PlayerMatch
from flipwell.rules.quick_init import quick_init
from flipwell.rules.scoring import GameResult, MatchBonusResult
from flipwell.rules.season_values import MeetResult, Night, Standing
from flipwell.rules.values import PointLine

QUICK = (
    GameOutcome,
    MatchResult,
    PlayerMatch,
    GameResult,
    MatchBonusResult,
    MeetResult,
    Night,
    Standing,
    PointLine,
)


@dataclasses.dataclass(frozen=True, slots=True)
class _Plain:
    a: int
    b: tuple[int, ...] = ()
    c: dict[str, int] = dataclasses.field(default_factory=dict)


@quick_init
@dataclasses.dataclass(frozen=True, slots=True)
class _Quick:
    a: int
    b: tuple[int, ...] = ()
    c: dict[str, int] = dataclasses.field(default_factory=dict)


def test_quick_init_builds_the_same_fields_as_the_dataclass_init():
    for args, kwargs in (((1,), {}), ((1, (2,)), {}), ((), {"a": 1, "c": {"x": 1}})):
        plain, quick = _Plain(*args, **kwargs), _Quick(*args, **kwargs)
        assert dataclasses.astuple(plain) == dataclasses.astuple(quick)


def test_quick_init_gives_each_object_its_own_default_from_a_factory():
    assert _Quick(1).c is not _Quick(1).c


def test_quick_init_refuses_the_arguments_the_dataclass_refuses():
    with pytest.raises(TypeError):
        _Quick()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        _Quick(1, d=2)  # type: ignore[call-arg]


def test_a_quick_result_stays_frozen_equal_hashable_and_picklable():
    night = Night(meet=3, status="played", game_points=(4, 3), credit=Fraction(1, 2))

    with pytest.raises(dataclasses.FrozenInstanceError):
        night.meet = 4  # type: ignore[misc]
    assert night == Night(3, "played", (4, 3), 0, Fraction(1, 2))
    assert hash(night) == hash(dataclasses.replace(night))
    assert pickle.loads(pickle.dumps(night)) == night
    assert repr(night).startswith("Night(meet=3, status='played'")


def test_quick_init_is_on_every_hot_result_type():
    assert [cls.__init__.__qualname__ for cls in QUICK] == [
        f"{cls.__qualname__}.__init__" for cls in QUICK
    ]
    assert all("_set_" in " ".join(cls.__init__.__code__.co_names) for cls in QUICK)


def test_quick_init_refuses_a_class_it_cannot_build_exactly():
    @dataclasses.dataclass(frozen=True)
    class NoSlots:
        a: int

    @dataclasses.dataclass(frozen=True, slots=True)
    class PostInit:
        a: int

        def __post_init__(self) -> None:
            pass

    for cls in (NoSlots, PostInit):
        with pytest.raises(TypeError):
            quick_init(cls)


def test_a_quick_result_pickles_through_its_quick_init_and_back_equal():
    """A stored fold is a pickle of these (issue #10): the field values, rebuilt positionally."""
    line = PointLine("a", 7, "R3.2-e", "{player} won", {"player": "a"})
    night = Night(meet=2, status="absent_announced", forfeits=4, credit=Fraction(7, 2))

    assert type(line).__reduce__(line) == (
        PointLine,
        ("a", 7, "R3.2-e", "{player} won", {"player": "a"}, {}),
    )
    for value in (line, night, (night, night)):
        assert pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)) == value


@quick_init
@dataclasses.dataclass(frozen=True, slots=True)
class _One:
    a: tuple[int, ...]


def test_a_quick_class_of_one_field_pickles_its_value_not_a_tuple():
    assert type(_One((1, 2))).__reduce__(_One((1, 2))) == (_One, ((1, 2),))
    assert pickle.loads(pickle.dumps(_One((1, 2)))) == _One((1, 2))
