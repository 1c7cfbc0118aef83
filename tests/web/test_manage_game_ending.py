"""The console's malfunction report for a reason that ends the game: every player's
malfunctions shown in plain words before the official confirms, then recorded (issue 27 §3)."""

import pytest

from flipwell.league import models as m
from tests.form_keys import issued_key
from tests.web.pages import page_text

pytestmark = pytest.mark.django_db


def test_malfunctions_power_loss_shows_who_is_owed_what_before_recording(client, game_ending_night):
    """issue 27 §3, R7.3-h, R7.3-i, A32: the official sees each player's malfunctions and
    compensatory game in names and plain words, rule ids only under "Why"; nothing is recorded
    yet."""
    response = client.post(game_ending_night.url, game_ending_night.report)

    text = page_text(response)
    assert response.status_code == 200
    assert [line for line in text.splitlines() if "<li><strong>" in line] == [
        '  <ul class="owed"><li><strong>Ann X</strong>: catastrophic on ball 3 → a '
        "compensatory game of 1 ball</li><li><strong>Ben X</strong>: major on ball 2, "
        "catastrophic on ball 3 → a compensatory game of 2 balls</li><li><strong>Cleo X"
        "</strong>: catastrophic on balls 2 and 3 → a compensatory game of 2 balls</li><li>"
        "<strong>Dan X</strong>: catastrophic on balls 2 and 3 → a compensatory game of 2 "
        "balls</li></ul>"
    ]
    assert "<summary>Why</summary>" in text
    assert m.Malfunction.objects.count() == 0


def test_malfunctions_power_loss_confirmed_records_every_ball_and_compensatory_follows(
    client, game_ending_night
):
    """issue 27 §3, R7.3-h, R7.3-i, A32, R7.3-k: once confirmed, one row per ball per player;
    each player owed may have his compensatory game. Today's console recorded one major and
    refused Ben's compensatory game."""
    a = game_ending_night.players

    response = client.post(game_ending_night.url, {**game_ending_night.report, "confirm": "yes"})

    assert response.status_code == 302
    rows = m.Malfunction.objects.filter(game=game_ending_night.game).order_by("player__pk", "ball")
    assert [(r.player_id, r.ball, r.kind) for r in rows] == [
        (a[0].pk, 3, "catastrophic"),
        (a[1].pk, 2, "major"),
        (a[1].pk, 3, "catastrophic"),
        (a[2].pk, 2, "catastrophic"),
        (a[2].pk, 3, "catastrophic"),
        (a[3].pk, 2, "catastrophic"),
        (a[3].pk, 3, "catastrophic"),
    ]
    granted = client.post(
        game_ending_night.url,
        {"action": "grant", "game": game_ending_night.game.pk, "player": a[1].pk},
    )
    assert granted.status_code == 302
    assert m.CompensatoryRequest.objects.get(player=a[1]).balls == 2


def test_malfunctions_game_ending_next_ball_adjusted_then_recorded(client, game_ending_night):
    """issue 27 §3: the official changes Dan's next ball to 4 (he had played his 3 balls): the
    review shows it, and the confirmed record follows it (R7.3-h)."""
    a = game_ending_night.players
    adjusted = {
        **game_ending_night.report,
        f"next_ball_{a[0].pk}": "3",
        f"next_ball_{a[2].pk}": "2",
        f"next_ball_{a[3].pk}": "4",
    }

    again = client.post(game_ending_night.url, {**adjusted, "confirm": "again"})
    recorded = client.post(game_ending_night.url, {**adjusted, "confirm": "yes"})

    assert "<strong>Dan X</strong>: nothing: every ball of theirs was played" in page_text(again)
    assert recorded.status_code == 302
    assert not m.Malfunction.objects.filter(player=a[3]).exists()
    assert m.Malfunction.objects.filter(game=game_ending_night.game).count() == 5


def test_malfunctions_ordinary_major_needs_no_review(client, game_ending_night):
    """issue 27 §3: a reason that does not end the game is recorded at once, as before."""
    response = client.post(
        game_ending_night.url, {**game_ending_night.report, "reason_code": "forced_tilt_stuck_ball"}
    )

    assert response.status_code == 302
    assert m.Malfunction.objects.get().kind == "major"


def test_malfunctions_review_posted_twice_shows_the_review_again_not_already_recorded(
    client, game_ending_night
):
    """issue 26 §2 with issue 27 §3: the review step records nothing, so its form key stays
    free; a double tap on "Record" shows the review again, and the confirmation still records
    every player's malfunctions."""
    report = {**game_ending_night.report, "form_key": issued_key(client)}

    first = client.post(game_ending_night.url, report)
    again = client.post(game_ending_night.url, report)

    assert (first.status_code, again.status_code) == (200, 200)
    assert "Already recorded" not in page_text(again)
    assert "record every player" in page_text(again)
    assert m.Malfunction.objects.count() == 0
