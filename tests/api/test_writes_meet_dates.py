"""Meet dates through the API (issue 26 §4): the date checks ask for a reason, a meet does
not start before its day, and a meet not yet started is moved or cancelled. The reason is
``reason`` in every meet write (issue 34 §1: scheduling and starting called it
``date_reason``)."""

from __future__ import annotations

import datetime

import pytest

from flipwell.league import models as m
from tests.api.conftest import post, token
from tests.league.league_night import DATE

pytestmark = pytest.mark.django_db

WEEK = datetime.timedelta(days=7)


def test_schedule_meet_dated_1999_without_a_reason_is_422_on_reason(client, night):
    """issue 26 §4: a meet dated 1999 (the season began in 2026) was scheduled."""
    response = post(
        client,
        f"/api/v1/seasons/{night.season.pk}/meets",
        {"number": 1, "date": "1999-01-05"},
        token(night.official, "manage"),
    )

    assert response.status_code == 422
    fields = response.json()["error"]["fields"]
    assert list(fields) == ["reason"]
    assert "Tuesday 5 January 1999 is outside the season" in fields["reason"][0]
    assert m.Meet.objects.count() == 0


def test_schedule_meet_off_the_league_day_with_a_reason_is_201(client, night):
    """issue 26 §4, R2-a: with a reason the date stands, recorded as a ruling."""
    response = post(
        client,
        f"/api/v1/seasons/{night.season.pk}/meets",
        {"number": 1, "date": "2026-01-08", "reason": "The venue's Tuesday is booked"},
        token(night.official, "manage"),
    )

    assert response.status_code == 201
    assert m.Ruling.objects.get(kind="meet_date").reason == "The venue's Tuesday is booked"


def test_start_meet_dated_ahead_is_refused(client, night):
    """issue 26 §4: a meet dated a week ahead could be started."""
    ahead = datetime.date.today() + 2 * WEEK
    response = post(
        client,
        f"/api/v1/seasons/{night.season.pk}/meets/start",
        {"number": 1, "date": ahead.isoformat(), "reason": "Far ahead", "seed": 1},
        token(night.official, "manage"),
    )

    assert response.status_code == 422
    fields = response.json()["error"]["fields"]
    assert list(fields) == ["date"]
    assert "it can start on that day, not before" in fields["date"][0]
    assert m.Meet.objects.filter(status=m.Meet.Status.OPEN).count() == 0


def test_reschedule_meet_moves_it(client, night):
    """issue 26 §4: POST /meets/{id}/reschedule with a date and a reason."""
    meet = m.Meet.objects.create(season=night.season, number=1, date=DATE)

    response = post(
        client,
        f"/api/v1/meets/{meet.pk}/reschedule",
        {"date": (DATE + WEEK).isoformat(), "reason": "Snow"},
        token(night.official, "manage"),
    )

    assert response.status_code == 200
    assert (response.json()["date"], response.json()["number"]) == ("2026-01-13", 1)
    assert m.AuditEvent.objects.filter(action="meet.rescheduled").count() == 1


def test_reschedule_meet_without_a_reason_is_422(client, night):
    """issue 26 §4: the reason is required."""
    meet = m.Meet.objects.create(season=night.season, number=1, date=DATE)

    response = post(
        client,
        f"/api/v1/meets/{meet.pk}/reschedule",
        {"date": (DATE + WEEK).isoformat(), "reason": ""},
        token(night.official, "manage"),
    )

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["reason"]
    assert m.Meet.objects.get(pk=meet.pk).date == DATE


def test_cancel_meet_renumbers_the_later_ones(client, night):
    """issue 26 §4: POST /meets/{id}/cancel: meet 1 goes, meet 2 becomes meet 1."""
    first = m.Meet.objects.create(season=night.season, number=1, date=DATE)
    second = m.Meet.objects.create(season=night.season, number=2, date=DATE + WEEK)

    response = post(
        client,
        f"/api/v1/meets/{first.pk}/cancel",
        {"reason": "The venue is closed"},
        token(night.official, "manage"),
    )

    assert response.status_code == 200
    assert response.json() == {"number": 1, "date": "2026-01-06", "renumbered": [[2, 1]]}
    assert list(m.Meet.objects.values_list("pk", "number")) == [(second.pk, 1)]


def test_cancel_meet_with_a_scores_token_is_403(client, night):
    """issue 26 §4: cancelling is the manage scope's; nothing is removed."""
    meet = m.Meet.objects.create(season=night.season, number=1, date=DATE)

    response = post(
        client,
        f"/api/v1/meets/{meet.pk}/cancel",
        {"reason": "Mine"},
        token(night.official, "scores"),
    )

    assert response.status_code == 403
    assert m.Meet.objects.filter(pk=meet.pk).exists()


def test_every_meet_write_names_its_reason_reason(client):
    """issue 34 §1: scheduling and starting a meet took ``date_reason``, moving and
    cancelling it ``reason``: one name for one thing."""
    spec = client.get("/api/v1/openapi.json").json()
    paths = [
        "/api/v1/seasons/{season_id}/meets",
        "/api/v1/seasons/{season_id}/meets/start",
        "/api/v1/meets/{meet_id}/reschedule",
        "/api/v1/meets/{meet_id}/cancel",
    ]
    bodies = []
    for path in paths:
        ref = spec["paths"][path]["post"]["requestBody"]["content"]["application/json"]["schema"]
        bodies.append(spec["components"]["schemas"][ref["$ref"].rsplit("/", 1)[-1]])

    assert all("reason" in body["properties"] for body in bodies)
    assert not any("date_reason" in body["properties"] for body in bodies)


def test_date_reason_is_no_longer_a_field(client, night):
    response = post(
        client,
        f"/api/v1/seasons/{night.season.pk}/meets",
        {"number": 1, "date": "2026-01-08", "date_reason": "The venue's Tuesday is booked"},
        token(night.official, "manage"),
    )

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["date_reason"]
