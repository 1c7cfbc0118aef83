"""The API's report of a game-ending event takes the slammer and the extra balls collected
(issue 27 §3: R8.4-a, A32, R7.3-l)."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from tests.api.conftest import post

pytestmark = pytest.mark.django_db


def _owed(response):
    return [
        (o["player_id"], o["catastrophic"], o["compensatory_balls"], o["extra_balls"], o["slammer"])
        for o in response.json()["owed"]
    ]


def test_report_slam_tilt_r8_4_a_slammer_owed_nothing(client, night, first_game, manage_secret):
    a = night.players

    response = post(
        client,
        f"/api/v1/games/{first_game.pk}/malfunctions",
        {"player": a[1].pk, "ball": 2, "reason_code": "slam_tilt", "slammer": a[2].pk},
        manage_secret,
    )

    assert response.status_code == 201, response.json()
    assert _owed(response) == [
        (a[0].pk, [3], 1, 0, False),
        (a[1].pk, [3], 2, 0, False),
        (a[2].pk, [], 0, 0, True),
        (a[3].pk, [2, 3], 2, 0, False),
    ]
    assert not m.Malfunction.objects.filter(player=a[2]).exists()


def test_report_power_loss_r7_3_l_extra_balls_collected(client, night, first_game, manage_secret):
    a = night.players

    response = post(
        client,
        f"/api/v1/games/{first_game.pk}/malfunctions",
        {"player": a[1].pk, "ball": 2, "reason_code": "power_loss",
         "extra_balls": [{"player": a[3].pk, "collected": 1}]},
        manage_secret,
    )  # fmt: skip

    assert response.status_code == 201, response.json()
    assert _owed(response)[3] == (a[3].pk, [2, 3, 4], 3, 1, False)


def test_report_extra_balls_of_a_player_twice_refused(client, night, first_game, manage_secret):
    a = night.players

    response = post(
        client,
        f"/api/v1/games/{first_game.pk}/malfunctions",
        {"player": a[1].pk, "ball": 2, "reason_code": "power_loss",
         "extra_balls": [{"player": a[3].pk, "collected": 1},
                         {"player": a[3].pk, "collected": 0}]},
        manage_secret,
    )  # fmt: skip

    assert response.status_code == 422
    assert m.Malfunction.objects.count() == 0


def test_report_slammer_of_a_fire_refused_r8_4_a(client, night, first_game, manage_secret):
    a = night.players

    response = post(
        client,
        f"/api/v1/games/{first_game.pk}/malfunctions",
        {"player": a[1].pk, "ball": 2, "reason_code": "fire", "slammer": a[1].pk},
        manage_secret,
    )

    assert response.status_code == 422
    assert m.Malfunction.objects.count() == 0
