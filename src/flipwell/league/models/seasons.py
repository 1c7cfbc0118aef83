"""Seasons and who is entered in them.

Words:
- *season*: a league's run of regular meets on one weekday at one start time (§2, R2-a), then
  one playoff night (§6). *Dues* are in integer cents. *Published*: shown to the public before
  its first meet starts, by an official's decision (`flipwell.league.selectors.seasons`).
- *season entry*: a player entered in a season, with his IFPA rank when the season starts (the
  week-1 seeding, §3.1, §4.3) and the meet he joined at (1 = from the start; a later number
  makes him a late joiner whose earlier games are forfeits, R2.4-f).
- *the season's readings*: its ruleset overrides (as the league's, `League.ruleset_overrides`),
  copied from the league's when the season is created and changed with them only until its
  first meet starts: a season is folded under the readings it was played under.
"""

from __future__ import annotations

from django.conf import settings
from django.core.validators import MinValueValidator
from django.db import models
from django.utils import timezone

from flipwell.league.models.leagues import League
from flipwell.league.models.players import Player
from flipwell.league.models.results import new_revision
from flipwell.league.validators import validate_ruleset_overrides


class Weekday(models.IntegerChoices):
    """Python's numbering (`date.weekday()`): Monday is 0."""

    MONDAY = 0, "Monday"
    TUESDAY = 1, "Tuesday"
    WEDNESDAY = 2, "Wednesday"
    THURSDAY = 3, "Thursday"
    FRIDAY = 4, "Friday"
    SATURDAY = 5, "Saturday"
    SUNDAY = 6, "Sunday"


class Season(models.Model):
    """One season of a league: its day, start time, length and dues (R2-a, R9-a)."""

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="seasons")
    name = models.CharField(max_length=120)
    weekday = models.PositiveSmallIntegerField(choices=Weekday.choices)
    start_time = models.TimeField()
    number_of_meets = models.PositiveSmallIntegerField(validators=[MinValueValidator(1)])
    dues_cents = models.PositiveIntegerField(default=0)
    # The league's readings when the season was created (see the module's words).
    ruleset_overrides = models.JSONField(
        default=dict, blank=True, validators=[validate_ruleset_overrides]
    )
    created_at = models.DateTimeField(default=timezone.now)
    # The official's decision to show the season to the public before its first meet starts
    # (`publish_season`); null until then.
    published_at = models.DateTimeField(null=True, blank=True)
    published_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Replaced whenever the season's facts or the ruleset they are folded under change: the
    # key of its stored fold (`flipwell.league.derived.results`).
    revision = models.BigIntegerField(default=new_revision, editable=False)

    class Meta:
        ordering = ["league", "-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["league", "name"], name="season_name_unique"),
            models.CheckConstraint(
                condition=models.Q(weekday__gte=0, weekday__lte=6), name="season_weekday_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(number_of_meets__gte=1), name="season_has_meets"
            ),
            models.CheckConstraint(
                condition=models.Q(dues_cents__gte=0), name="season_dues_not_negative"
            ),
            models.CheckConstraint(
                condition=models.Q(published_at__isnull=True, published_by__isnull=True)
                | models.Q(published_at__isnull=False, published_by__isnull=False),
                name="season_published_by_whom",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.league}: {self.name}"


class SeasonEntry(models.Model):
    """A player entered in a season (his IFPA rank at the start, the meet he joined at)."""

    season = models.ForeignKey(Season, on_delete=models.CASCADE, related_name="entries")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="season_entries")
    ifpa_rank_at_start = models.PositiveIntegerField(
        null=True, blank=True, validators=[MinValueValidator(1)]
    )
    joined_at_meet = models.PositiveSmallIntegerField(default=1, validators=[MinValueValidator(1)])
    # R2.4-g: the LO's designation for the forfeits a late joiner accumulates; null means the
    # league's ruleset default (`late_join_forfeits_countable`). Set through a logged Ruling.
    late_join_forfeits_countable = models.BooleanField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "season entries"
        constraints = [
            models.UniqueConstraint(fields=["season", "player"], name="season_entry_once"),
            models.CheckConstraint(
                condition=models.Q(ifpa_rank_at_start__isnull=True)
                | models.Q(ifpa_rank_at_start__gte=1),
                name="season_entry_rank_positive",
            ),
            models.CheckConstraint(
                condition=models.Q(joined_at_meet__gte=1), name="season_entry_joined_at_meet"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.season}"
