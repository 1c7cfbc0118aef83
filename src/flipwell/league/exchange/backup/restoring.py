"""Restoring a backup file into an empty database, keeping every primary key (the package's
words apply: `flipwell.league.exchange.backup`).

Words:
- *restored row*: a row of the file checked to be one `write_backup` writes (its fields, their
  values and text), inserted in dependency order in batches (``bulk_create``), never updated.
- *checks after the insert*: every foreign key names a restored row, and every restored season
  folds (facts the rules reject would make its pages fail).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, IntegrityError, connection, models, transaction

from flipwell.league import models as m
from flipwell.league.derived.caches import forget
from flipwell.league.exchange.backup.format import (
    APP_LABEL,
    BATCH_SIZE,
    LEGACY_VALUES,
    ROW_KEYS,
    BackupError,
    BackupSummary,
    backup_fields,
    backup_models,
)
from flipwell.league.exchange.backup.leagues import (
    check_leagues,
    rulings_to_leagues,
    seasons_read_as_their_leagues,
    subscriptions_to_leagues,
)
from flipwell.league.exchange.backup.reading import backup_contents, read_backup, unsigned_reason
from flipwell.league.exchange.backup.writing import applied_migrations
from flipwell.league.exchange.progress import Progress, Stream
from flipwell.league.selectors.season_folds import check_facts_fold
from flipwell.league.validators import control_character


def restore_backup(
    *,
    path: Path,
    progress: Stream | None = None,
    verify: bool = True,
    trust_unsigned: bool = False,
    warn: Callable[[str], object] | None = None,
) -> BackupSummary:
    """Restore the backup at `path` into this empty database, keeping every primary key.

    Side effects: inserts every row of the backup in dependency order, inside one transaction
    (all or nothing), checks every foreign key, folds every restored season, then resets
    PostgreSQL's id sequences past the restored ids. Draws a progress bar on `progress` when
    it is a terminal. Writes no audit event: the restored audit log is the original one,
    unchanged. Raises BackupError (nothing written) when the file is not a backup this version
    reads, when its checksum is missing or wrong (unless not `verify`), when this installation
    did not sign it (unless `trust_unsigned` or not `verify`: then `warn` is told why and what
    the file holds, before anything is written), when it comes from a newer database
    schema, when the database already holds data, when a row is not one `backup` writes or
    does not fit the database, or when a season's facts do not fold.
    """
    document = read_backup(path, verify=verify, trust_unsigned=trust_unsigned)
    # read_backup refused an unsigned file unless told to trust it: only then is there a why.
    reason = unsigned_reason(path, document) if trust_unsigned or not verify else ""
    if reason and warn is not None:
        flag = "--trust-unsigned" if verify else "--no-verify"
        warn(
            f"Warning: {reason} Restoring it as {flag} asks: every row is still checked, but "
            "nothing proves these are the facts as recorded. The file holds:"
        )
        for line in backup_contents(document) or ["no league"]:
            warn(f"  {line}")
    _check_migrations(path, document)
    ordered = backup_models()
    rows_by_label = _rows_by_model(path, document, ordered)
    counts = {label: len(rows_by_label.get(label, [])) for label in rows_by_label}
    with transaction.atomic():
        _check_empty(ordered)
        with Progress("Restoring", total=sum(counts.values()), stream=progress) as bar:
            for model in ordered:
                label = model._meta.label_lower
                for batch in _batches(rows_by_label.get(label, []), BATCH_SIZE):
                    _insert(path, model, batch)
                    bar.advance(len(batch))
        _check_references(path)
        _check_seasons_fold(path)
        _reset_sequences(ordered)
    # The restored seasons carry their backed-up revisions: a fold this process remembers
    # for the same season and revision may be of other facts (an edited or older file).
    forget()
    return BackupSummary(rows=counts)


def _rows_by_model(
    path: Path, document: Mapping[str, Any], ordered: list[type[models.Model]]
) -> dict[str, list[dict[str, Any]]]:
    """Every table's rows by model label, each row checked to be one `backup` writes."""
    by_label = {model._meta.label_lower: model for model in ordered}
    rows_by_label: dict[str, list[dict[str, Any]]] = {label: [] for label in by_label}
    for table in document["tables"]:
        label = table["model"]
        if label not in by_label:
            known = ", ".join(by_label)
            raise BackupError(f"{path}: unknown table {label!r}; a backup holds only {known}")
        allowed = backup_fields(by_label[label])
        rows = rows_by_label[label]
        for row in table["rows"]:
            _check_row(path, label, len(rows) + 1, row, allowed)
            rows.append(_current_values(label, row))
    subscriptions_to_leagues(rows_by_label)
    rulings_to_leagues(rows_by_label)
    seasons_read_as_their_leagues(rows_by_label)
    check_leagues(path, ordered, rows_by_label)
    return rows_by_label


def _current_values(label: str, row: dict[str, Any]) -> dict[str, Any]:
    """The row with each legacy value of its fields mapped to today's (`LEGACY_VALUES`)."""
    fields = dict(row["fields"])
    for (table, field), mapping in LEGACY_VALUES.items():
        value = fields.get(field)
        if table == label and isinstance(value, str) and value in mapping:
            fields[field] = mapping[value]
    return {**row, "fields": fields}


def _check_row(path: Path, label: str, number: int, row: object, allowed: frozenset[str]) -> None:
    where = f"{path}: {label} row {number}"
    if not isinstance(row, dict) or set(row) != ROW_KEYS:
        raise BackupError(f'{where} is not a {{"pk", "fields"}} object')
    pk, fields = row["pk"], row["fields"]
    if type(pk) is not int or pk < 1:
        raise BackupError(f"{where}: pk {pk!r} is not a positive whole number")
    if not isinstance(fields, dict):
        raise BackupError(f'{where} (pk {pk}): "fields" is not an object')
    unknown = sorted(set(fields) - allowed)
    if unknown:
        raise BackupError(
            f"{where} (pk {pk}): unknown field {unknown[0]!r}; `flipwell backup` writes only "
            f"{', '.join(sorted(allowed))}"
        )


def _check_migrations(path: Path, document: Mapping[str, Any]) -> None:
    migrations = document.get("migrations", {})
    wanted = set(migrations.get(APP_LABEL, [])) if isinstance(migrations, dict) else set()
    missing = sorted(wanted - set(applied_migrations()))
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
            for item in serializers.deserialize("python", ({"model": label, **r} for r in rows))
        ]
    except (DeserializationError, TypeError, ValueError) as error:
        raise BackupError(f"{path}: a {label} row is malformed ({error})") from error
    _check_values(path, label, objects)
    try:
        with transaction.atomic():
            model._default_manager.bulk_create(objects)
    except DatabaseError as error:
        raise BackupError(
            f"{path}: the {label} rows do not fit this database ({error}); nothing was restored"
        ) from error


def _check_values(path: Path, label: str, objects: list[models.Model]) -> None:
    """Each row's values as its model's fields allow them (choices, lengths, validators);
    references are checked by the database (`_check_references`), not here row by row."""
    for obj in objects:
        _check_text(path, label, obj)
        relations = [f.name for f in obj._meta.concrete_fields if f.is_relation]
        try:
            obj.clean_fields(exclude=relations)
        except ValidationError as error:
            field, messages = next(iter(error.message_dict.items()))
            raise BackupError(
                f"{path}: {label} row pk {obj.pk}, field {field!r}: {' '.join(messages)}"
            ) from error


def _check_text(path: Path, label: str, obj: models.Model) -> None:
    """No text of the row holds NUL or another control character (a tab and a line break
    aside): no form or API write lets one through."""
    for field in obj._meta.concrete_fields:
        value = getattr(obj, field.attname)
        if isinstance(field, models.CharField | models.TextField) and isinstance(value, str):
            bad = next((c for c in value if control_character(c)), None)
            if bad is not None:
                raise BackupError(
                    f"{path}: {label} row pk {obj.pk}, field {field.name!r}: holds the control "
                    f"character U+{ord(bad):04X}, which no text flipwell stores may hold; "
                    "nothing was restored"
                )


def _check_references(path: Path) -> None:
    """Every foreign key of the restored rows names a restored row (checked now, not at
    commit, so the refusal is a BackupError)."""
    try:
        connection.check_constraints()
    except IntegrityError as error:
        raise BackupError(
            f"{path}: a row refers to a row the backup does not hold ({error}); nothing was "
            "restored"
        ) from error


def _check_seasons_fold(path: Path) -> None:
    """Fold every restored season: facts the rules reject would make its pages fail."""
    for season in m.Season.objects.select_related("league").order_by("pk"):
        try:
            check_facts_fold(season)  # the restored facts, whatever this process remembers
        except ValidationError as error:
            raise BackupError(
                f"{path}: the season {season.name!r} of {season.league.name!r} does not add "
                f"up under the rules ({' '.join(error.messages)}); nothing was restored"
            ) from error


def _reset_sequences(ordered: list[type[models.Model]]) -> None:
    """Move each id sequence past the restored ids (PostgreSQL; SQLite does this itself)."""
    statements = connection.ops.sequence_reset_sql(no_style(), ordered)
    if statements:
        with connection.cursor() as cursor:
            for statement in statements:
                cursor.execute(statement)
