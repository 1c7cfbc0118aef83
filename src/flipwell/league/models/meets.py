"""Meets, attendance notices and the groups a meet was played in.

Words:
- *meet*: one league night of a season, numbered from 1. *planned* before it starts, *open*
  while it is played (at most one per season), *closed* after. Its *first-machine draw seed*
  is the random seed that drew each group's first machine (R5-a), kept so the draw can be
  repeated. *started_at* is the meet's start, the reference for tardiness (R2.1-a).
- *announced absence*: the LO was told before the meet that a player will not come (R3.1-d).
- *lateness notice*: the LO was told that a player will be late; only a notice told before the
  start is announced tardiness (R2.2-a).
- *group*: the players who played a match together at a meet, in ladder order (*position* 1
  is the highest seed). The rules compute the grouping (§4); the stored group is the one the
  meet was played in, which later corrections do not redraw (A45).
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone

from flipwell.league import enums
from flipwell.league.models.players import Player
from flipwell.league.models.seasons import Season


class Meet(models.Model):
    """One league night of a season (at most one open meet per season)."""

    Status = enums.MeetStatus

    season = models.ForeignKey(Season, on_delete=models.PROTECT, related_name="meets")
    number = models.PositiveSmallIntegerField()
    date = models.DateField()
    status = models.CharField(max_length=8, choices=Status.choices, default=Status.PLANNED)
    started_at = models.DateTimeField(null=True, blank=True)
    first_machine_draw_seed = models.BigIntegerField(null=True, blank=True)
    # Why the LO grouped this meet differently from the ladder (R4.1-d); empty when he did not.
    group_override_reason = models.TextField(blank=True)

    class Meta:
        ordering = ["season", "number"]
        constraints = [
            models.UniqueConstraint(fields=["season", "number"], name="meet_number_once"),
            models.UniqueConstraint(
                fields=["season"],
                condition=models.Q(status="open"),
                name="meet_one_open_per_season",
                violation_error_message="This season already has an open meet; close it first.",
            ),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="meet_number_positive"),
            models.CheckConstraint(
                condition=models.Q(status__in=enums.MeetStatus.values),
                name="meet_status_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.season} meet {self.number} ({self.date.isoformat()})"


class AnnouncedAbsence(models.Model):
    """The LO was told a player will miss a meet (R3.1-d); recorded with who and when."""

    meet = models.ForeignKey(Meet, on_delete=models.CASCADE, related_name="announced_absences")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    player_link = models.ForeignKey(
        "PlayerLink", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    """Set when the player told it themselves through their personal link (then no
    `recorded_by`): the same fact as when the LO records it."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["meet", "player"], name="announced_absence_once"),
            models.CheckConstraint(
                condition=models.Q(recorded_by__isnull=False, player_link__isnull=True)
                | models.Q(recorded_by__isnull=True, player_link__isnull=False),
                name="announced_absence_recorded_by_one",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} absent from {self.meet}"


class LatenessNotice(models.Model):
    """The LO was told that a player will be late; `recorded_at` is when he was told. Told
    before the start, it is announced tardiness and the group waits (R2.2-a); told later, it
    is not, and §2.3 applies when the player arrives."""

    meet = models.ForeignKey(Meet, on_delete=models.CASCADE, related_name="lateness_notices")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    player_link = models.ForeignKey(
        "PlayerLink", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    """Set when the player told it themselves through their personal link (then no
    `recorded_by`): the same fact as when the LO records it."""

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["meet", "player"], name="lateness_notice_once"),
            models.CheckConstraint(
                condition=models.Q(recorded_by__isnull=False, player_link__isnull=True)
                | models.Q(recorded_by__isnull=True, player_link__isnull=False),
                name="lateness_notice_recorded_by_one",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} late to {self.meet}"


class Group(models.Model):
    """A group at a meet, numbered from 1 at the top of the ladder."""

    meet = models.ForeignKey(Meet, on_delete=models.CASCADE, related_name="groups")
    number = models.PositiveSmallIntegerField()
    players: models.ManyToManyField[Player, GroupMember] = models.ManyToManyField(
        Player, through="GroupMember", related_name="+"
    )

    class Meta:
        ordering = ["meet", "number"]
        constraints = [
            models.UniqueConstraint(fields=["meet", "number"], name="group_number_once_per_meet"),
            models.CheckConstraint(condition=models.Q(number__gte=1), name="group_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.meet} group {self.number}"


class GroupMember(models.Model):
    """A player's place in a group, 1 = highest seed (the game-1 play order, R5.2-a)."""

    group = models.ForeignKey(Group, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="group_memberships")
    position = models.PositiveSmallIntegerField()

    class Meta:
        ordering = ["group", "position"]
        constraints = [
            models.UniqueConstraint(fields=["group", "player"], name="group_member_once"),
            models.UniqueConstraint(fields=["group", "position"], name="group_position_once"),
            models.CheckConstraint(
                condition=models.Q(position__gte=1, position__lte=4),
                name="group_position_1_to_4",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.position} in {self.group}"
