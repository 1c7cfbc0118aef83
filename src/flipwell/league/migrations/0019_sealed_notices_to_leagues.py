"""Notice subscriptions belong to a league: one row per league and player.

Until now a player had one subscription, which every league's officials read and changed.
Each existing row goes to the league that collected its address:

1. the league whose official last set the player's address (the latest audit event
   ``notices.preferences_set`` that gave one);
2. else the league of the player's latest personal link that carries the same address (the
   player left it there, and it was offered as their notices address);
3. else (no record of who collected it: a row made in the admin) a copy to every league the
   player is entered in, where it was shown before; each copy is then that league's own.

A row of a player entered in no league is dropped (no league's official could see it).
Migration 0018 added the (optional) league; 0020 then makes it required, one row per league
and player. Each step is a migration of its own, so each runs in its own transaction:
PostgreSQL alters no table whose rows were changed earlier in the same transaction.

Undone: one row per player again, the most recently updated one.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations


def _collector(apps: Any, row: Any) -> list[int]:
    """The ids of the leagues `row`'s address goes to (see the module docstring)."""
    event = (
        apps.get_model("league", "AuditEvent")
        .objects.filter(
            action="notices.preferences_set",
            object_type="league.Player",
            object_id=str(row.player_id),
            league__isnull=False,
            data__email_given=True,
        )
        .order_by("-created_at", "-id")
        .first()
    )
    if event is not None:
        return [event.league_id]
    link = (
        apps.get_model("league", "PlayerLink")
        .objects.filter(player_id=row.player_id, email__iexact=row.email)
        .select_related("season")
        .order_by("-created_at", "-id")
        .first()
    )
    if link is not None:
        return [link.season.league_id]
    entries = apps.get_model("league", "SeasonEntry").objects.filter(player_id=row.player_id)
    return sorted(set(entries.values_list("season__league_id", flat=True)))


def to_leagues(apps: Any, schema_editor: Any) -> None:
    subscriptions = apps.get_model("league", "NoticeSubscription")
    for row in list(subscriptions.objects.filter(league__isnull=True)):  # a few per league
        leagues = _collector(apps, row)
        if not leagues:
            row.delete()
            continue
        first, *others = leagues
        subscriptions.objects.filter(pk=row.pk).update(league_id=first)
        for league_id in others:
            subscriptions.objects.create(
                league_id=league_id,
                player_id=row.player_id,
                email=row.email,
                groups=row.groups,
                results=row.results,
                reminder=row.reminder,
                ruling=row.ruling,
                unsubscribed_at=row.unsubscribed_at,
                updated_at=row.updated_at,
            )


def to_players(apps: Any, schema_editor: Any) -> None:
    subscriptions = apps.get_model("league", "NoticeSubscription")
    kept: set[int] = set()
    for row in subscriptions.objects.order_by("player_id", "-updated_at", "-id"):
        if row.player_id in kept:
            row.delete()
        else:
            kept.add(row.player_id)


class Migration(migrations.Migration):
    dependencies = [("league", "0018_sealed_notice_league")]

    operations = [migrations.RunPython(to_leagues, to_players, elidable=True)]
