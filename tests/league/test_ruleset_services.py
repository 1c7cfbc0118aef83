"""`change_ruleset_setting`: an official changes one of the league's readings before its newest
season begins (R2-a), refused after with the reason; the change is a ruling with an audit event,
and every season of the league is folded again under it (R2.5-a, R2.4-d)."""

from __future__ import annotations

import datetime

import pytest
from django.core.exceptions import ValidationError

from flipwell.league import models as m
from flipwell.league.selectors.standings import standings
from flipwell.league.services import announce_absence, change_ruleset_setting, schedule_meet
from tests import factories as f
from tests.league.league_night import DATE, build_night, start

pytestmark = pytest.mark.django_db


def _next_season(league: m.League) -> m.Season:
    """A season being prepared: created after the played one, no meet started."""
    return f.SeasonFactory(
        league=league, created_at=datetime.datetime(2026, 6, 1, tzinfo=datetime.UTC)
    )


def test_change_ruleset_setting_before_the_first_meet_stored_with_ruling_and_audit_r2_4_d():
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    league = official.league
    f.SeasonFactory(league=league)

    change_ruleset_setting(
        league=league,
        setting="forfeit_credit_percent",
        value="40",
        reason="Our league gives 40%",
        actor=official.user,
    )

    league.refresh_from_db()
    assert league.ruleset_overrides == {"forfeit_credit_percent": 40}
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


def test_change_ruleset_setting_folds_the_seasons_again_r2_5_a():
    """Dee missed meet 1 (4 countable forfeits): still in the season under the rulebook's 12;
    a limit of 4, set while the next season is being prepared, puts her out at meet 1: she
    may play no more game of the season (R2.5-b)."""
    night = build_night()
    dee = night.players[3]
    meet = schedule_meet(season=night.season, number=1, date=DATE, actor=night.user)
    announce_absence(meet=meet, player=dee, actor=night.user)
    start(night)
    line = next(x for x in standings(night.season).lines if x.player.id == dee.pk)
    assert (line.countable_forfeits, line.season_forfeited_at) == (4, None)
    _next_season(night.league)

    change_ruleset_setting(
        league=night.league,
        setting="season_forfeit_limit",
        value="4",
        reason="Stricter",
        actor=night.user,
    )

    night.season.refresh_from_db()
    after = standings(night.season)
    line = next(x for x in after.lines if x.player.id == dee.pk)
    assert (line.countable_forfeits, line.season_forfeited_at) == (4, 1)
    assert after.season_forfeit_limit == 4
