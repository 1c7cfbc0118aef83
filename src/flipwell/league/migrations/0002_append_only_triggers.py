"""Database triggers that refuse any UPDATE of ledger entries and audit events.

The ledger (§9, STYLE 6) and the audit log are append-only: a correction is a new row. Both
SQLite and PostgreSQL raise an integrity error, which Django reports as ``IntegrityError``.

Caution: on SQLite, Django rebuilds a table for most later ALTERs, which drops its triggers. A
migration that alters either table must re-run ``create_triggers``; the tests that try an
update on each table fail if it does not.
"""

from __future__ import annotations

from typing import Any

from django.db import migrations

TABLES = ("league_ledgerentry", "league_auditevent")
MESSAGE = "rows of this table are append-only; insert a new row (a reversal) instead"

POSTGRES_FUNCTION = f"""
CREATE OR REPLACE FUNCTION flipwell_refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION '%: {MESSAGE}', TG_TABLE_NAME USING ERRCODE = 'integrity_constraint_violation';
END;
$$
"""


def _statements(vendor: str, table: str) -> list[str]:
    trigger = f"{table}_no_update"
    if vendor == "sqlite":
        return [
            f"CREATE TRIGGER {trigger} BEFORE UPDATE ON {table} "
            f"BEGIN SELECT RAISE(ABORT, '{table}: {MESSAGE}'); END"
        ]
    if vendor == "postgresql":
        return [
            f"CREATE TRIGGER {trigger} BEFORE UPDATE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION flipwell_refuse_update()"
        ]
    raise RuntimeError(f"no append-only trigger for database vendor {vendor!r}")


def create_triggers(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    if vendor == "postgresql":
        # No parameters: psycopg then leaves the % of RAISE's format string alone.
        schema_editor.execute(POSTGRES_FUNCTION, params=None)
    for table in TABLES:
        for statement in _statements(vendor, table):
            schema_editor.execute(statement)


def drop_triggers(apps: Any, schema_editor: Any) -> None:
    vendor = schema_editor.connection.vendor
    for table in TABLES:
        if vendor == "postgresql":
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_update ON {table}")
        else:
            schema_editor.execute(f"DROP TRIGGER IF EXISTS {table}_no_update")
    if vendor == "postgresql":
        schema_editor.execute("DROP FUNCTION IF EXISTS flipwell_refuse_update()")


class Migration(migrations.Migration):
    dependencies = [("league", "0001_initial")]

    operations = [migrations.RunPython(create_triggers, drop_triggers)]
