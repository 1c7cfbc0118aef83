"""Who may act, and on what: the rows the front ends' access checks read (a signed-in user's
role, a sign-in lockout, a set-password link's user, a score sheet's token, an API token).

Words:
- *role*: a user's `LeagueOfficial.role` in a league (league official or scorekeeper), None
  when he holds none there;
- *live* API token: one not revoked;
- a *sheet's group* or *playoff night*: the row a phone's score-sheet token names, with the
  meet, season and league its page shows; the token's own checks (age, open meet) stay in
  `flipwell.web.scoresheet_tokens`.

One query each.
"""

from __future__ import annotations

import datetime
from typing import Any

from axes.models import AccessAttempt  # type: ignore[import-untyped]
from django.contrib.auth import get_user_model
from django.db.models import Max

from flipwell.league import models as m


def role_of(user_id: int, league_id: int) -> str | None:
    """The role user `user_id` holds in league `league_id`, or None."""
    return (
        m.LeagueOfficial.objects.filter(user_id=user_id, league_id=league_id)
        .values_list("role", flat=True)
        .first()
    )


def last_sign_in_attempt(username: str, ip_address: str | None) -> datetime.datetime | None:
    """When `username` last failed to sign in from `ip_address` (django-axes' record)."""
    attempts = AccessAttempt.objects.filter(username=username, ip_address=ip_address)
    last: datetime.datetime | None = attempts.aggregate(last=Max("attempt_time"))["last"]
    return last


def active_user(pk: int) -> Any:
    """The active user `pk` (a set-password link's), or None."""
    return get_user_model()._default_manager.filter(pk=pk, is_active=True).first()


def user_named(username: str) -> Any:
    """The user signing in as `username`, or None."""
    return get_user_model()._default_manager.filter(username=username).first()


def sheet_group(group_id: int, meet_id: int) -> m.Group | None:
    """Group `group_id` if it plays in meet `meet_id`, with its meet, season and league."""
    return (
        m.Group.objects.select_related("meet__season__league")
        .filter(pk=group_id, meet_id=meet_id)
        .first()
    )


def sheet_playoff_night(night_id: int, division: str) -> m.PlayoffNight | None:
    """Playoff night `night_id` if it has qualifiers in `division`, with its season and
    league."""
    return (
        m.PlayoffNight.objects.select_related("season__league")
        .filter(pk=night_id, qualifiers__division=division)
        .distinct()
        .first()
    )


def live_api_token(token_hash: str) -> m.ApiToken | None:
    """The live API token whose secret hashes to `token_hash`, with its league and issuer."""
    return (
        m.ApiToken.objects.select_related("league", "issued_by")
        .filter(token_hash=token_hash, revoked_at__isnull=True)
        .order_by("pk")  # one row (a unique hash): no need for the model's ordering
        .first()
    )


def live_api_tokens(prefix: str) -> list[m.ApiToken]:
    """The live API tokens whose secret starts with `prefix` (the part shown in lists)."""
    return list(m.ApiToken.objects.filter(prefix=prefix, revoked_at__isnull=True))
