"""`change_ruleset_setting`: an official changes one of the league's readings before its newest
season begins (R2-a), refused after with the reason; the change is a ruling with an audit event.
It is the league's (for seasons created later) and the newest season's, folded again under it;
a season already played keeps the readings it was played under (R2-a, R2.5-a, R2.4-d)."""

from __future__ import annotations

import datetime
from zoneinfo import ZoneInfo

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.selectors.standings import standings
from flipwell.league.services import (
    announce_absence,
    change_ruleset_setting,
    create_season,
    schedule_meet,
    start_meet,
    start_next_season,
)
from tests import factories as f
from tests.league.league_night import DATE, Night, build_night, start

pytestmark = pytest.mark.django_db


def _next_season(league: m.League) -> m.Season:
    """A season being prepared: created after the played one, no meet started."""
    return f.SeasonFactory(
        league=league, created_at=datetime.datetime(2026, 6, 1, tzinfo=datetime.UTC)
    )


def test_change_ruleset_setting_before_the_first_meet_stored_with_ruling_and_audit_r2_4_d():
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    league = official.league
    season = f.SeasonFactory(league=league, name="Spring")

    change_ruleset_setting(
        league=league,
        setting="forfeit_credit_percent",
        value="40",
        reason="Our league gives 40%",
        actor=official.user,
    )

    league.refresh_from_db()
    season.refresh_from_db()
    assert league.ruleset_overrides == {"forfeit_credit_percent": 40}
    assert season.ruleset_overrides == {"forfeit_credit_percent": 40}
    ruling = m.Ruling.objects.get(league=league)
    assert (ruling.official, ruling.kind, ruling.subject, ruling.reason) == (
        official.user,
        "ruleset_setting",
        "forfeit_credit_percent: 50 -> 40",
        "Our league gives 40%",
    )
    event = m.AuditEvent.objects.get(league=league, action="league.ruleset_changed")
    assert (event.actor, event.data) == (
        official.user,
        {
            "setting": "forfeit_credit_percent",
            "from": "50",
            "to": "40",
            "season": "Spring",
            "ruling": ruling.pk,
            "reason": "Our league gives 40%",
        },
    )


def test_change_ruleset_setting_back_to_the_default_drops_the_override_r2_5_a():
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    league = official.league
    league.ruleset_overrides = {"season_forfeit_limit": 8, "dues_period": "meet"}
    league.save()

    change_ruleset_setting(
        league=league,
        setting="season_forfeit_limit",
        value="12",
        reason="Back to the book",
        actor=official.user,
    )

    league.refresh_from_db()
    assert league.ruleset_overrides == {"dues_period": "meet"}


def test_change_ruleset_setting_refused_once_the_season_has_begun_r2_a():
    night = build_night()
    start(night)
    before = (m.Ruling.objects.count(), m.AuditEvent.objects.count())

    with pytest.raises(ValidationError) as caught:
        change_ruleset_setting(
            league=night.league,
            setting="season_forfeit_limit",
            value="8",
            reason="Fewer",
            actor=night.user,
        )

    assert caught.value.message_dict == {
        "value": [
            f"The readings can change only before a season's first meet starts: "
            f"{night.season.name} has begun, and its games are all scored under the readings it "
            "started with. Change them when the next season is being prepared."
        ]
    }
    night.league.refresh_from_db()
    assert night.league.ruleset_overrides == {}
    assert (m.Ruling.objects.count(), m.AuditEvent.objects.count()) == before


@pytest.mark.parametrize(
    ("setting", "value", "errors"),
    [
        (
            "season_forfeit_limit",
            "0",
            {
                "value": [
                    "Ruleset.season_forfeit_limit cannot be 0; allowed: a whole number from 1 "
                    "to 400 (R2.5-a: at 0 every player would be out before the first game)."
                ]
            },
        ),
        (
            "dues_period",
            "weekly",
            {"value": ["Ruleset.dues_period cannot be 'weekly'; allowed: 'season', 'meet'."]},
        ),
        ("no_such_setting", "1", {"setting": ["No reading is called 'no_such_setting'."]}),
    ],
)
def test_change_ruleset_setting_refuses_a_value_the_setting_does_not_allow(setting, value, errors):
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)

    with pytest.raises(ValidationError) as caught:
        change_ruleset_setting(
            league=official.league,
            setting=setting,
            value=value,
            reason="Why not",
            actor=official.user,
        )

    assert caught.value.message_dict == errors
    official.league.refresh_from_db()
    assert official.league.ruleset_overrides == {}


def test_change_ruleset_setting_refuses_without_a_reason():
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)

    with pytest.raises(ValidationError) as caught:
        change_ruleset_setting(
            league=official.league,
            setting="season_forfeit_limit",
            value="8",
            reason=" ",
            actor=official.user,
        )

    assert list(caught.value.message_dict) == ["reason"]


def _dee_misses_meet_1() -> tuple[Night, m.Player]:
    """A played season: Dee missed meet 1 (4 countable forfeits), still in the season under
    the rulebook's limit of 12 (R2.5-a)."""
    night = build_night()
    dee = night.players[3]
    meet = schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)
    announce_absence(meet=meet, player=dee, actor=night.user)
    start(night)
    return night, dee


def _dee(season: m.Season, dee: m.Player) -> tuple[int, int | None, int]:
    table = standings(season)
    line = next(x for x in table.lines if x.player.id == dee.pk)
    return line.countable_forfeits, line.season_forfeited_at, table.season_forfeit_limit


def test_change_ruleset_setting_for_the_next_season_keeps_a_played_season_standings_r2_a():
    """A limit of 4, set while the next season is prepared, is that season's: the season
    played keeps the rulebook's 12, so Dee stays in it (R2-a, R2.5-a)."""
    night, dee = _dee_misses_meet_1()
    assert _dee(night.season, dee) == (4, None, 12)
    revision = m.Season.objects.get(pk=night.season.pk).revision
    upcoming = _next_season(night.league)

    change_ruleset_setting(
        league=night.league,
        setting="season_forfeit_limit",
        value="4",
        reason="Stricter",
        actor=night.user,
    )

    played = m.Season.objects.get(pk=night.season.pk)
    assert (played.ruleset_overrides, played.revision) == ({}, revision)
    assert _dee(played, dee) == (4, None, 12)
    upcoming.refresh_from_db()
    assert upcoming.ruleset_overrides == {"season_forfeit_limit": 4}


def test_change_ruleset_setting_folds_the_next_season_under_the_new_reading_r2_5_a():
    """The next season is folded under the limit of 4: Dee, carried into it and missing its
    meet 1, is out at meet 1 there (R2.5-a, R2.5-b); the season played keeps 12."""
    night, dee = _dee_misses_meet_1()
    on = timezone.localdate(timezone=ZoneInfo(night.league.time_zone))
    upcoming = start_next_season(
        season=night.season, name="Autumn", weekday=on.weekday(), actor=night.user
    )
    meet = schedule_meet(season=upcoming, number=1, date=on, actor=night.user)
    announce_absence(meet=meet, player=dee, actor=night.user)

    change_ruleset_setting(
        league=night.league,
        setting="season_forfeit_limit",
        value="4",
        reason="Stricter",
        actor=night.user,
    )
    upcoming.refresh_from_db()  # as a request would load it, with the changed readings
    start_meet(season=upcoming, number=1, date=on, actor=night.user, seed=7)

    assert _dee(m.Season.objects.get(pk=upcoming.pk), dee) == (4, 1, 4)
    assert _dee(m.Season.objects.get(pk=night.season.pk), dee) == (4, None, 12)


def test_change_ruleset_setting_same_as_the_next_season_reading_does_not_refold_it():
    """Only a season whose readings changed is folded again."""
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    season = f.SeasonFactory(league=official.league, ruleset_overrides={"dues_period": "meet"})
    revision = season.revision

    change_ruleset_setting(
        league=official.league,
        setting="dues_period",
        value="meet",
        reason="As the season already reads it",
        actor=official.user,
    )

    season.refresh_from_db()
    official.league.refresh_from_db()
    assert (season.revision, season.ruleset_overrides) == (revision, {"dues_period": "meet"})
    assert official.league.ruleset_overrides == {"dues_period": "meet"}


def test_season_created_takes_the_league_readings_and_keeps_them():
    """`create_season` copies the league's readings; a later change of the league's does not
    reach a season whose first meet has started."""
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    league = official.league
    league.ruleset_overrides = {"season_forfeit_limit": 8}
    league.save()

    season = create_season(
        league=league,
        name="Spring",
        weekday=1,
        start_time=datetime.time(19, 0),
        number_of_meets=8,
        actor=official.user,
    )

    assert season.ruleset_overrides == {"season_forfeit_limit": 8}
    event = m.AuditEvent.objects.get(action="season.created")
    assert event.data["ruleset_overrides"] == {"season_forfeit_limit": 8}
