"""factory_boy factories for the league models: plain defaults, unique values from sequences.

Each factory builds the smallest valid row; related rows come from sub-factories in the same
league (a game's machine belongs to its group's league). Nothing is random: names and numbers
come from sequences, so a failing test shows the same data every run.
"""

from __future__ import annotations

import datetime

import factory
from django.contrib.auth.models import User
from django.utils import timezone

from flipwell.league import models as m


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = User
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.org")
    password = factory.django.Password("correct horse battery staple")


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.League

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")
    venue = "The Arcade"
    time_zone = "America/Chicago"


class LeagueOfficialFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.LeagueOfficial

    user = factory.SubFactory(UserFactory)
    league = factory.SubFactory(LeagueFactory)
    role = m.LeagueOfficial.Role.LEAGUE_OFFICIAL


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Player

    first_name = factory.Sequence(lambda n: f"First{n}")
    last_name = factory.Sequence(lambda n: f"Last{n}")
    ifpa_number = None


SET_UP_2026 = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)
"""A season's set-up moment for tests that play on fixed dates of 2026 (issue 26 §4: meet 1's
date is checked around the day its season was set up)."""


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Season

    league = factory.SubFactory(LeagueFactory)
    name = factory.Sequence(lambda n: f"Season {n}")
    weekday = m.Weekday.TUESDAY
    start_time = datetime.time(19, 0)
    number_of_meets = 10
    dues_cents = 2000
    # As `create_season`: the season takes the league's readings when it is created.
    ruleset_overrides = factory.LazyAttribute(lambda season: dict(season.league.ruleset_overrides))


class SeasonEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.SeasonEntry

    season = factory.SubFactory(SeasonFactory)
    player = factory.SubFactory(PlayerFactory)
    ifpa_rank_at_start = None
    joined_at_meet = 1


class MachineFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Machine

    league = factory.SubFactory(LeagueFactory)
    title = factory.Sequence(lambda n: f"Machine {n}")
    balls_per_game = 3


class MeetFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Meet

    season = factory.SubFactory(SeasonFactory)
    number = factory.Sequence(lambda n: n + 1)
    date = datetime.date(2026, 1, 6)
    status = m.Meet.Status.PLANNED


class GroupFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Group

    meet = factory.SubFactory(MeetFactory)
    number = 1


class GroupMemberFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.GroupMember

    group = factory.SubFactory(GroupFactory)
    player = factory.SubFactory(PlayerFactory)
    position = 1


class GameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Game

    group = factory.SubFactory(GroupFactory)
    number = 1
    machine = factory.SubFactory(
        MachineFactory, league=factory.SelfAttribute("..group.meet.season.league")
    )
    chosen_by = None


class ScoreSubmissionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.ScoreSubmission

    game = factory.SubFactory(GameFactory)
    version = 1
    entered_by = factory.SubFactory(PlayerFactory)
    confirmed_by = None
    confirmed_at = None
    idempotency_key = factory.Sequence(lambda n: f"key-{n}")


class ScoreLineFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.ScoreLine

    submission = factory.SubFactory(ScoreSubmissionFactory)
    player = factory.SubFactory(PlayerFactory)
    machine_score = 1_000_000


class ForfeitFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Forfeit

    game = factory.SubFactory(GameFactory)
    player = factory.SubFactory(PlayerFactory)
    reason = m.Forfeit.Reason.ABSENT


class LateJoinFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.LateJoin

    game = factory.SubFactory(GameFactory)
    player = factory.SubFactory(PlayerFactory)
    machine_allows_joining = True
    last_player_not_past_ball_1 = True
    recorded_by = factory.SubFactory(UserFactory)


class TieOrderFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.TieOrder

    game = factory.SubFactory(GameFactory)


class TieOrderPlaceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.TieOrderPlace

    tie_order = factory.SubFactory(TieOrderFactory)
    player = factory.SubFactory(PlayerFactory)
    position = 1


class MalfunctionFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Malfunction

    game = factory.SubFactory(GameFactory)
    player = factory.SubFactory(PlayerFactory)
    ball = 1
    kind = m.Malfunction.Kind.MAJOR
    reason_code = m.Malfunction.ReasonCode.FORCED_TILT_STUCK_BALL
    official = factory.SubFactory(UserFactory)


class CompensatoryGameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.CompensatoryGame

    game = factory.SubFactory(GameFactory)
    player = factory.SubFactory(PlayerFactory)
    new_score = 500_000
    official = factory.SubFactory(UserFactory)


class ViolationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Violation

    meet = factory.SubFactory(MeetFactory)
    player = factory.SubFactory(PlayerFactory)
    kind = m.Violation.Kind.INTERFERENCE
    serious = True
    official = factory.SubFactory(UserFactory)
    reason = "Nudged during an opponent's ball."


class RulingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Ruling

    league = factory.SubFactory(LeagueFactory)
    official = factory.SubFactory(UserFactory)
    kind = "malfunction"
    subject = "meet 1, group 2, game 3"
    reason = "Ball stuck behind the apron."


class MachineDeclarationFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.MachineDeclaration

    meet = factory.SubFactory(MeetFactory)
    machine = factory.SubFactory(
        MachineFactory, league=factory.SelfAttribute("..meet.season.league")
    )
    kind = m.MachineDeclaration.Kind.UNPLAYABLE
    official = factory.SubFactory(UserFactory)
    reason = "Left flipper dead."


class SpecialRulingFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.SpecialRuling

    league = factory.SubFactory(LeagueFactory)
    machine_title = "The Addams Family"
    number = factory.Sequence(lambda n: n + 1)
    version = 1
    kind = m.SpecialRuling.Kind.NOT_A_MALFUNCTION
    text = "Thing flips the ball into an outlane."


class MaintenanceNoteFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.MaintenanceNote

    machine = factory.SubFactory(MachineFactory)
    text = "Replace the left flipper coil."
    created_by = factory.SubFactory(UserFactory)


class AnnouncedAbsenceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.AnnouncedAbsence

    meet = factory.SubFactory(MeetFactory)
    player = factory.SubFactory(PlayerFactory)
    recorded_by = factory.SubFactory(UserFactory)


class LatenessNoticeFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.LatenessNotice

    meet = factory.SubFactory(MeetFactory)
    player = factory.SubFactory(PlayerFactory)
    recorded_by = factory.SubFactory(UserFactory)


class LedgerEntryFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.LedgerEntry

    league = factory.SubFactory(LeagueFactory)
    account = m.LedgerEntry.Account.DUES
    kind = m.LedgerEntry.Kind.PAYMENT
    amount_cents = 2000
    created_by = factory.SubFactory(UserFactory)


class AuditEventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.AuditEvent

    league = factory.SubFactory(LeagueFactory)
    action = "test.happened"
    object_type = "league.League"
    object_id = factory.LazyAttribute(lambda e: str(e.league.pk))
    created_at = factory.LazyFunction(timezone.now)


class PlayoffNightFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.PlayoffNight

    season = factory.SubFactory(SeasonFactory)
    date = datetime.date(2026, 4, 7)


class QualifierFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Qualifier

    playoff_night = factory.SubFactory(PlayoffNightFactory)
    player = factory.SubFactory(PlayerFactory)
    division = "A"
    seed = 1


class WithdrawalFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Withdrawal

    playoff_night = factory.SubFactory(PlayoffNightFactory)
    player = factory.SubFactory(PlayerFactory)
    recorded_by = factory.SubFactory(UserFactory)


class PlayoffMatchFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.PlayoffMatch

    playoff_night = factory.SubFactory(PlayoffNightFactory)
    division = "A"
    round = m.PlayoffMatch.Round.SEMIFINAL
    number = 1


class PlayoffGameFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.PlayoffGame

    match = factory.SubFactory(PlayoffMatchFactory)
    number = 1
    machine = factory.SubFactory(
        MachineFactory, league=factory.SelfAttribute("..match.playoff_night.season.league")
    )


class PlayoffResultFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.PlayoffResult

    game = factory.SubFactory(PlayoffGameFactory)
    player = factory.SubFactory(PlayerFactory)
    machine_score = 750_000


class TiebreakerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.Tiebreaker

    playoff_night = factory.SubFactory(PlayoffNightFactory)
    purpose = m.Tiebreaker.Purpose.ENTRY


class TiebreakerPlaceFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = m.TiebreakerPlace

    tiebreaker = factory.SubFactory(TiebreakerFactory)
    player = factory.SubFactory(PlayerFactory)
    place = 1
