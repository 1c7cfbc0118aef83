"""Fixtures of the live-server tests: a migrated database per test, a gunicorn serving it.

The suite runs once on SQLite and once on PostgreSQL (``DATABASE_URL``, `make test-postgres`);
these tests follow it: on PostgreSQL their databases live on the suite's server. They never
use pytest-django's test database: the server is another process with its own connections.
"""

from __future__ import annotations

import contextlib
import itertools
import os
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from django.db import connection, connections
from pytest_django import DjangoDbBlocker

from tests.chaos.live import (
    Database,
    LiveServer,
    copy_sqlite,
    postgres_execute,
    postgres_url,
)

_numbers = itertools.count(1)


def _suite_postgres_url() -> str:
    url = os.environ.get("DATABASE_URL", "").strip()
    return url if url.startswith(("postgres://", "postgresql://")) else ""


@pytest.fixture(scope="session")
def template_database(
    django_db_setup: None,
    django_db_blocker: DjangoDbBlocker,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Database]:
    """A copy of pytest-django's migrated, empty test database; `new_database` copies it.

    Migrating takes long; the suite has done it once already, so copying saves that time.
    """
    folder = tmp_path_factory.mktemp("chaos-template")
    suite_url = _suite_postgres_url()
    with django_db_blocker.unblock():
        if not suite_url:
            target = folder / "template.sqlite3"
            connection.ensure_connection()
            with contextlib.closing(sqlite3.connect(target)) as copy:
                connection.connection.backup(copy)
            yield Database(url=f"sqlite:///{target}", data_dir=folder)
            return
        source = connection.settings_dict["NAME"]  # test_<name>, with xdist's suffix if any
        name = f"{source}_chaos_template"
        connections.close_all()  # a template database must have no other session
        postgres_execute(suite_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        postgres_execute(suite_url, f'CREATE DATABASE "{name}" TEMPLATE "{source}"')
    yield Database(url=postgres_url(suite_url, name), data_dir=folder)
    postgres_execute(suite_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


NewDatabase = Callable[[], Database]


@pytest.fixture(scope="module")
def new_database(
    template_database: Database, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[NewDatabase]:
    """Makes fresh copies of the migrated template (dropped when the module ends)."""
    suite_url = _suite_postgres_url()
    made: list[str] = []

    def make() -> Database:
        folder = tmp_path_factory.mktemp("chaos")
        if not suite_url:
            target = folder / "flipwell.sqlite3"
            copy_sqlite(Path(template_database.url.removeprefix("sqlite:///")), target)
            return Database(url=f"sqlite:///{target}", data_dir=folder)
        template = template_database.url.rsplit("/", 1)[-1]
        name = template.replace("_template", f"_{next(_numbers)}")
        postgres_execute(suite_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        postgres_execute(suite_url, f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
        made.append(name)
        return Database(url=postgres_url(suite_url, name), data_dir=folder)

    yield make
    for name in made:
        postgres_execute(suite_url, f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


NewServer = Callable[[Database], LiveServer]


@pytest.fixture(scope="module")
def new_server() -> Iterator[NewServer]:
    """Starts gunicorn servers on a database; every one still running is killed at the end."""
    servers: list[LiveServer] = []

    def start(database: Database) -> LiveServer:
        server = LiveServer(database=database, log=database.data_dir / "gunicorn.log")
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.kill()
