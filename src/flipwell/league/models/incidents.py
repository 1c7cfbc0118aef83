"""Malfunctions, compensatory games, violations and the log of officials' rulings.

Words:
- *malfunction*: a machine fault during one player's ball (§7.3, §7.4): *major* (a lost
  playable turn), *catastrophic* (a turn lost without a chance to play it) or *positive* (an
  unfair advantage). Its *reason code* names the case the rulebook lists.
- *compensatory game*: the new game a player plays after two majors or a catastrophic one
  (R7.3-k); the final score is original + new - leading - state (R7.3-m to R7.3-o), which the
  rules compute from the three stored amounts.
- *violation*: an illegal action (§8), *serious* when it counts toward the season's offenses.
- *ruling*: one decision of a league official (who, when, why, R1.1-b): the log every
  DISCRETION rule writes to. *Official involved* flags an official who plays in the affected
  group (A55), which is allowed and shown.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from flipwell.league.models.games import Game
from flipwell.league.models.leagues import League
from flipwell.league.models.meets import Meet
from flipwell.league.models.players import Player
from flipwell.league.validators import validate_machine_score
from flipwell.rules.violations import VIOLATION_KINDS


class Malfunction(models.Model):
    """A malfunction on one player's ball in one game, recorded by an official."""

    class Kind(models.TextChoices):
        MAJOR = "major", "Major"
        CATASTROPHIC = "catastrophic", "Catastrophic"
        POSITIVE = "positive", "Positive"

    class ReasonCode(models.TextChoices):
        # R7.3-e, R7.3-h, R7.4: the cases the rulebook names; "other" needs a note.
        FORCED_TILT_STUCK_BALL = "forced_tilt_stuck_ball", "Forced tilt to free a stuck ball"
        TURN_ENDED_BALLS_IN_PLAY = "turn_ended_balls_in_play", "Turn ended with balls in play"
        AUTO_LAUNCH_LOSS = "auto_launch_loss", "Auto-plunge or launch lost the ball"
        SLAM_TILT = "slam_tilt", "Slam tilt"
        TOTAL_FAILURE = "total_failure", "Total failure or reset"
        POWER_LOSS = "power_loss", "Power loss"
        SPECIAL_RULING = "special_ruling", "Covered by a special ruling"
        UNFAIR_ADVANTAGE = "unfair_advantage", "Unfair advantage"
        OTHER = "other", "Other"

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="malfunctions")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    ball = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    reason_code = models.CharField(max_length=30, choices=ReasonCode.choices)
    note = models.TextField(blank=True)
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "created_at"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(ball__gte=1), name="malfunction_ball_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(kind__in=["major", "catastrophic", "positive"]),
                name="malfunction_kind_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} malfunction, {self.player}, ball {self.ball}, {self.game}"


class CompensatoryGame(models.Model):
    """A player's compensatory game (R7.3-k): its score and the amounts to subtract."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="compensatory_games")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    new_score = models.BigIntegerField(validators=[validate_machine_score])
    leading_subtracted = models.BigIntegerField(default=0, validators=[validate_machine_score])
    state_subtracted = models.BigIntegerField(default=0, validators=[validate_machine_score])
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="compensatory_game_once"),
            models.CheckConstraint(
                condition=models.Q(
                    new_score__gte=0, leading_subtracted__gte=0, state_subtracted__gte=0
                ),
                name="compensatory_game_amounts_not_negative",
            ),
        ]

    def __str__(self) -> str:
        return f"compensatory game for {self.player} on {self.game}"


class Violation(models.Model):
    """An illegal action by a player at a meet (§8), during a game or between games."""

    class Kind(models.TextChoices):
        # The values are flipwell.rules.violations.ViolationKind (a test keeps them equal).
        OWN_UNALLOWABLE_EXTRA_BALL = (
            "own_unallowable_extra_ball",
            "Two hands on his own one-handed extra ball (§8.1)",
        )
        OPPONENTS_BALL = "opponents_ball", "Played an opponent's ball (§8.2)"
        INTERFERENCE = "interference", "Interference (§8.3)"
        INTENTIONAL_SLAM_TILT = "intentional_slam_tilt", "Intentional slam tilt (§8.4)"
        DEATHSAVE_OR_BANGBACK = "deathsave_or_bangback", "Deathsave or bangback (§8.7)"
        CHEATING = "cheating", "Cheating (§8.8)"
        VIOLENCE = "violence", "Violence (§8.5)"
        VANDALISM = "vandalism", "Vandalism (§8.5)"
        DETRIMENTAL_CONDUCT = "detrimental_conduct", "Exceptionally detrimental conduct (§8.5)"

    meet = models.ForeignKey(Meet, on_delete=models.PROTECT, related_name="violations")
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="violations"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="violations")
    kind = models.CharField(max_length=30, choices=Kind.choices)
    # The LO's designation; for an opponent's ball False means "accidental" (A28).
    serious = models.BooleanField()
    # When it happened, which decides the game a §8.5 penalty falls on (A27): during `game`
    # (then it is the game in progress), or between games after `games_completed` of them.
    games_completed = models.PositiveSmallIntegerField(default=0)
    # The LO's choice of game where the ruleset leaves it to him (A27.4).
    target_game = models.PositiveSmallIntegerField(null=True, blank=True)
    # §8.1: the error came on or after his last allowable ball (the 25% reduction).
    last_allowable_ball = models.BooleanField(default=False)
    # §8.7: the deathsave or bangback slam-tilted the machine (R8.4-a: then serious).
    slam_tilted = models.BooleanField(default=False)
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["meet", "created_at"]
        constraints = [
            models.CheckConstraint(condition=~models.Q(reason=""), name="violation_has_reason"),
            models.CheckConstraint(
                condition=models.Q(kind__in=VIOLATION_KINDS), name="violation_kind_valid"
            ),
            models.CheckConstraint(
                condition=models.Q(games_completed__lte=4), name="violation_games_completed_max"
            ),
            models.CheckConstraint(
                condition=models.Q(target_game__isnull=True)
                | models.Q(target_game__gte=1, target_game__lte=4),
                name="violation_target_game_range",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} by {self.player} at {self.meet}"


class Ruling(models.Model):
    """One decision of a league official: who, when, what about, and why (R1.1-b)."""

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="rulings")
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(max_length=60)
    subject = models.CharField(max_length=200)
    reason = models.TextField()
    official_involved = models.BooleanField(default=False)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.CheckConstraint(
                condition=~models.Q(reason="") & ~models.Q(kind=""),
                name="ruling_has_kind_and_reason",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind}: {self.subject}"
