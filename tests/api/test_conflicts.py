"""A write that conflicts with the state of things is a 409 whose code names the state
(issue 26 §2): a client tells "already done" from "refused" (422) without reading prose."""

from __future__ import annotations

import datetime

import pytest

from flipwell.league import models as m
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.services.meet_machines.next_machine import choose_next_machine
from flipwell.league.services.meets.close import close_meet
from flipwell.league.services.meets.schedule import schedule_meet
from tests.api.conftest import post, token
from tests.league.league_night import free_machine, game, play, start

pytestmark = pytest.mark.django_db


def _error(response) -> tuple[int, str]:
    return response.status_code, response.json()["error"]["code"]


def test_start_meet_twice_is_409_meet_already_started(client, night):
    secret = token(night.official, "manage")
    url = f"/api/v1/seasons/{night.season.pk}/meets/start"
    body = {"number": 1, "date": "2026-01-06", "seed": 7}
    post(client, url, body, secret)

    again = post(client, url, body, secret)

    assert _error(again) == (409, "meet_already_started")
    assert list(again.json()["error"]["fields"]) == ["number"]


def test_close_meet_twice_is_409_meet_already_closed(client, night):
    secret = token(night.official, "manage")
    meet = start(night)
    body = {"override_reason": "Power cut"}
    post(client, f"/api/v1/meets/{meet.pk}/close", body, secret)

    again = post(client, f"/api/v1/meets/{meet.pk}/close", body, secret)

    assert _error(again) == (409, "meet_already_closed")
    assert again.json()["error"]["message"] == "Meet 1 is closed: cannot close it now."


def test_close_meet_not_started_is_409_meet_not_started(client, night):
    meet = schedule_meet(
        season=night.season, number=1, date=datetime.date(2026, 1, 6), actor=night.user
    )

    response = post(client, f"/api/v1/meets/{meet.pk}/close", {}, token(night.official, "manage"))

    assert _error(response) == (409, "meet_not_started")


def test_violation_at_a_closed_meet_is_409_meet_already_closed(client, night):
    meet = start(night)
    close_meet(meet=meet, actor=night.user, override_reason="Power cut")
    body = {"player": night.players[0].pk, "kind": "cheating", "reason": "Seen"}

    response = post(
        client, f"/api/v1/meets/{meet.pk}/violations", body, token(night.official, "manage")
    )

    assert _error(response) == (409, "meet_already_closed")
    assert m.Violation.objects.count() == 0


def test_next_game_retried_is_409_game_not_confirmed(client, night):
    """A retry of next-game (without a key) finds the game it made unconfirmed."""
    a = night.players
    first = game(start(night), 1, 1)
    play(first, {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    picker = next(g for g in meet_board(first.group.meet).groups if g.number == 1).next_picker
    machine = free_machine(first.group.meet, 1)
    chooser = m.Player.objects.get(pk=picker)
    choose_next_machine(group=first.group, machine=machine, chosen_by=chooser, actor=night.user)

    again = post(
        client,
        f"/api/v1/groups/{first.group_id}/next-game",
        {"machine": machine.pk, "chosen_by": picker},
        token(night.official, "scores"),
    )

    assert _error(again) == (409, "game_not_confirmed")
    assert m.Game.objects.filter(group=first.group).count() == 2


def test_schedule_a_meet_twice_is_409_naming_the_meet(client, night):
    """issue 26 §2 and §3: a duplicate meet says which meet exists, not Django's sentence."""
    schedule_meet(
        season=night.season,
        number=3,
        date=datetime.date(2026, 12, 8),
        actor=night.user,
        date_reason="Moved to the venue's free Tuesday",
    )

    response = post(
        client,
        f"/api/v1/seasons/{night.season.pk}/meets",
        {"number": 3, "date": "2026-12-15"},
        token(night.official, "manage"),
    )

    assert _error(response) == (409, "meet_already_scheduled")
    assert response.json()["error"]["fields"] == {
        "number": ["Meet 3 on 2026-12-08 already exists (planned)."]
    }
    assert m.Meet.objects.count() == 1


def test_absence_told_twice_is_409_absence_already_recorded(client, night):
    meet = schedule_meet(
        season=night.season, number=1, date=datetime.date(2026, 1, 6), actor=night.user
    )
    secret = token(night.official, "manage")
    body = {"player": night.players[0].pk}
    post(client, f"/api/v1/meets/{meet.pk}/absences", body, secret)

    again = post(client, f"/api/v1/meets/{meet.pk}/absences", body, secret)

    assert _error(again) == (409, "absence_already_recorded")
    assert m.AnnouncedAbsence.objects.count() == 1


def test_a_refusal_stays_422(client, night):
    """Out of sequence is the client's mistake, not a state it could have reached: 422."""
    response = post(
        client,
        f"/api/v1/seasons/{night.season.pk}/meets/start",
        {"number": 2, "date": "2026-01-13"},
        token(night.official, "manage"),
    )

    assert response.status_code == 422
