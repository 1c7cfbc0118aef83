"""How writes of one meet wait for each other on PostgreSQL (`MeetHold`, issue #10).

A league night's score sheets are entered and confirmed at once by twelve groups: they hold
their meet shared and lock their own game, so they wait for each other only in
`season_changed` (the season's new revision and fold). Machine choices hold the meet shared
too and check themselves at once; they take turns only to read the machines and take one
(`hold_machine_choices`: two groups must never take the same machine, R5-d). An LO's change
to the meet or a game (`locked_game`, closing the meet) waits for every write in progress,
and they for it.

Each test keeps one write in progress in another thread (its transaction open, holding what
such a write holds) and runs a second write here with a short ``lock_timeout``: a write that
would wait fails with OperationalError instead.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import pytest
from django.core.exceptions import ValidationError
from django.db import OperationalError, connection, connections, transaction

from flipwell.league import models as m
from flipwell.league.services._edge import (
    MeetHold,
    hold_machine_choices,
    hold_meet,
    locked_game,
)
from flipwell.league.services.meet_machines.next_machine import choose_next_machine
from flipwell.league.services.scores.confirmation import confirm_scores
from flipwell.league.services.scores.entry import submit_scores
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _postgresql_only():
    if connection.vendor != "postgresql":
        pytest.skip("row locks are PostgreSQL's: SQLite runs one write at a time")


def entering_scores(game: m.Game) -> None:
    """What a score entry or confirmation of `game` holds."""
    hold_meet(MeetHold.SCORES, game=game.pk)


def choosing_a_machine(game: m.Game) -> None:
    """What a machine choice of `game`'s group holds while it reads the machines."""
    hold_meet(MeetHold.SCORES, group=game.group_id)
    hold_machine_choices(game.group.meet_id)


def changing_the_meet(game: m.Game) -> None:
    """What an official's change to `game` (or its meet) holds."""
    hold_meet(MeetHold.EXCLUSIVE, game=game.pk)


@contextmanager
def write_in_progress(game: m.Game, holds: Callable[[m.Game], None]) -> Iterator[None]:
    """Another request's write about `game`, holding what `holds` takes until the block ends."""
    held, done = threading.Event(), threading.Event()

    def write() -> None:
        try:
            with transaction.atomic():
                holds(game)
                held.set()
                done.wait(10)
        finally:
            connections.close_all()

    thread = threading.Thread(target=write)
    thread.start()
    assert held.wait(10)
    try:
        yield
    finally:
        done.set()
        thread.join(10)


@contextmanager
def no_waiting() -> Iterator[None]:
    """Fail a statement that waits for a lock more than 300 ms (instead of waiting)."""
    with connection.cursor() as cursor:
        cursor.execute("SET lock_timeout = '300ms'")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute("RESET lock_timeout")


def _night() -> tuple[night_.Night, m.Meet]:
    night = night_.build_night(players=8)
    return night, night_.start(night)


def _members(game: m.Game) -> list[m.Player]:
    return [gm.player for gm in game.group.members.order_by("position")]


def _sheet(game: m.Game) -> dict[m.Player, int | None]:
    return {p: 1000 * (i + 1) for i, p in enumerate(_members(game))}


def test_two_groups_enter_and_confirm_their_sheets_at_once():
    _, meet = _night()
    first, second = night_.game(meet, 1, 1), night_.game(meet, 2, 1)
    players = _members(second)

    with write_in_progress(first, entering_scores), no_waiting():
        entered = submit_scores(
            game=second, scores=_sheet(second), entered_by=players[0], idempotency_key="k"
        )
        confirm_scores(submission=entered.submission, confirmed_by=players[1])

    assert m.ScoreSubmission.objects.get(game=second).confirmed_by == players[1]


def test_a_sheet_is_entered_while_another_group_chooses_a_machine():
    _, meet = _night()
    first, second = night_.game(meet, 1, 1), night_.game(meet, 2, 1)

    with write_in_progress(first, choosing_a_machine), no_waiting():
        night_.play(second, _sheet(second))

    assert m.ScoreSubmission.objects.get(game=second).confirmed_by is not None


def _ready_to_choose(meet: m.Meet) -> tuple[m.Game, m.Game, m.Player]:
    """Groups 1 and 2's first games, group 2's played and confirmed, and its picker."""
    first, second = night_.game(meet, 1, 1), night_.game(meet, 2, 1)
    night_.play(second, _sheet(second))
    picker = min(_members(second), key=lambda p: _sheet(second)[p] or 0)  # last place picks
    return first, second, picker


def test_two_groups_choosing_machines_wait_for_each_other():
    """R5-d: one machine, one group; the second choice waits for the first to commit."""
    _, meet = _night()
    first, second, picker = _ready_to_choose(meet)
    machine = night_.free_machine(meet, 2)

    with (
        write_in_progress(first, choosing_a_machine),
        no_waiting(),
        pytest.raises(OperationalError, match="lock timeout"),
    ):
        choose_next_machine(group=second.group, machine=machine, chosen_by=picker)

    assert m.Game.objects.filter(group=second.group).count() == 1


def test_a_choice_is_checked_while_another_group_takes_a_machine():
    """Only reading the machines and taking one waits: a choice by the wrong player is
    refused at once (R5-c), not after the other group's choice."""
    _, meet = _night()
    first, second, picker = _ready_to_choose(meet)
    not_the_picker = next(p for p in _members(second) if p != picker)

    with (
        write_in_progress(first, choosing_a_machine),
        no_waiting(),
        pytest.raises(ValidationError, match="picks the machine"),
    ):
        choose_next_machine(
            group=second.group, machine=night_.free_machine(meet, 2), chosen_by=not_the_picker
        )


@pytest.mark.parametrize("holds", [entering_scores, choosing_a_machine])
def test_an_officials_change_to_a_game_waits_for_writes_in_progress(holds):
    _, meet = _night()
    first, second = night_.game(meet, 1, 1), night_.game(meet, 2, 1)

    with (
        write_in_progress(first, holds),
        no_waiting(),
        pytest.raises(OperationalError, match="lock timeout"),
        transaction.atomic(),
    ):
        locked_game(second)


def test_score_writes_and_choices_wait_for_an_officials_change_to_the_meet():
    _, meet = _night()
    first, second, picker = _ready_to_choose(meet)

    with write_in_progress(first, changing_the_meet), no_waiting():
        with pytest.raises(OperationalError, match="lock timeout"):
            night_.play(first, _sheet(first))
        with pytest.raises(OperationalError, match="lock timeout"):
            choose_next_machine(
                group=second.group, machine=night_.free_machine(meet, 2), chosen_by=picker
            )

    assert not m.ScoreSubmission.objects.filter(game=first).exists()
    assert m.Game.objects.filter(group=second.group).count() == 1
