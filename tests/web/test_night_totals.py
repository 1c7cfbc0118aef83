""" "Why do I have N points" (issue #11, item 6): the player page's explanations open from a
visible, tappable marker; the sheet's "Match complete" screen and the board show each player's
night total with its match bonus (R3.3-a)."""

import html
import re
from pathlib import Path

import pytest

from flipwell.league import models as m
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests.league.league_night import build_night, game, next_game, play, start

pytestmark = pytest.mark.django_db

APP_CSS = Path(__file__).parents[2] / "src/flipwell/web/static/flipwell/app.css"


@pytest.fixture
def played_match_night():
    """Meet 1 with its one group's four games played: the first ladder player wins each."""
    night = build_night(players=4)
    night.meet = start(night)
    night.group = night.meet.groups.get()
    night.members = [g.player for g in night.group.members.order_by("position")]
    current = game(night.meet, 1, 1)
    for number in range(1, 5):
        play(current, {p: 1000 * (4 - i) for i, p in enumerate(night.members)})
        if number < 4:  # the last of the game picks the next machine (R5-c)
            current = next_game(night.meet, 1, night.members[3])
    return night


def text(response) -> str:
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", response.text)).split())


def test_board_gives_each_players_night_total_with_the_match_bonus(played_match_night):
    group = meet_board(m.Meet.objects.get(pk=played_match_night.meet.pk)).groups[0]

    assert [(n.player, n.game_points, n.match_bonus, n.night_total) for n in group.nights] == [
        (played_match_night.members[0].pk, 28, 0, 28),
        (played_match_night.members[1].pk, 20, 0, 20),
        (played_match_night.members[2].pk, 16, 1, 17),
        (played_match_night.members[3].pk, 8, 1, 9),
    ]


def test_sheet_match_complete_shows_night_totals_and_match_bonus(client, played_match_night):
    shown = text(client.get(scoresheet_path(played_match_night.group)))

    assert "Match complete" in shown
    assert f"{played_match_night.members[2]}: 17 points = 16 game points + 1 match bonus" in shown
    assert "Night total" in shown


def test_public_board_shows_match_bonus_and_night_total(client, played_match_night):
    shown = text(
        client.get(f"/leagues/{played_match_night.league.slug}/meets/{played_match_night.meet.pk}/")
    )

    assert "Match bonus 0 0 1 1 Night total 28 pts 20 pts 17 pts 9 pts" in shown


def test_player_page_explanations_have_a_visible_why_marker(client, played_match_night):
    response = client.get(
        f"/leagues/{played_match_night.league.slug}/players/{played_match_night.members[0].pk}/"
    )

    assert response.text.count('<span class="why-hint">Why?</span>') == 4
    css = APP_CSS.read_text()
    assert 'details.game summary > span:first-child::before { content: "▸";' in css
    assert "details.game summary { list-style: none; }" in css
