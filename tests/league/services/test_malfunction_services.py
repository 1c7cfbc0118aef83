"""Malfunctions (§7.3, §7.4): reports and their rulings, compensatory games, the automatic
unplayable machine, and positive malfunctions' discarded scores and their replay."""

import pytest
from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.selectors.machine_history import machine_histories
from flipwell.league.services.corrections.request import request_correction
from flipwell.league.services.forfeits import record_forfeit
from flipwell.league.services.malfunctions.compensatory import (
    record_compensatory_game,
    request_compensatory_game,
)
from flipwell.league.services.malfunctions.discarded_scores import (
    record_positive_malfunction_replay,
    record_replay_scores,
)
from flipwell.league.services.malfunctions.game_ending import preview_game_ending
from flipwell.league.services.malfunctions.report import report_malfunction
from flipwell.league.services.meet_machines.declarations import announce_machine_problem
from flipwell.league.services.meets.close import close_meet
from flipwell.rules.season import fold_season
from flipwell.web.words.incidents import what_owed
from tests.league.league_night import game
from tests.league.league_night import play as play_game

pytestmark = pytest.mark.django_db


def _points(night, player):
    return fold_season(season_facts(night.season)).players[str(player.pk)].nights[-1].game_points


# --- malfunctions and compensatory games -----------------------------------------------------


def test_report_malfunction_major_when_every_player_forfeited_is_recorded(night, meet):
    """R7.3-r: with every player's forfeit recorded nobody plays the machine, so a major
    malfunction reported on the game is recorded and never makes it unplayable (the rules
    refuse a game of no players; found by the season state machine)."""
    g = game(meet, 1, 1)
    members = list(g.group.members.order_by("position"))
    for member in members:
        record_forfeit(game=g, player=member.player, countable=True, actor=night.user)

    reported = report_malfunction(
        game=g, player=members[0].player, ball=1, reason_code="forced_tilt_stuck_ball",
        actor=night.user,
    )  # fmt: skip

    assert (reported.malfunction.kind, reported.machine_unplayable) == ("major", False)


def test_report_malfunction_major_is_one_line_of_the_maintenance_sheet(night, meet):
    """R7.3-e: forced tilt to free a stuck ball is a major; R7.3-u: the maintenance sheet
    (its row is the sheet's line: no copy of it as a note, issue 33 §3)."""
    g = game(meet, 1, 1)

    reported = report_malfunction(
        game=g, player=night.players[0], ball=2, reason_code="forced_tilt_stuck_ball",
        note="Ball stuck behind the left ramp", actor=night.user,
    )  # fmt: skip

    assert (reported.malfunction.kind, reported.ruling.rule, reported.entitled) == (
        "major", "R7.3-e", False,
    )  # fmt: skip
    (sheet,) = machine_histories(meet.season.league, machine_id=g.machine_id)
    assert [(line.what, line.meet) for line in sheet.lines] == [("malfunction", meet.number)]
    assert "Ball stuck behind the left ramp" in sheet.lines[0].text
    assert not m.MaintenanceNote.objects.exists()


def test_report_malfunction_on_a_one_handed_extra_ball_refused(night, meet):
    """R7.1-d: an unallowable extra ball is never compensated."""
    with pytest.raises(ValidationError) as caught:
        report_malfunction(
            game=game(meet, 1, 1), player=night.players[0], ball=4,
            reason_code="forced_tilt_stuck_ball", one_handed_ball=True, actor=night.user,
        )  # fmt: skip

    assert "(R7.1-d)" in caught.value.message_dict["reason_code"][0]
    assert m.Malfunction.objects.count() == 0


def test_report_malfunction_of_an_announced_problem_refused(night, meet):
    """R7.3-g: a problem announced before play is never a major malfunction."""
    g = game(meet, 1, 1)
    announce_machine_problem(meet=meet, machine=g.machine, problem="Left flipper weak",
                             actor=night.user)  # fmt: skip

    with pytest.raises(ValidationError) as caught:
        report_malfunction(
            game=g, player=night.players[0], ball=1, reason_code="turn_ended_with_balls_in_play",
            problem="left flipper  WEAK", actor=night.user,
        )  # fmt: skip

    assert "(R7.3-g)" in caught.value.message_dict["reason_code"][0]


def test_report_malfunction_other_needs_the_officials_reason(night, meet):
    """R7.3-d: a case outside the rulebook's examples is the LO's ruling, with a reason."""
    with pytest.raises(ValidationError) as caught:
        report_malfunction(
            game=game(meet, 1, 1), player=night.players[0], ball=1, reason_code="other",
            kind="major", actor=night.user,
        )  # fmt: skip

    assert caught.value.message_dict["note"] == [
        "The official's ruling on a malfunction needs a reason: say why the official decided it."
    ]


def test_request_compensatory_game_after_one_major_refused(night, meet):
    """R7.3-k: one major is not enough."""
    g = game(meet, 1, 1)
    report_malfunction(game=g, player=night.players[0], ball=1,
                       reason_code="forced_tilt_stuck_ball", actor=night.user)  # fmt: skip

    with pytest.raises(ValidationError) as caught:
        request_compensatory_game(game=g, player=night.players[0], actor=night.user)

    assert caught.value.message_dict["player"] == [
        f"{night.players[0]} has 1 major and no catastrophic malfunction in this game; a "
        "compensatory game needs 2 majors or 1 catastrophic (R7.3-k)."
    ]


def test_request_compensatory_game_after_play_continued_refused(night, meet):
    """RA-b, A31: the request must come at the second major, before play continues."""
    g = game(meet, 1, 1)
    for ball in (1, 2):
        report_malfunction(game=g, player=night.players[0], ball=ball,
                           reason_code="forced_tilt_stuck_ball", actor=night.user)  # fmt: skip

    with pytest.raises(ValidationError) as caught:
        request_compensatory_game(
            game=g, player=night.players[0], play_continued=True, actor=night.user
        )

    assert "too late" in caught.value.message_dict["player"][0]


def test_record_compensatory_game_without_a_request_refused(night, meet):
    with pytest.raises(ValidationError) as caught:
        record_compensatory_game(
            game=game(meet, 1, 1), player=night.players[0], new_score=10, actor=night.user
        )

    assert "(R7.3-k, RA-b)" in caught.value.message_dict["player"][0]


def test_record_compensatory_game_adds_to_the_original_score(night, meet):
    """R7.3-m, R7.3-n: final = original + new − leading; subtractions need a reason."""
    a = night.players
    g = game(meet, 1, 1)
    report_malfunction(game=g, player=a[3], ball=1, reason_code="power_loss",
                       ball_in_play=False, actor=night.user)  # fmt: skip
    request_compensatory_game(game=g, player=a[3], actor=night.user)
    with pytest.raises(ValidationError):
        record_compensatory_game(
            game=g, player=a[3], new_score=90, leading_subtracted=5, actor=night.user
        )
    record_compensatory_game(
        game=g, player=a[3], new_score=90, leading_subtracted=5, reason="Started at ball 2",
        actor=night.user,
    )  # fmt: skip
    play_game(g, {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})

    # A4: 10 + 90 − 5 = 95, second behind 100: 5, and 95 > 50 + 30 earns the bonus.
    assert _points(night, a[3]) == (6,)


def test_automatically_unplayable_when_every_first_ball_is_a_major(night, meet):
    """R7.3-r: every player's first ball ends in a major: the machine is out for the meet."""
    g = game(meet, 1, 1)
    results = [
        report_malfunction(
            game=g, player=p, ball=1, reason_code="forced_tilt_stuck_ball", actor=night.user
        )
        for p in night.players[:4]
    ]

    assert [r.machine_unplayable for r in results] == [False, False, False, True]
    assert m.MachineDeclaration.objects.get().kind == "unplayable"


def test_malfunction_reason_codes_are_the_rules_reasons():
    """The stored reason codes are exactly flipwell.rules' (R7.3-e, R7.3-f, R7.3-h, §7.4)."""
    from flipwell.rules.malfunctions import MALFUNCTION_REASONS

    assert tuple(m.Malfunction.ReasonCode.values) == MALFUNCTION_REASONS


# --- positive malfunctions (R7.4-a, R7.4-c, A58) ---------------------------------------------


def test_discarded_score_leaves_the_game_incomplete_until_replayed(night, meet):
    """R7.4-c, A58: the discarded game gives nobody points until the replay is recorded."""
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: 10})
    assert _points(night, a[0]) == (8,)

    record_positive_malfunction_replay(
        game=first, discard_scores_of=[a[0]], reason="Bear Kick switch failed", actor=night.user
    )

    assert _points(night, a[0]) == ()
    assert _points(night, a[1]) == ()
    assert m.Ruling.objects.get().kind == "positive_malfunction_replay"

    replay = record_replay_scores(
        game=first, scores={a[0]: 40}, entered_by=a[0], confirmed_by=a[1], actor=night.user
    )

    assert replay.submission.version == 2
    # 50, 40, 30, 10: 7/5/3/1; 50 is not above 40 + 30, 40 not above 30 + 10.
    assert [_points(night, p) for p in a[:4]] == [(5,), (7,), (4,), (2,)]


def test_discarded_score_keeps_the_entered_sheet(night, meet):
    """The discarded score is a fact beside the sheet, which stays as it was entered."""
    a = night.players
    first = game(meet, 1, 1)
    sheet = play_game(first, {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: 10})

    record_positive_malfunction_replay(
        game=first, discard_scores_of=[a[0]], reason="Unfair advantage", actor=night.user
    )

    assert dict(sheet.lines.values_list("player_id", "machine_score"))[a[0].pk] == 900
    assert list(m.DiscardedScore.objects.values_list("player_id", "version")) == [(a[0].pk, 1)]


def test_discard_of_a_player_without_a_score_refused(night, meet):
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 900, a[1]: 50, a[2]: None, a[3]: 10})

    with pytest.raises(ValidationError, match="has no completed score"):
        record_positive_malfunction_replay(
            game=first, discard_scores_of=[a[2]], reason="Unfair", actor=night.user
        )


def test_replay_scores_must_be_exactly_the_discarded_players(night, meet):
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: 10})
    record_positive_malfunction_replay(
        game=first, discard_scores_of=[a[0]], reason="Unfair", actor=night.user
    )

    with pytest.raises(ValidationError, match="exactly"):
        record_replay_scores(
            game=first, scores={a[1]: 40}, entered_by=a[0], confirmed_by=a[1], actor=night.user
        )


def test_correction_of_a_discarded_game_refused(night, meet):
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: 10})
    record_positive_malfunction_replay(
        game=first, discard_scores_of=[a[0]], reason="Unfair", actor=night.user
    )

    with pytest.raises(ValidationError, match="record the replay"):
        request_correction(game=first, scores={a[1]: 60}, requested_by=a[1], reason="Misread")


def test_close_meet_waits_for_the_replay(night, meet):
    a = night.players
    first = game(meet, 1, 1)
    play_game(first, {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: 10})
    record_positive_malfunction_replay(
        game=first, discard_scores_of=[a[0]], reason="Unfair", actor=night.user
    )

    with pytest.raises(ValidationError, match="waiting for a replay of discarded scores"):
        close_meet(meet=meet, actor=night.user)


# --- a game-ending catastrophic event (R7.3-h, R7.3-i, A32) ----------------------------------


def _owed(ending):
    return [(o.player_id, o.majors, o.catastrophic, o.balls) for o in ending.owed]


def test_report_malfunction_power_loss_on_ball_2_in_play_gives_every_player_his_balls(night, meet):
    """issue 27 §3: a power loss on the second player's ball 2 of a 3-ball game, the ball in
    play. R7.3-i: his ball 2 is a major; A32: his ball 3 catastrophic (2 balls owed); R7.3-h:
    the player before him is on ball 3, those after him on ball 2, each never launched ball a
    catastrophic malfunction. Today's code recorded 1 major and refused the compensatory game."""
    a = night.players
    g = game(meet, 1, 1)

    reported = report_malfunction(
        game=g, player=a[1], ball=2, reason_code="power_loss", actor=night.user
    )

    assert _owed(reported.ending) == [
        (a[0].pk, (), (3,), 1),
        (a[1].pk, (2,), (3,), 2),
        (a[2].pk, (), (2, 3), 2),
        (a[3].pk, (), (2, 3), 2),
    ]
    rows = m.Malfunction.objects.filter(game=g).order_by("player__pk", "ball")
    assert [(r.player_id, r.ball, r.kind) for r in rows] == [
        (a[0].pk, 3, "catastrophic"),
        (a[1].pk, 2, "major"),
        (a[1].pk, 3, "catastrophic"),
        (a[2].pk, 2, "catastrophic"),
        (a[2].pk, 3, "catastrophic"),
        (a[3].pk, 2, "catastrophic"),
        (a[3].pk, 3, "catastrophic"),
    ]
    assert (reported.malfunction.player_id, reported.malfunction.ball) == (a[1].pk, 2)
    assert reported.entitled is True
    granted = [request_compensatory_game(game=g, player=p, actor=night.user).balls for p in a[:4]]
    assert granted == [1, 2, 2, 2]
    (sheet,) = machine_histories(meet.season.league, machine_id=g.machine_id)
    assert [line.what for line in sheet.lines] == ["malfunction"] * 7  # one a row


def test_report_malfunction_game_ending_next_balls_adjusted_by_the_official(night, meet):
    """issue 27 §3: the official sets a player's next ball: here the last player had played
    his 3 balls (next ball 4), so he is owed nothing; the others never launched ball 3
    (R7.3-h, R8.4-c)."""
    a = night.players
    g = game(meet, 1, 1)

    reported = report_malfunction(
        game=g, player=a[0], ball=3, reason_code="slam_tilt", ball_in_play=False,
        next_balls={a[3]: 4}, actor=night.user,
    )  # fmt: skip

    assert _owed(reported.ending) == [
        (a[0].pk, (), (3,), 1),
        (a[1].pk, (), (3,), 1),
        (a[2].pk, (), (3,), 1),
        (a[3].pk, (), (), 0),
    ]


def test_preview_game_ending_writes_nothing(night, meet):
    """issue 27 §3: the official sees who is owed what before he confirms (R7.3-h, A32)."""
    a = night.players
    g = game(meet, 1, 1)

    ending = preview_game_ending(game=g, player=a[1], ball=2)

    assert [what_owed(o) for o in ending.owed][:2] == [
        "catastrophic on ball 3 → a compensatory game of 1 ball",
        "major on ball 2, catastrophic on ball 3 → a compensatory game of 2 balls",
    ]
    assert m.Malfunction.objects.count() == 0


def test_report_malfunction_game_ending_after_the_last_ball_refused(night, meet):
    """issue 27 §3: ball 4 of a 3-ball game is not among the balls the event can deny."""
    g = game(meet, 1, 1)

    with pytest.raises(ValidationError) as caught:
        report_malfunction(
            game=g, player=night.players[1], ball=4, reason_code="fire", actor=night.user
        )

    assert caught.value.message_dict["ball"][0].startswith(
        f"{g.machine.title} is a 3-ball game: ball 4 is after the last one."
    )
    assert m.Malfunction.objects.count() == 0
