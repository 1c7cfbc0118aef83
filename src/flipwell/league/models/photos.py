"""Photos of a machine's score display, attached to a game's entry.

Words:
- *score photo*: a clean photo (`flipwell.league.photos`) of the machine's display, attached
  to a game by a player of its group at the sheet (*uploaded_by*), or sent through the API or
  by an official (*recorded_by*, the account). Several per game (a display shown in parts).
- *key*: the photo's random, unguessable name (48 characters of `secrets.token_urlsafe`); its
  file in storage is ``score-photos/<key>.jpg``. A key alone opens nothing: a photo is served
  only behind the sheet's link, the console's sign-in or an API token of its league.
- *idempotency key*: chosen by the sender for one photo, unique within its *scope* (the league
  and the sender, as for score entries: `flipwell.league.models.games`): a photo sent again
  after a lost answer is kept once. Empty: the sender gave none.
- *removed*: an official removed the photo after the meet (its file is deleted; the row stays,
  with who and when, so the record says a photo was there).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from flipwell.league.models.games import Game
from flipwell.league.models.players import Player

KEY_LENGTH = 64


class ScorePhoto(models.Model):
    """A photo of a game's score display: who sent it, when, its size; removed or not."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="photos")
    key = models.CharField(max_length=KEY_LENGTH, unique=True)
    uploaded_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    width = models.PositiveIntegerField()
    height = models.PositiveIntegerField()
    bytes = models.PositiveIntegerField()
    idempotency_key = models.CharField(max_length=100, blank=True, default="")
    idempotency_scope = models.CharField(max_length=100, blank=True, default="")
    removed_at = models.DateTimeField(null=True, blank=True)
    removed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["game", "created_at", "pk"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(key=""), name="score_photo_has_key"),
            models.UniqueConstraint(
                fields=["idempotency_scope", "idempotency_key"],
                condition=~models.Q(idempotency_key=""),
                name="score_photo_idempotency_key_once_per_scope",
            ),
            models.CheckConstraint(
                condition=models.Q(removed_at__isnull=True, removed_by__isnull=True)
                | models.Q(removed_at__isnull=False, removed_by__isnull=False),
                name="score_photo_removed_by_whom",
            ),
        ]

    def __str__(self) -> str:
        return f"photo of {self.game}"

    @property
    def storage_name(self) -> str:
        """The photo's file name in storage."""
        return f"score-photos/{self.key}.jpg"
