"""Backing up every league's facts to one JSON file, and restoring it into an empty database.

Words:
- *backup file*: a JSON object ``{"format": "flipwell-backup", "format_version": 1,
  "created_at", "migrations": {"league": [...]}, "tables": [{"model", "rows"}]}``. Each table
  is one model (``"league.game"``); each row is ``{"pk", "fields"}`` as Django's Python
  serializer writes it, with datetimes in full ISO 8601 (microseconds kept).
- *the tables*: every model of the league app (the stored facts; nothing derived is stored, so
  nothing derived is backed up) and ``auth.user`` for the *people who act*: the league
  officials, and every other account a fact names (who recorded a score, who made a ruling),
  so that every reference holds after a restore. Of an account only the username, names,
  email and password hash are kept: never permissions, staff or superuser flags, sessions.
- *dependency order*: the models sorted so that every model comes after the models its foreign
  keys point to (computed from the models themselves, so a new model needs no list edited).
  Restoring in this order means every referenced row exists when a row is inserted.
- *empty database*: migrated, with no account and no row in any league table.

Restoring only inserts (``bulk_create`` with the stored primary keys), never updates: the
append-only triggers on the ledger and the audit log (migration 0002) stay satisfied.
"""

from __future__ import annotations

import datetime
import decimal
import json
import uuid
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from django.apps import apps
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, connection, models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone

from flipwell.league.exchange.files import write_atomically
from flipwell.league.exchange.progress import Progress, Stream

FORMAT = "flipwell-backup"
FORMAT_VERSION = 1
APP_LABEL = "league"
USER_FIELDS = ("username", "first_name", "last_name", "email", "password")
BATCH_SIZE = 500


class BackupError(Exception):
    """A backup file that cannot be read or restored here; the message says why and what to do."""


@dataclass(frozen=True)
class BackupSummary:
    """How many rows of each table a backup or restore handled (model label -> rows)."""

    rows: Mapping[str, int]

    @property
    def total(self) -> int:
        """Rows of every table together."""
        return sum(self.rows.values())


def backup_models() -> list[type[models.Model]]:
    """The user model, then every league model, in dependency order (see the module docstring).

    A cycle of foreign keys between models is a programming error and fails loudly.
    """
    user_model = get_user_model()
    league_models = list(apps.get_app_config(APP_LABEL).get_models())
    pending = {model: _dependencies(model) & set(league_models) for model in league_models}
    ordered: list[type[models.Model]] = [user_model]
    while pending:
        # The first model (in the app's own order) whose dependencies are all placed.
        ready = next((m for m in league_models if m in pending and not pending[m]), None)
        if ready is None:
            cycle = ", ".join(sorted(m._meta.label for m in pending))
            raise RuntimeError(f"the league models' foreign keys form a cycle among {cycle}")
        ordered.append(ready)
        del pending[ready]
        for dependencies in pending.values():
            dependencies.discard(ready)
    return ordered


def _dependencies(model: type[models.Model]) -> set[type[models.Model]]:
    """The other models `model`'s foreign keys point to (a self-reference is not one)."""
    found: set[type[models.Model]] = set()
    for field in model._meta.concrete_fields:
        related = field.related_model
        if field.is_relation and isinstance(related, type) and related is not model:
            found.add(related)
    return found


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
            "migrations": {APP_LABEL: _applied_migrations()},
            "tables": tables,
        }

    def write(file: TextIO) -> None:
        json.dump(document, file, default=_json_value, ensure_ascii=False, separators=(",", ":"))
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
    for model in apps.get_app_config(APP_LABEL).get_models():
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


def _applied_migrations() -> list[str]:
    applied = MigrationRecorder(connection).applied_migrations()
    return sorted(name for app, name in applied if app == APP_LABEL)


def read_backup(path: Path) -> dict[str, Any]:
    """The parsed backup file at `path`, checked to be a flipwell backup this version reads."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BackupError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise BackupError(f"{path}: cannot read it ({error})") from error
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise BackupError(f"{path}: not valid JSON ({error})") from error
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError(
            f'{path} is not a flipwell backup: it has no "format": "{FORMAT}" '
            "(make one with `flipwell backup FILE`)"
        )
    version = document.get("format_version")
    if version != FORMAT_VERSION:
        raise BackupError(
            f"{path} is a backup in format version {version!r}; this flipwell reads version "
            f"{FORMAT_VERSION} only"
        )
    tables = document.get("tables")
    if not isinstance(tables, list) or not all(
        isinstance(t, dict) and isinstance(t.get("model"), str) and isinstance(t.get("rows"), list)
        for t in tables
    ):
        raise BackupError(f'{path}: "tables" must be a list of {{"model", "rows"}} objects')
    return document


def restore_backup(*, path: Path, progress: Stream | None = None) -> BackupSummary:
    """Restore the backup at `path` into this empty database, keeping every primary key.

    Side effects: inserts every row of the backup in dependency order, inside one transaction
    (all or nothing), then resets PostgreSQL's id sequences past the restored ids. Draws a
    progress bar on `progress` when it is a terminal. Writes no audit event: the restored audit
    log is the original one, unchanged. Raises BackupError (nothing written) when the file is
    not a backup this version reads, when it comes from a newer database schema, when the
    database already holds data, or when a row does not fit the database.
    """
    document = read_backup(path)
    _check_migrations(path, document)
    ordered = backup_models()
    by_label = {model._meta.label_lower: model for model in ordered}
    rows_by_label: dict[str, list[Any]] = {}
    for table in document["tables"]:
        label = table["model"]
        if label not in by_label:
            known = ", ".join(by_label)
            raise BackupError(f"{path}: unknown table {label!r}; a backup holds only {known}")
        rows_by_label.setdefault(label, []).extend(table["rows"])
    counts = {label: len(rows_by_label.get(label, [])) for label in by_label}
    with transaction.atomic():
        _check_empty(ordered)
        with Progress("Restoring", total=sum(counts.values()), stream=progress) as bar:
            for model in ordered:
                label = model._meta.label_lower
                for batch in _batches(rows_by_label.get(label, []), BATCH_SIZE):
                    _insert(path, model, batch)
                    bar.advance(len(batch))
        _reset_sequences(ordered)
    return BackupSummary(rows=counts)


def _check_migrations(path: Path, document: Mapping[str, Any]) -> None:
    migrations = document.get("migrations", {})
    wanted = set(migrations.get(APP_LABEL, [])) if isinstance(migrations, dict) else set()
    missing = sorted(wanted - set(_applied_migrations()))
    if missing:
        raise BackupError(
            f"{path} was made by a newer flipwell: its database had the migrations "
            f"{', '.join(missing)}, which this database lacks. Upgrade flipwell and run "
            "`flipwell migrate`, then restore again."
        )


def _check_empty(ordered: list[type[models.Model]]) -> None:
    holding = [
        str(model._meta.verbose_name_plural) for model in ordered if model._default_manager.exists()
    ]
    if holding:
        raise BackupError(
            "refusing to restore: this database already holds data (" + ", ".join(holding) + "). "
            "A restore needs an empty database: point DATABASE_URL (or FLIPWELL_DATA_DIR) at a "
            "new one, run `flipwell migrate`, then `flipwell restore FILE`."
        )


def _batches(rows: list[Any], size: int) -> Iterator[list[Any]]:
    for start in range(0, len(rows), size):
        yield rows[start : start + size]


def _insert(path: Path, model: type[models.Model], rows: list[Any]) -> None:
    label = model._meta.label_lower
    try:
        objects = [
            item.object
            for item in serializers.deserialize(
                "python", ({"model": label, **row} for row in rows), ignorenonexistent=True
            )
        ]
    except (DeserializationError, TypeError, ValueError) as error:
        raise BackupError(f"{path}: a {label} row is malformed ({error})") from error
    try:
        with transaction.atomic():
            model._default_manager.bulk_create(objects)
    except DatabaseError as error:
        raise BackupError(
            f"{path}: the {label} rows do not fit this database ({error}); nothing was restored"
        ) from error


def _reset_sequences(ordered: list[type[models.Model]]) -> None:
    """Move each id sequence past the restored ids (PostgreSQL; SQLite does this itself)."""
    statements = connection.ops.sequence_reset_sql(no_style(), ordered)
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
