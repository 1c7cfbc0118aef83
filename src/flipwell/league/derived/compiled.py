"""ORM queries compiled to SQL once per process and database engine, then run directly.

Compiling a query (Django's SQL compiler: joins, lookups, quoting) costs a read or a write
more than PostgreSQL takes to run the small queries they make: two thirds of a remembered
page's time went to compiling its revision lookup, and most of a season's facts' time to
compiling their dozen queries. A query that every page view or score entry runs
is written with the ORM once, as a function of its one parameter (an id, or a slug),
compiled with a stand-in for that parameter the first time this process runs it on an
engine, and from then on executed with each call's value.

Rows are what the database driver gives: no model instances and no field conversion. A
boolean column is 0 or 1 on SQLite (read it with `flag`); ints, strings and NULLs are the
same on both engines.

Several queries of one value can be run together (`rows_together`): on PostgreSQL they are
sent at once, in psycopg's pipeline mode, and their answers read back in one round trip,
instead of a dozen waits for the server, each while a score entry holds its season's lock
(`flipwell.league.services._edge.season_changed`).
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any, TypeVar

import psycopg
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.models import QuerySet

K = TypeVar("K")
_QMARK = re.compile(r"(?<!%)%s")
"""A ``%s`` parameter mark of Django's SQL (not an escaped ``%%s``), as Django's SQLite
backend finds it."""
Rows = Mapping[str, list[Any]]
"""Each query's rows, by its key (what `rows_together` gives for queries keyed by name)."""

STAND_IN = -4_170_000_001
"""The parameter a query is compiled with: a value no id has, found again in its SQL's
parameters (as an int, or as the text a CharField lookup turns it into). A query of several
parameters names a stand-in for each (`CompiledQuery`'s `stand_ins`), each within its
column's range: Django drops a comparison with a value the column cannot hold."""


Value = int | str | tuple[int | str, ...]
"""A query's parameter, or its parameters in order (a tuple) when it has several."""


class CompiledQuery:
    """An ORM query of one parameter (or several: one `stand_ins` each), compiled once per
    database engine and run directly."""

    def __init__(
        self, build: Callable[..., QuerySet[Any, Any]], *, stand_ins: tuple[int, ...] = (STAND_IN,)
    ) -> None:
        self._build = build
        self._stand_ins = stand_ins
        self._compiled: dict[str, Compiled] = {}
        _EVERY.append(self)

    def rows(self, value: Value) -> list[tuple[Any, ...]]:
        """Every row of the query for `value`, as tuples of the selected columns.

        Run on the driver's own cursor, past Django's wrappers (a revision lookup's time
        went half to them, on every page a viewer polls), with Django's connection checks and
        error classes; while Django logs queries (``DEBUG``, the tests' query counts) it goes
        through Django's cursor, which logs it."""
        db = connections[DEFAULT_DB_ALIAS]  # once: each use of `connection` looks it up
        compiled = self._for(db.vendor)
        sql, params = compiled.sql, compiled.parameters(value)
        if db.queries_logged:
            with db.cursor() as logged:
                logged.execute(sql, params)
                return list(logged.fetchall())
        db.close_if_health_check_failed()
        db.ensure_connection()
        with db.wrap_database_errors:
            cursor = db.connection.cursor()
            try:
                cursor.execute(compiled.driver_sql, params)
                return list(cursor.fetchall())
            finally:
                cursor.close()

    def statement(self, value: Value) -> tuple[str, list[Any]]:
        """The query's SQL for this process's database engine, and its parameters for
        `value` (a tuple of values when the query has several)."""
        compiled = self._for(connection.vendor)
        return compiled.sql, compiled.parameters(value)

    def _for(self, vendor: str) -> Compiled:
        found = self._compiled.get(vendor)
        if found is None:  # two threads may both compile: the same SQL either way
            stand_ins = self._stand_ins
            sql, params = self._build(*stand_ins).query.sql_with_params()
            slots = tuple(
                (i, index)
                for i, p in enumerate(params)
                for index, stand_in in enumerate(stand_ins)
                if p in (stand_in, str(stand_in))
            )
            if not slots:
                raise AssertionError(f"compiled query has no parameter to fill: {sql}")
            found = self._compiled[vendor] = Compiled(
                vendor, str(sql), len(stand_ins), tuple(params), slots
            )
        return found


@dataclass(frozen=True)
class Compiled:
    """One query compiled for one engine: its SQL (Django's ``%s`` marks), how many values a
    call gives, the parameters it was compiled with, and the places (`slots`: parameter
    index, value index) each call's values go."""

    vendor: str
    sql: str
    arity: int
    stand_in_parameters: tuple[Any, ...]
    slots: tuple[tuple[int, int], ...]

    @cached_property
    def driver_sql(self) -> str:
        """The SQL as the driver takes it: SQLite's marks are ``?`` (Django's cursor
        translates its ``%s`` on every call; here once)."""
        if self.vendor != "sqlite":
            return self.sql
        return _QMARK.sub("?", self.sql).replace("%%", "%")

    def parameters(self, value: Value) -> list[Any]:
        """The parameters for `value` (a tuple of values when the query has several)."""
        given = value if isinstance(value, tuple) else (value,)
        if len(given) != self.arity:
            raise TypeError(f"this query takes {self.arity} parameters, not {len(given)}")
        values = list(self.stand_in_parameters)
        for slot, index in self.slots:
            values[slot] = given[index]
        return values


_EVERY: list[CompiledQuery] = []


def rows_together(queries: Mapping[K, CompiledQuery], value: Value) -> dict[K, list[Any]]:
    """Every query's rows for `value`, by key: on PostgreSQL sent together and answered in
    one round trip (pipeline mode), one after the other elsewhere (SQLite has no server to
    wait for). Django's query log (``connection.queries``, the tests' query counts) lists
    each of them, as it would have."""
    if connection.vendor != "postgresql":
        return {key: query.rows(value) for key, query in queries.items()}
    statements = {key: query.statement(value) for key, query in queries.items()}
    connection.ensure_connection()
    raw = connection.connection
    started = time.monotonic()
    with connection.wrap_database_errors:
        cursors = {}
        with raw.pipeline():  # sends each statement now; reads every answer on leaving
            for key, (sql, params) in statements.items():
                # A server-binding cursor: the pipeline needs PostgreSQL's extended protocol,
                # which Django's default client-binding cursors do not speak. Never prepared:
                # a pooler between (PgBouncer) may give each statement another connection.
                cursor = cursors[key] = psycopg.Cursor(raw)
                cursor.execute(sql, params, prepare=False)
        found = {key: cursor.fetchall() for key, cursor in cursors.items()}
    if connection.queries_logged:
        each = (time.monotonic() - started) / max(1, len(statements))
        connection.queries_log.extend(
            {"sql": sql, "time": f"{each:.3f}"} for sql, _ in statements.values()
        )
    return found


def compile_every_query() -> int:
    """Compile every `CompiledQuery` of the modules loaded so far for this process's database
    engine, without connecting to it; how many. A server's worker does it before its first
    request (`flipwell.wsgi`), so no score entry waits for it."""
    for query in _EVERY:
        query._for(connection.vendor)
    return len(_EVERY)


def flag(value: object) -> bool | None:
    """A boolean column's value (SQLite gives 0 or 1), None for NULL."""
    return None if value is None else bool(value)
