"""A game-ending event's report names who slam tilted on purpose and the extra balls each
player had collected (issue 27 §3): the slammer is owed nothing (R8.4-a, A32), an allowable
extra ball collected is a ball owed (R7.3-l)."""

import pytest
from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league.services.malfunctions.game_ending import preview_game_ending
from flipwell.league.services.malfunctions.report import report_malfunction
from flipwell.web.words.incidents import what_owed
from tests.league.league_night import build_night, game, start

pytestmark = pytest.mark.django_db


@pytest.fixture
def four_player_night():
    return build_night(players=4)


@pytest.fixture
def four_player_meet(four_player_night):
    """Meet 1 of the four players' night, started."""
    return start(four_player_night)


def _owed(ending):
    return [(o.player_id, o.majors, o.catastrophic, o.balls, o.slammer) for o in ending.owed]


def _order(meet):
    """Game 1's players in its play order (the factories' 3-ball machines)."""
    g = game(meet, 1, 1)
    return g, [o.player_id for o in preview_game_ending(game=g, player=_any(g), ball=1).owed]


def _any(g):
    return g.group.members.order_by("position").first().player


def test_report_slam_tilt_r8_4_a_intentional_slammer_is_owed_nothing(
    four_player_night, four_player_meet
):
    """R8.4-a, A32: Cleo slams the machine on purpose during Ben's ball 2 (in play): Ben has
    his major and his catastrophic ball 3, the others their balls never launched; Cleo,
    the violator, nothing at all."""
    g, order = _order(four_player_meet)
    ann, ben, cleo, dan = (m.Player.objects.get(pk=p) for p in order)

    reported = report_malfunction(
        game=g,
        player=ben,
        ball=2,
        reason_code="slam_tilt",
        slammer=cleo,
        actor=four_player_night.user,
    )

    assert _owed(reported.ending) == [
        (ann.pk, (), (3,), 1, False),
        (ben.pk, (2,), (3,), 2, False),
        (cleo.pk, (), (), 0, True),
        (dan.pk, (), (2, 3), 2, False),
    ]
    assert not m.Malfunction.objects.filter(player=cleo).exists()
    assert "they slam tilted the machine on purpose" in what_owed(reported.ending.owed[2])
    assert not m.MaintenanceNote.objects.exists()  # each row is the sheet's line (R7.3-u)


def test_report_slam_tilt_r8_4_a_slammer_on_the_ball_gets_a_not_serious_row(
    four_player_night, four_player_meet
):
    """R8.4-a, A32: the player on the ball slams it on purpose: their ball is on the
    maintenance sheet as not serious (never compensated), the others are owed their balls."""
    g, order = _order(four_player_meet)
    ben = m.Player.objects.get(pk=order[1])

    reported = report_malfunction(
        game=g,
        player=ben,
        ball=2,
        reason_code="slam_tilt",
        slammer=ben,
        actor=four_player_night.user,
    )

    assert (reported.malfunction.player_id, reported.malfunction.kind) == (ben.pk, "not_serious")
    assert reported.entitled is False
    assert [o.balls for o in reported.ending.owed] == [1, 0, 2, 2]
    assert list(m.Malfunction.objects.filter(player=ben).values_list("ball", "kind")) == [
        (2, "not_serious")
    ]


def test_report_power_loss_r7_3_l_allowable_extra_ball_collected_is_owed(
    four_player_night, four_player_meet
):
    """R7.3-l: Dan had collected an extra ball (allowable on a 3-ball game, R7.1-a) and never
    launched balls 2 and 3: he is owed 3 balls. Ann collected two: only one is allowable."""
    g, order = _order(four_player_meet)
    ann, ben, cleo, dan = (m.Player.objects.get(pk=p) for p in order)

    reported = report_malfunction(
        game=g, player=ben, ball=2, reason_code="power_loss",
        extra_balls={dan: 1, ann: 2}, actor=four_player_night.user,
    )  # fmt: skip

    assert _owed(reported.ending) == [
        (ann.pk, (), (3, 4), 2, False),
        (ben.pk, (2,), (3,), 2, False),
        (cleo.pk, (), (2, 3), 2, False),
        (dan.pk, (), (2, 3, 4), 3, False),
    ]
    assert [o.extra_balls for o in reported.ending.owed] == [2, 0, 0, 1]


def test_report_fire_r7_3_l_on_the_extra_ball_itself(four_player_night, four_player_meet):
    """R7.3-l, R7.3-i: Ben is on his extra ball (his 4th on a 3-ball game) when the fire
    starts: it is a major; Ann, before him, had played her 3 balls (her next ball is capped at
    4): nothing is owed to her."""
    g, order = _order(four_player_meet)
    ann, ben, _cleo, _dan = (m.Player.objects.get(pk=p) for p in order)

    ending = preview_game_ending(game=g, player=ben, ball=4, extra_balls={ben: 1})

    owed = {o.player_id: o for o in ending.owed}
    assert (owed[ben.pk].majors, owed[ben.pk].catastrophic) == ((4,), ())
    assert (owed[ann.pk].next_ball, owed[ann.pk].balls) == (4, 0)


def test_report_extra_ball_without_the_extra_balls_refused(four_player_night, four_player_meet):
    g, order = _order(four_player_meet)

    with pytest.raises(ValidationError) as caught:
        preview_game_ending(game=g, player=m.Player.objects.get(pk=order[1]), ball=4)

    assert "give the extra balls they had collected" in caught.value.message_dict["ball"][0]


def test_report_slammer_of_a_power_loss_refused_r8_4_a(four_player_night, four_player_meet):
    g, order = _order(four_player_meet)
    ben = m.Player.objects.get(pk=order[1])

    with pytest.raises(ValidationError) as caught:
        report_malfunction(
            game=g,
            player=ben,
            ball=2,
            reason_code="power_loss",
            slammer=ben,
            actor=four_player_night.user,
        )

    assert "Only a slam tilt" in caught.value.message_dict["slammer"][0]
    assert m.Malfunction.objects.count() == 0


def test_report_extra_balls_of_an_ordinary_major_refused_r7_3_l(
    four_player_night, four_player_meet
):
    g, order = _order(four_player_meet)
    ben = m.Player.objects.get(pk=order[1])

    with pytest.raises(ValidationError) as caught:
        report_malfunction(
            game=g, player=ben, ball=2, reason_code="forced_tilt_stuck_ball",
            extra_balls={ben: 1}, actor=four_player_night.user,
        )  # fmt: skip

    assert "extra_balls" in caught.value.message_dict
