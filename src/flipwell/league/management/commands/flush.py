"""`flush`: Django's own command, which empties every table, made to work with the
append-only triggers on SQLite.

On SQLite Django empties a table with ``DELETE FROM``, which the triggers of migration 0009
refuse on the ledger and the audit log. Emptying the whole database is not deleting a fact
(PostgreSQL's TRUNCATE, which Django uses there, fires no trigger either), so on SQLite this
command sets the *flush flag* (a row in ``flipwell_flushing``, see migration 0009) inside one
transaction around Django's flush and clears it before that transaction commits: no other
connection ever sees the flag, and a failed flush leaves nothing behind. Elsewhere it is
Django's command unchanged. pytest-django runs it between transactional tests.
"""

from __future__ import annotations

from typing import Any

from django.core.management.commands import flush
from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.utils import timezone

FLAG_TABLE = "flipwell_flushing"  # as migration 0009 creates it


class Command(flush.Command):
    def handle(self, **options: Any) -> None:
        alias = options.get("database") or DEFAULT_DB_ALIAS
        connection = connections[alias]
        if connection.vendor != "sqlite" or FLAG_TABLE not in _tables(alias):
            super().handle(**options)
            return
        with transaction.atomic(using=alias), connection.cursor() as cursor:
            cursor.execute(
                f"INSERT INTO {FLAG_TABLE} (started_at) VALUES (%s)", [timezone.now().isoformat()]
            )
            super().handle(**options)
            cursor.execute(f"DELETE FROM {FLAG_TABLE}")


def _tables(alias: str) -> list[str]:
    with connections[alias].cursor() as cursor:
        return list(connections[alias].introspection.table_names(cursor))
