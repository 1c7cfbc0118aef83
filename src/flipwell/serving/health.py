"""``/healthz``: whether this app server can serve flipwell, for load balancers and monitors.

Words:
- *healthy*: the database answers a query, and every migration the code knows is applied
  there (a server whose code is newer than its database must not get traffic).

The answer is JSON, without authentication, and cheap: one ``SELECT 1``; the migration check
reads the migration table only until it has once found everything applied, then never again
in this process (migrations are only ever added by deploying new code, which restarts it).
`HealthMiddleware` answers first, before any other middleware: for any ``Host`` header (a
load balancer probes by address, not by name: no ``ALLOWED_HOSTS`` entry needed), over plain
HTTP even with ``FLIPWELL_HTTPS`` (no redirect), with no session or cookie.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable

from django.db import DEFAULT_DB_ALIAS, DatabaseError, connections
from django.db.migrations.executor import MigrationExecutor
from django.http import HttpRequest, HttpResponse

PATH = "/healthz"
logger = logging.getLogger(__name__)
_migrations_applied = False


def unapplied_migrations(alias: str = DEFAULT_DB_ALIAS) -> list[str]:
    """The migrations the code has and the database lacks, as ``app.name``, in order."""
    executor = MigrationExecutor(connections[alias])
    plan = executor.migration_plan(executor.loader.graph.leaf_nodes())
    return [f"{migration.app_label}.{migration.name}" for migration, _backwards in plan]


def health() -> tuple[int, dict[str, object]]:
    """The HTTP status (200 healthy, 503 not) and the JSON body of ``/healthz``."""
    global _migrations_applied
    try:
        with connections[DEFAULT_DB_ALIAS].cursor() as cursor:
            cursor.execute("SELECT 1")
        missing = [] if _migrations_applied else unapplied_migrations()
    except DatabaseError:
        # The details (host names, addresses) go to the log, not to an anonymous visitor.
        logger.exception("health check: the database is unreachable")
        return 503, {"status": "error", "database": "unreachable"}
    if missing:
        return 503, {"status": "error", "database": "ok", "unapplied_migrations": missing}
    _migrations_applied = True
    return 200, {"status": "ok", "database": "ok", "migrations": "applied"}


class HealthMiddleware:
    """Answers ``GET /healthz`` itself (see the module docstring); passes on anything else."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if request.path_info != PATH:
            return self.get_response(request)
        status, body = health()
        response = HttpResponse(json.dumps(body), status=status, content_type="application/json")
        response["Cache-Control"] = "no-store"
        return response
