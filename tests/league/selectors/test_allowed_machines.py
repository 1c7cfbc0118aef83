"""The selector `allowed_machines` and the machine-choice services are one truth (issue 34
§1): whatever the night, the services accept exactly the machines the selector lists as
allowed for the one it names as picker, and nobody's choice while it names nobody (§5:
R5-c..g, R4-b, R7.3-r; A22, A53, A66)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from flipwell.league import models as m
from flipwell.league.selectors.allowed_machines import AllowedMachines, allowed_machines
from flipwell.league.services.meet_machines.declarations import declare_machine_unplayable
from flipwell.league.services.meet_machines.next_machine import (
    choose_next_machine,
    official_chooses_next_machine,
)
from tests.league.league_night import build_night, game, group, play, start

pytestmark = pytest.mark.django_db


class _UndoError(Exception):
    """Rolls back a choice made only to see whether it is accepted."""


@pytest.fixture
def six_machine_night():
    built = build_night(players=8, machines=6)
    return built, start(built)


def _accepted(row: m.Group, answer: AllowedMachines, machine: m.Machine, six_machine_night) -> bool:
    """Whether the service accepts `machine` for the group's next game (nothing kept)."""
    members = list(m.Player.objects.filter(group_memberships__group=row).order_by("pk"))
    try:
        with transaction.atomic():
            if answer.picker.kind == "official":
                official_chooses_next_machine(
                    group=row, machine=machine, actor=six_machine_night.user
                )
            else:
                picker = answer.picker.player_id or members[0].pk
                choose_next_machine(
                    group=row, machine=machine, chosen_by=m.Player.objects.get(pk=picker)
                )
            raise _UndoError
    except _UndoError:
        return True
    except (ValidationError, PermissionDenied):
        return False


def _play_group_1(built, meet, games: int, nobody: bool) -> None:
    a = built.players[:4]
    scores = dict.fromkeys(a) if nobody else {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 100}
    play(game(meet, 1, 1), scores)
    for number in range(2, games + 1):
        answer = allowed_machines(group(meet, 1))
        if not answer.allowed or answer.picker.kind != "player":
            return
        chosen = m.Machine.objects.get(pk=answer.allowed[-1].id)
        choose_next_machine(
            group=group(meet, 1),
            machine=chosen,
            chosen_by=m.Player.objects.get(pk=answer.picker.player_id),
        )
        play(game(meet, 1, number), {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 100})


@settings(
    max_examples=12,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(
    down=st.sets(st.integers(0, 5), max_size=5),
    games=st.integers(1, 4),
    nobody=st.booleans(),
    group_2_done=st.booleans(),
)
def test_services_accept_exactly_the_machines_the_selector_allows(
    six_machine_night, down, games, nobody, group_2_done
):
    # R5-c..g, R4-b, R7.3-r, A22, A53, A66: for each group and each machine of the league.
    built, meet = six_machine_night
    with transaction.atomic():
        _play_group_1(built, meet, games, nobody)
        if group_2_done:
            a = built.players[4:]
            play(game(meet, 2, 1), {a[0]: 40, a[1]: 30, a[2]: 20, a[3]: 10})
        for index in sorted(down):
            machine = built.machines[index]
            declare_machine_unplayable(meet=meet, machine=machine, reason="Down", actor=built.user)
        for number in (1, 2):
            row = group(meet, number)
            answer = allowed_machines(row)
            accepted = {x.pk for x in built.machines if _accepted(row, answer, x, built)}
            listed = {o.id for o in answer.allowed}
            refused = {o.id for o in answer.refused}
            assert accepted == listed, (number, answer)
            if answer.picker.kind != "nobody":
                assert listed | refused == {x.pk for x in built.machines}
        transaction.set_rollback(True)


def test_allowed_machines_runs_a_fixed_number_of_queries(six_machine_night):
    built, meet = six_machine_night
    a = built.players[:4]
    play(game(meet, 1, 1), {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 100})
    with CaptureQueriesContext(connection) as one:
        allowed_machines(group(meet, 1))
    play(game(meet, 2, 1), {x: 10 * i for i, x in enumerate(built.players[4:], 1)})
    declare_machine_unplayable(
        meet=meet, machine=built.machines[5], reason="Down", actor=built.user
    )

    with CaptureQueriesContext(connection) as two:
        allowed_machines(group(meet, 1))

    assert len(one) == len(two)
