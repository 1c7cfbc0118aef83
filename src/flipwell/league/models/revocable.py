"""What a personal link and an API token share: a secret handed out that can be revoked.

Words:
- *revoked*: refused from then on; the row stays for the record. A revocation is complete:
  when and by whom, both or neither.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone


class Revocable(models.Model):
    """When the secret was made, and when and by whom it was revoked (null: it is live)."""

    created_at = models.DateTimeField(default=timezone.now)
    revoked_at = models.DateTimeField(null=True, blank=True)
    revoked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        abstract = True

    @staticmethod
    def revocation_complete(name: str) -> models.CheckConstraint:
        """A revocation says when and by whom, both or neither; `name` is the model's own
        (constraint names are unique across the database)."""
        return models.CheckConstraint(
            condition=models.Q(revoked_at__isnull=True, revoked_by__isnull=True)
            | models.Q(revoked_at__isnull=False, revoked_by__isnull=False),
            name=name,
        )

    @property
    def revoked_mark(self) -> str:
        """`` (revoked)`` after a revoked one's name; nothing for a live one."""
        return " (revoked)" if self.revoked_at else ""
