"""The console's report of a game-ending event names an intentional slammer and the extra
balls collected, and its review says who is owed what (issue 27 §3: R8.4-a, A32, R7.3-l)."""

import pytest

from flipwell.league import models as m
from tests.web.pages import page_text

pytestmark = pytest.mark.django_db


def _slam(game_ending_night, slammer):
    return {**game_ending_night.report, "reason_code": "slam_tilt", "slammer": slammer.pk}


def test_malfunctions_form_offers_the_slammer_and_the_extra_balls(client, game_ending_night):
    text = page_text(client.get(game_ending_night.url))

    assert "Slam tilted on purpose by" in text
    assert "Extra balls the player had collected in this game" in text


def test_malfunctions_review_r8_4_a_slammer_owed_nothing_and_sent_to_violations(
    client,
    game_ending_night,
):
    """R8.4-a, A32: Cleo slam tilts on purpose during Ben's ball 2: the review says she is
    owed nothing and takes a serious violation's penalty, and links the violations page."""
    a = game_ending_night.players

    response = client.post(game_ending_night.url, _slam(game_ending_night, a[2]))

    text = page_text(response)
    assert response.status_code == 200
    assert "<strong>Cleo X</strong>: nothing: they slam tilted the machine on purpose" in text
    assert "<strong>Ben X</strong>: major on ball 2, catastrophic on ball 3" in text
    assert "Cleo X slam tilted the machine on purpose: record their serious violation" in text
    assert "/violations/" in text
    assert m.Malfunction.objects.count() == 0


def test_malfunctions_confirmed_r8_4_a_records_nothing_for_the_slammer(client, game_ending_night):
    a = game_ending_night.players

    response = client.post(
        game_ending_night.url, {**_slam(game_ending_night, a[2]), "confirm": "yes"}
    )

    assert response.status_code == 302
    assert not m.Malfunction.objects.filter(player=a[2]).exists()
    assert m.Malfunction.objects.filter(game=game_ending_night.game).count() == 5


def test_malfunctions_review_r7_3_l_extra_balls_collected_are_owed(client, game_ending_night):
    """R7.3-l: Ben had collected an extra ball (the report's field), Dan too (the review's):
    each is owed it; the record follows the review."""
    a = game_ending_night.players
    report = {**game_ending_night.report, "extra_balls": "1"}
    review = {**report, f"extra_balls_{a[3].pk}": "1"}

    first = page_text(client.post(game_ending_night.url, report))
    again = page_text(client.post(game_ending_night.url, {**review, "confirm": "again"}))
    recorded = client.post(game_ending_night.url, {**review, "confirm": "yes"})

    assert '<strong>Ben X</strong> <span class="muted">(had collected 1 extra ball)</span>: ' in (
        first
    )
    assert "major on ball 2, catastrophic on balls 3 and 4 → a compensatory game of 3" in first
    assert "Dan X: extra balls collected in this game" in again
    assert "catastrophic on balls 2, 3 and 4 → a compensatory game of 3 balls" in again
    assert recorded.status_code == 302
    assert m.Malfunction.objects.filter(player=a[3]).count() == 3


def test_malfunctions_slammer_of_a_power_loss_refused(client, game_ending_night):
    response = client.post(
        game_ending_night.url,
        {**game_ending_night.report, "slammer": game_ending_night.players[1].pk},
    )

    assert response.status_code == 400
    assert "Only a slam tilt is slam tilted on purpose" in page_text(response)
    assert m.Malfunction.objects.count() == 0
