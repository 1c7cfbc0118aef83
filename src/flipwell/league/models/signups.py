"""Signing up for the next season: the question to the last season's players, their answers,
and the newcomers who sign up from the league's public form.

Words:
- *call*: an official's question, before a new season, to the players of a season (the *last
  season*): "Playing in <name>?", with the new season's league night, first date and dues.
  One call per last season; the official may change its details until the new season is
  built from it. *Sign-ups open*: newcomers may sign up from the league's public form.
- *answer*: a player's yes, no or not sure, given through their personal link of the last
  season. Each answer is kept as given (who, when, through which link); the latest is the
  one that counts. A player may change it until the first meet of the season built from the
  call starts.
- *sign-up*: a newcomer's name, e-mail address and IFPA number, as sent from the public form
  (when, from which hashed address); the official *accepts* or *refuses* it (who, when, why).
  An accepted sign-up is entered in the new season when the official builds it.
- *built*: the season the official built from the call (`start_next_season`): its roster
  carried the players ticked, the yeses ticked first, and the accepted sign-ups.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone

from flipwell.league.models.player_links import PlayerLink
from flipwell.league.models.players import Player
from flipwell.league.models.seasons import Season, Weekday
from flipwell.league.validators import validate_clean_line


class SeasonCall(models.Model):
    """An official's question to a season's players about the next season (module words)."""

    season = models.OneToOneField(Season, on_delete=models.CASCADE, related_name="call")
    name = models.CharField(max_length=120)
    weekday = models.PositiveSmallIntegerField(choices=Weekday.choices)
    starts_on = models.DateField()
    dues_cents = models.PositiveIntegerField(default=0)
    signups_open = models.BooleanField(default=False)
    asked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    asked_at = models.DateTimeField(default=timezone.now)
    built = models.OneToOneField(
        Season, null=True, blank=True, on_delete=models.PROTECT, related_name="built_from_call"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(weekday__gte=0, weekday__lte=6), name="season_call_weekday"
            ),
            models.CheckConstraint(
                condition=~models.Q(built=models.F("season")), name="season_call_builds_another"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name}, asked of {self.season}"


class SeasonAnswer(models.Model):
    """One answer of a player to a call, as given; the player's latest is the one that
    counts."""

    class Answer(models.TextChoices):
        YES = "yes", "Yes"
        NO = "no", "No"
        MAYBE = "maybe", "Not sure"

    call = models.ForeignKey(SeasonCall, on_delete=models.CASCADE, related_name="answers")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    answer = models.CharField(max_length=5, choices=Answer.choices)
    answered_at = models.DateTimeField(default=timezone.now)
    link = models.ForeignKey(PlayerLink, on_delete=models.PROTECT, related_name="+")

    class Meta:
        ordering = ["call", "player", "answered_at", "id"]
        indexes = [models.Index(fields=["call", "player"], name="season_answer_player")]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(answer__in=["yes", "no", "maybe"]), name="season_answer_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.get_answer_display()} ({self.call.name})"


class SignUp(models.Model):
    """A newcomer's sign-up for the next season from the public form, and the official's
    decision on it."""

    class Decision(models.TextChoices):
        PENDING = "", "Waiting"
        ACCEPTED = "accepted", "Accepted"
        REFUSED = "refused", "Refused"

    call = models.ForeignKey(SeasonCall, on_delete=models.CASCADE, related_name="signups")
    first_name = models.CharField(max_length=80, validators=[validate_clean_line])
    last_name = models.CharField(max_length=80, validators=[validate_clean_line])
    email = models.EmailField(max_length=254)
    ifpa_number = models.PositiveIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)]
    )
    received_at = models.DateTimeField(default=timezone.now)
    address_hash = models.CharField(max_length=64, blank=True)
    decision = models.CharField(max_length=8, choices=Decision.choices, blank=True, default="")
    decided_at = models.DateTimeField(null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField(blank=True)

    class Meta:
        ordering = ["call", "received_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(first_name="") & ~models.Q(last_name="") & ~models.Q(email=""),
                name="signup_has_name_and_email",
            ),
            models.CheckConstraint(
                condition=models.Q(decision="", decided_at__isnull=True, decided_by__isnull=True)
                | (
                    models.Q(decision__in=["accepted", "refused"])
                    & models.Q(decided_at__isnull=False, decided_by__isnull=False)
                ),
                name="signup_decision_complete",
            ),
            models.CheckConstraint(
                condition=~models.Q(decision="refused") | ~models.Q(reason=""),
                name="signup_refusal_has_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.first_name} {self.last_name}, signing up for {self.call.name}"
