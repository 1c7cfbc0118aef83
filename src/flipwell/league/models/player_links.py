"""Personal links: what lets a player act for themselves in one season, without an account.

Words:
- *personal link*: a URL an official issues to one player for one season (``/me/<token>/``).
  From it the player announces an absence or lateness before a meet's start time (R2.2-a,
  R3.1-d), sees their season with every point explained and their group once it is drawn.
- *key*: the link's random secret, stored so the official can show the link again (copy it,
  print its QR code). The URL's *token* is the key signed with the site's SECRET_KEY
  (`flipwell.league.services.player_links.token_for`), so a forged token is refused before
  any query.
- *revoked*: a revoked link is refused from then on; the row stays for the record (the notices
  it sent name it). Reissuing a link revokes the old one: one live link per player and season.
- *email*: optional, entered by the player; private (never on a public page).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models

from flipwell.league.models.players import Player
from flipwell.league.models.revocable import Revocable
from flipwell.league.models.seasons import Season


class PlayerLink(Revocable):
    """One player's personal link for one season: its key, who issued and revoked it."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="player_links")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    key = models.CharField(max_length=64, unique=True)
    email = models.EmailField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["season", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["season", "player"],
                condition=models.Q(revoked_at__isnull=True),
                name="player_link_one_live",
            ),
            Revocable.revocation_complete("player_link_revocation_complete"),
            models.CheckConstraint(condition=~models.Q(key=""), name="player_link_has_key"),
        ]

    def __str__(self) -> str:
        return f"{self.player}'s link for {self.season}{self.revoked_mark}"
