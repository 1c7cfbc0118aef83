"""Games of a match and what was recorded about them.

Words:
- *game*: one of a group's games at a meet (numbered from 1), on one machine, *chosen by* the
  player who picked it (R5-c) or by nobody when it was drawn at random (R5-a).
- *score submission*: one version of a game's score sheet (R3-a). One person enters it, another
  player of the group confirms it; a correction is a new version (higher number) with who
  agreed (§3). The confirmed version with the highest number is the game's result. A
  game has at most one confirmed *entry* (the first sheet, confirmed by another player of the
  group, R3-a); every later confirmed version is a *correction* (`is_correction`), applied
  only when the players agreed to it (R3-d).
- *idempotency key*: chosen by the client for one submission, unique within its *scope*: the
  league and the sender, ``<league id>:token:<token id>`` for an API token,
  ``<league id>:sheet:<group id>`` for a group's sheet link, ``<league id>:`` for the league's
  own tools (imports, corrections, replays; they make unique keys). Entries stored before
  scopes existed have the empty scope, which no request uses.
- *correction request*: a claimed scoring error reported after confirmation (R3-b); its
  proposed sheet is an unconfirmed correction version, confirmed if every player asked
  agrees (R3-c, R3-d, A45). A *correction response* is one player's answer.
- *score line*: one player's machine score in a submission; no score (null) means he did not
  play the game (a forfeit, whose countable flag and reason are a `Forfeit`).
- *tie order*: the finishing order that a one-ball playoff gave players with tied machine
  scores (R3.2-i); position 1 finished highest.
- *forfeit*: a player is charged a forfeit for a game (§2.4); *countable* forfeits count toward
  forfeiting the season (R2.4-h, R2.5-a).
- *match absence*: the LO recorded a player absent for the rest of his group's match (R2.4-a),
  from game `from_game` on: that game and every later one of the match is his forfeit,
  derived by the rules (`MatchFacts.absent_from`), never stored game by game.
- *late join*: a late player joined a game in progress, with the two conditions attested
  (R2.3-a).
- *discarded score*: an LO's decision after a positive malfunction that one player's completed
  score on the counted sheet `version` does not stand (R7.4-c, A58). The game is incomplete
  until a newer confirmed version (the replay) exists.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from flipwell.league import enums
from flipwell.league.models.machines import Machine
from flipwell.league.models.meets import Group
from flipwell.league.models.players import Player
from flipwell.league.validators import validate_machine_score


class Game(models.Model):
    """A game of a group's match: its number, machine and who chose it (null: drawn)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="games")
    chosen_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["group", "number"]
        constraints = [
            models.UniqueConstraint(fields=["group", "number"], name="game_number_once_per_group"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="game_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.group} game {self.number} on {self.machine.title}"


class ScoreSubmission(models.Model):
    """One version of a game's score sheet: who entered it, who confirmed it (§3, R3-a)."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="submissions")
    version = models.PositiveSmallIntegerField()
    entered_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    confirmed_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    # The account that typed the sheet in (a scorekeeper's, or none at a shared tablet).
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # Chosen by the client, so a resent form or a retried request stores one submission.
    idempotency_key = models.CharField(max_length=100)
    # Whose keys these are: the league and the sender (see the module docstring).
    idempotency_scope = models.CharField(max_length=100, blank=True, default="")
    # A correction's proposed sheet (§3): confirmed only by the players' agreement.
    is_correction = models.BooleanField(default=False)
    note = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "version"]
        constraints = [
            # Two confirmations of a game's sheet racing: only one can win (R3-a).
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(confirmed_by__isnull=False, is_correction=False),
                name="score_submission_one_confirmed_entry",
                violation_error_message="This game's scores are already confirmed.",
            ),
            models.UniqueConstraint(
                fields=["game", "version"], name="score_submission_version_once"
            ),
            # A retried request finds its entry; another league or sender never sees it.
            models.UniqueConstraint(
                fields=["idempotency_scope", "idempotency_key"],
                name="score_submission_key_once_per_scope",
            ),
            models.CheckConstraint(
                condition=models.Q(version__gte=1), name="score_submission_version_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(confirmed_by__isnull=True)
                | ~models.Q(confirmed_by=models.F("entered_by")),
                name="score_submission_confirmed_by_another",
            ),
            models.CheckConstraint(
                condition=models.Q(confirmed_by__isnull=True, confirmed_at__isnull=True)
                | models.Q(confirmed_by__isnull=False, confirmed_at__isnull=False),
                name="score_submission_confirmation_complete",
            ),
            models.CheckConstraint(
                condition=~models.Q(idempotency_key=""), name="score_submission_has_key"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} scores v{self.version}"


class ScoreLine(models.Model):
    """One player's machine score in a submission (null: no score, a forfeit)."""

    submission = models.ForeignKey(ScoreSubmission, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    machine_score = models.BigIntegerField(
        null=True, blank=True, validators=[validate_machine_score]
    )

    class Meta:
        constraints = [
            # With (game, version) unique on the submission: one score per player per version of
            # a game, so exactly one per player in the confirmed version that counts.
            models.UniqueConstraint(fields=["submission", "player"], name="score_line_once"),
            models.CheckConstraint(
                condition=models.Q(machine_score__isnull=True) | models.Q(machine_score__gte=0),
                name="score_line_machine_score_not_negative",
            ),
        ]

    def __str__(self) -> str:
        shown = "no score" if self.machine_score is None else f"{self.machine_score:,}"
        return f"{self.player}: {shown}"


class TieOrder(models.Model):
    """The order a one-ball playoff gave players tied on one game (R3.2-i)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="tie_orders")
    # The score sheet version the order was entered with (null: imported before versions).
    submission = models.ForeignKey(
        ScoreSubmission,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="tie_orders",
    )
    players: models.ManyToManyField[Player, TieOrderPlace] = models.ManyToManyField(
        Player, through="TieOrderPlace", related_name="+"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    def __str__(self) -> str:
        return f"tie order on {self.game}"


class TieOrderPlace(models.Model):
    """A tied player's place in a tie order (1 finished highest)."""

    tie_order = models.ForeignKey(TieOrder, on_delete=models.CASCADE, related_name="places")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["tie_order", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tie_order", "player"], name="tie_order_player_once"),
            models.UniqueConstraint(
                fields=["tie_order", "position"], name="tie_order_position_once"
            ),
            models.CheckConstraint(
                condition=models.Q(position__gte=1), name="tie_order_position_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.position} in {self.tie_order}"


class Forfeit(models.Model):
    """A forfeit charged to a player for one game (§2.4), countable unless the LO says not."""

    Reason = enums.ForfeitReason

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="forfeits")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="forfeits")
    countable = models.BooleanField(default=True)
    reason = models.CharField(max_length=10, choices=Reason.choices)
    note = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="forfeit_once_per_game"),
            models.CheckConstraint(
                condition=models.Q(reason__in=enums.ForfeitReason.values),
                name="forfeit_reason_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} forfeits {self.game}"


class MatchAbsence(models.Model):
    """A player absent for the rest of his group's match from game `from_game` on (R2.4-a)."""

    group = models.ForeignKey(Group, on_delete=models.PROTECT, related_name="absences")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    from_game = models.PositiveSmallIntegerField()
    note = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["group", "player"], name="match_absence_once"),
            models.CheckConstraint(
                condition=models.Q(from_game__gte=1, from_game__lte=4),
                name="match_absence_game_in_match",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} absent from game {self.from_game} of {self.group}"


class LateJoin(models.Model):
    """A late player joined a game in progress; both conditions of R2.3-a were attested."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="late_joins")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    machine_allows_joining = models.BooleanField()
    last_player_not_past_ball_1 = models.BooleanField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="late_join_once_per_game"),
            models.CheckConstraint(
                condition=models.Q(machine_allows_joining=True, last_player_not_past_ball_1=True),
                name="late_join_conditions_attested",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} joined {self.game} late"


class CorrectionRequest(models.Model):
    """A claimed scoring error in a confirmed game (§3, R3-b) and what became of it.

    `base` is the confirmed version it corrects; `proposed` the new sheet (an unconfirmed
    correction version), confirmed when every player asked agrees (R3-d). After the meet is
    closed a request needs an LO override with a reason (A45.2).
    """

    Status = enums.CorrectionStatus

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="correction_requests")
    base = models.ForeignKey(ScoreSubmission, on_delete=models.PROTECT, related_name="+")
    proposed = models.OneToOneField(
        ScoreSubmission, on_delete=models.PROTECT, related_name="correction_request"
    )
    requested_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    reason = models.TextField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PENDING)
    override_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    override_reason = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["game"],
                condition=models.Q(status="pending"),
                name="correction_request_one_pending_per_game",
                violation_error_message="This game already has a correction waiting for answers.",
            ),
            models.CheckConstraint(
                condition=models.Q(status__in=enums.CorrectionStatus.values),
                name="correction_request_status_valid",
            ),
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="correction_request_has_reason"
            ),
            models.CheckConstraint(
                condition=models.Q(override_by__isnull=True, override_reason="")
                | (models.Q(override_by__isnull=False) & ~models.Q(override_reason="")),
                name="correction_request_override_complete",
            ),
            models.CheckConstraint(
                condition=models.Q(status="pending", decided_at__isnull=True)
                | (~models.Q(status="pending") & models.Q(decided_at__isnull=False)),
                name="correction_request_decided_when_not_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"correction of {self.game} ({self.status})"


class CorrectionResponse(models.Model):
    """One player's recollection of a claimed scoring error (R3-c)."""

    request = models.ForeignKey(
        CorrectionRequest, on_delete=models.CASCADE, related_name="responses"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    agrees = models.BooleanField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["request", "created_at"]
        constraints = [
            models.UniqueConstraint(
                fields=["request", "player"], name="correction_response_once_per_player"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {'agrees' if self.agrees else 'disagrees'}: {self.request}"


class DiscardedScore(models.Model):
    """A player's completed score on one sheet version, discarded by the LO (R7.4-c, A58).

    The game counts again once a confirmed version newer than `version` holds his replay.
    """

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="discarded_scores")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    version = models.PositiveSmallIntegerField()
    reason = models.TextField()
    official = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["game", "version", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "player", "version"], name="discarded_score_once_per_version"
            ),
            models.CheckConstraint(
                condition=models.Q(version__gte=1), name="discarded_score_version_positive"
            ),
            models.CheckConstraint(
                condition=~models.Q(reason=""), name="discarded_score_has_reason"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}'s score discarded on {self.game} v{self.version}"
