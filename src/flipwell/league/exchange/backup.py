"""Backing up every league's facts to one JSON file, and restoring it into an empty database.

Words:
- *backup file*: a JSON object ``{"format": "flipwell-backup", "format_version": 1,
  "created_at", "migrations": {"league": [...]}, "tables": [{"model", "rows"}], "checksum"}``.
  Each table is one model (``"league.game"``); each row is ``{"pk", "fields"}`` as Django's
  Python serializer writes it, with datetimes in full ISO 8601 (microseconds kept).
- *checksum*: ``"sha256:"`` and the SHA-256 (hex) of the *canonical JSON* of every other key
  of the file (keys sorted, no spaces, UTF-8). It finds damage (a truncated copy, a flipped
  bit), not tampering: anybody who edits the file can compute it again. A restore refuses a
  file whose checksum is missing or does not match unless told not to verify it
  (``flipwell restore --no-verify FILE``); backups written before checksums existed restore
  that way.
- *signature*: ``"hmac-sha256:"`` and an HMAC-SHA256 of the canonical JSON of every key but
  the checksum and the signature, keyed by this installation's ``SECRET_KEY`` (Django's
  ``salted_hmac``, salt `SIGNATURE_SALT`; a key in ``SECRET_KEY_FALLBACKS`` verifies too, so
  rotating the key keeps old backups restorable). It proves that this installation wrote the
  file and that nothing in it changed since: someone who edits a ledger amount and computes
  the checksum again cannot compute the signature without the secret key. It proves nothing
  about a file another installation wrote (its key is another): such a file, or one made
  before backups were signed, restores only with ``--trust-unsigned``, which prints what the
  file holds and a warning. Whoever knows the secret key (the server's operator) can sign
  anything; the signature guards the file, not the server.
- *depth*: a backup's JSON is a few levels deep (an audit event's data a few more); a file
  nested deeper than `MAX_DEPTH` is refused before it is read into rows.
- *the tables*: every model of the league app (the stored facts, with their revisions; the
  stored folds, `DerivedResult`, are derived and left out: computed again when read) and
  ``auth.user`` for the *people who act*: the league officials, and every other account a
  fact names (who recorded a score, who made a ruling), so that every reference holds after
  a restore. Of an account only the username, names,
  email and password hash are kept: never permissions, staff or superuser flags, sessions.
  API tokens (`ApiToken`, a league model) are not backed up either, not even their hashes:
  after a restore every token is gone, and the officials issue new ones in the console.
  Nor is the e-mail queue (`Notice`): a restored notice would be sent again. The players'
  choices of notices (`NoticeSubscription`) are kept. Nor are the writes' idempotency keys
  (`IdempotencyKey`): they expire within a day and name tokens that a restore drops.
- *dependency order*: the models sorted so that every model comes after the models its foreign
  keys point to (computed from the models themselves, so a new model needs no list edited).
  Restoring in this order means every referenced row exists when a row is inserted.
- *empty database*: migrated, with no account and no row in any league table.
- *legacy values*: values an older flipwell stored in a field that now stores others (a special
  ruling's kind "major", before migration 0013, is "major_malfunction" now); a restore maps
  them to today's, so an older backup still restores. Likewise a notice subscription of a
  backup made before subscriptions belonged to a league (league migration 0018) is given its
  league as migration 0019 gives a stored one (`_subscriptions_to_leagues`), and a special
  ruling of a backup made before rulings belonged to a league (league migration 0031) is
  given its league as that migration gives a stored one (`_rulings_to_leagues`).

Restoring only inserts (``bulk_create`` with the stored primary keys), never updates or
deletes: the append-only triggers on the ledger and the audit log (migrations 0002, 0009) stay
satisfied. It trusts no row, signed or not: each must be a row `backup` writes (a known table,
``pk`` and ``fields`` only, no field `backup` does not write, so no superuser flag), with
values its model accepts (the validators the services' writes run, `flipwell.league.validators`)
and no text holding NUL or another control character (a tab and a line break aside); each
row of a league stays in its league as a write keeps it (`_check_leagues`: every reference
of a league's row reaches a row of the same league, and every player it names is one of the
league's players); then every restored season is folded by the rules, inside the restore's
transaction, so a file that would restore into a league whose pages fail is refused whole.
"""

from __future__ import annotations

import datetime
import decimal
import hashlib
import json
import re
import uuid
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from django.apps import apps
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import serializers
from django.core.exceptions import ValidationError
from django.core.management.color import no_style
from django.core.serializers.base import DeserializationError
from django.db import DatabaseError, IntegrityError, connection, models, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.utils import timezone
from django.utils.crypto import constant_time_compare, salted_hmac

from flipwell.league import enums
from flipwell.league import models as m
from flipwell.league.caches import forget
from flipwell.league.exchange.files import write_atomically
from flipwell.league.exchange.progress import Progress, Stream
from flipwell.league.selectors.season_folds import check_facts_fold
from flipwell.league.validators import control_character
from flipwell.rules.special_rulings import title_key

FORMAT = "flipwell-backup"
FORMAT_VERSION = 1
APP_LABEL = "league"
USER_FIELDS = ("username", "first_name", "last_name", "email", "password")
BATCH_SIZE = 500
CHECKSUM_PREFIX = "sha256:"
SIGNATURE_PREFIX = "hmac-sha256:"
SIGNATURE_SALT = "flipwell.league.exchange.backup"
"""The HMAC's salt: a key derived for backups only, never one that signs cookies or links."""
MAX_DEPTH = 64
"""The deepest nesting of JSON a backup file may have (see *depth*)."""
JSON_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
JSON_BRACKET = re.compile(r"[\[\]{}]")
ROW_KEYS = frozenset({"pk", "fields"})
NOT_BACKED_UP: frozenset[str] = frozenset(
    {"league.apitoken", "league.derivedresult", "league.idempotencykey", "league.notice"}
)
"""League models whose rows a backup leaves out (see the module docstring)."""
LEGACY_VALUES: Mapping[tuple[str, str], Mapping[str, str]] = {
    ("league.specialruling", "kind"): enums.LEGACY_SPECIAL_RULING_KINDS,
}
"""(table, field) -> {value an older flipwell stored: today's value} (see *legacy values*)."""


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
    league_models = _league_models()
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


def _league_models() -> list[type[models.Model]]:
    """The league app's models that a backup holds, in the app's own order."""
    found = apps.get_app_config(APP_LABEL).get_models()
    return [model for model in found if model._meta.label_lower not in NOT_BACKED_UP]


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
    for model in _league_models():
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


def backup_checksum(document: Mapping[str, Any]) -> str:
    """The checksum of a backup document: SHA-256 of the canonical JSON of every key but
    ``"checksum"`` (see the module docstring)."""
    content = _canonical(document, leave_out=frozenset({"checksum"}))
    return CHECKSUM_PREFIX + hashlib.sha256(content).hexdigest()


def _canonical(document: Mapping[str, Any], *, leave_out: frozenset[str]) -> bytes:
    content = {key: value for key, value in document.items() if key not in leave_out}
    text = json.dumps(content, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return text.encode("utf-8")


def backup_signature(document: Mapping[str, Any], *, secret: str | bytes | None = None) -> str:
    """The signature of a backup document with this installation's key (or `secret`): an
    HMAC-SHA256 of the canonical JSON of every key but the checksum and the signature (see
    the module docstring)."""
    content = _canonical(document, leave_out=frozenset({"checksum", "signature"}))
    mac = salted_hmac(SIGNATURE_SALT, content, secret=secret, algorithm="sha256")
    return SIGNATURE_PREFIX + mac.hexdigest()


def seal(document: Mapping[str, Any]) -> dict[str, Any]:
    """The document signed by this installation, then checksummed (the checksum covers the
    signature), as `write_backup` writes it."""
    signed = {key: value for key, value in document.items() if key != "checksum"}
    signed["signature"] = backup_signature(signed)
    signed["checksum"] = backup_checksum(signed)
    return signed


def _applied_migrations() -> list[str]:
    applied = MigrationRecorder(connection).applied_migrations()
    return sorted(name for app, name in applied if app == APP_LABEL)


def read_backup(path: Path, *, verify: bool = True, trust_unsigned: bool = False) -> dict[str, Any]:
    """The parsed backup file at `path`, checked to be a flipwell backup this version reads
    and, when `verify`, to carry a checksum that matches its content and, unless
    `trust_unsigned`, this installation's signature (`unsigned_reason` says what is wrong)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise BackupError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise BackupError(f"{path}: cannot read it ({error})") from error
    deepest = json_depth(text)
    if deepest > MAX_DEPTH:
        raise BackupError(
            f"{path} is not a flipwell backup: its JSON is nested {deepest} levels deep, and a "
            f"backup is at most {MAX_DEPTH} (the file is damaged or was made to break readers)"
        )
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise BackupError(f"{path}: not valid JSON ({error})") from error
    except RecursionError as error:  # within MAX_DEPTH on a shallow stack only
        raise BackupError(f"{path}: nested too deeply to read") from error
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
    if verify:
        _check_checksum(path, document)
        if not trust_unsigned:
            reason = unsigned_reason(path, document)
            if reason:
                raise BackupError(
                    f"{reason} Restore a backup this installation made; only if you trust this "
                    f"file (you made it on another installation of yours), `flipwell restore "
                    f"--trust-unsigned {path}` restores it and shows what it holds."
                )
    return document


def json_depth(text: str) -> int:
    """How deeply the JSON `text` nests arrays and objects (brackets outside strings), found
    without recursion: the check that runs before a parser that recurses."""
    depth = deepest = 0
    for bracket in JSON_BRACKET.findall(JSON_STRING.sub("", text)):
        depth += 1 if bracket in "[{" else -1
        deepest = max(deepest, depth)
    return deepest


def unsigned_reason(path: Path, document: Mapping[str, Any]) -> str:
    """Why this installation's signature does not vouch for the document ("" when it does)."""
    stored = document.get("signature")
    if stored is None:
        return (
            f"{path} is not signed, so flipwell cannot tell that this installation made it and "
            "that nobody changed it (backups made before flipwell signed them have no "
            "signature)."
        )
    secrets = [settings.SECRET_KEY, *settings.SECRET_KEY_FALLBACKS]
    if not isinstance(stored, str) or not any(
        constant_time_compare(stored, backup_signature(document, secret=secret))
        for secret in secrets
    ):
        return (
            f"{path} is not signed by this installation: another flipwell (with another "
            "SECRET_KEY) made it, or someone changed it after `flipwell backup` wrote it and "
            "computed its checksum again."
        )
    return ""


def backup_contents(document: Mapping[str, Any]) -> list[str]:
    """What a backup holds, a line per league (its seasons, players entered, meets and ledger
    by kind), read from the document before anything is restored: what a restore would add."""
    rows = {
        table["model"]: [row for row in table["rows"] if isinstance(row, dict)]
        for table in document.get("tables", [])
    }

    def fields(row: Mapping[str, Any]) -> Mapping[str, Any]:
        value = row.get("fields")
        return value if isinstance(value, dict) else {}

    def ref(value: object) -> int | str | None:
        """A pk or a reference as a key; the rows are not checked yet, so it may be anything."""
        return value if isinstance(value, int | str) else None

    season_league = {
        ref(r.get("pk")): ref(fields(r).get("league")) for r in rows.get("league.season", [])
    }
    counts: dict[object, Counter[str]] = defaultdict(Counter)
    for label, word in (("league.seasonentry", "players"), ("league.meet", "meets")):
        for row in rows.get(label, []):
            counts[season_league.get(ref(fields(row).get("season")))][word] += 1
    for owner in season_league.values():
        counts[owner]["seasons"] += 1
    money: dict[object, Counter[str]] = defaultdict(Counter)
    for row in rows.get("league.ledgerentry", []):
        entry = fields(row)
        amount = entry.get("amount_cents")
        counts[ref(entry.get("league"))]["ledger entries"] += 1
        if isinstance(amount, int):
            money[ref(entry.get("league"))][str(entry.get("kind"))[:20]] += amount
    lines = []
    for league in rows.get("league.league", []):
        about = fields(league)
        held = counts[ref(league.get("pk"))]
        words = ", ".join(
            f"{held[word]} {word}" for word in ("seasons", "players", "meets", "ledger entries")
        )
        ledger = "; ".join(
            f"{kind} {cents / 100:,.2f}"
            for kind, cents in sorted(money[ref(league.get("pk"))].items())
        )
        lines.append(
            f"League “{str(about.get('name'))[:80]}” ({str(about.get('slug'))[:60]}): {words}"
            + (f" (in all: {ledger})" if ledger else "")
        )
    return lines


def _check_checksum(path: Path, document: Mapping[str, Any]) -> None:
    stored = document.get("checksum")
    if stored is None:
        raise BackupError(
            f"{path} has no checksum, so flipwell cannot tell whether it is complete and "
            "unchanged (backups made before flipwell wrote checksums have none). If you trust "
            f"the file, restore it with `flipwell restore --no-verify {path}`; every row is "
            "still checked."
        )
    if stored != backup_checksum(document):
        raise BackupError(
            f"{path} does not match its checksum: the file is damaged or was edited after "
            "`flipwell backup` wrote it. Restore an undamaged copy; only if you changed it on "
            f"purpose, `flipwell restore --no-verify {path}` (every row is still checked)."
        )


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
    _subscriptions_to_leagues(rows_by_label)
    _rulings_to_leagues(rows_by_label)
    _seasons_read_as_their_leagues(rows_by_label)
    _check_leagues(path, ordered, rows_by_label)
    return rows_by_label


def _relations(model: type[models.Model]) -> list[tuple[str, str]]:
    """(field, label of the model it points to) of each foreign key of `model`."""
    return [
        (f.name, f.related_model._meta.label_lower)
        for f in model._meta.concrete_fields
        if f.is_relation and isinstance(f.related_model, type)
    ]


def _check_leagues(
    path: Path, ordered: list[type[models.Model]], rows_by_label: dict[str, list[dict[str, Any]]]
) -> None:
    """Refuse a row whose references reach two leagues (a league-B ledger entry on league A's
    season), or that names a player who is not one of its league's (entered in one of its
    seasons, or one person with such a row): no write of the services stores either.

    A row's league is the league its references reach (a ``league`` key, or a row of a model
    that has one); a row that reaches none (a player, an account) belongs to no league.
    """
    league_of: dict[str, dict[int, int | None]] = {}
    players = _league_players(rows_by_label)
    for model in ordered:
        label = model._meta.label_lower
        relations = _relations(model)
        rows = list(enumerate(rows_by_label.get(label, []), start=1))
        # A row's league from the tables before it, then checked again with its own table's
        # (a reversing ledger entry names the entry it reverses).
        league_of[label] = {
            row["pk"]: _row_league(path, label, n, row, relations, league_of) for n, row in rows
        }
        named = [name for name, target in relations if target == "league.player"]
        for number, row in rows:
            league = league_of[label][row["pk"]]
            if league is None:
                continue
            _row_league(path, label, number, row, relations, league_of)
            if label == "league.seasonentry":
                continue  # an entry is what makes a player the league's
            for player in (row["fields"].get(name) for name in named):
                if player is not None and player not in players.get(league, set()):
                    raise BackupError(
                        f"{path}: {label} row {number} (pk {row['pk']}) of league {league} names "
                        f"player {player}, who is not a player of that league (entered in none "
                        "of its seasons); nothing was restored"
                    )


def _row_league(
    path: Path,
    label: str,
    number: int,
    row: Mapping[str, Any],
    relations: list[tuple[str, str]],
    league_of: Mapping[str, Mapping[int, int | None]],
) -> int | None:
    """The league a row's references reach (None: none); BackupError when they reach two."""
    reached: dict[str, int] = {}
    for name, target in relations:
        value = row["fields"].get(name)
        if value is None:
            continue
        league = value if target == "league.league" else league_of.get(target, {}).get(value)
        if isinstance(league, int):
            reached[name] = league
    if len(set(reached.values())) > 1:
        named = ", ".join(f"{name} in league {league}" for name, league in reached.items())
        raise BackupError(
            f"{path}: {label} row {number} (pk {row['pk']}) crosses leagues ({named}): a row "
            "of one league may refer only to rows of the same league; nothing was restored"
        )
    return next(iter(reached.values()), None)


def _league_players(rows_by_label: Mapping[str, list[dict[str, Any]]]) -> dict[int, set[object]]:
    """Each league's players: the rows entered in one of its seasons, and every row of the
    same person (merged into one of them, or the row one of them is merged into)."""
    league_of_season = {
        row["pk"]: row["fields"].get("league") for row in rows_by_label.get("league.season", [])
    }
    person = {
        row["pk"]: row["fields"].get("merged_into") or row["pk"]
        for row in rows_by_label.get("league.player", [])
    }
    persons: dict[object, set[object]] = defaultdict(set)
    for row in rows_by_label.get("league.seasonentry", []):
        league = league_of_season.get(row["fields"].get("season"))
        player = row["fields"].get("player")
        persons[league].add(person.get(player, player))
    players: dict[int, set[object]] = {}
    for league, kept in persons.items():
        if isinstance(league, int):
            players[league] = {pk for pk, who in person.items() if who in kept}
    return players


def _seasons_read_as_their_leagues(rows_by_label: dict[str, list[dict[str, Any]]]) -> None:
    """Give each season of an older backup (no ``ruleset_overrides``: it was folded under its
    league's readings) its league's readings, as league migration 0022 does. Changes
    `rows_by_label` in place."""
    readings = {
        row["pk"]: row["fields"].get("ruleset_overrides", {})
        for row in rows_by_label.get("league.league", [])
    }
    for row in rows_by_label.get("league.season", []):
        fields = row["fields"]
        if "ruleset_overrides" not in fields:
            row["fields"] = {**fields, "ruleset_overrides": readings.get(fields.get("league"), {})}


def _subscriptions_to_leagues(rows_by_label: dict[str, list[dict[str, Any]]]) -> None:
    """Give each notice subscription of an older backup (no ``league``) its league, as league
    migration 0019 does (see its docstring): the league whose official last set the address,
    else that of the personal link carrying it, else a copy to each league the player is
    entered in; a player entered nowhere loses it. Changes `rows_by_label` in place."""
    subscriptions = rows_by_label.get("league.noticesubscription", [])
    if all("league" in row["fields"] for row in subscriptions):
        return
    league_of_season = {
        row["pk"]: row["fields"].get("league") for row in rows_by_label.get("league.season", [])
    }
    entered: dict[object, set[int]] = {}
    for row in rows_by_label.get("league.seasonentry", []):
        league = league_of_season.get(row["fields"].get("season"))
        if isinstance(league, int):
            entered.setdefault(row["fields"].get("player"), set()).add(league)
    set_by: dict[str, tuple[str, int, int]] = {}  # player id -> (when, pk, league)
    for row in rows_by_label.get("league.auditevent", []):
        fields = row["fields"]
        data = fields.get("data")
        if (
            fields.get("action") == "notices.preferences_set"
            and fields.get("object_type") == "league.Player"
            and isinstance(fields.get("league"), int)
            and isinstance(data, dict)
            and data.get("email_given") is True
        ):
            mark = (str(fields.get("created_at")), row["pk"], fields["league"])
            key = str(fields.get("object_id"))
            set_by[key] = max(set_by.get(key, mark), mark)
    linked: dict[tuple[object, str], tuple[str, int, int]] = {}
    for row in rows_by_label.get("league.playerlink", []):
        fields = row["fields"]
        league = league_of_season.get(fields.get("season"))
        if isinstance(league, int) and fields.get("email"):
            mark = (str(fields.get("created_at")), row["pk"], league)
            address = (fields.get("player"), str(fields["email"]).casefold())
            linked[address] = max(linked.get(address, mark), mark)
    next_pk = max((row["pk"] for row in subscriptions), default=0) + 1
    placed: list[dict[str, Any]] = []
    for row in subscriptions:
        fields = row["fields"]
        if "league" in fields:
            placed.append(row)
            continue
        player = fields.get("player")
        if str(player) in set_by:
            leagues = [set_by[str(player)][2]]
        elif (player, str(fields.get("email", "")).casefold()) in linked:
            leagues = [linked[(player, str(fields.get("email", "")).casefold())][2]]
        else:
            leagues = sorted(entered.get(player, set()))
        for number, league in enumerate(leagues):
            pk = row["pk"] if number == 0 else next_pk
            next_pk += number > 0
            placed.append({"pk": pk, "fields": {**fields, "league": league}})
    rows_by_label["league.noticesubscription"] = placed


def _rulings_to_leagues(rows_by_label: dict[str, list[dict[str, Any]]]) -> None:
    """Give each special ruling of an older backup (no ``league``) its league, as league
    migration 0031 does (see its docstring): the league of the audit event that recorded it,
    else a copy to each league with a machine of that title, else it is dropped. Changes
    `rows_by_label` in place."""
    rulings = rows_by_label.get("league.specialruling", [])
    if all("league" in row["fields"] for row in rulings):
        return
    recorded: dict[str, int] = {}
    for row in rows_by_label.get("league.auditevent", []):
        fields = row["fields"]
        if (
            fields.get("action") in ("special_ruling.added", "special_ruling.amended")
            and fields.get("object_type") == "league.SpecialRuling"
            and isinstance(fields.get("league"), int)
        ):
            recorded[str(fields.get("object_id"))] = fields["league"]
    by_title: dict[str, list[int]] = {}
    for row in sorted(rows_by_label.get("league.machine", []), key=lambda r: r["pk"]):
        league = row["fields"].get("league")
        leagues = by_title.setdefault(title_key(str(row["fields"].get("title", ""))), [])
        if isinstance(league, int) and league not in leagues:
            leagues.append(league)
    next_pk = max((row["pk"] for row in rulings), default=0) + 1
    placed: list[dict[str, Any]] = []
    for row in rulings:
        fields = row["fields"]
        if "league" in fields:
            placed.append(row)
            continue
        if str(row["pk"]) in recorded:
            leagues = [recorded[str(row["pk"])]]
        else:
            leagues = sorted(by_title.get(title_key(str(fields.get("machine_title", ""))), []))
        for number, league in enumerate(leagues):
            pk = row["pk"] if number == 0 else next_pk
            next_pk += number > 0
            placed.append({"pk": pk, "fields": {**fields, "league": league}})
    rows_by_label["league.specialruling"] = placed


def _current_values(label: str, row: dict[str, Any]) -> dict[str, Any]:
    """The row with each legacy value of its fields mapped to today's (`LEGACY_VALUES`)."""
    fields = dict(row["fields"])
    for (table, field), mapping in LEGACY_VALUES.items():
        value = fields.get(field)
        if table == label and isinstance(value, str) and value in mapping:
            fields[field] = mapping[value]
    return {**row, "fields": fields}


def backup_fields(model: type[models.Model]) -> frozenset[str]:
    """The fields `backup` writes of a model's rows (besides the primary key)."""
    if model is get_user_model():
        return frozenset(USER_FIELDS)
    meta = model._meta  # as Django's serializer: every local field but the key, and m2m
    fields = [f.name for f in meta.local_fields if not f.primary_key]
    return frozenset([*fields, *(f.name for f in meta.local_many_to_many)])


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
