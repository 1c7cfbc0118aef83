"""Every screen shows a game's line as the fold decides it (issue 33 §1): a score zeroed for
playing an opponent's ball (R8.2-a) reads 0, with the entered score and the adjustment named
beside it in plain words, on the public board, the console, the sheet and the printed pages."""

import html
import re

import pytest

from flipwell.league.services.violations.penalties import record_violation
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests.league.league_night import build_night, game, play, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def opponents_ball_night():
    """Meet 1, group 1, game 1 confirmed; then its second player is found to have played an
    opponent's ball (ruled accidental, A28): his 20,000,000 counts as zero."""
    night = build_night(players=4)
    night.meet = start(night)
    night.game = game(night.meet, 1, 1)
    a, b, c, d = [m.player for m in night.game.group.members.order_by("position")]
    night.rival = b
    play(night.game, {a: 18_100_000, b: 20_000_000, c: 5_000_000, d: 4_000_000})
    record_violation(meet=night.meet, player=b, kind="opponents_ball", game=night.game,
                     serious=False, reason="Wrong ball by mistake", actor=night.user)  # fmt: skip
    return night


def text(response) -> str:
    page = response.content.decode().replace("<wbr>", "")
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


ZEROED = "0 4th 20,000,000 entered, counts as zero"


def test_public_board_shows_the_zeroed_score_named(client, opponents_ball_night):
    shown = text(
        client.get(
            f"/leagues/{opponents_ball_night.league.slug}/meets/{opponents_ball_night.meet.pk}/"
        )
    )

    assert ZEROED in shown
    assert (
        f"{opponents_ball_night.rival}'s score counts as zero: played an opponent's ball" in shown
    )
    assert "R8.2-a" not in shown


def test_console_meet_shows_the_zeroed_score_named(client, opponents_ball_night):
    client.force_login(opponents_ball_night.user)

    shown = text(
        client.get(
            f"/manage/{opponents_ball_night.league.slug}/meets/{opponents_ball_night.meet.pk}/"
        )
    )

    assert "0 20,000,000 entered, counts as zero" in shown


def test_sheet_shows_the_zeroed_score_named(client, opponents_ball_night):
    shown = text(client.get(scoresheet_path(opponents_ball_night.game.group)))

    assert "0 20,000,000 entered, counts as zero" in shown


def test_printed_results_show_the_zeroed_score_named(client, opponents_ball_night):
    client.force_login(opponents_ball_night.user)

    shown = text(
        client.get(
            f"/print/{opponents_ball_night.league.slug}/meets/{opponents_ball_night.meet.pk}/results/"
        )
    )

    assert "0 20,000,000 entered, counts as zero" in shown
