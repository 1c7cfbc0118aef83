"""Every stored fact is visible to staff in the admin; what staff save there is validated."""

from django.apps import apps
from django.contrib import admin

from flipwell.league import models as m
from tests import factories as f


def test_every_league_model_is_registered_in_the_admin():
    models = apps.get_app_config("league").get_models()
    assert sorted(m.__name__ for m in models if m not in admin.site._registry) == []


def _add_league_in_the_admin(client, overrides):
    client.force_login(f.UserFactory(is_staff=True, is_superuser=True))
    return client.post(
        "/admin/league/league/add/",
        {
            "name": "Flip Well",
            "slug": "flip-well",
            "venue": "",
            "time_zone": "UTC",
            "ruleset_overrides": overrides,
            "created_at_0": "2026-01-05",
            "created_at_1": "19:00:00",
        },
    )


def test_admin_league_ruleset_override_value_not_allowed_refused(db, client):
    response = _add_league_in_the_admin(client, '{"dues_period": "weekly"}')

    assert response.status_code == 200
    assert response.context["adminform"].form.errors["ruleset_overrides"] == [
        "Ruleset setting dues_period cannot be 'weekly'; allowed: 'season', 'meet'."
    ]
    assert m.League.objects.count() == 0


def test_admin_league_allowed_ruleset_override_stored(db, client):
    response = _add_league_in_the_admin(client, '{"dues_period": "meet"}')

    assert response.status_code == 302
    assert list(m.League.objects.values_list("ruleset_overrides", flat=True)) == [
        {"dues_period": "meet"}
    ]


def test_admin_season_added_takes_its_league_readings_r2_a(db, client):
    """A season added here takes its league's readings, as the console's; staff cannot edit
    them (they stay those it was created with)."""
    league = f.LeagueFactory(ruleset_overrides={"dues_period": "meet"})
    client.force_login(f.UserFactory(is_staff=True, is_superuser=True))

    response = client.post(
        "/admin/league/season/add/",
        {
            "league": league.pk,
            "name": "Spring",
            "weekday": 1,
            "start_time": "19:00",
            "number_of_meets": 8,
            "dues_cents": 0,
            "created_at_0": "2026-01-05",
            "created_at_1": "19:00:00",
            "ruleset_overrides": '{"dues_period": "season"}',
        },
    )

    assert response.status_code == 302
    assert list(m.Season.objects.values_list("ruleset_overrides", flat=True)) == [
        {"dues_period": "meet"}
    ]
