"""API tokens: what lets a program write to one league through the JSON API.

The model lives in the league app (the console issues and revokes tokens, and removing an
official revokes his); the API app only checks them. Its table was created by the API app's
migration 0009 and is renamed ``league_apitoken`` by league migration 0012.

Words:
- *API token*: a secret string an official issues for one league, with *scopes*; only its
  SHA-256 hash is stored, so a copy of the database cannot be used to write. Its *prefix* (the
  first characters) is stored in clear to tell tokens apart in a list.
- *installation token*: a token of no league, issued on the command line to an account that
  may open leagues; it carries the ``leagues`` scope (open a new league) and may carry the
  others, which it uses in any league where its issuer holds, at the time, the role the scope
  needs (the league opened with it, for a start: its issuer is its league official).
- *scopes*: ``read_private`` (the league's money), ``scores`` (enter and confirm scores,
  record forfeits), ``manage`` (start and close meets, register players, record ledger
  entries, set the league up), ``leagues`` (open leagues; installation tokens only). A token
  acts as the official who issued it, so the services still check his role.
- *revoked*: a revoked token is refused from then on; the row stays for the record.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from flipwell.league.models.leagues import League
from flipwell.league.models.revocable import Revocable


class ApiToken(Revocable):
    """A league's API token (or an installation token: no league): a hash, its scopes, who
    issued it and whether it was revoked."""

    league = models.ForeignKey(
        League, null=True, blank=True, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=100)
    prefix = models.CharField(max_length=12)
    token_hash = models.CharField(max_length=64, unique=True)
    read_private = models.BooleanField(default=False)
    scores = models.BooleanField(default=False)
    manage = models.BooleanField(default=False)
    leagues = models.BooleanField(default=False)
    issued_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["league", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(read_private=True)
                | models.Q(scores=True)
                | models.Q(manage=True)
                | models.Q(leagues=True),
                name="api_token_has_a_scope",
            ),
            models.CheckConstraint(
                condition=models.Q(league__isnull=True, leagues=True)
                | models.Q(league__isnull=False, leagues=False),
                name="api_token_leagues_scope_without_league",
            ),
            Revocable.revocation_complete("api_token_revocation_complete"),
            models.CheckConstraint(condition=~models.Q(name=""), name="api_token_has_name"),
        ]

    def __str__(self) -> str:
        where = self.league if self.league_id is not None else "the installation"
        return f"{self.name} {self.prefix}… for {where}{self.revoked_mark}"
