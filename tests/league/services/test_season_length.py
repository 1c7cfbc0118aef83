"""A season cut short (issue 37 §3; R2-a, R6.1-d, A05, A68): the official ends a season after
its last meet played, with a reason kept as a ruling, and the standings' eligibility and
playoff race follow the new number of meets."""

import datetime

import pytest
from django.core.exceptions import PermissionDenied, ValidationError

from flipwell.league import models as m
from flipwell.league import services
from flipwell.league.adapters.keys import player_key
from flipwell.league.selectors.standings import standings
from flipwell.league.services import ConflictError
from tests import factories as f
from tests.golden import import_golden_in_progress

pytestmark = pytest.mark.django_db

VENUE = "The venue closes for a month: the season ends with meet 3."


@pytest.fixture
def storm_lo():
    """The league official of a league whose season is cut short."""
    return f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL, league__slug="storm")


@pytest.fixture
def winter(storm_lo):
    """The golden season after 3 of its 10 meets, meet 4 planned (an absence announced)."""
    season = import_golden_in_progress(storm_lo)
    meet = services.schedule_meet(
        season=season, number=4, date=datetime.date(2026, 1, 28), actor=storm_lo.user
    )
    zoe = m.Player.objects.get(first_name__iexact="zoe")
    services.announce_absence(meet=meet, player=zoe, actor=storm_lo.user)
    return season


def lines_by_name(season):
    return {line.player.name: line for line in standings(season).lines}


def test_cut_season_to_the_meets_played_decides_eligibility_and_the_race(storm_lo, winter):
    """The issue's acceptance: ten meets planned, three played. Cut to three, no meet is left
    (R2-a): the race's clinched and eliminated are final for every eligible player (R6.1-d,
    R6.1-e: a tie at the line stays alive), and zoe, who joins at meet 4 and has played no
    game, can no longer become eligible (A05)."""
    before = standings(winter)
    zoe_before = next(line for line in before.lines if line.player.name.startswith("Zoe"))
    assert (before.meets_left, zoe_before.may_become_eligible) == (7, True)
    assert {line.race_status for line in before.lines if line.eligible} == {"alive"}

    done = services.cut_season(season=winter, number_of_meets=3, reason=VENUE, actor=storm_lo.user)

    after = standings(winter)
    zoe = next(line for line in after.lines if line.player.name.startswith("Zoe"))
    assert (after.meets_left, after.playoff_qualifiers) == (0, 12)
    assert (zoe.eligible, zoe.may_become_eligible, zoe.race_status) == (False, False, None)
    statuses = [line.race_status for line in after.lines if line.eligible]
    assert statuses.count("clinched") + statuses.count("alive") >= 12
    assert statuses.count("eliminated") + statuses.count("alive") >= 21 - 12
    assert statuses.count("alive") <= 2  # only a tie straddling the line
    assert done.cut is not None
    assert done.cut.ends_season
    assert player_key(zoe_before.player.id) in {c.player for c in done.cut.changes}


def test_cut_season_keeps_the_ruling_cancels_the_planned_meet_and_refolds(storm_lo, winter):
    """A68.1: the reason is a ruling (who, when, why); the planned meet 4 is cancelled with
    its notices; the season gets a new revision (its fold reads the number of meets)."""
    revision = winter.revision

    done = services.cut_season(season=winter, number_of_meets=3, reason=VENUE, actor=storm_lo.user)

    winter.refresh_from_db()
    ruling = m.Ruling.objects.get(kind="season_cut")
    assert (ruling.official, ruling.reason) == (storm_lo.user, VENUE)
    assert ruling.subject.endswith("10 meets cut to 3")
    assert (winter.number_of_meets, done.cancelled) == (3, (4,))
    assert not m.Meet.objects.filter(season=winter, number=4).exists()
    assert not m.AnnouncedAbsence.objects.filter(meet__season=winter, meet__number=4).exists()
    assert m.AuditEvent.objects.get(action="meet.cancelled").data["absences_removed"] == [
        m.Player.objects.get(first_name__iexact="zoe").pk
    ]
    assert winter.revision != revision
    event = m.AuditEvent.objects.get(action="season.cut")
    assert event.data == {"from": 10, "to": 3, "cancelled": [4], "reason": VENUE}


def test_cut_season_sent_again_writes_nothing(storm_lo, winter):
    """Safe to retry: the season already has that number of meets."""
    services.cut_season(season=winter, number_of_meets=3, reason=VENUE, actor=storm_lo.user)

    again = services.cut_season(season=winter, number_of_meets=3, reason=VENUE, actor=storm_lo.user)

    assert again.cut is None
    assert m.Ruling.objects.filter(kind="season_cut").count() == 1


def test_cut_season_lower_not_to_the_end_keeps_meets_left(storm_lo, winter):
    """R2-a: six meets instead of ten, three played: three left, meet 4 kept."""
    services.cut_season(season=winter, number_of_meets=6, reason=VENUE, actor=storm_lo.user)

    assert standings(winter).meets_left == 3
    assert m.Meet.objects.filter(season=winter, number=4).exists()


def test_cut_season_refuses_fewer_meets_than_started(storm_lo, winter):
    """A68.1: meet 3 has been played: the season keeps at least three meets."""
    with pytest.raises(ValidationError) as refused:
        services.cut_season(season=winter, number_of_meets=2, reason=VENUE, actor=storm_lo.user)

    assert "meet 3 has started" in refused.value.message_dict["number_of_meets"][0].lower()
    assert m.Season.objects.get(pk=winter.pk).number_of_meets == 10


def test_cut_season_needs_a_reason(storm_lo, winter):
    with pytest.raises(ValidationError) as refused:
        services.cut_season(season=winter, number_of_meets=3, reason=" ", actor=storm_lo.user)

    assert list(refused.value.message_dict) == ["reason"]


def test_cut_season_under_the_refusing_reading_keeps_the_planned_meet(storm_lo, winter):
    """A68.1's alternative: the cut is refused while a meet after it is scheduled."""
    m.Season.objects.filter(pk=winter.pk).update(
        ruleset_overrides={"season_cut_planned_meets": "refused"}
    )

    with pytest.raises(ConflictError) as refused:
        services.cut_season(season=winter, number_of_meets=3, reason=VENUE, actor=storm_lo.user)

    assert refused.value.conflict == "meets_scheduled"
    assert m.Meet.objects.filter(season=winter, number=4).exists()


def test_cut_season_by_a_scorekeeper_is_refused(winter):
    keeper = f.LeagueOfficialFactory(league=winter.league, role=m.LeagueOfficial.Role.SCOREKEEPER)

    with pytest.raises(PermissionDenied):
        services.cut_season(season=winter, number_of_meets=3, reason=VENUE, actor=keeper.user)


def test_cut_season_ended_lets_the_playoffs_be_qualified(storm_lo, winter):
    """R6.1-d: entry is decided after the final regular week, now meet 3."""
    services.cut_season(season=winter, number_of_meets=3, reason=VENUE, actor=storm_lo.user)
    winter.refresh_from_db()

    qualified = services.qualify_for_playoffs(
        season=winter, date=datetime.date(2026, 2, 4), actor=storm_lo.user
    )

    assert qualified.qualification.cut == 12
