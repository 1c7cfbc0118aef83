"""Incidents at a league night: forfeits, late joins, malfunctions, compensatory games,
machine declarations and violations."""

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league.adapters import season_facts
from flipwell.league.services.forfeits import record_forfeit, record_late_join
from flipwell.league.services.malfunctions import (
    record_compensatory_game,
    report_malfunction,
    request_compensatory_game,
)
from flipwell.league.services.meet_machines import (
    announce_machine_problem,
    declare_machine_repaired,
    declare_machine_unplayable,
)
from flipwell.league.services.scores import submit_scores
from flipwell.league.services.violations import record_violation
from flipwell.rules.season import fold_season
from tests import factories as f
from tests.league.league_night import build_night, game, next_game
from tests.league.league_night import play as play_game
from tests.league.league_night import start as start_night

pytestmark = pytest.mark.django_db


@pytest.fixture
def night():
    return build_night(players=8)


@pytest.fixture
def meet(night):
    return start_night(night)


def _night_points(night, player):
    standing = fold_season(season_facts(night.season)).players[str(player.pk)]
    return standing.nights[-1].game_points


# --- forfeits and late joins -----------------------------------------------------------------


def test_record_forfeit_non_countable_needs_a_reason(night, meet):
    """R2.4-g: a non-countable forfeit is the LO's designation, with a reason."""
    with pytest.raises(ValidationError) as caught:
        record_forfeit(
            game=game(meet, 1, 1), player=night.players[0], countable=False, actor=night.user
        )

    assert caught.value.message_dict["note"] == [
        "A non-countable forfeit (R2.4-g) needs a reason: say why the official decided it."
    ]
    assert m.Forfeit.objects.count() == 0


def test_record_forfeit_non_countable_is_a_ruling_and_not_counted(night, meet):
    """R2.4-g, R2.4-h: the designated forfeit does not count toward §2.5."""
    a = night.players
    record_forfeit(
        game=game(meet, 1, 1), player=a[0], countable=False, note="Family emergency",
        actor=night.user,
    )  # fmt: skip
    play_game(game(meet, 1, 1), {a[1]: 100, a[2]: 50, a[0]: None, a[3]: 10})

    standing = fold_season(season_facts(night.season)).players[str(a[0].pk)]
    assert (standing.forfeits, standing.countable_forfeits) == (1, 0)
    assert m.Ruling.objects.get().kind == "forfeit_not_countable"


def test_record_forfeit_then_a_score_for_him_refused(night, meet):
    """R2.4-a: a player who forfeited the game has no score on it."""
    a = night.players
    record_forfeit(game=game(meet, 1, 1), player=a[0], actor=night.user)

    with pytest.raises(ValidationError) as caught:
        submit_scores(
            game=game(meet, 1, 1), scores={a[0]: 5, a[1]: 4, a[2]: 3, a[3]: 2},
            entered_by=a[1], idempotency_key="k",
        )  # fmt: skip

    assert caught.value.message_dict["scores"] == [
        f"{a[0]} forfeited this game (recorded): leave the score empty (R2.4-a)."
    ]


def test_record_forfeit_by_a_stranger_permission_denied(night, meet):
    with pytest.raises(PermissionDenied):
        record_forfeit(game=game(meet, 1, 1), player=night.players[0], actor=f.UserFactory())


def test_record_late_join_that_cannot_join_is_a_late_forfeit(night, meet):
    """R2.3-a, A60: the last player already started ball 1: he forfeits this game."""
    decision = record_late_join(
        game=game(meet, 1, 1), player=night.players[3], machine_allows_joining=True,
        last_player_not_past_ball_1=False, actor=night.user,
    )  # fmt: skip

    assert (decision.may_join, decision.forfeit) == (False, True)
    forfeit = m.Forfeit.objects.get()
    assert (forfeit.player, forfeit.reason) == (night.players[3], "late")
    assert m.LateJoin.objects.count() == 0


def test_record_late_join_joins_and_plays_last(night, meet):
    """R2.3-a, R5.2-c: the late joiner plays last in the game he joins."""
    from flipwell.league.selectors.meet_board import meet_board

    record_late_join(
        game=game(meet, 1, 1), player=night.players[0], machine_allows_joining=True,
        last_player_not_past_ball_1=True, actor=night.user,
    )  # fmt: skip

    board = meet_board(meet).groups[0]
    a = night.players
    assert board.play_order == (a[1].pk, a[2].pk, a[3].pk, a[0].pk)
    assert m.LateJoin.objects.get().player == a[0]


# --- malfunctions and compensatory games -----------------------------------------------------


def test_report_malfunction_major_adds_a_maintenance_note(night, meet):
    """R7.3-e: forced tilt to free a stuck ball is a major; R7.3-u: the maintenance sheet."""
    g = game(meet, 1, 1)

    reported = report_malfunction(
        game=g, player=night.players[0], ball=2, reason_code="forced_tilt_stuck_ball",
        note="Ball stuck behind the left ramp", actor=night.user,
    )  # fmt: skip

    assert (reported.malfunction.kind, reported.ruling.rule, reported.entitled) == (
        "major", "R7.3-e", False,
    )  # fmt: skip
    note = m.MaintenanceNote.objects.get()
    assert (note.machine, note.meet) == (g.machine, meet)
    assert "Ball stuck behind the left ramp" in note.text


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
        f"{night.players[0].pk} has 1 major and no catastrophic malfunction in this game; a "
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
    assert _night_points(night, a[3]) == (6,)


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


def test_declare_machine_unplayable_then_repaired(night, meet):
    """R7.3-q, R7.3-r: out of every choice until marked repaired."""
    machine = night.machines[-1]
    declare_machine_unplayable(meet=meet, machine=machine, reason="Coil fire", actor=night.user)
    with pytest.raises(ValidationError) as caught:
        declare_machine_unplayable(meet=meet, machine=machine, reason="Again", actor=night.user)
    assert caught.value.message_dict["machine"] == [
        f"{machine} is already unplayable at this meet."
    ]

    declare_machine_repaired(meet=meet, machine=machine, reason="Coil replaced",
                             actor=night.user)  # fmt: skip

    assert list(m.MachineDeclaration.objects.values_list("kind", flat=True)) == [
        "unplayable", "repaired",
    ]  # fmt: skip


def test_declare_machine_unplayable_without_reason_refused(night, meet):
    with pytest.raises(ValidationError) as caught:
        declare_machine_unplayable(meet=meet, machine=night.machines[0], reason="",
                                   actor=night.user)  # fmt: skip

    assert "needs a reason" in caught.value.message_dict["reason"][0]


# --- violations ------------------------------------------------------------------------------


def _play_group_one(night, meet, games=1):
    a = night.players
    play_game(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    for _ in range(games - 1):
        play_game(next_game(meet, 1, a[3]), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})


def test_record_violation_during_a_game_forfeits_it(night, meet):
    """R8.5-c, A26: first offense: the current game is forfeited, the others re-scored."""
    a = night.players
    _play_group_one(night, meet)

    decision = record_violation(
        meet=meet, player=a[0], kind="interference", game=game(meet, 1, 1),
        reason="Bumped the machine on A2's ball", actor=night.user,
    )  # fmt: skip

    assert (decision.offense, decision.effect, decision.game) == (1, "game_forfeit", 1)
    assert _night_points(night, a[0]) == (0,)
    assert _night_points(night, a[1]) == (8,)  # 3-player scale: 7 + bonus (50 > 30 + 10)


def test_record_violation_during_an_unconfirmed_game_refused(night, meet):
    with pytest.raises(ValidationError) as caught:
        record_violation(
            meet=meet, player=night.players[0], kind="interference", game=game(meet, 1, 1),
            reason="Bumped", actor=night.user,
        )  # fmt: skip

    assert caught.value.message_dict["game"][0].startswith("Confirm game 1's scores first")


def test_record_violation_not_serious_for_interference_refused(night, meet):
    """R8.3-e: interference is always serious; only a wrong-ball play may be accidental."""
    with pytest.raises(ValidationError) as caught:
        record_violation(
            meet=meet, player=night.players[0], kind="interference", serious=False,
            reason="Bumped", actor=night.user,
        )  # fmt: skip

    assert "(A28)" in caught.value.message_dict["serious"][0]
    assert m.Violation.objects.count() == 0


def test_record_violation_accidental_wrong_ball_is_a_ruling_without_penalty(night, meet):
    """A28: the LO may rule an opponent's-ball play accidental: no offense, but a zero score."""
    _play_group_one(night, meet)

    decision = record_violation(
        meet=meet, player=night.players[0], kind="opponents_ball", game=game(meet, 1, 1),
        serious=False, reason="Wrong ball by mistake", actor=night.user,
    )  # fmt: skip

    assert (decision.offense, decision.effect) == (None, "none")
    assert m.Ruling.objects.get().kind == "violation_not_serious"
    assert _night_points(night, night.players[0]) == (1,)  # R8.2-a: zero score, ranked last


def test_record_violation_violence_forfeits_the_season(night, meet):
    """R8.5-f: violence is an automatic third offense: season forfeit, suspension."""
    decision = record_violation(
        meet=meet, player=night.players[0], kind="violence", reason="Shoved a player",
        actor=night.user,
    )  # fmt: skip

    assert (decision.offense, decision.effect, decision.suspended) == (3, "season_forfeit", True)


def test_record_violation_games_completed_beyond_the_group_refused(night, meet):
    with pytest.raises(ValidationError) as caught:
        record_violation(
            meet=meet, player=night.players[0], kind="interference", games_completed=2,
            reason="Bumped", actor=night.user,
        )  # fmt: skip

    assert caught.value.message_dict["games_completed"] == [
        "Group 1 has completed 0 games; games_completed must be 0 to 0."
    ]


def test_malfunction_reason_codes_are_the_rules_reasons():
    """The stored reason codes are exactly flipwell.rules' (R7.3-e, R7.3-f, R7.3-h, §7.4)."""
    from flipwell.rules.malfunctions import MALFUNCTION_REASONS

    assert tuple(m.Malfunction.ReasonCode.values) == MALFUNCTION_REASONS


def test_ruling_by_official_playing_in_the_group_is_flagged(night, meet):
    """R1.1-a, A55: an official who plays in the affected group may rule; it is flagged."""
    a = night.players
    night.official.player = a[1]  # the official plays in group 1
    night.official.save()

    record_forfeit(
        game=game(meet, 1, 1), player=a[0], countable=False, note="Car broke down",
        actor=night.user,
    )  # fmt: skip

    assert m.Ruling.objects.get().official_involved is True


def test_ruling_by_official_outside_the_group_is_not_flagged(night, meet):
    """R1.1-a: an official of another group is uninvolved."""
    a = night.players
    night.official.player = a[7]  # plays in group 2
    night.official.save()

    record_forfeit(
        game=game(meet, 1, 1), player=a[0], countable=False, note="Car broke down",
        actor=night.user,
    )  # fmt: skip

    assert m.Ruling.objects.get().official_involved is False
