"""Players, who may play in several leagues and seasons.

Words: *IFPA number* is the player's id at the International Flipper Pinball Association; it
identifies a player across leagues, so two players never share one.
"""

from __future__ import annotations

from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone


class Player(models.Model):
    """A person who plays: name and, when known, IFPA number."""

    first_name = models.CharField(max_length=80)
    last_name = models.CharField(max_length=80)
    ifpa_number = models.PositiveIntegerField(
        null=True, blank=True, unique=True, validators=[MinValueValidator(1)]
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["last_name", "first_name"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ifpa_number__isnull=True) | models.Q(ifpa_number__gte=1),
                name="player_ifpa_number_positive",
            ),
            models.CheckConstraint(
                condition=~models.Q(first_name="") & ~models.Q(last_name=""),
                name="player_name_not_blank",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"
