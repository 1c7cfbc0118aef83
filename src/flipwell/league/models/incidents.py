"""Malfunctions, compensatory games, violations and the log of officials' rulings.

Words:
- *malfunction*: a machine fault during one player's ball (§7.3, §7.4): *major* (a lost
  playable turn), *catastrophic* (a turn lost without a chance to play it) or *positive* (an
  unfair advantage). Its *reason code* names the case the rulebook lists.
- *compensatory game*: the new game a player plays after two majors or a catastrophic one
  (R7.3-k); the final score is original + new - leading - state (R7.3-m to R7.3-o), which the
  rules compute from the three stored amounts.
- *violation*: an illegal action (§8), *serious* when it counts toward the season's offenses.
- *machine replacement*: a game's machine became unplayable during it and was replaced
  (R5.1-a, R7.3-s, A23), *by* its original selector, a new random draw (with its seed) or the
  LO's designation.
- *victim remedy*: the compensation a victim of a violation took (§8.2, §8.3): his *announced*
  choice, or none (the rules' default then applies, A29); what the violator was charged for it
  is a ledger entry (R8.3-d).
- *game restart*: a game whose number of games started could not be fixed, voided and restarted
  on the same machine, the *responsible* player charged for every player (R8.6-c, R8.6-d).
- *ruling*: one decision of a league official (who, when, why, R1.1-b): the log every
  DISCRETION rule writes to; a ruling about one player in one game names both (a slow-play
  warning, R7.5-a). *Official involved* flags an official who plays in the affected group
  (A55), which is allowed and shown.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from flipwell.league import enums
from flipwell.league.models.games import Game
from flipwell.league.models.leagues import League
from flipwell.league.models.ledger import LedgerEntry
from flipwell.league.models.machines import Machine
from flipwell.league.models.meets import Meet
from flipwell.league.models.players import Player
from flipwell.league.validators import validate_machine_score
from flipwell.rules.malfunctions import MALFUNCTION_REASONS
from flipwell.rules.violations import VIOLATION_KINDS


class Malfunction(models.Model):
    """A malfunction on one player's ball in one game, recorded by an official."""

    Kind = enums.MalfunctionKind
    ReasonCode = enums.MalfunctionReason

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="malfunctions")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    ball = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=12, choices=Kind.choices)
    reason_code = models.CharField(max_length=30, choices=ReasonCode.choices)
    # What went wrong in the LO's words, matched against his announced problems (R7.3-g).
    problem = models.CharField(max_length=200, blank=True)
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
                condition=models.Q(kind__in=enums.MalfunctionKind.values),
                name="malfunction_kind_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(reason_code__in=MALFUNCTION_REASONS),
                name="malfunction_reason_code_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} malfunction, {self.player}, ball {self.ball}, {self.game}"


class CompensatoryRequest(models.Model):
    """A player's granted request for a compensatory game, made at the trigger (R7.3-k, RA-b).

    It is *open* until its `CompensatoryGame` (the score) is recorded; the group waits for it
    (R7.3-p). `balls`: the affected balls the new game holds (R7.3-l).
    """

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="compensatory_requests")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    balls = models.PositiveSmallIntegerField()
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="compensatory_request_once"),
            models.CheckConstraint(
                condition=models.Q(balls__gte=1), name="compensatory_request_balls_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"compensatory game requested by {self.player} on {self.game}"


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

    Kind = enums.ViolationKind

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
    """One decision of a league official: who, when, what about, and why (R1.1-b); about one
    player in one game when it is (`player`, `game`: a turn ruling, whose kinds are
    `flipwell.league.turn_rulings.KINDS`), and about a meet when it is (`meet`)."""

    league = models.ForeignKey(League, on_delete=models.PROTECT, related_name="rulings")
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    kind = models.CharField(max_length=60)
    subject = models.CharField(max_length=200)
    player = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings"
    )
    game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.PROTECT, related_name="rulings"
    )
    meet = models.ForeignKey(
        Meet, null=True, blank=True, on_delete=models.SET_NULL, related_name="rulings"
    )
    """The meet it is about: its game's, or the meet itself (a grouping override, a meet
    closed unfinished or moved); none for a ruling about the league or season (a cancelled
    meet's ruling keeps its words and loses the meet)."""
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


class MachineReplacement(models.Model):
    """A game's machine became unplayable and was replaced (R5.1-a, R7.3-s, A23)."""

    By = enums.ReplacementBy

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="machine_replacements")
    old_machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    new_machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    by = models.CharField(max_length=8, choices=By.choices)
    chosen_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The random draw's seed (by "random"), kept so the draw can be repeated (R5-a, A23).
    seed = models.BigIntegerField(null=True, blank=True)
    reason = models.TextField()
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(by__in=enums.ReplacementBy.values),
                name="machine_replacement_by_valid",
            ),
            models.CheckConstraint(
                condition=models.Q(by="random", seed__isnull=False)
                | (~models.Q(by="random") & models.Q(seed__isnull=True)),
                name="machine_replacement_seed_iff_random",
            ),
            models.CheckConstraint(
                condition=~models.Q(old_machine=models.F("new_machine")),
                name="machine_replacement_changes_machine",
            ),
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="machine_replacement_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game}: {self.old_machine.title} replaced by {self.new_machine.title}"


class VictimRemedy(models.Model):
    """What a violation's victim announced as his compensation, or that he announced nothing
    (§8.2, §8.3, A29); the remedy itself is the rules' function of these facts."""

    Choice = enums.RemedyChoice

    violation = models.ForeignKey(Violation, on_delete=models.PROTECT, related_name="remedies")
    victim = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    # Empty: he announced nothing before play resumed (R8.2-d, R8.3-c).
    announced = models.CharField(max_length=24, choices=Choice.choices, blank=True)
    # §8.2 facts: the played ball was an unallowable extra ball; he had allowable balls left.
    unallowable_ball = models.BooleanField(default=False)
    allowable_balls_left = models.BooleanField(default=True)
    # §8.3 fact: the interference caused a drain or loss of turn.
    caused_loss = models.BooleanField(default=True)
    # A30: the additional ball was an earned, normally unallowable extra ball (no buy-in).
    earned_extra_ball_used = models.BooleanField(default=False)
    charge = models.OneToOneField(
        LedgerEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        verbose_name_plural = "victim remedies"
        constraints = [
            models.UniqueConstraint(fields=["violation", "victim"], name="victim_remedy_once"),
            models.CheckConstraint(
                condition=models.Q(announced="")
                | models.Q(
                    announced__in=[
                        "continue_no_extra",
                        "continue_plus_one_ball",
                        "drain_and_extra_ball",
                        "replay_game",
                    ]
                ),
                name="victim_remedy_announced_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.victim}'s remedy for {self.violation}"


class GameRestart(models.Model):
    """A game voided for a wrong number of games started and restarted (R8.6-c, R8.6-d)."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="restarts")
    responsible = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    games_started = models.PositiveSmallIntegerField()
    players = models.PositiveSmallIntegerField()
    charge = models.OneToOneField(
        LedgerEntry, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    note = models.TextField(blank=True)
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=models.Q(games_started__gte=1, players__gte=1)
                & ~models.Q(games_started=models.F("players")),
                name="game_restart_wrong_count",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} restarted ({self.games_started} games for {self.players} players)"
