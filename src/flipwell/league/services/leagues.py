"""Use cases that create and configure a league."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError
from django.db import transaction

from flipwell.league.audit import record_event
from flipwell.league.models import League, LeagueOfficial
from flipwell.league.validators import validate_ruleset_overrides

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def create_league(
    *,
    name: str,
    slug: str,
    venue: str = "",
    time_zone: str = "UTC",
    ruleset_overrides: dict[str, Any] | None = None,
    created_by: User,
) -> League:
    """Create a league, with its creator as its first league official.

    Side effects: inserts the League, a LeagueOfficial (created_by, league official) and an
    audit event ``league.created``. Raises ValidationError (nothing written) for a taken or
    malformed slug, an unknown time zone, an unknown ruleset setting name or a value the
    setting does not allow.
    """
    overrides = ruleset_overrides or {}
    try:
        validate_ruleset_overrides(overrides)
    except ValidationError as error:
        raise ValidationError({"ruleset_overrides": error.messages}) from error
    with transaction.atomic():
        league = League(
            name=name.strip(),
            slug=slug.strip(),
            venue=venue.strip(),
            time_zone=time_zone.strip(),
            ruleset_overrides=overrides,
        )
        league.full_clean()
        league.save()
        LeagueOfficial.objects.create(
            user=created_by, league=league, role=LeagueOfficial.Role.LEAGUE_OFFICIAL
        )
        record_event(
            action="league.created",
            obj=league,
            league=league,
            actor=created_by,
            data={
                "name": league.name,
                "slug": league.slug,
                "venue": league.venue,
                "time_zone": league.time_zone,
                "ruleset_overrides": league.ruleset_overrides,
            },
        )
    return league
