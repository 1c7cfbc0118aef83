"""Revisions and derived results: what lets a page be computed once per change of the facts.

Words:
- *revision*: a number stored on a league and on each season, replaced by a new random one
  whenever a fact it shows changes (`flipwell.league.revisions`). Random, not counted up, so
  that no two states of any season ever share one, across rolled-back writes, restores and
  test databases alike: a (season, revision) pair names one state of its facts for good.
- *derived result*: something computed from a season's facts at one revision (the fold),
  stored so every worker reads it instead of computing it again (`flipwell.league.derived.results`).
  Not a fact: never backed up, never edited; a lost row is simply computed again.
"""

from __future__ import annotations

import secrets

from django.db import models
from django.utils import timezone

REVISION_BITS = 62


def new_revision() -> int:
    """A fresh revision: random, positive, fits a signed 64-bit column."""
    return secrets.randbits(REVISION_BITS) + 1


class DerivedResult(models.Model):
    """The newest stored result of one computation (*scope*, e.g. "fold:12:numbers")."""

    scope = models.CharField(max_length=100, unique=True)
    revision = models.BigIntegerField()
    payload = models.BinaryField()
    computed_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"{self.scope} at revision {self.revision}"
