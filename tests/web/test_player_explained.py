"""A player's page explains every fact that changed a line (issue 27 §4): a place decided by
a tie's one-ball playoff (R3.2-i) and a score corrected after confirmation, with who agreed
(R3-c, R3-d)."""

import html

import pytest

from flipwell.league.services.corrections.answer import respond_to_correction
from flipwell.league.services.corrections.request import request_correction
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db


def _name(player):
    return f"{player.first_name} {player.last_name}"


@pytest.fixture
def corrected_tie():
    """Meet 1, group 1, game 1: players 1 and 2 tied at 1,000,000 (2 won the playoff);
    player 3's 5,120,000 corrected to 51,200,000 with everyone's agreement."""
    night = night_.build_night(players=8)
    meet = night_.start(night)
    a = night.players
    first = night_.game(meet, 1, 1)
    night_.play(
        first,
        {a[0]: 1_000_000, a[1]: 1_000_000, a[2]: 5_120_000, a[3]: 10},
        tie_order=[[a[1], a[0]]],
    )
    request = request_correction(
        game=first, scores={a[2]: 51_200_000}, requested_by=a[2], reason="Misread the display"
    )
    for player in a[:4]:
        if not request.responses.filter(player=player).exists():
            respond_to_correction(request=request, player=player, agrees=True)
    request.refresh_from_db()
    assert request.status == "applied"
    return night


def test_player_page_explains_a_place_won_on_the_tie_playoff(client, corrected_tie):
    """issue 27 §4, R3.2-i: the page said only "finished 2nd of 4" for a tied game."""
    night = corrected_tie
    a = night.players

    response = client.get(f"/leagues/{night.league.slug}/players/{a[1].pk}/")

    assert response.status_code == 200
    text = html.unescape(response.text)
    assert (
        f"{_name(a[1])} and {_name(a[0])} tied at 1,000,000: {_name(a[1])} won the one-ball "
        "playoff, so finished 2nd"
    ) in text


def test_player_page_explains_a_corrected_score_and_who_agreed(client, corrected_tie):
    """issue 27 §4, R3-c, R3-d: a corrected score carried no note of the correction."""
    night = corrected_tie
    a = night.players
    agreed = f"{_name(a[2])}, {_name(a[0])}, {_name(a[1])} and {_name(a[3])}"  # as they answered

    response = client.get(f"/leagues/{night.league.slug}/players/{a[2].pk}/")

    assert response.status_code == 200
    text = html.unescape(response.text)
    assert (
        f"{_name(a[2])}'s score was corrected from 5,120,000 to 51,200,000 after the game was "
        f"confirmed: {agreed} agreed"
    ) in text
    other = html.unescape(client.get(f"/leagues/{night.league.slug}/players/{a[1].pk}/").text)
    assert "was corrected" not in other
