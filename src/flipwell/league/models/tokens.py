"""API tokens: what lets a program write to one league through the JSON API.

The model lives in the league app (the console issues and revokes tokens, and removing an
official revokes his); the API app only checks them. Its table was created by the API app's
migration 0009 and is renamed ``league_apitoken`` by league migration 0012.

Words:
- *API token*: a secret string an official issues for one league, with *scopes*; only its
  SHA-256 hash is stored, so a copy of the database cannot be used to write. Its *prefix* (the
  first characters) is stored in clear to tell tokens apart in a list.
- *scopes*: ``read_private`` (the league's money), ``scores`` (enter and confirm scores,
  record forfeits), ``manage`` (start and close meets, register players, record ledger
  entries). A token acts as the official who issued it, so the services still check his role.
- *revoked*: a revoked token is refused from then on; the row stays for the record.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from flipwell.league.models.leagues import League
from flipwell.league.models.revocable import Revocable


class ApiToken(Revocable):
    """A league's API token: a hash, its scopes, who issued it and whether it was revoked."""

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="api_tokens")
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=12)
    token_hash = models.CharField(max_length=64, unique=True)
    read_private = models.BooleanField(default=False)
    scores = models.BooleanField(default=False)
    manage = models.BooleanField(default=False)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["league", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(read_private=True)
                | models.Q(scores=True)
                | models.Q(manage=True),
                name="api_token_has_a_scope",
            ),
            Revocable.revocation_complete("api_token_revocation_complete"),
            models.CheckConstraint(condition=~models.Q(name=""), name="api_token_has_name"),
        ]

    def __str__(self) -> str:
        return f"{self.name} {self.prefix}… for {self.league}{self.revoked_mark}"
