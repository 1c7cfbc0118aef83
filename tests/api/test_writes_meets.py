"""Writes of a league night with a token: scheduling, notices, the next machine, corrections."""

from __future__ import annotations

import datetime

import pytest

from flipwell.league import models as m
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.services.corrections.request import request_correction
from tests import factories as f
from tests.api.conftest import post, token
from tests.league.league_night import DATE, free_machine, game, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(night, meet):
    """Group 1's first game, confirmed: 100, 50, 30, 10."""
    a = night.players
    play(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    return game(meet, 1, 1)


def test_schedule_meet(client, night):
    response = post(
        client,
        f"/api/v1/seasons/{night.season.pk}/meets",
        {"number": 2, "date": "2026-01-13"},
        token(night.official, "manage"),
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["number"], body["date"], body["status"]) == (2, "2026-01-13", "planned")


def test_schedule_meet_outside_the_season_refused(client, night):
    response = post(
        client,
        f"/api/v1/seasons/{night.season.pk}/meets",
        {"number": 99, "date": "2026-01-13"},
        token(night.official, "manage"),
    )

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["number"]
    assert m.Meet.objects.count() == 0


def test_schedule_meet_date_out_of_range_is_422(client, night):
    response = post(
        client,
        f"/api/v1/seasons/{night.season.pk}/meets",
        {"number": 2, "date": "9999-12-31"},
        token(night.official, "manage"),
    )

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["date"]


def _planned(night, number=2):
    return m.Meet.objects.create(
        season=night.season, number=number, date=DATE + datetime.timedelta(days=7)
    )


def test_announce_absence(client, night):
    planned = _planned(night)

    response = post(
        client,
        f"/api/v1/meets/{planned.pk}/absences",
        {"player": night.players[0].pk},
        token(night.official, "manage"),
    )

    assert response.status_code == 201
    assert response.json()["player_id"] == night.players[0].pk
    assert m.AnnouncedAbsence.objects.get().meet == planned


def test_announce_absence_after_the_start_refused(client, night, meet):
    response = post(
        client,
        f"/api/v1/meets/{meet.pk}/absences",
        {"player": night.players[0].pk},
        token(night.official, "manage"),
    )

    # issue 26 §2: a state, not a mistake: 409 naming it
    assert (response.status_code, response.json()["error"]["code"]) == (
        409,
        "meet_already_started",
    )
    assert m.AnnouncedAbsence.objects.count() == 0


def test_announce_lateness_before_the_start(client, night):
    planned = _planned(night)

    response = post(
        client,
        f"/api/v1/meets/{planned.pk}/lateness-notices",
        {"player": night.players[0].pk, "at": "2026-01-13T12:00:00-06:00"},
        token(night.official, "manage"),
    )

    assert response.status_code == 201
    body = response.json()
    assert body["announced"] is True
    assert body["wait_until"] is not None


def test_announce_lateness_without_offset_is_422(client, night):
    planned = _planned(night)

    response = post(
        client,
        f"/api/v1/meets/{planned.pk}/lateness-notices",
        {"player": night.players[0].pk, "at": "2026-01-13T12:00:00"},
        token(night.official, "manage"),
    )

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["at"]


def test_announce_lateness_after_the_start_is_recorded_not_announced(client, night, meet):
    response = post(
        client,
        f"/api/v1/meets/{meet.pk}/lateness-notices",
        {"player": night.players[0].pk},
        token(night.official, "manage"),
    )

    assert response.status_code == 201
    assert (response.json()["announced"], response.json()["wait_until"]) == (False, None)
    assert m.LatenessNotice.objects.count() == 1


def _picker(meet):
    board = meet_board(meet)
    return next(g for g in board.groups if g.number == 1).next_picker


def test_choose_next_machine(client, night, meet, played):
    picker = _picker(meet)
    machine = free_machine(meet, 1)

    response = post(
        client,
        f"/api/v1/groups/{played.group_id}/next-game",
        {"machine": machine.pk, "chosen_by": picker},
        token(night.official, "scores"),
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["number"], body["machine_id"], body["chosen_by"]) == (2, machine.pk, picker)
    assert len(body["play_order"]) == 4


def test_choose_next_machine_by_another_player_refused(client, night, meet, played):
    picker = _picker(meet)
    other = next(p for p in night.players[:4] if p.pk != picker)

    response = post(
        client,
        f"/api/v1/groups/{played.group_id}/next-game",
        {"machine": free_machine(meet, 1).pk, "chosen_by": other.pk},
        token(night.official, "scores"),
    )

    assert response.status_code == 422
    assert m.Game.objects.filter(group=played.group).count() == 1


def test_choose_next_machine_of_another_league_is_422_on_machine(client, night, meet, played):
    """issue 26 §3: an id in the body that names nothing of the league is the field's error
    (it was a 404, as if the path were wrong)."""
    foreign = f.MachineFactory()

    response = post(
        client,
        f"/api/v1/groups/{played.group_id}/next-game",
        {"machine": foreign.pk, "chosen_by": _picker(meet)},
        token(night.official, "scores"),
    )

    assert (response.status_code, list(response.json()["error"]["fields"])) == (422, ["machine"])


def test_request_correction(client, night, played):
    a = night.players

    response = post(
        client,
        f"/api/v1/games/{played.pk}/corrections",
        {
            "requested_by": a[0].pk,
            "scores": [{"player": a[1].pk, "machine_score": 60}],
            "reason": "50 was misread",
        },
        token(night.official, "scores"),
    )

    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "pending"
    proposed = {line["player_id"]: line["machine_score"] for line in body["proposed"]["scores"]}
    assert proposed[a[1].pk] == 60


def test_request_correction_of_an_unconfirmed_game_refused(client, night, meet):
    a = night.players

    response = post(
        client,
        f"/api/v1/games/{game(meet, 1, 1).pk}/corrections",
        {
            "requested_by": a[0].pk,
            "scores": [{"player": a[1].pk, "machine_score": 60}],
            "reason": "Misread",
        },
        token(night.official, "scores"),
    )

    assert (response.status_code, response.json()["error"]["code"]) == (409, "game_not_confirmed")
    assert m.CorrectionRequest.objects.count() == 0


def _correction(night, played):
    a = night.players
    return request_correction(
        game=played, scores={a[1]: 60}, requested_by=a[0], reason="Misread", actor=night.user
    )


def test_respond_to_correction(client, night, played):
    correction = _correction(night, played)

    response = post(
        client,
        f"/api/v1/corrections/{correction.pk}/answers",
        {"player": night.players[1].pk, "agrees": False},
        token(night.official, "scores"),
    )

    assert response.status_code == 200
    body = response.json()
    assert (body["status"], body["disagreeing"]) == ("refused", [night.players[1].pk])


def test_respond_to_correction_twice_refused(client, night, played):
    correction = _correction(night, played)

    response = post(
        client,
        f"/api/v1/corrections/{correction.pk}/answers",
        {"player": night.players[0].pk, "agrees": True},
        token(night.official, "scores"),
    )

    assert response.status_code == 409  # the answer is already recorded
    assert response.json()["error"]["code"] == "already_answered"
