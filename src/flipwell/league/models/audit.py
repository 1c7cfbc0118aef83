"""The audit log: one row per change a service made (who, what, when, with what data).

Words: an *action* is a dotted verb naming the use case (``league.created``); the *object* is
the main row it touched, by model label and primary key. Rows are only inserted, never updated
(migration 0002 backs this with a trigger, as for the ledger).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from flipwell.league.models.leagues import League


class AuditEvent(models.Model):
    """One change a service made: league, actor, action, object, data."""

    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.PROTECT, related_name="audit_events"
    )
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    action = models.CharField(max_length=80)
    object_type = models.CharField(max_length=80)
    object_id = models.CharField(max_length=64)
    data = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["object_type", "object_id"], name="audit_object_idx")]
        constraints = [
            models.CheckConstraint(condition=~models.Q(action=""), name="audit_event_has_action"),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.object_type}#{self.object_id}"
