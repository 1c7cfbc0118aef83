"""Notices by e-mail: each player's choice of them, and the queue they are sent from.

Words:
- *notice*: one e-mail to one player about one event: *groups* (a meet started: their group,
  its players and first machine), *results* (a meet closed: their night and their place),
  *reminder* (a meet is coming: when, and how to announce an absence, R3.1-d) or *ruling* (an
  official's decision that names them: a violation, a malfunction, a game restart, a late
  entrant's forfeits).
- *subscription*: a player's e-mail address and the kinds of notice they chose, in one league
  (opt-in: none until chosen). It belongs to the league that collected it: one row per league
  and player, read and changed only by that league's officials (and the player, through the
  link in its notices), and only that league's notices go to it. A player who plays in two
  leagues has two rows, which may name two addresses. *Unsubscribed* (a time) means they
  stopped every notice of that league through the link in an e-mail; choosing a kind again
  clears it.
- *dedupe key*: names the event and the player (``groups:meet:12:player:3``); unique, so an
  event queues one notice per player however often its hook runs.
- *state*: ``pending`` (waiting for the worker, `next_attempt_at` says when), ``sent``,
  ``failed`` (every attempt failed; `last_error` says why) or ``skipped`` (the player stopped
  that kind of notice after it was queued, or a reminder came too late to be of use).
"""

from __future__ import annotations

from django.db import models
from django.utils import timezone

from flipwell.league.enums import LabelledChoices, NoticeKindValue, NoticeStateValue
from flipwell.league.models.leagues import League
from flipwell.league.models.meets import Meet
from flipwell.league.models.players import Player


class NoticeKind(LabelledChoices, values=NoticeKindValue):
    """What a notice e-mail is about."""

    GROUPS = "Groups when a meet starts"
    RESULTS = "The night's results when a meet closes"
    REMINDER = "A reminder before each meet"
    RULING = "An official's ruling that affects them"


class NoticeSubscription(models.Model):
    """A player's e-mail address and the notices they chose from one league (one row per
    league and player: the league's own, private to it)."""

    league = models.ForeignKey(
        League, on_delete=models.CASCADE, related_name="notice_subscriptions"
    )
    player = models.ForeignKey(
        Player, on_delete=models.CASCADE, related_name="notice_subscriptions"
    )
    email = models.EmailField(max_length=254)
    groups = models.BooleanField(default=False)
    results = models.BooleanField(default=False)
    reminder = models.BooleanField(default=False)
    ruling = models.BooleanField(default=False)
    unsubscribed_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=~models.Q(email=""), name="notice_email_not_blank"),
            models.UniqueConstraint(
                fields=["league", "player"], name="notice_subscription_one_per_league"
            ),
        ]

    def __str__(self) -> str:
        return f"notices of {self.player} from league {self.league_id}"

    def wants(self, kind: str) -> bool:
        """Whether this kind of notice is to be sent now."""
        return self.unsubscribed_at is None and bool(getattr(self, kind, False))


class Notice(models.Model):
    """One queued e-mail to one player (see the module docstring)."""

    Kind = NoticeKind

    class State(LabelledChoices, values=NoticeStateValue):
        PENDING = "Waiting"
        SENT = "Sent"
        FAILED = "Failed"
        SKIPPED = "Skipped"

    league = models.ForeignKey(League, on_delete=models.CASCADE, related_name="notices")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="notices")
    meet = models.ForeignKey(
        Meet, null=True, blank=True, on_delete=models.CASCADE, related_name="notices"
    )
    kind = models.CharField(max_length=10, choices=NoticeKind.choices)
    dedupe_key = models.CharField(max_length=120, unique=True)
    subject = models.CharField(max_length=200)
    body = models.TextField()
    state = models.CharField(max_length=8, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(default=timezone.now)
    last_error = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        indexes = [models.Index(fields=["state", "next_attempt_at"], name="notice_due_idx")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(kind__in=NoticeKind.values), name="notice_kind_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(state__in=["pending", "sent", "failed", "skipped"]),
                name="notice_state_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} notice to {self.player} ({self.state})"
