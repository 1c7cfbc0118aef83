"""The bracket's plain sentences as the selector gives them (issue 27 §2): seed playoffs
(R6.1-e) and withdrawals (R6.6-b) on the golden season's playoff night, and each game's PAPA
points with the running total (R6.3-a, R6.3-c)."""

import pytest

from flipwell.league import models as m
from flipwell.league.selectors.playoffs.bracket import playoff_bracket
from flipwell.league.services.playoff_matches.games import record_playoff_game, start_playoff_game
from flipwell.league.services.playoffs import record_withdrawal
from tests.playoff_night import player, qualify_and_settle_seeds

pytestmark = pytest.mark.django_db


def full(first_name):
    p = player(first_name)
    return f"{p.first_name} {p.last_name}"


def test_bracket_notes_explain_the_seed_playoffs_r6_1_e(golden, official):
    """R6.1-e: each single-ball playoff says who won it and the seeds it gave."""
    qualify_and_settle_seeds(golden, official)

    notes = playoff_bracket(golden).notes

    assert len(notes) == 2
    assert notes[0].startswith(f"{full('Dee')} and {full('Bea')} tied on ")
    assert f"{full('Dee')} won the single-ball playoff" in notes[0]
    assert notes[0].endswith("[R6.1-e]")


def test_bracket_notes_explain_a_withdrawal_r6_6_b(golden, official):
    """R6.6-b: Ned withdraws; everyone below moves up and Kim qualifies."""
    qualify_and_settle_seeds(golden, official)
    record_withdrawal(season=golden, player=player("Ned"), actor=official.user)

    notes = playoff_bracket(golden).notes

    assert notes[-1] == (
        f"{full('Ned')} said before the playoffs that they could not come; everyone seeded "
        f"below moved up one spot and {full('Kim')}, next below the cut, qualified [R6.6-b]"
    )


def test_match_rows_show_points_per_game_as_they_accrue_r6_3_a(golden, official):
    """R6.3-a, R6.3-c: after game 1 of QF1 the table holds its 4-2-1-0 and the totals; game 2,
    started, is a column whose points are not known yet."""
    qualify_and_settle_seeds(golden, official)
    start_playoff_game(season=golden, division="A", match="QF1", actor=official.user)
    (division,) = playoff_bracket(golden).divisions
    qf1 = next(x for x in division.matches if x.match == "QF1")
    order = [m.Player.objects.get(pk=ref.id) for ref in qf1.players]
    record_playoff_game(
        season=golden,
        division="A",
        match="QF1",
        scores={p: 4_000_000 - 1_000_000 * i for i, p in enumerate(order)},
        actor=official.user,
    )
    machine = m.Machine.objects.filter(league=golden.league).exclude(
        pk=m.PlayoffGame.objects.get().machine_id
    )[0]
    start_playoff_game(
        season=golden, division="A", match="QF1", machine=machine, actor=official.user
    )

    (division,) = playoff_bracket(golden).divisions
    qf1 = next(x for x in division.matches if x.match == "QF1")

    assert [c.playing for c in qf1.columns] == [False, True]
    assert [(r.player.id, r.points, r.total) for r in qf1.rows] == [
        (p.pk, (points, None), points) for p, points in zip(order, (4, 2, 1, 0), strict=True)
    ]
    assert qf1.in_progress
