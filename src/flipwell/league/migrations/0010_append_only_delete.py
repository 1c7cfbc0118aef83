"""Database triggers that refuse any DELETE of ledger entries and audit events.

Migration 0002 refuses an UPDATE of these rows; this one refuses a DELETE, so that the ledger
(§9, STYLE 6) and the audit log are append-only in full: a row, once written, stays as it was.
Both SQLite and PostgreSQL raise an integrity error (``IntegrityError`` in Django). Nothing in
flipwell deletes these rows: every foreign key to or from them is PROTECT, and a restore only
inserts, into an empty database.

Emptying the whole database (Django's ``flush``, which the tests run between transactional
tests) is not a deletion of facts. On PostgreSQL it is a TRUNCATE, which fires no DELETE
trigger. On SQLite it is a ``DELETE FROM`` each table, so there the trigger lets a delete
through while the *flush flag* table ``flipwell_flushing`` holds a row; only the league app's
``flush`` command (`flipwell.league.management.commands.flush`) writes one, inside the flush's
own transaction, and removes it before that transaction commits. The flag table is not a
model: it is neither flushed nor backed up.

Caution, as in 0002: on SQLite, Django rebuilds a table for most later ALTERs, which drops its
triggers. A migration that alters either table must re-run both migrations' ``create_triggers``;
the tests that try an update and a delete on each table fail if it does not.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

TABLES = ("league_ledgerentry", "league_auditevent")
FLAG_TABLE = "flipwell_flushing"
MESSAGE = "rows of this table are append-only and are never deleted"

POSTGRES_FUNCTION = f"""
CREATE OR REPLACE FUNCTION flipwell_refuse_delete() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '%: {MESSAGE}', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
END;
$$
"""


def _statements(vendor: str, table: str) -> list[str]:
    trigger = f"{table}_no_delete"
    if vendor == "sqlite":
        return [
            f"CREATE TRIGGER {trigger} BEFORE DELETE ON {table} "
            f"WHEN NOT EXISTS (SELECT 1 FROM {FLAG_TABLE}) "
            f"BEGIN SELECT RAISE(ABORT, '{table}: {MESSAGE}'); END"
        ]
    if vendor == "postgresql":
        return [
            f"CREATE TRIGGER {trigger} BEFORE DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION flipwell_refuse_delete()"
        ]
    raise RuntimeError(f"no append-only trigger for database vendor {vendor!r}")


def create_triggers(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        # No parameters: psycopg then leaves the % of RAISE's format string alone.
        schema_editor.execute(POSTGRES_FUNCTION, params=None)
    if vendor == "sqlite":
        schema_editor.execute(f"CREATE TABLE IF NOT EXISTS {FLAG_TABLE} (started_at TEXT NOT NULL)")
    for table in TABLES:
        for statement in _statements(vendor, table):
            schema_editor.execute(statement)


def drop_triggers(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    for table in TABLES:
        if vendor == "postgresql":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete ON {table}")
        else:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_delete")
    if vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS flipwell_refuse_delete()")
    else:
        schema_editor.execute(f"DROP TABLE IF EXISTS {FLAG_TABLE}")


class Migration(migrations.Migration):
    dependencies = [("league", "0009_idempotency_scope")]

    operations = [migrations.RunPython(create_triggers, drop_triggers)]
