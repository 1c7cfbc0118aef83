"""A special ruling belongs to one league.

Before this migration every league shared one list of special rulings, so one league's
official added to or amended the list another league shows. Each stored row (a version of a
ruling) is given a league:

1. the league of the audit event that recorded it (``special_ruling.added`` or
   ``special_ruling.amended``, whose object is the row): the league whose official made it;
2. else (a row loaded from Appendix A, whose event has no league, or a row with no event) a
   copy for every league that has a machine of that title (titles compared as the rules do:
   case, spacing and a leading "The" aside), the row itself going to the first of them;
3. else the row is deleted: no league shows it (an official reloads Appendix A into his own
   league's list from the console).

Migrating back keeps one row per title, number and version (the lowest id; the copies of
step 2 and any other league's same-numbered ruling are deleted) and drops the league.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations, models


def _title_key(title: str) -> str:
    words = title.casefold().split()
    if words[:1] == ["the"]:
        words = words[1:]
    return " ".join(words)


def give_leagues(apps: Any, schema_editor: Any) -> None:
    ruling_model = apps.get_model("league", "SpecialRuling")
    event_model = apps.get_model("league", "AuditEvent")
    machine_model = apps.get_model("league", "Machine")
    recorded = {
        int(object_id): league_id
        for object_id, league_id in event_model.objects.filter(
            object_type="league.SpecialRuling",
            action__in=["special_ruling.added", "special_ruling.amended"],
            league__isnull=False,
        ).values_list("object_id", "league_id")
        if object_id.isdigit()
    }
    by_title: dict[str, list[int]] = {}
    for title, league_id in machine_model.objects.order_by("league_id").values_list(
        "title", "league_id"
    ):
        leagues = by_title.setdefault(_title_key(title), [])
        if league_id not in leagues:
            leagues.append(league_id)
    for row in ruling_model.objects.order_by("id"):
        if row.pk in recorded:
            row.league_id = recorded[row.pk]
            row.save(update_fields=["league"])
            continue
        leagues = by_title.get(_title_key(row.machine_title), [])
        if not leagues:
            row.delete()
            continue
        row.league_id = leagues[0]
        row.save(update_fields=["league"])
        for league_id in leagues[1:]:
            ruling_model.objects.create(
                league_id=league_id,
                machine_title=row.machine_title,
                number=row.number,
                version=row.version,
                kind=row.kind,
                text=row.text,
                reproduction_notes=row.reproduction_notes,
                created_by_id=row.created_by_id,
                created_at=row.created_at,
            )


def share_again(apps: Any, schema_editor: Any) -> None:
    ruling_model = apps.get_model("league", "SpecialRuling")
    seen: set[tuple[str, int, int]] = set()
    for row in ruling_model.objects.order_by("id"):
        key = (row.machine_title, row.number, row.version)
        if key in seen:
            row.delete()
        seen.add(key)


class Migration(migrations.Migration):
    # The rows are updated in their own transaction before the column becomes required:
    # PostgreSQL refuses ALTER TABLE while the rows' deferred foreign-key checks are pending.
    atomic = False

    dependencies = [
        ("league", "0030_match_absence"),
    ]

    operations = [
        migrations.AddField(
            model_name="specialruling",
            name="league",
            field=models.ForeignKey(
                null=True,
                on_delete=models.deletion.PROTECT,
                related_name="special_rulings",
                to="league.league",
            ),
        ),
        migrations.RemoveConstraint(
            model_name="specialruling",
            name="special_ruling_version_once",
        ),
        migrations.RunPython(give_leagues, share_again, elidable=True),
        migrations.AlterField(
            model_name="specialruling",
            name="league",
            field=models.ForeignKey(
                on_delete=models.deletion.PROTECT,
                related_name="special_rulings",
                to="league.league",
            ),
        ),
        migrations.AddConstraint(
            model_name="specialruling",
            constraint=models.UniqueConstraint(
                fields=("league", "machine_title", "number", "version"),
                name="special_ruling_version_once_per_league",
            ),
        ),
    ]
