"""Each stored invariant is refused by the database itself, on SQLite and on PostgreSQL.

Rows are written with `objects.create` / factories, which skip Django's validation, so only
the database stands between a bug and a broken invariant.
"""

import pytest
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.validators import MAX_MACHINE_SCORE
from tests import factories as f

pytestmark = pytest.mark.django_db


# --- Scores ---


def test_score_line_negative_machine_score_refused():
    with pytest.raises(IntegrityError):
        f.ScoreLineFactory(machine_score=-1)


def test_score_line_second_score_for_player_in_same_version_refused():
    line = f.ScoreLineFactory()

    with pytest.raises(IntegrityError):
        f.ScoreLineFactory(submission=line.submission, player=line.player, machine_score=5)


def test_score_submission_same_version_twice_refused():
    submission = f.ScoreSubmissionFactory(version=1)

    with pytest.raises(IntegrityError):
        f.ScoreSubmissionFactory(game=submission.game, version=1)


def test_score_submission_correction_is_a_new_version():
    first = f.ScoreSubmissionFactory(version=1)

    second = f.ScoreSubmissionFactory(game=first.game, version=2)

    assert list(first.game.submissions.values_list("version", flat=True)) == [1, second.version]


def test_score_submission_confirmed_by_its_own_enterer_refused():
    player = f.PlayerFactory()

    with pytest.raises(IntegrityError):
        f.ScoreSubmissionFactory(
            entered_by=player, confirmed_by=player, confirmed_at=timezone.now()
        )


def test_score_submission_confirmation_without_time_refused():
    with pytest.raises(IntegrityError):
        f.ScoreSubmissionFactory(confirmed_by=f.PlayerFactory(), confirmed_at=None)


def test_score_submission_idempotency_key_reused_refused():
    f.ScoreSubmissionFactory(idempotency_key="tablet-7-abc")

    with pytest.raises(IntegrityError):
        f.ScoreSubmissionFactory(idempotency_key="tablet-7-abc")


def test_score_submission_idempotency_key_of_another_scope_stored():
    f.ScoreSubmissionFactory(idempotency_key="tablet-7-abc", idempotency_scope="1:token:1")

    other = f.ScoreSubmissionFactory(idempotency_key="tablet-7-abc", idempotency_scope="2:token:2")

    assert other.pk is not None


def test_score_line_largest_storable_score_round_trips():
    line = f.ScoreLineFactory(machine_score=MAX_MACHINE_SCORE)

    assert m.ScoreLine.objects.get(pk=line.pk).machine_score == MAX_MACHINE_SCORE


def test_score_line_above_64_bits_refused_at_validation():
    line = f.ScoreLineFactory.build(machine_score=2**63)

    with pytest.raises(ValidationError) as caught:
        line.full_clean(exclude=["submission", "player"])

    assert "above the largest score flipwell can store" in caught.value.messages[0]


def test_score_line_forfeit_has_no_score():
    line = f.ScoreLineFactory(machine_score=None)

    assert m.ScoreLine.objects.get(pk=line.pk).machine_score is None


def test_tie_order_player_twice_refused():
    place = f.TieOrderPlaceFactory(position=1)

    with pytest.raises(IntegrityError):
        f.TieOrderPlaceFactory(tie_order=place.tie_order, player=place.player, position=2)


def test_tie_order_position_twice_refused():
    place = f.TieOrderPlaceFactory(position=1)

    with pytest.raises(IntegrityError):
        f.TieOrderPlaceFactory(tie_order=place.tie_order, position=1)


def test_forfeit_twice_for_same_game_refused():
    forfeit = f.ForfeitFactory()

    with pytest.raises(IntegrityError):
        f.ForfeitFactory(game=forfeit.game, player=forfeit.player)


def test_late_join_without_both_attestations_refused():
    with pytest.raises(IntegrityError):
        f.LateJoinFactory(last_player_not_past_ball_1=False)


def test_compensatory_game_negative_amount_refused():
    with pytest.raises(IntegrityError):
        f.CompensatoryGameFactory(leading_subtracted=-10)


# --- Machines ---


@pytest.mark.parametrize("balls", [0, 11])
def test_machine_balls_per_game_outside_1_to_10_refused(balls):
    with pytest.raises(IntegrityError):
        f.MachineFactory(balls_per_game=balls)


@pytest.mark.parametrize("balls", [1, 10])
def test_machine_balls_per_game_bounds_accepted(balls):
    assert f.MachineFactory(balls_per_game=balls).balls_per_game == balls


def test_machine_unknown_status_refused():
    with pytest.raises(IntegrityError):
        f.MachineFactory(status="broken")


def test_special_ruling_same_version_in_two_leagues_allowed():
    """issue 34 §3: each league numbers its own rulings."""
    ruling = f.SpecialRulingFactory(number=1, version=1)

    f.SpecialRulingFactory(machine_title=ruling.machine_title, number=1, version=1)

    assert m.SpecialRuling.objects.count() == 2


def test_special_ruling_same_version_twice_refused():
    ruling = f.SpecialRulingFactory(number=1, version=1)

    with pytest.raises(IntegrityError):
        f.SpecialRulingFactory(
            league=ruling.league, machine_title=ruling.machine_title, number=1, version=1
        )


# --- Meets, groups, games ---


def test_meet_second_open_meet_in_season_refused():
    open_meet = f.MeetFactory(status=m.Meet.Status.OPEN)

    with pytest.raises(IntegrityError):
        f.MeetFactory(season=open_meet.season, status=m.Meet.Status.OPEN)


def test_meet_second_open_meet_refused_at_validation_with_message():
    open_meet = f.MeetFactory(status=m.Meet.Status.OPEN, number=1)
    second = f.MeetFactory.build(season=open_meet.season, status=m.Meet.Status.OPEN, number=2)

    with pytest.raises(ValidationError) as caught:
        second.full_clean()

    assert caught.value.messages == ["This season already has an open meet; close it first."]


def test_meet_open_meets_in_different_seasons_accepted():
    f.MeetFactory(status=m.Meet.Status.OPEN)
    f.MeetFactory(status=m.Meet.Status.OPEN)

    assert m.Meet.objects.filter(status=m.Meet.Status.OPEN).count() == 2


def test_meet_closed_meets_in_one_season_accepted():
    season = f.SeasonFactory()
    f.MeetFactory(season=season, status=m.Meet.Status.CLOSED)
    f.MeetFactory(season=season, status=m.Meet.Status.CLOSED)
    f.MeetFactory(season=season, status=m.Meet.Status.OPEN)

    assert season.meets.count() == 3


def test_meet_number_twice_in_season_refused():
    meet = f.MeetFactory(number=3)

    with pytest.raises(IntegrityError):
        f.MeetFactory(season=meet.season, number=3)


def test_group_number_twice_in_meet_refused():
    group = f.GroupFactory(number=2)

    with pytest.raises(IntegrityError):
        f.GroupFactory(meet=group.meet, number=2)


def test_group_member_position_twice_refused():
    member = f.GroupMemberFactory(position=1)

    with pytest.raises(IntegrityError):
        f.GroupMemberFactory(group=member.group, position=1)


def test_group_member_player_twice_refused():
    member = f.GroupMemberFactory(position=1)

    with pytest.raises(IntegrityError):
        f.GroupMemberFactory(group=member.group, player=member.player, position=2)


def test_group_member_position_5_refused():
    with pytest.raises(IntegrityError):
        f.GroupMemberFactory(position=5)


def test_game_number_twice_in_group_refused():
    game = f.GameFactory(number=1)

    with pytest.raises(IntegrityError):
        f.GameFactory(group=game.group, number=1, machine=game.machine)


def test_announced_absence_twice_refused():
    absence = f.AnnouncedAbsenceFactory()

    with pytest.raises(IntegrityError):
        f.AnnouncedAbsenceFactory(meet=absence.meet, player=absence.player)


# --- Leagues, players, seasons ---


def test_league_official_second_role_in_same_league_refused():
    official = f.LeagueOfficialFactory()

    with pytest.raises(IntegrityError):
        f.LeagueOfficialFactory(
            user=official.user, league=official.league, role=m.LeagueOfficial.Role.SCOREKEEPER
        )


def test_league_official_roles_in_two_leagues_accepted():
    official = f.LeagueOfficialFactory()

    f.LeagueOfficialFactory(user=official.user)

    assert official.user.league_roles.count() == 2


def test_player_ifpa_number_twice_refused():
    f.PlayerFactory(ifpa_number=1234)

    with pytest.raises(IntegrityError):
        f.PlayerFactory(ifpa_number=1234)


def test_player_many_without_ifpa_number_accepted():
    f.PlayerFactory.create_batch(3, ifpa_number=None)

    assert m.Player.objects.filter(ifpa_number__isnull=True).count() == 3


def test_season_entry_twice_refused():
    entry = f.SeasonEntryFactory()

    with pytest.raises(IntegrityError):
        f.SeasonEntryFactory(season=entry.season, player=entry.player)


def test_season_without_meets_refused():
    with pytest.raises(IntegrityError):
        f.SeasonFactory(number_of_meets=0)


def test_season_weekday_7_refused():
    with pytest.raises(IntegrityError):
        f.SeasonFactory(weekday=7)


# --- Money and the audit log ---


def test_ledger_entry_update_refused():
    entry = f.LedgerEntryFactory(amount_cents=2000)
    entry.amount_cents = 200

    with pytest.raises(IntegrityError, match="append-only"):
        entry.save()


def test_ledger_entry_queryset_update_refused():
    f.LedgerEntryFactory(amount_cents=2000)

    with pytest.raises(IntegrityError, match="append-only"):
        m.LedgerEntry.objects.update(note="edited")


def test_ledger_entry_reversal_is_a_new_row_and_balances():
    payment = f.LedgerEntryFactory(amount_cents=2000)

    f.LedgerEntryFactory(
        league=payment.league,
        kind=m.LedgerEntry.Kind.REVERSAL,
        amount_cents=-2000,
        reverses=payment,
    )

    assert sum(m.LedgerEntry.objects.values_list("amount_cents", flat=True)) == 0


def test_ledger_entry_reversed_twice_refused():
    payment = f.LedgerEntryFactory(amount_cents=2000)
    f.LedgerEntryFactory(kind=m.LedgerEntry.Kind.REVERSAL, amount_cents=-2000, reverses=payment)

    with pytest.raises(IntegrityError):
        f.LedgerEntryFactory(kind=m.LedgerEntry.Kind.REVERSAL, amount_cents=-2000, reverses=payment)


def test_ledger_entry_reversal_without_entry_refused():
    with pytest.raises(IntegrityError):
        f.LedgerEntryFactory(kind=m.LedgerEntry.Kind.REVERSAL, amount_cents=-2000, reverses=None)


def test_ledger_entry_zero_amount_refused():
    with pytest.raises(IntegrityError):
        f.LedgerEntryFactory(amount_cents=0)


def test_audit_event_update_refused():
    event = f.AuditEventFactory()

    with pytest.raises(IntegrityError, match="append-only"):
        m.AuditEvent.objects.filter(pk=event.pk).update(action="rewritten")


def test_ledger_entry_delete_refused():
    entry = f.LedgerEntryFactory(amount_cents=2000)

    with pytest.raises(IntegrityError, match="append-only"):
        entry.delete()


def test_ledger_entry_queryset_delete_refused():
    f.LedgerEntryFactory(amount_cents=2000)

    with pytest.raises(IntegrityError, match="append-only"):
        m.LedgerEntry.objects.all().delete()


def test_audit_event_delete_refused():
    event = f.AuditEventFactory()

    with pytest.raises(IntegrityError, match="append-only"):
        m.AuditEvent.objects.filter(pk=event.pk).delete()


@pytest.mark.django_db(transaction=True)
def test_flush_empties_the_ledger_and_audit_log_and_deletes_stay_refused():
    """Emptying the database is not deleting a fact (migration 0009): flush works on both
    databases, and afterwards a delete is refused again."""
    f.LedgerEntryFactory(amount_cents=2000)
    f.AuditEventFactory()

    call_command("flush", interactive=False, verbosity=0)

    assert (m.LedgerEntry.objects.count(), m.AuditEvent.objects.count()) == (0, 0)
    f.AuditEventFactory()
    with pytest.raises(IntegrityError, match="append-only"):
        m.AuditEvent.objects.all().delete()


# --- Playoffs ---


def test_qualifier_seed_twice_in_division_refused():
    qualifier = f.QualifierFactory(seed=1)

    with pytest.raises(IntegrityError):
        f.QualifierFactory(playoff_night=qualifier.playoff_night, seed=1)


def test_playoff_game_number_4_refused():
    with pytest.raises(IntegrityError):
        f.PlayoffGameFactory(number=4)


def test_playoff_result_negative_score_refused():
    with pytest.raises(IntegrityError):
        f.PlayoffResultFactory(machine_score=-5)


def test_tiebreaker_for_match_without_match_refused():
    with pytest.raises(IntegrityError):
        f.TiebreakerFactory(purpose=m.Tiebreaker.Purpose.MATCH, match=None)


# --- Every model can be built and named ---

ALL_FACTORIES = [
    f.LeagueFactory, f.LeagueOfficialFactory, f.PlayerFactory, f.SeasonFactory,
    f.SeasonEntryFactory, f.MachineFactory, f.MachineDeclarationFactory, f.SpecialRulingFactory,
    f.MaintenanceNoteFactory, f.MeetFactory, f.AnnouncedAbsenceFactory, f.LatenessNoticeFactory,
    f.GroupFactory, f.GroupMemberFactory, f.GameFactory, f.ScoreSubmissionFactory,
    f.ScoreLineFactory, f.TieOrderFactory, f.TieOrderPlaceFactory, f.ForfeitFactory,
    f.LateJoinFactory, f.MalfunctionFactory, f.CompensatoryGameFactory, f.ViolationFactory,
    f.RulingFactory, f.LedgerEntryFactory, f.AuditEventFactory, f.PlayoffNightFactory,
    f.QualifierFactory, f.WithdrawalFactory, f.PlayoffMatchFactory, f.PlayoffGameFactory,
    f.PlayoffResultFactory, f.TiebreakerFactory, f.TiebreakerPlaceFactory,
]  # fmt: skip


@pytest.mark.parametrize("factory", ALL_FACTORIES, ids=lambda factory: factory.__name__)
def test_every_model_saves_and_has_a_name(factory):
    row = factory()

    assert str(row) != ""
    assert type(row).objects.filter(pk=row.pk).exists()
