"""The migrations match the models: nothing left for makemigrations to write."""

import pytest
from django.core.management import call_command


@pytest.mark.django_db
def test_migrations_cover_every_model_change():
    call_command("makemigrations", "--check", "--dry-run", verbosity=0)
