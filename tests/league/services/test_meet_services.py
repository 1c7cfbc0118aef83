"""Meet services: schedule, notices, start (ladder, groups, draw), close; and a whole meet
played end to end through the services."""

import datetime
from fractions import Fraction

import pytest
from django.core.exceptions import PermissionDenied, ValidationError
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.adapters.season_facts import season_facts
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.meet_times import scheduled_start
from flipwell.league.services.corrections.answer import respond_to_correction
from flipwell.league.services.corrections.request import request_correction
from flipwell.league.services.forfeits import record_forfeit, record_late_join
from flipwell.league.services.malfunctions.compensatory import record_compensatory_game
from flipwell.league.services.malfunctions.report import report_malfunction
from flipwell.league.services.meet_machines.declarations import declare_machine_unplayable
from flipwell.league.services.meets.announcements import announce_absence, announce_lateness
from flipwell.league.services.meets.close import close_meet
from flipwell.league.services.meets.schedule import schedule_meet
from flipwell.league.services.meets.start import start_meet
from flipwell.league.services.violations.penalties import record_violation
from flipwell.rules.machine_draws import draw_first_machines
from flipwell.rules.season import fold_season
from tests import factories as f
from tests.league.league_night import DATE, build_night, game, next_game
from tests.league.league_night import play as play_game
from tests.league.league_night import start as start_night

pytestmark = pytest.mark.django_db

UTC = datetime.UTC


def _members(meet):
    return [
        list(g.members.order_by("position").values_list("player_id", flat=True))
        for g in meet.groups.order_by("number")
    ]


def _play_first_game(night, meet):
    a = night.players
    return play_game(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})


# --- start_meet ------------------------------------------------------------------------------


def test_start_meet_groups_follow_the_ifpa_ladder():
    """R3.1-b, R4.3-a, R4.1-a: week 1 is seeded by IFPA rank, cut into groups of 4."""
    night = build_night(players=8)

    started = start_meet(season=night.season, number=1, date=DATE, actor=night.user, seed=11)

    ids = [p.pk for p in night.players]
    assert _members(started.meet) == [ids[:4], ids[4:]]
    assert (started.meet.status, started.meet.first_machine_draw_seed) == ("open", 11)
    assert started.meet.started_at is not None


def test_start_meet_draws_first_machines_from_the_recorded_seed():
    """R5-a, A61: the draw is reproducible from the stored seed; groups get distinct machines."""
    night = build_night(players=8, machines=5)

    started = start_meet(season=night.season, number=1, date=DATE, actor=night.user, seed=99)

    keys = [f"{mc.title} #{mc.pk}" for mc in night.machines]
    expected = draw_first_machines(2, keys, seed=99).machines
    drawn = [f"{g.machine.title} #{g.machine_id}" for g in started.first_games]
    assert drawn == list(expected)
    assert len(set(drawn)) == 2


def test_start_meet_without_seed_records_a_fresh_one():
    night = build_night()

    started = start_meet(season=night.season, number=1, date=DATE, actor=night.user)

    assert started.meet.first_machine_draw_seed is not None
    assert m.AuditEvent.objects.get(action="meet.started").data["seed"] == (
        started.meet.first_machine_draw_seed
    )


def test_start_meet_never_draws_an_unplayable_machine():
    """R7.3-r: a machine declared unplayable before the start is out of the draw."""
    night = build_night(players=8, machines=3)
    meet = schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)
    broken = night.machines[0]
    declare_machine_unplayable(meet=meet, machine=broken, reason="Dead flipper", actor=night.user)

    started = start_meet(season=night.season, number=1, actor=night.user, seed=5)

    drawn = sorted(g.machine_id for g in started.first_games)
    assert drawn == sorted(mc.pk for mc in night.machines[1:])


def test_start_meet_leaves_out_announced_absentees():
    """R3.1-d, A17: 8 entrants, one announced absent: 7 present, groups of 4 and 3."""
    night = build_night(players=8)
    meet = schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)
    announce_absence(meet=meet, player=night.players[1], actor=night.user)

    start_night(night)

    ids = [p.pk for p in night.players]
    assert _members(meet) == [[ids[0], *ids[2:5]], ids[5:]]


def test_start_meet_five_players_refused_naming_the_override():
    """A16: 5 players have no valid grouping; the message names the LO override (R4.1-d)."""
    night = build_night(players=5)

    with pytest.raises(ValidationError) as caught:
        start_meet(season=night.season, number=1, date=DATE, actor=night.user, seed=1)

    message = caught.value.message_dict["override_groups"][0]
    assert "override_groups" in message
    assert "override_reason (R4.1-d)" in message
    assert m.Meet.objects.count() == 0


def test_start_meet_override_groups_stored_with_a_ruling():
    """R4.1-d: the LO's grouping with a reason is stored, and the season still folds."""
    night = build_night(players=7)
    p = night.players

    started = start_meet(
        season=night.season, number=1, date=DATE, actor=night.user, seed=1,
        override_groups=[p[:3], p[3:]], override_reason="Two tables in the back room",
    )  # fmt: skip

    assert _members(started.meet) == [[x.pk for x in p[:3]], [x.pk for x in p[3:]]]
    assert started.meet.group_override_reason == "Two tables in the back room"
    ruling = m.Ruling.objects.get()
    assert (ruling.kind, ruling.official) == ("grouping_override", night.user)


def test_start_meet_override_without_reason_refused():
    night = build_night(players=7)
    p = night.players

    with pytest.raises(ValidationError) as caught:
        start_meet(
            season=night.season, number=1, date=DATE, actor=night.user,
            override_groups=[p[:3], p[3:]], override_reason=" ",
        )  # fmt: skip

    assert "needs a reason" in caught.value.message_dict["override_reason"][0]


def test_start_meet_override_with_a_group_of_two_refused():
    """R4-a, R4.1-c: an override still has groups of 3 or 4."""
    night = build_night(players=7)
    p = night.players

    with pytest.raises(ValidationError) as caught:
        start_meet(
            season=night.season, number=1, date=DATE, actor=night.user,
            override_groups=[p[:2], p[2:5], p[5:]], override_reason="Odd night",
        )  # fmt: skip

    assert caught.value.message_dict["override_groups"] == [
        "Group 1 has 2 players; a scheduled group has 3 or 4 (R4-a, R4.1-c)."
    ]


def test_start_meet_second_open_meet_refused_clearly():
    """One open meet per season: the database constraint's error becomes a clear message."""
    night = build_night()
    start_night(night, number=1)

    with pytest.raises(ValidationError) as caught:
        start_meet(season=night.season, number=2, date=DATE, actor=night.user, seed=1)

    assert caught.value.message_dict["number"] == [
        f"{night.season} already has an open meet (meet 1): close it before starting another."
    ]
    assert m.Meet.objects.count() == 1


def test_start_meet_out_of_sequence_refused():
    night = build_night()

    with pytest.raises(ValidationError) as caught:
        start_meet(season=night.season, number=3, date=DATE, actor=night.user)

    assert caught.value.message_dict["number"] == [
        "Meet 3 cannot start: the next meet to play is meet 1."
    ]


def test_start_meet_by_a_non_official_permission_denied():
    night = build_night()

    with pytest.raises(PermissionDenied):
        start_meet(season=night.season, number=1, date=DATE, actor=f.UserFactory())

    assert m.Meet.objects.count() == 0


# --- notices ---------------------------------------------------------------------------------


def test_announce_absence_after_the_start_refused():
    """R3.1-d, R3.1-e: once grouped, an absence is unannounced."""
    night = build_night()
    meet = start_night(night)

    with pytest.raises(ValidationError) as caught:
        announce_absence(meet=meet, player=night.players[0], actor=night.user)

    assert "R3.1-e" in caught.value.message_dict["meet"][0]
    assert m.AnnouncedAbsence.objects.count() == 0


def test_announce_lateness_before_the_start_gives_the_wait_deadline():
    """R2.2-a, A59: the group waits up to 15 minutes after the start."""
    night = build_night()
    night.league.time_zone = "UTC"
    night.league.save()
    meet = schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)

    told = datetime.datetime(2026, 1, 6, 18, 30, tzinfo=UTC)
    announced = announce_lateness(meet=meet, player=night.players[0], at=told, actor=night.user)

    assert announced.tardiness.wait_until == datetime.datetime(2026, 1, 6, 19, 15, tzinfo=UTC)
    assert announced.notice == m.LatenessNotice.objects.get()
    assert (announced.notice.player, announced.notice.recorded_at) == (night.players[0], told)


def test_announce_lateness_told_after_the_start_time_is_recorded_but_not_announced():
    """R2.2-a: a notice counts only before the start time; a later one is recorded as told,
    and the group does not wait (§2.3 applies on arrival)."""
    night = build_night()
    night.league.time_zone = "UTC"
    night.league.save()
    meet = schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)
    told = datetime.datetime(2026, 1, 6, 19, 5, tzinfo=UTC)

    late = announce_lateness(meet=meet, player=night.players[0], actor=night.user, at=told)

    assert (late.tardiness.announced, late.tardiness.wait_until) == (False, None)
    assert m.LatenessNotice.objects.get().recorded_at == told


def test_announce_lateness_once_the_meet_started_records_when_the_lo_was_told():
    """R2.2-a: told before the start but typed in after it, the notice is announced."""
    night = build_night()
    meet = start_night(night)
    start = scheduled_start(meet)
    told = start - datetime.timedelta(minutes=20)

    late = announce_lateness(meet=meet, player=night.players[0], at=told, actor=night.user)

    assert late.tardiness.announced is True
    assert late.tardiness.wait_until == start + datetime.timedelta(minutes=15)
    assert late.notice.recorded_at == told


def test_announce_lateness_refuses_a_closed_meet_and_a_future_notice():
    night = build_night()
    meet = schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)
    m.Meet.objects.filter(pk=meet.pk).update(status=m.Meet.Status.CLOSED)
    soon = timezone.now() + datetime.timedelta(hours=1)

    with pytest.raises(ValidationError) as closed:
        announce_lateness(meet=meet, player=night.players[0], actor=night.user)
    m.Meet.objects.filter(pk=meet.pk).update(status=m.Meet.Status.PLANNED)
    with pytest.raises(ValidationError) as future:
        announce_lateness(meet=meet, player=night.players[0], at=soon, actor=night.user)

    assert closed.value.message_dict["meet"] == [
        "Meet 1 is closed: a lateness notice cannot be added."
    ]
    assert future.value.message_dict["at"] == [
        "A notice is recorded once it came: the time it came is in the future."
    ]
    assert m.LatenessNotice.objects.count() == 0


# --- close_meet ------------------------------------------------------------------------------


def test_close_meet_with_unfinished_games_refused():
    night = build_night()
    meet = start_night(night)

    with pytest.raises(ValidationError) as caught:
        close_meet(meet=meet, actor=night.user)

    message = caught.value.messages[0]
    assert message.startswith("Meet 1 cannot close yet: group 1 game 1 has no confirmed scores")
    assert "override reason (A52" in message
    assert m.Meet.objects.get().status == "open"


def test_close_meet_with_override_records_a_ruling():
    """A52: an LO may close a short night; the match bonus counts the games completed."""
    night = build_night()
    meet = start_night(night)
    _play_first_game(night, meet)

    closed = close_meet(meet=meet, actor=night.user, override_reason="Venue closed early")

    assert closed.meet.status == "closed"
    assert m.Ruling.objects.get().kind == "meet_closed_unfinished"
    assert closed.nights[night.players[0].pk].game_points == (8,)


def test_meet_board_query_count_does_not_grow_with_the_meet():
    small = build_night(players=4)
    large = build_night(players=12, machines=12)
    small_meet = start_night(small)
    large_meet = start_night(large)

    with CaptureQueriesContext(connection) as few:
        meet_board(small_meet)
    with CaptureQueriesContext(connection) as many:
        meet_board(large_meet)

    assert len(few) == len(many)


# --- a whole meet ----------------------------------------------------------------------------


def test_whole_meet_through_the_services_gives_the_expected_standings():
    """Two groups of four play four games each, with a forfeit (R2.4-c), a late join
    (R2.3-a, A24), two majors and a compensatory game (R7.3-k, R7.3-m), a serious violation
    (R8.5-c, R8.5-d: the last of his best games), a correction (R3-d), and the close (R3.3)."""
    night = build_night(players=8)
    lo = night.user
    meet = start_night(night, seed=3)
    a1, a2, a3, a4, b1, b2, b3, b4 = night.players

    # Group 1. Game 1: 7/5/3/1 plus both bonuses (R3.2-f, R3.2-g).
    play_game(game(meet, 1, 1), {a1: 100, a2: 50, a3: 30, a4: 10})
    # Game 2: A3 forfeits; the 3-player scale applies (R2.4-c).
    g = next_game(meet, 1, a4)
    record_forfeit(game=g, player=a3, reason="other", note="Phone call", actor=lo)
    play_game(g, {a1: 100, a2: 50, a3: None, a4: 10})
    # Game 3: two majors to A2, compensatory game 40 added to 20 (R7.3-k, R7.3-m).
    g = next_game(meet, 1, a4)
    report_malfunction(game=g, player=a2, ball=1, reason_code="forced_tilt_stuck_ball", actor=lo)
    second = report_malfunction(
        game=g, player=a2, ball=2, reason_code="turn_ended_with_balls_in_play",
        request_compensatory=True, actor=lo,
    )  # fmt: skip
    assert (second.entitled, second.compensatory.balls) == (True, 2)
    record_compensatory_game(game=g, player=a2, new_score=40, actor=lo)
    play_game(g, {a1: 100, a2: 20, a3: 50, a4: 10})
    # Game 4: entered with A4 at 10, corrected to 90 with everyone's agreement (R3-d).
    g = next_game(meet, 1, a4)
    play_game(g, {a1: 100, a2: 50, a3: 30, a4: 10})
    correction = request_correction(
        game=g, scores={a4: 90}, requested_by=a4, reason="Typed 10 for 90"
    )
    for player in (a1, a2, a3):
        answered = respond_to_correction(request=correction, player=player, agrees=True)
    assert answered.outcome.status == "applied"

    # Group 2. Game 1: B4 arrives late and joins (R2.3-a); he plays last and does not pick.
    arrival = record_late_join(
        game=game(meet, 2, 1), player=b4, machine_allows_joining=True,
        last_player_not_past_ball_1=True, actor=lo,
    )  # fmt: skip
    assert arrival.decision.may_join
    play_game(game(meet, 2, 1), {b1: 100, b2: 50, b3: 30, b4: 10})
    with pytest.raises(ValidationError):
        next_game(meet, 2, b4)  # R5.2-d, A24: the pick passes to B3
    g = next_game(meet, 2, b3)
    play_game(g, {b1: 100, b2: 50, b3: 30, b4: 10})
    # Between games 2 and 3: B2 interferes: offense 1, his best game (the later of two 6s).
    penalty = record_violation(
        meet=meet, player=b2, kind="interference", games_completed=2,
        reason="Nudged the machine during B1's ball", actor=lo,
    ).decision  # fmt: skip
    assert (penalty.offense, penalty.effect, penalty.game) == (1, "game_forfeit", 2)
    for _ in range(2):
        g = next_game(meet, 2, b4)
        play_game(g, {b1: 100, b2: 50, b3: 30, b4: 10})

    closed = close_meet(meet=meet, actor=lo)

    standings = fold_season(season_facts(night.season)).standings()
    assert [(s.player, s.league_points) for s in standings] == [
        (str(b1.pk), Fraction(33)),
        (str(a1.pk), Fraction(31)),
        (str(a2.pk), Fraction(20)),
        (str(b2.pk), Fraction(19)),
        (str(b3.pk), Fraction(13)),
        (str(a4.pk), Fraction(10)),
        (str(a3.pk), Fraction(8)),
        (str(b4.pk), Fraction(4)),
    ]
    assert {p: (n.game_points, n.match_bonus) for p, n in closed.nights.items()} == {
        a1.pk: ((8, 8, 7, 7), 1),
        a2.pk: ((6, 4, 5, 4), 1),
        a3.pk: ((3, 0, 4, 1), 0),
        a4.pk: ((1, 1, 2, 6), 0),
        b1.pk: ((8, 8, 8, 8), 1),
        b2.pk: ((6, 0, 6, 6), 1),
        b3.pk: ((3, 4, 3, 3), 0),
        b4.pk: ((1, 1, 1, 1), 0),
    }
    assert closed.season_forfeits == ()
    # Each malfunction is its own row, never copied into a maintenance note (R7.3-u).
    assert m.Malfunction.objects.filter(game=game(meet, 1, 3)).count() == 2
    assert m.MaintenanceNote.objects.filter(machine=game(meet, 1, 3).machine).count() == 0
