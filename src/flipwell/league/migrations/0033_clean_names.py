"""Names and titles as stored from now on, and canonical time zones.

The models check names and titles (`validate_clean_line`) and a league's slug
(`validate_league_slug`: not a route's name). The rows stored before are made to pass: a
player's names, a machine's title and a league's name in NFKC, without invisible characters
(zero-width, bidirectional controls) or control characters, one space between words; a
league's time zone ``posix/X`` or ``right/X`` is ``X``, and ``localtime`` or ``posixrules``
the zone the machine's clock names (else UTC). A slug is left as it is: a league's addresses
must keep working (a new league's slug is checked when it is made).

The cleaning is written out here, not imported: a migration does what it did when written.
"""

from __future__ import annotations

import unicodedata
import zoneinfo
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from django.db import migrations, models

import flipwell.league.validators


def _clean(value: str) -> str:
    text = unicodedata.normalize("NFKC", value)
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cf", "Cc") or c.isspace())
    return " ".join(text.split()) or value


def _zone(value: str) -> str:
    zones = zoneinfo.available_timezones()
    for prefix in ("posix/", "right/"):
        if value.startswith(prefix) and value[len(prefix) :] in zones:
            return value[len(prefix) :]
    if value in ("localtime", "posixrules"):
        try:
            name = str(Path("/etc/localtime").resolve()).partition("/zoneinfo/")[2]
        except OSError:
            name = ""
        name = name.removeprefix("posix/").removeprefix("right/")
        return name if name in zones and name not in ("localtime", "posixrules") else "UTC"
    return value


def _clean_rows(model: Any, fields: Sequence[str]) -> None:
    for row in model.objects.only("pk", *fields).iterator():
        wanted = {field: _clean(getattr(row, field)) for field in fields}
        if any(getattr(row, field) != value for field, value in wanted.items()):
            model.objects.filter(pk=row.pk).update(**wanted)


def clean_names(apps: Any, schema_editor: Any) -> None:
    _clean_rows(apps.get_model("league", "Player"), ("first_name", "last_name"))
    _clean_rows(apps.get_model("league", "Machine"), ("title",))
    _clean_rows(apps.get_model("league", "League"), ("name",))
    League = apps.get_model("league", "League")
    for league in League.objects.only("pk", "time_zone").iterator():
        zone = _zone(league.time_zone)
        if zone != league.time_zone:
            League.objects.filter(pk=league.pk).update(time_zone=zone)


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0032_invitations"),
    ]

    operations = [
        migrations.AlterField(
            model_name="league",
            name="name",
            field=models.CharField(
                max_length=120, validators=[flipwell.league.validators.validate_clean_line]
            ),
        ),
        migrations.AlterField(
            model_name="league",
            name="slug",
            field=models.SlugField(
                max_length=60,
                unique=True,
                validators=[flipwell.league.validators.validate_league_slug],
            ),
        ),
        migrations.AlterField(
            model_name="machine",
            name="title",
            field=models.CharField(
                max_length=120, validators=[flipwell.league.validators.validate_clean_line]
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="first_name",
            field=models.CharField(
                max_length=80, validators=[flipwell.league.validators.validate_clean_line]
            ),
        ),
        migrations.AlterField(
            model_name="player",
            name="last_name",
            field=models.CharField(
                max_length=80, validators=[flipwell.league.validators.validate_clean_line]
            ),
        ),
        migrations.RunPython(clean_names, migrations.RunPython.noop, elidable=True),
    ]
