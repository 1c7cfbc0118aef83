"""`record_event`: how a service writes the audit log.

Words: see `flipwell.league.models.audit`. Every service calls `record_event` once per change,
inside its own ``transaction.atomic``, so the log and the change commit or roll back together.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db import connection, models

from flipwell.league.models import AuditEvent, League

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def record_event(
    *,
    action: str,
    obj: models.Model,
    league: League | None,
    actor: User | None,
    data: dict[str, Any] | None = None,
) -> AuditEvent:
    """Insert one audit event about `obj` (already saved); returns it.

    `data` must be JSON-serialisable (ids, strings, numbers): what changed and the inputs that
    explain it. Calling this outside a transaction, or for an unsaved object, is a programming
    error and fails loudly.
    """
    if not connection.in_atomic_block:
        raise RuntimeError(f"record_event({action!r}) must run inside the service's transaction")
    if obj.pk is None:
        raise RuntimeError(f"record_event({action!r}) needs a saved object, got an unsaved one")
    return AuditEvent.objects.create(
        league=league,
        actor=actor,
        action=action,
        object_type=obj._meta.label,
        object_id=str(obj.pk),
        data=data or {},
    )
