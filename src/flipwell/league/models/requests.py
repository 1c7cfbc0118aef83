"""Idempotency keys: what makes a write safe to send twice.

Words:
- *idempotency key*: a string the sender chooses for one write (the API's ``Idempotency-Key``
  header, or the one-time key a console form carries). The same key sent again is a retry:
  the stored answer is given again and nothing is written twice.
- *scope* and *sender*: whose key it is. The scope is ``league:<id>`` (an API token's league,
  or a personal link's) or ``console``; the sender is ``token:<id>``, ``link:<id>`` or
  ``user:<id>``. Two senders may choose the same key: each is theirs alone.
- *fingerprint*: a SHA-256 of the request (method, path, body); the same key with another
  fingerprint is a key reused for another request, refused.
- *answer*: the stored status, headers and body (the API), or where the form went (the
  console's redirect, in ``headers["Location"]``). A row is written in the transaction of the
  write it guards, so it exists exactly when that write was committed.

Keys expire after ``IDEMPOTENCY_KEY_TTL`` (24 hours): a later request with the same key is new.
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone


class IdempotencyKey(models.Model):
    """A write's key, who sent it, what it was (fingerprint) and the answer it got."""

    scope = models.CharField(max_length=100)
    sender = models.CharField(max_length=100)
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    status = models.PositiveSmallIntegerField()
    headers = models.JSONField(default=dict, blank=True)
    body = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["scope", "sender", "key"], name="idempotency_key_once_per_sender"
            ),
            models.CheckConstraint(condition=~models.Q(key=""), name="idempotency_key_not_empty"),
        ]
        indexes = [models.Index(fields=["created_at"], name="idempotency_key_age_idx")]

    def __str__(self) -> str:
        return f"{self.scope} {self.sender} {self.key}: {self.status}"
