"""A game read gives the fold's line per player (issue 33 §1, §2): the score that counts, the
score entered and each adjustment beside it, the place and the points, on the meet board
(``GET /api/v1/meets/{id}``) and the game (``GET /api/v1/games/{id}``)."""

import pytest

from flipwell.league.services.malfunctions.compensatory import (
    record_compensatory_game,
    request_compensatory_game,
)
from flipwell.league.services.malfunctions.report import report_malfunction
from flipwell.league.services.violations.penalties import record_violation
from tests.league.league_night import build_night, game, next_game, play, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def erin_night():
    """Meet 1, group 1, game 1: Erin (first of the ladder) lost power on ball 1 with
    18,100,000 and played a compensatory game of 14,600,000 (R7.3-m); the others scored
    20,000,000, 5,000,000 and 4,000,000."""
    night = build_night(players=4)
    night.meet = start(night)
    night.game = game(night.meet, 1, 1)
    night.members = [m.player for m in night.game.group.members.order_by("position")]
    erin = night.members[0]
    report_malfunction(game=night.game, player=erin, ball=1, reason_code="power_loss",
                       ball_in_play=False, actor=night.user)  # fmt: skip
    request_compensatory_game(game=night.game, player=erin, actor=night.user)
    record_compensatory_game(game=night.game, player=erin, new_score=14_600_000, actor=night.user)
    a, b, c, d = night.members
    play(night.game, {a: 18_100_000, b: 20_000_000, c: 5_000_000, d: 4_000_000})
    return night


def _line(lines, player):
    return next(line for line in lines if line["player_id"] == player.pk)


def test_meet_read_gives_the_compensatory_total_with_its_parts(client, erin_night):
    """R7.3-m: the board's line is the combined score, the entered one beside it."""
    board = client.get(f"/api/v1/meets/{erin_night.meet.pk}").json()

    lines = board["groups"][0]["games"][0]["scores"]
    erin = _line(lines, erin_night.members[0])
    assert (erin["machine_score"], erin["entered_score"]) == (32_700_000, 18_100_000)
    assert [(a["kind"], a["amount"]) for a in erin["adjustments"]] == [("compensatory", 14_600_000)]
    assert erin["rule_ids"] == ["R7.3-m"]
    assert (erin["place"], erin["points"]) == (1, 8)  # 7 + bonus: 32.7M > 20M + 5M + 4M
    assert [line["player_id"] for line in lines] == [p.pk for p in erin_night.members]


def test_game_read_gives_the_result_and_the_compensatory_game(client, erin_night):
    read = client.get(f"/api/v1/games/{erin_night.game.pk}").json()

    erin = _line(read["result"], erin_night.members[0])
    assert (erin["machine_score"], erin["entered_score"]) == (32_700_000, 18_100_000)
    assert (erin["place"], erin["adjustments"][0]["kind"]) == (1, "compensatory")
    assert read["compensatory_games"] == [
        {"player_id": erin_night.members[0].pk, "score": 14_600_000, "subtracted": 0}
    ]
    assert read["submissions"][0]["scores"][0]["machine_score"] == 18_100_000  # as entered


def test_game_read_gives_no_result_before_confirmation(client, erin_night):
    second = next_game(erin_night.meet, 1, erin_night.members[3])

    read = client.get(f"/api/v1/games/{second.pk}").json()

    assert (read["result"], read["compensatory_games"]) == (None, [])


def test_meet_read_gives_a_zeroed_score_as_zero(client, erin_night):
    """R8.2-a: an opponent's ball played: the machine score counts as zero, the entered
    score beside it."""
    rival = erin_night.members[1]
    record_violation(meet=erin_night.meet, player=rival, kind="opponents_ball",
                     game=erin_night.game, serious=False, reason="Wrong ball by mistake",
                     actor=erin_night.user)  # fmt: skip

    lines = client.get(f"/api/v1/meets/{erin_night.meet.pk}").json()["groups"][0]["games"][0][
        "scores"
    ]

    line = _line(lines, rival)
    assert (line["machine_score"], line["entered_score"]) == (0, 20_000_000)
    assert [(a["kind"], a["amount"]) for a in line["adjustments"]] == [("zeroed", -20_000_000)]
    assert line["rule_ids"] == ["R8.2-a"]
    assert "R8.2" not in line["adjustments"][0]["text"]
    assert line["place"] == 4
    game_line = _line(client.get(f"/api/v1/games/{erin_night.game.pk}").json()["result"], rival)
    assert game_line == line


def test_meet_read_keeps_each_game_its_own_lines_past_a_discarded_score(client, erin_night):
    """R7.4-c, A58: game 2's discarded score gives it no result until the replay; game 3,
    played meanwhile, shows its own scores, not game 2's."""
    from flipwell.league.services.malfunctions.discarded_scores import (
        record_positive_malfunction_replay,
        record_replay_scores,
    )
    from flipwell.league.services.meet_machines.next_machine import official_chooses_next_machine

    a, b, c, d = erin_night.members
    second = next_game(erin_night.meet, 1, d)
    play(second, {a: 400, b: 300, c: 200, d: 100})
    record_positive_malfunction_replay(
        game=second, discard_scores_of=[a], reason="Bear Kick switch failed", actor=erin_night.user
    )
    group = erin_night.game.group
    third = official_chooses_next_machine(
        group=group, machine=None, seed=1, actor=erin_night.user
    ).game
    play(third, {a: 1, b: 2, c: 3, d: 4})

    games = client.get(f"/api/v1/meets/{erin_night.meet.pk}").json()["groups"][0]["games"]
    assert games[1]["scores"] is None
    assert [line["machine_score"] for line in games[2]["scores"]] == [1, 2, 3, 4]
    assert games[2]["finishing_order"] == [d.pk, c.pk, b.pk, a.pk]

    record_replay_scores(game=second, scores={a: 50}, entered_by=a, confirmed_by=b,
                         actor=erin_night.user)  # fmt: skip

    games = client.get(f"/api/v1/meets/{erin_night.meet.pk}").json()["groups"][0]["games"]
    assert [line["machine_score"] for line in games[1]["scores"]] == [50, 300, 200, 100]
    assert [line["machine_score"] for line in games[2]["scores"]] == [1, 2, 3, 4]
