"""The single playoff night that ends a season (§6).

Words:
- *qualifier*: a player in the bracket the night was played with: his *division* (A, B, ...)
  and *seed* (1 = best). The rules compute qualification and seeding (R6.1, R6.2); the stored
  bracket is the one drawn for the night, kept because the matches were played from it.
- *withdrawal*: a qualifier announced before the playoffs that he cannot attend (R6.6-b).
- *playoff match*: a 3-game PAPA match of one *round* of a division (R6.3-c), numbered within
  the round (the rules' QF1, QF2, SF1, SF2, F); its games are *playoff games*, and a *playoff
  result* is one player's line in one: his machine score, or his *place* when the game was
  recorded as a finishing order; *tie place* is his place in the one-ball playoff that ordered
  players on equal machine scores (A54, R3.2-i).
- *lateness notice*: the LO was told before a match's start that a player will be late; the
  match then waits up to 15 minutes for him (R6.6-a, §2.2, A59).
- *no-show*: a player not present at his match's start, disqualified from it (R6.6-c).
- *tiebreaker*: the order a single-ball or head-to-head game gave tied players (R6.1-e,
  R6.5-a), for entry, seeding or a match.
- *final place*: never stored. It is derived from the matches (`flipwell.rules.playoff_bracket`,
  shown by `flipwell.league.selectors.playoffs`), like every other computed number.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from flipwell.league import enums
from flipwell.league.models.machines import Machine
from flipwell.league.models.players import Player
from flipwell.league.models.seasons import Season
from flipwell.league.validators import validate_machine_score


class PlayoffNight(models.Model):
    """A season's playoff night (R6.1-a)."""

    Status = enums.MeetStatus

    season = models.OneToOneField(Season, on_delete=models.PROTECT, related_name="playoff_night")
    date = models.DateField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLANNED)
    machine_draw_seed = models.BigIntegerField(null=True, blank=True)
    # The number of qualifiers the bracket was drawn with (the rules' cut, or the override).
    cut = models.PositiveSmallIntegerField(null=True, blank=True)
    # An LO override of the cut (A06, R6.2-b), logged as a Ruling; null: the §6.1 table.
    cut_override = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(status__in=enums.MeetStatus.values),
                name="playoff_night_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season} playoffs ({self.date.isoformat()})"


class Qualifier(models.Model):
    """A player's division and seed in the bracket the night was played with."""

    playoff_night = models.ForeignKey(
        PlayoffNight, on_delete=models.CASCADE, related_name="qualifiers"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    division = models.CharField(max_length=4)
    seed = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["playoff_night", "division", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["playoff_night", "player"], name="qualifier_once"),
            models.UniqueConstraint(
                fields=["playoff_night", "division", "seed"], name="qualifier_seed_once"
            ),
            models.CheckConstraint(condition=models.Q(seed__gte=1), name="qualifier_seed_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.division} seed {self.seed}"


class Withdrawal(models.Model):
    """A qualifier announced before the playoffs that he cannot attend (R6.6-b)."""

    playoff_night = models.ForeignKey(
        PlayoffNight, on_delete=models.CASCADE, related_name="withdrawals"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["playoff_night", "player"], name="withdrawal_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} withdrew from {self.playoff_night}"


class PlayoffMatch(models.Model):
    """One 3-game match of a playoff round in a division (R6.3)."""

    Round = enums.PlayoffRound

    playoff_night = models.ForeignKey(
        PlayoffNight, on_delete=models.CASCADE, related_name="matches"
    )
    division = models.CharField(max_length=4)
    round = models.CharField(max_length=12, choices=Round.choices)
    number = models.PositiveSmallIntegerField()

    class Meta:
        verbose_name_plural = "playoff matches"
        constraints = [
            models.UniqueConstraint(
                fields=["playoff_night", "division", "round", "number"],
                name="playoff_match_once",
            ),
            models.CheckConstraint(
                condition=models.Q(number__gte=1), name="playoff_match_number_positive"
            ),
            models.CheckConstraint(
                condition=models.Q(round__in=enums.PlayoffRound.values),
                name="playoff_match_round_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.division} {self.round} {self.number}"


class PlayoffGame(models.Model):
    """A game (1..3) of a playoff match: machine, and who chose it (null: drawn, R6.4-b)."""

    match = models.ForeignKey(PlayoffMatch, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    machine = models.ForeignKey(Machine, on_delete=models.PROTECT, related_name="+")
    chosen_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="playoff_game_once"),
            models.CheckConstraint(
                condition=models.Q(number__gte=1, number__lte=3),
                name="playoff_game_number_1_to_3",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} game {self.number}"


class PlayoffResult(models.Model):
    """One player's result in a playoff game: machine score (+ tie place), or place."""

    game = models.ForeignKey(PlayoffGame, on_delete=models.CASCADE, related_name="results")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    machine_score = models.BigIntegerField(
        null=True, blank=True, validators=[validate_machine_score]
    )
    # The game recorded as a finishing order: his place in it (1 = won).
    place = models.PositiveSmallIntegerField(null=True, blank=True)
    # The game recorded as machine scores: his place among the players on his score (A54).
    tie_place = models.PositiveSmallIntegerField(null=True, blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="playoff_result_once"),
            models.UniqueConstraint(fields=["game", "place"], name="playoff_result_place_once"),
            models.CheckConstraint(
                condition=models.Q(machine_score__isnull=True) | models.Q(machine_score__gte=0),
                name="playoff_result_score_not_negative",
            ),
            models.CheckConstraint(
                condition=models.Q(machine_score__isnull=False, place__isnull=True)
                | models.Q(machine_score__isnull=True, place__isnull=False, tie_place__isnull=True),
                name="playoff_result_score_or_place",
            ),
            models.CheckConstraint(
                condition=models.Q(place__isnull=True) | models.Q(place__gte=1, place__lte=4),
                name="playoff_result_place_1_to_4",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.game}"


class PlayoffLatenessNotice(models.Model):
    """The LO was told at `notice_at`, before the match's start, that a player will be late
    (R6.6-a, A59)."""

    match = models.ForeignKey(
        PlayoffMatch, on_delete=models.CASCADE, related_name="lateness_notices"
    )
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    notice_at = models.DateTimeField()
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="playoff_lateness_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} late to {self.match}"


class PlayoffNoShow(models.Model):
    """A player not present at his match's start, disqualified from that match (R6.6-c)."""

    match = models.ForeignKey(PlayoffMatch, on_delete=models.CASCADE, related_name="no_shows")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    note = models.TextField(blank=True)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    recorded_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="playoff_no_show_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} no-show in {self.match}"


class Tiebreaker(models.Model):
    """The order a tiebreaking game gave tied players, for entry, seeding or a match."""

    class Purpose(models.TextChoices):
        ENTRY = "entry", "Playoff entry or division (R6.1-e)"
        SEEDING = "seeding", "Seeding among qualifiers"
        MATCH = "match", "Playoff match result (R6.5-a)"

    playoff_night = models.ForeignKey(
        PlayoffNight, on_delete=models.CASCADE, related_name="tiebreakers"
    )
    purpose = models.CharField(max_length=8, choices=Purpose.choices)
    match = models.ForeignKey(
        PlayoffMatch, null=True, blank=True, on_delete=models.CASCADE, related_name="tiebreakers"
    )
    machine = models.ForeignKey(
        Machine, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    players: models.ManyToManyField[Player, TiebreakerPlace] = models.ManyToManyField(
        Player, through="TiebreakerPlace", related_name="+"
    )
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=models.Q(purpose="match", match__isnull=False)
                | (~models.Q(purpose="match") & models.Q(match__isnull=True)),
                name="tiebreaker_match_iff_match_purpose",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.purpose} tiebreaker, {self.playoff_night}"


class TiebreakerPlace(models.Model):
    """A tied player's place in a tiebreaker (1 finished highest)."""

    tiebreaker = models.ForeignKey(Tiebreaker, on_delete=models.CASCADE, related_name="places")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    place = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["tiebreaker", "place"]
        constraints = [
            models.UniqueConstraint(fields=["tiebreaker", "player"], name="tiebreaker_player_once"),
            models.UniqueConstraint(fields=["tiebreaker", "place"], name="tiebreaker_place_once"),
            models.CheckConstraint(
                condition=models.Q(place__gte=1), name="tiebreaker_place_positive"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} {self.place} in {self.tiebreaker}"


class PlayoffSheet(models.Model):
    """One version of a playoff game's score sheet, entered by a player of the match on the
    match's sheet and confirmed by another (R3-a, as on a league night); or a correction of a
    confirmed game, applied when every other player of the match agrees (R3-c, R3-d).

    `number` is the game (1-3) or `TIEBREAKER` for the match's tiebreaker game (R6.5-a). A
    confirmed entry becomes the game's `PlayoffResult` rows (or the match's `Tiebreaker`).
    """

    TIEBREAKER = 4

    class Status(models.TextChoices):
        ENTERED = "entered", "Entered"
        CONFIRMED = "confirmed", "Confirmed"
        PENDING = "pending", "Correction waiting for answers"
        APPLIED = "applied", "Correction applied"
        REFUSED = "refused", "Correction refused"

    match = models.ForeignKey(PlayoffMatch, on_delete=models.CASCADE, related_name="sheets")
    number = models.PositiveSmallIntegerField()
    version = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=9, choices=Status.choices, default=Status.ENTERED)
    entered_by = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    confirmed_by = models.ForeignKey(
        Player, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    machine = models.ForeignKey(
        Machine, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    reason = models.TextField(blank=True)
    idempotency_key = models.CharField(max_length=100)
    idempotency_scope = models.CharField(max_length=100)
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        ordering = ["match", "number", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number", "version"], name="playoff_sheet_version_once"
            ),
            models.UniqueConstraint(
                fields=["idempotency_scope", "idempotency_key"],
                name="playoff_sheet_key_once_per_scope",
            ),
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=models.Q(status="confirmed"),
                name="playoff_sheet_one_confirmed_entry",
                violation_error_message="This game's scores are already confirmed.",
            ),
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=models.Q(status="pending"),
                name="playoff_sheet_one_pending_correction",
            ),
            models.CheckConstraint(
                condition=models.Q(confirmed_by__isnull=True)
                | ~models.Q(confirmed_by=models.F("entered_by")),
                name="playoff_sheet_confirmed_by_another",
            ),
            models.CheckConstraint(
                condition=models.Q(number__gte=1, number__lte=4),
                name="playoff_sheet_number_1_to_4",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.match} game {self.number} sheet v{self.version}"


class PlayoffSheetLine(models.Model):
    """One player's machine score on a playoff sheet, and his place in a tie's one-ball
    playoff (A54, R3.2-i)."""

    sheet = models.ForeignKey(PlayoffSheet, on_delete=models.CASCADE, related_name="lines")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    machine_score = models.BigIntegerField(validators=[validate_machine_score])
    tie_place = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["sheet", "player"], name="playoff_sheet_line_once"),
            models.CheckConstraint(
                condition=models.Q(machine_score__gte=0), name="playoff_sheet_score_not_negative"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.machine_score:,}"


class PlayoffSheetAnswer(models.Model):
    """A player's answer to a correction of a playoff game (R3-c): agrees or not."""

    sheet = models.ForeignKey(PlayoffSheet, on_delete=models.CASCADE, related_name="answers")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    agrees = models.BooleanField()
    created_at = models.DateTimeField(default=timezone.now)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["sheet", "player"], name="playoff_sheet_answer_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} {'agrees' if self.agrees else 'disagrees'}: {self.sheet}"
