"""Writing every league's facts to one backup file (the package's words apply:
`flipwell.league.exchange.backup`).

Words:
- *acting user*: an account that is a league official or that some fact names; only these
  accounts are backed up, and of each only its username, names, e-mail and password hash.
"""

from __future__ import annotations

import datetime
import decimal
import json
import uuid
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any, TextIO

from django.contrib.auth import get_user_model
from django.core import serializers
from django.db import connection, models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from flipwell.league.exchange.backup.format import (
    APP_LABEL,
    FORMAT,
    FORMAT_VERSION,
    USER_FIELDS,
    BackupError,
    BackupSummary,
    backup_models,
    league_app_models,
    seal,
)
from flipwell.league.exchange.files import write_atomically
from flipwell.league.exchange.progress import Progress, Stream


def write_backup(*, path: Path, progress: Stream | None = None) -> BackupSummary:
    """Write every fact of every league to `path` (see the module docstring), atomically.

    Side effects: creates or replaces `path` (mode 0600: it holds password hashes); reads the
    database in one transaction (a repeatable-read snapshot on PostgreSQL) so the backup is
    consistent while others write. Draws a progress bar on `progress` when it is a terminal.
    Writes no audit event: a backup changes no fact. Raises BackupError when `path`'s folder
    does not exist or cannot be written.
    """
    if not path.parent.is_dir():
        raise BackupError(f"cannot write {path}: the folder {path.parent} does not exist")
    ordered = backup_models()
    outermost = not connection.in_atomic_block  # else the caller's transaction decides
    with transaction.atomic():
        if connection.vendor == "postgresql" and outermost:
            with connection.cursor() as cursor:
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
        querysets = [(model, _backup_queryset(model)) for model in ordered]
        counts = {model._meta.label_lower: qs.count() for model, qs in querysets}
        tables: list[dict[str, Any]] = []
        with Progress("Backing up", total=sum(counts.values()), stream=progress) as bar:
            for model, queryset in querysets:
                rows = _serialize(model, queryset.iterator(chunk_size=2000), bar)
                tables.append({"model": model._meta.label_lower, "rows": rows})
        document = {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "created_at": timezone.now().isoformat(),
            "migrations": {APP_LABEL: applied_migrations()},
            "tables": tables,
        }
    # As JSON values, exactly as a restore will read them back, so the checksum matches.
    document = seal(json.loads(json.dumps(document, default=_json_value)))

    def write(file: TextIO) -> None:
        json.dump(document, file, ensure_ascii=False, separators=(",", ":"))
        file.write("\n")

    try:
        write_atomically(path, write, mode=0o600)
    except OSError as error:
        raise BackupError(f"cannot write {path}: {error.strerror or error}") from error
    return BackupSummary(rows=counts)


def _backup_queryset(model: type[models.Model]) -> models.QuerySet[Any]:
    if model is get_user_model():
        return model._default_manager.filter(pk__in=_acting_user_ids()).order_by("pk")
    return model._default_manager.order_by("pk")


def _acting_user_ids() -> set[int]:
    """Every account that is a league official or that some fact names (one query per field)."""
    user_model = get_user_model()
    ids: set[int] = set()
    for model in league_app_models():
        for field in model._meta.concrete_fields:
            if field.is_relation and field.related_model is user_model:
                ids.update(
                    model._default_manager.exclude(**{f"{field.attname}__isnull": True})
                    .values_list(field.attname, flat=True)
                    .distinct()
                )
    return ids


def _serialize(
    model: type[models.Model], rows: Iterable[models.Model], bar: Progress
) -> list[dict[str, Any]]:
    fields = USER_FIELDS if model is get_user_model() else None
    serialized: list[dict[str, Any]] = []
    for row in serializers.serialize("python", _counted(rows, bar), fields=fields):
        serialized.append({"pk": row["pk"], "fields": row["fields"]})
    return serialized


def _counted(rows: Iterable[models.Model], bar: Progress) -> Iterator[models.Model]:
    for row in rows:
        yield row
        bar.advance()


def _json_value(value: object) -> object:
    """JSON for the values Django's serializer leaves as Python objects (full precision)."""
    if isinstance(value, datetime.datetime | datetime.date | datetime.time):
        return value.isoformat()
    if isinstance(value, decimal.Decimal | uuid.UUID):
        return str(value)
    raise TypeError(f"cannot write a {type(value).__name__} to a backup")


def applied_migrations() -> list[str]:
    applied = MigrationRecorder(connection).applied_migrations()
    return sorted(name for app, name in applied if app == APP_LABEL)
