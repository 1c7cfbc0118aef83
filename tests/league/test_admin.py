"""Every stored fact is visible to staff in the admin."""

from django.apps import apps
from django.contrib import admin


def test_every_league_model_is_registered_in_the_admin():
    models = apps.get_app_config("league").get_models()
    assert sorted(m.__name__ for m in models if m not in admin.site._registry) == []
