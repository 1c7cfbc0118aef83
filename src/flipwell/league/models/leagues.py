"""Leagues and their officials.

Words:
- *league*: one FWPL league at one venue; its *ruleset overrides* are its readings of the
  unclear passages that differ from flipwell's defaults (INTERPRETATIONS.md).
- *IFPA figures*: the IFPA's numbers (minimum meets, the fee per player...) where the league
  uses others than the IFPA's published ones (`flipwell.rules.IfpaParameters`).
- *official*: a user with a role in a league, a league official (LO, §1.1) or a scorekeeper.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from flipwell.league.enums import LabelledChoices, OfficialRoleValue
from flipwell.league.models.results import new_revision
from flipwell.league.validators import (
    validate_clean_line,
    validate_ifpa_figures,
    validate_league_slug,
    validate_ruleset_overrides,
    validate_time_zone,
)


class League(models.Model):
    """One league: its name, venue, home time zone and ruleset overrides."""

    name = models.CharField(max_length=120, validators=[validate_clean_line])
    slug = models.SlugField(max_length=60, unique=True, validators=[validate_league_slug])
    venue = models.CharField(max_length=200, blank=True)
    time_zone = models.CharField(max_length=64, default="UTC", validators=[validate_time_zone])
    ruleset_overrides = models.JSONField(
        default=dict, blank=True, validators=[validate_ruleset_overrides]
    )
    # The IFPA's numbers this league uses instead of the IFPA's own (`IfpaParameters`): its
    # endorsement fee in local currency, a figure the IFPA changed. Only those that differ.
    ifpa_figures = models.JSONField(default=dict, blank=True, validators=[validate_ifpa_figures])
    created_at = models.DateTimeField(default=timezone.now)
    # Replaced whenever anything a page of the league shows changes: its pages' ETags.
    revision = models.BigIntegerField(default=new_revision, editable=False)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class LeagueOfficial(models.Model):
    """A user's role in one league (at most one role per user and league)."""

    class Role(LabelledChoices, values=OfficialRoleValue):
        LEAGUE_OFFICIAL = "League official"
        SCOREKEEPER = "Scorekeeper"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="league_roles"
    )
    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="officials")
    role = models.CharField(max_length=20, choices=Role.choices)
    # The official's own player record when he also plays in the league, so a ruling on his
    # own group can be flagged as made by an involved official (R1.1-a, A55).
    player = models.ForeignKey(
        "league.Player", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "league"], name="league_official_one_role"),
            models.CheckConstraint(
                condition=models.Q(role__in=["league_official", "scorekeeper"]),
                name="league_official_role_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user} ({self.get_role_display()}, {self.league})"
