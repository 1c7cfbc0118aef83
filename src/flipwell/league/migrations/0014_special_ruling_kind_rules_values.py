"""SpecialRuling.kind stores the rules' values (`flipwell.rules.special_rulings.SpecialRulingKind`,
RA-a: "major_malfunction" ...) instead of the short codes of its own ("major" ...).

The check constraint is dropped while the stored kinds are rewritten and made again over the
new values; going back rewrites them to the short codes. Audit events keep the kind they
recorded (the audit log is append-only).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.db import migrations, models

SHORT_TO_RULES = {
    "not_malfunction": "not_a_malfunction",
    "major": "major_malfunction",
    "positive": "positive_malfunction",
    "not_extra_ball": "not_an_extra_ball",
}
"""A copy, not an import: a migration keeps the mapping it was written with."""


def _rewrite(apps: Any, mapping: Mapping[str, str]) -> None:
    rulings = apps.get_model("league", "SpecialRuling").objects
    for old, new in mapping.items():
        rulings.filter(kind=old).update(kind=new)


def to_rules_values(apps: Any, schema_editor: Any) -> None:
    _rewrite(apps, SHORT_TO_RULES)


def to_short_codes(apps: Any, schema_editor: Any) -> None:
    _rewrite(apps, {new: old for old, new in SHORT_TO_RULES.items()})


class Migration(migrations.Migration):
    dependencies = [
        ("league", "0013_revisions_and_results"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RemoveConstraint(
            model_name="specialruling",
            name="special_ruling_kind_valid",
        ),
        migrations.AlterField(
            model_name="specialruling",
            name="kind",
            field=models.CharField(
                choices=[
                    ("not_a_malfunction", "Not a malfunction"),
                    ("major_malfunction", "Major malfunction"),
                    ("positive_malfunction", "Positive malfunction"),
                    ("not_an_extra_ball", "Not an extra ball"),
                ],
                max_length=20,
            ),
        ),
        migrations.RunPython(to_rules_values, to_short_codes, elidable=True),
        migrations.AddConstraint(
            model_name="specialruling",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    (
                        "kind__in",
                        [
                            "not_a_malfunction",
                            "major_malfunction",
                            "positive_malfunction",
                            "not_an_extra_ball",
                        ],
                    )
                ),
                name="special_ruling_kind_valid",
            ),
        ),
    ]
