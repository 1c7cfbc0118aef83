"""Writes safe to retry: a write sent again with its idempotency key is answered, not redone.

Words (the model's docstring, `flipwell.league.models.requests`, has the rest):
- *claim*: the key's row, inserted before the write runs, in the same transaction. A
  concurrent request with the same key waits on the row's unique index (PostgreSQL) or on the
  database's write lock (SQLite, transactions begin IMMEDIATE) until the first one ends: then
  it finds the stored answer and gives it again, or (the first one kept nothing) runs itself.
- *answer*: what the write answered, as kept for a retry: status, headers, body. A caller
  decides which answers are kept (the API keeps every answer but a server error; the console
  keeps a redirect); an answer not kept frees the key.

Used by the API (`flipwell.api.idempotency`) and the console (`flipwell.web.once`); no league
fact is written here, and no audit event: the write itself writes its own.
"""

from __future__ import annotations

import datetime
import hashlib
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeVar

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone

from flipwell.league.models import IdempotencyKey

R = TypeVar("R")
MAX_KEY_LENGTH = 255


@dataclass(frozen=True)
class Answer:
    """A write's answer as kept for its retries."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: str = ""


class KeyReusedError(Exception):
    """The key was used, within its time, for another request (another path or body)."""

    def __init__(self, stored: IdempotencyKey) -> None:
        super().__init__(f"idempotency key {stored.key!r} was used for another request")
        self.stored = stored


def key_lifetime() -> datetime.timedelta:
    """How long a key is kept (``IDEMPOTENCY_KEY_HOURS``, default 24)."""
    return datetime.timedelta(hours=settings.IDEMPOTENCY_KEY_HOURS)


def key_problem(key: str) -> str | None:
    """What is wrong with `key` as an idempotency key, or None: 1 to 255 visible ASCII
    characters (letters, digits, punctuation; no space)."""
    if not key:
        return "must not be empty"
    if len(key) > MAX_KEY_LENGTH:
        return f"must be at most {MAX_KEY_LENGTH} characters, not {len(key)}"
    if not all("!" <= c <= "~" for c in key):
        return "may hold only visible ASCII characters (letters, digits, punctuation; no space)"
    return None


def fingerprint(*, method: str, path: str, body: bytes) -> str:
    """The request's SHA-256: method, path with query, and body (a JSON body in a canonical
    form, so the same object sent with its keys in another order is the same request)."""
    try:
        canonical = json.dumps(
            json.loads(body), sort_keys=True, separators=(",", ":"), ensure_ascii=False
        ).encode()
    except ValueError:  # not JSON (a form, or no body): its bytes as sent
        canonical = body
    digest = hashlib.sha256()
    for part in (method.upper().encode(), path.encode(), canonical):
        digest.update(len(part).to_bytes(8, "big"))
        digest.update(part)
    return digest.hexdigest()


def once(
    *,
    scope: str,
    sender: str,
    key: str,
    fingerprint: str,
    write: Callable[[], R],
    keep: Callable[[R], Answer | None],
) -> R | Answer:
    """Run `write` once for (`scope`, `sender`, `key`): the first time, its result (and
    `keep(result)` is stored, unless None); again within the key's lifetime with the same
    `fingerprint`, the stored Answer (nothing runs). Raises KeyReusedError when the key was
    used for another request.

    Side effects: deletes the sender's expired keys; inserts the key's row in the same
    transaction as `write`'s own writes, so the row exists exactly when the write committed.
    """
    now = timezone.now()
    with transaction.atomic():
        IdempotencyKey.objects.filter(
            scope=scope, sender=sender, created_at__lt=now - key_lifetime()
        ).delete()
        try:
            with transaction.atomic():
                claim = IdempotencyKey.objects.create(
                    scope=scope,
                    sender=sender,
                    key=key,
                    fingerprint=fingerprint,
                    status=0,  # being answered: never committed so (set below, or deleted)
                    created_at=now,
                )
        except IntegrityError:
            stored = IdempotencyKey.objects.get(scope=scope, sender=sender, key=key)
            if stored.fingerprint != fingerprint:
                raise KeyReusedError(stored) from None
            return Answer(status=stored.status, headers=dict(stored.headers), body=stored.body)
        result = write()
        answer = keep(result)
        if answer is None:
            claim.delete()
        else:
            claim.status = answer.status
            claim.headers = answer.headers
            claim.body = answer.body
            claim.save(update_fields=["status", "headers", "body"])
        return result
