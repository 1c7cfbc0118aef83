"""The broken-machine loop through the API: a problem report (retried safely with an
Idempotency-Key), a repair, a report closed, and the machine's history and reliability
(R7.3-u, R7.3-r)."""

import pytest

from flipwell.league import models as m
from tests import factories as f
from tests.api.conftest import bearer, post, token
from tests.league.league_night import game, start

pytestmark = pytest.mark.django_db


def _url(night, machine, rest=""):
    return f"/api/v1/leagues/{night.season.league.slug}/machines/{machine.pk}{rest}"


def test_api_problem_report_lands_as_reported_not_ruled_r7_3_u(client, night):
    """R7.3-u: a report through the API is open, not ruled, and never a Ruling."""
    machine = night.machines[0]
    secret = token(night.official, "scores")

    response = post(
        client, _url(night, machine, "/problem-reports"), {"text": "Dead pop bumper"}, secret
    )
    history = client.get(_url(night, machine, "/history")).json()

    assert response.status_code == 201, response.content
    assert response.json()["text"] == "Dead pop bumper"
    (problem,) = history["problems"]
    assert (problem["what"], problem["open"]) == ("report", True)
    assert problem["ruled"] == "“Dead pop bumper”: reported, not yet ruled"
    assert m.Ruling.objects.count() == 0


def test_api_problem_report_retried_with_idempotency_key_is_stored_once_r7_3_u(client, night):
    """R7.3-u: the same Idempotency-Key and body give the stored answer, one report."""
    secret = token(night.official, "scores")
    url = _url(night, night.machines[0], "/problem-reports")
    headers = {**bearer(secret), "HTTP_IDEMPOTENCY_KEY": "report-1"}

    first = client.post(url, {"text": "Stuck ball"}, content_type="application/json", **headers)
    again = client.post(url, {"text": "Stuck ball"}, content_type="application/json", **headers)

    assert (first.status_code, again.status_code) == (201, 201)
    assert again.headers["Idempotent-Replayed"] == "true"
    assert m.MachineProblemReport.objects.count() == 1


def test_api_problem_report_on_another_leagues_machine_is_404(client, night):
    """A league's token cannot report on another league's machine."""
    other = f.MachineFactory()
    secret = token(night.official, "scores")

    response = post(client, _url(night, other, "/problem-reports"), {"text": "Tilt"}, secret)

    assert response.status_code == 404


def test_api_repair_and_history_reliability_r7_3_r(client, night):
    """R7.3-r, R7.3-u: a machine declared unplayable is repaired through the API; its history
    says when, and its reliability counts its game and its day out."""
    meet = start(night)
    first = game(meet, 1, 1)
    machine = first.machine
    f.MalfunctionFactory(game=first, player=night.players[0], official=night.user)
    secret = token(night.official, "manage")
    assert (
        post(
            client,
            f"/api/v1/meets/{meet.pk}/machines/{machine.pk}/unplayable",
            {"reason": "Flipper dead"},
            secret,
        ).status_code
        == 201
    )

    repaired = post(client, _url(night, machine, "/repairs"), {"note": "New coil"}, secret)
    history = client.get(_url(night, machine, "/history")).json()

    assert repaired.status_code == 201, repaired.content
    assert [p["open"] for p in history["problems"]] == [False, False]
    assert history["reliability"] == {
        "games": 1, "malfunctions": 1, "per_100_games": 100.0, "days_out": 1, "days": 1,
    }  # fmt: skip
    assert [line["what"] for line in history["history"]][-2:] == ["repair", "declaration"]


def test_api_close_report_needs_manage_and_records_why(client, night):
    """The official closes a report through the API (scope: manage), saying why."""
    machine = night.machines[0]
    scores = token(night.official, "scores")
    report = post(client, _url(night, machine, "/problem-reports"), {"text": "Dim"}, scores)
    url = f"/api/v1/leagues/{night.season.league.slug}/problem-reports/{report.json()['id']}/close"

    refused = post(client, url, {"reason": "Bulb fine"}, scores)
    closed = post(client, url, {"reason": "Bulb fine"}, token(night.official, "manage"))

    assert refused.status_code == 403
    assert closed.status_code == 200, closed.content
    assert closed.json()["close_reason"] == "Bulb fine"
