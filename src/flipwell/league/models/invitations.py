"""Invitations to a role in a league, which the invited account accepts or declines.

Words:
- *invitation*: a league official's offer of a role (league official or scorekeeper, §1.1)
  to the account he named by its user name or e-mail address. *Invited as* is what he typed;
  the *account* is the one that name or address found, none when it found none: the
  invitation is kept either way, so nothing the inviter sees tells whether an account exists.
- *pending*: not yet decided and not expired; *decided*: accepted or declined by the
  account, or withdrawn by an official of the league. Only an accepted invitation gives the
  role (a `LeagueOfficial`).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from flipwell.league.models.leagues import League, LeagueOfficial


class Invitation(models.Model):
    """An official's offer of a role in his league to one account."""

    class Decision(models.TextChoices):
        PENDING = "", "Pending"
        ACCEPTED = "accepted", "Accepted"
        DECLINED = "declined", "Declined"
        WITHDRAWN = "withdrawn", "Withdrawn"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="invitations")
    invited_as = models.CharField(max_length=254)
    # The account `invited_as` found when the invitation was made; never shown to the inviter.
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="league_invitations",
    )
    role = models.CharField(max_length=20, choices=LeagueOfficial.Role.choices)
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField()
    decision = models.CharField(max_length=10, choices=Decision.choices, blank=True, default="")
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.PROTECT,
        related_name="+",
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["user", "decision"], name="invitation_user_decision")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(role__in=["league_official", "scorekeeper"]),
                name="invitation_role_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(decision="", decided_at__isnull=True)
                | (
                    models.Q(decision__in=["accepted", "declined", "withdrawn"])
                    & models.Q(decided_at__isnull=False)
                ),
                name="invitation_decision_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.invited_as} ({self.get_role_display()}, {self.league})"
