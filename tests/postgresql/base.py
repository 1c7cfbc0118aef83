"""Django's PostgreSQL backend for the test run, with a cheaper flush.

A transactional test (``transactional_db``, the live servers, the backups' restores) ends with
Django's ``flush``: one ``TRUNCATE`` of every table, about 0.6 s on PostgreSQL for flipwell's
79 tables, because TRUNCATE gives each table and each of its indexes a new file whether it
held rows or not. A test leaves rows in a few tables, so this flush asks first which tables
hold any (one query) and deletes their rows, in one transaction with triggers off (the
``replica`` session role, which needs the superuser the test run connects as): the
database ends as empty as before.

With ``reset_sequences`` the flush is Django's own: an emptied table's id sequence may have
moved even when the table holds no row now.

tests/settings.py selects this backend when ``DATABASE_URL`` names PostgreSQL; the product
never does.
"""

from __future__ import annotations

from typing import Any

from django.db.backends.postgresql import base, operations


class DatabaseOperations(operations.DatabaseOperations):
    def sql_flush(
        self, style: Any, tables: Any, *, reset_sequences: bool = False, allow_cascade: bool = False
    ) -> list[str]:
        if reset_sequences:
            return super().sql_flush(
                style, tables, reset_sequences=reset_sequences, allow_cascade=allow_cascade
            )
        holding = self._holding_rows(tables)
        if not holding:
            return []
        # Django runs these in one transaction (`execute_sql_flush`). The replica role fires no
        # trigger: neither the foreign keys' checks (every table is emptied, in any order) nor
        # the append-only triggers, which TRUNCATE does not fire either.
        return [
            "SET LOCAL session_replication_role = replica",
            *(f"DELETE FROM {self.quote_name(name)}" for name in holding),
        ]

    def _holding_rows(self, tables: Any) -> list[str]:
        """The tables among `tables` that hold at least one row."""
        names = sorted(tables)
        if not names:
            return []
        probes = " UNION ALL ".join(
            f"SELECT {index} WHERE EXISTS (SELECT 1 FROM {self.quote_name(name)})"
            for index, name in enumerate(names)
        )
        with self.connection.cursor() as cursor:
            cursor.execute(probes)
            return [names[index] for (index,) in cursor.fetchall()]


class DatabaseWrapper(base.DatabaseWrapper):
    ops_class = DatabaseOperations
