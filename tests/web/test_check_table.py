"""The confirmer's "check it" table shows what confirming will store (issue 33 §1): the points
the season fold will give once the sheet is confirmed, a compensatory game recorded before
confirmation counted (R7.3-m), not the points of the entered scores alone."""

import html
import re

import pytest

from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.scoresheet import scoresheet
from flipwell.league.services.malfunctions.compensatory import (
    record_compensatory_game,
    request_compensatory_game,
)
from flipwell.league.services.malfunctions.report import report_malfunction
from flipwell.league.services.scores.confirmation import confirm_scores
from flipwell.league.services.scores.entry import submit_scores
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests.league.league_night import build_night, game, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def compensated_entry_night():
    """Meet 1, group 1, game 1 entered, not confirmed: Erin entered 1,000,000 (last of the
    sheet), and her compensatory game of 14,600,000 is recorded (R7.3-m): 15,600,000 counts,
    second behind 20,000,000: 6 points once confirmed, 2 for the
    1,000,000 entered alone."""
    night = build_night(players=4)
    night.meet = start(night)
    night.game = game(night.meet, 1, 1)
    a, b, c, d = [m.player for m in night.game.group.members.order_by("position")]
    night.erin, night.rival = a, b
    report_malfunction(game=night.game, player=a, ball=1, reason_code="power_loss",
                       ball_in_play=False, actor=night.user)  # fmt: skip
    request_compensatory_game(game=night.game, player=a, actor=night.user)
    record_compensatory_game(game=night.game, player=a, new_score=14_600_000, actor=night.user)
    night.submitted = submit_scores(
        game=night.game,
        scores={a: 1_000_000, b: 20_000_000, c: 5_000_000, d: 4_000_000},
        entered_by=c,
        idempotency_key="check-table",
    ).submission
    return night


def _pending_line(compensated_entry_night, player):
    pending = scoresheet(compensated_entry_night.game.group).pending
    return next(line for line in pending.lines if line.player_id == player.pk)


def test_check_table_gives_the_points_the_fold_will_give(compensated_entry_night):
    erin = _pending_line(compensated_entry_night, compensated_entry_night.erin)

    assert (erin.points, erin.machine_score, erin.entered) == (6, 15_600_000, 1_000_000)
    assert erin.compensatory.new_score == 14_600_000


def test_check_table_points_are_the_points_stored_after_confirm(compensated_entry_night):
    shown = {
        line.player_id: line.points
        for line in scoresheet(compensated_entry_night.game.group).pending.lines
    }

    confirm_scores(
        submission=compensated_entry_night.submitted, confirmed_by=compensated_entry_night.rival
    )

    cells = meet_board(compensated_entry_night.meet).groups[0].games[0].cells
    assert {cell.player: cell.points for cell in cells} == shown


def test_check_table_page_shows_erins_six_points(client, compensated_entry_night):
    page = client.get(scoresheet_path(compensated_entry_night.game.group)).text.replace("<wbr>", "")
    words = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", page)).split())

    table = words[words.index("check it") :]
    erins_row = table[
        table.index(str(compensated_entry_night.erin)) : table.index(
            str(compensated_entry_night.rival)
        )
    ]
    assert erins_row.startswith(
        f"{compensated_entry_night.erin} 15,600,000 1,000,000 + 14,600,000 compensatory"
    )
    assert erins_row.endswith(" 6 ")


def test_submit_reply_gives_the_points_the_fold_will_give(compensated_entry_night):
    """R3-a, R7.3-m: the reply to the sheet's sender (the API's and the offline sheet's
    ``points``) says what confirming stores, as the check table does: Erin 6, not 2."""
    a, b, c, d = [m.player for m in compensated_entry_night.game.group.members.order_by("position")]

    replayed = submit_scores(
        game=compensated_entry_night.game,
        scores={a: 1_000_000, b: 20_000_000, c: 5_000_000, d: 4_000_000},
        entered_by=c,
        idempotency_key="check-table",
    )
    confirm_scores(
        submission=compensated_entry_night.submitted, confirmed_by=compensated_entry_night.rival
    )

    cells = meet_board(compensated_entry_night.meet).groups[0].games[0].cells
    assert replayed.replayed
    assert dict(replayed.points) == {cell.player: cell.points for cell in cells}
    assert replayed.points[compensated_entry_night.erin.pk] == 6
