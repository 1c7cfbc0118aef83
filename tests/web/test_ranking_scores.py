"""A compensatory game's score as every page shows it (issue #11, item 5): the score a game ranks
a player by is the score entered plus the compensatory game's (R7.3-m), so the sheet, the
console and the public board show 850,000 (150,000 + 700,000), ranked above 800,000."""

import html
import re

import pytest

from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.services.malfunctions.compensatory import (
    record_compensatory_game,
    request_compensatory_game,
)
from flipwell.league.services.malfunctions.report import report_malfunction
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests.league.league_night import build_night, game, play, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def compensatory_night():
    """Meet 1, group 1's game 1 confirmed: its first player had a power loss on ball 1 and a
    compensatory game of 700,000 on top of the 150,000 entered; the second scored 800,000."""
    night = build_night(players=4)
    night.meet = start(night)
    night.game = game(night.meet, 1, 1)
    members = [m.player for m in night.game.group.members.order_by("position")]
    night.victim, night.rival = members[0], members[1]
    report_malfunction(game=night.game, player=night.victim, ball=1, reason_code="power_loss",
                       ball_in_play=False, actor=night.user)  # fmt: skip
    request_compensatory_game(game=night.game, player=night.victim, actor=night.user)
    record_compensatory_game(
        game=night.game, player=night.victim, new_score=700_000, actor=night.user
    )
    play(night.game, {night.victim: 150_000, night.rival: 800_000, members[2]: 500,
                      members[3]: 400})  # fmt: skip
    return night


def text(response) -> str:
    # <wbr> (where a long score may break, issue 27 §5) is no space: a browser shows none.
    page = response.text.replace("<wbr>", "")
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())


def test_board_gives_the_ranking_score_and_its_parts(compensatory_night):
    board_game = meet_board(compensatory_night.meet).groups[0].games[0]

    victim = next(c for c in board_game.cells if c.player == compensatory_night.victim.pk)
    assert (victim.entered, victim.score) == (150_000, 850_000)
    assert (victim.compensatory.new_score, victim.compensatory.subtracted) == (700_000, 0)
    assert victim.adjustments == (
        f"{compensatory_night.victim}'s compensatory game: 150,000 + 700,000 = 850,000 (R7.3-m)",
    )
    assert board_game.ranking_scores[compensatory_night.rival.pk] == 800_000
    assert board_game.finishing_order[:2] == (
        compensatory_night.victim.pk,
        compensatory_night.rival.pk,
    )


def test_sheet_shows_850000_with_its_parts(client, compensatory_night):
    shown = text(client.get(scoresheet_path(compensatory_night.game.group)))

    assert "850,000 150,000 + 700,000 compensatory game" in shown
    assert "150,000 1" not in shown


def test_public_board_shows_850000_first_with_its_parts(client, compensatory_night):
    shown = text(
        client.get(f"/leagues/{compensatory_night.league.slug}/meets/{compensatory_night.meet.pk}/")
    )

    assert "850,000 1st 150,000 + 700,000 compensatory game" in shown
    assert "800,000 2nd" in shown


def test_console_meet_shows_850000_with_its_parts(client, compensatory_night):
    client.force_login(compensatory_night.user)

    shown = text(
        client.get(f"/manage/{compensatory_night.league.slug}/meets/{compensatory_night.meet.pk}/")
    )

    assert "850,000 150,000 + 700,000 compensatory game" in shown
