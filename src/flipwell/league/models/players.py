"""Players, who may play in several leagues and seasons.

Words:
- *IFPA number*: the player's id at the International Flipper Pinball Association; it
  identifies a player across leagues, so two players never share one.
- *person*: the human being behind one or more player rows. Usually one row; when the same
  person was entered twice (no IFPA number, a typo in a name), an official *merges* one row
  into the other: the merged row's `merged_into` names the person's row (the *kept* row), and
  a `PlayerMerge` records who merged them, when and why. Nothing a row played is rewritten, so
  an *undo* (recorded on the same merge) restores exactly what was there. Merges are one level
  deep: a kept row is never itself merged, so a person is their kept row and the rows merged
  into it.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone

from flipwell.league.validators import validate_clean_line


class Player(models.Model):
    """A person who plays: name and, when known, IFPA number."""

    first_name = models.CharField(max_length=80, validators=[validate_clean_line])
    last_name = models.CharField(max_length=80, validators=[validate_clean_line])
    ifpa_number = models.PositiveIntegerField(
        null=True, blank=True, unique=True, validators=[MinValueValidator(1)]
    )
    created_at = models.DateTimeField(default=timezone.now)
    # The person's row this row was merged into (null: this row is a person's own row).
    merged_into = models.ForeignKey(
        "self", null=True, blank=True, on_delete=models.PROTECT, related_name="merged_rows"
    )

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
            models.CheckConstraint(
                condition=~models.Q(merged_into=models.F("pk")), name="player_not_merged_into_self"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}"


class PlayerMerge(models.Model):
    """An official's decision that two player rows are one person, and its undo if undone.

    `merged` now points at `kept` (`Player.merged_into`) while the merge stands (`undone_at`
    null); an undo clears that pointer and fills the undo fields. The record stays either way.
    """

    kept = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    merged = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="merges")
    reason = models.TextField()
    merged_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    merged_at = models.DateTimeField(default=timezone.now)
    undo_reason = models.TextField(blank=True)
    undone_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    undone_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-merged_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(kept=models.F("merged")), name="player_merge_two_rows"
            ),
            models.CheckConstraint(condition=~models.Q(reason=""), name="player_merge_has_reason"),
            models.UniqueConstraint(
                fields=["merged"],
                condition=models.Q(undone_at__isnull=True),
                name="player_merge_one_standing_per_row",
            ),
            models.CheckConstraint(
                condition=models.Q(undone_at__isnull=True, undone_by__isnull=True, undo_reason="")
                | (
                    models.Q(undone_at__isnull=False, undone_by__isnull=False)
                    & ~models.Q(undo_reason="")
                ),
                name="player_merge_undo_complete",
            ),
        ]

    def __str__(self) -> str:
        state = " (undone)" if self.undone_at else ""
        return f"{self.merged} merged into {self.kept}{state}"
