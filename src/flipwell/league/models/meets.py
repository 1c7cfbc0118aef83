"""Meets, attendance notices and the groups a meet was played in.

Words:
- *meet*: one league night of a season, numbered from 1. *planned* before it starts, *open*
  while it is played (at most one per season), *closed* after. Its *first-machine draw seed*
  is the random seed that drew each group's first machine (R5-a), kept so the draw can be
  repeated. *started_at* is the meet's start, the reference for tardiness (R2.1-a).
- *announced absence*: the LO was told before the meet that a player will not come (R3.1-d).
- *lateness notice*: the LO was told that a player will be late; only a notice told before the
  start is announced tardiness (R2.2-a). Both are *announcements* (`Announcement`): one per
  meet and player, told to an official or through the player's personal link.
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


class Announcement(models.Model):
    """What the LO was told about a player and a meet (an absence, a lateness), and when: told
    to an official, who recorded it, or by the player through their personal link."""

    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="+")
    recorded_at = models.DateTimeField(default=timezone.now)
    recorded_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    player_link = models.ForeignKey(
        "league.PlayerLink", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    """Set when the player told it themselves through their personal link (then no
    `recorded_by`): the same fact as when the LO records it."""

    class Meta:
        abstract = True

    @staticmethod
    def constraints_named(prefix: str) -> list[models.BaseConstraint]:
        """Told once per meet and player (``<prefix>_once``), recorded by an official or
        through the player's link, never both (``<prefix>_recorded_by_one``). Each model
        gives its own prefix: constraint names are unique across the database."""
        return [
            models.UniqueConstraint(fields=["meet", "player"], name=f"{prefix}_once"),
            models.CheckConstraint(
                condition=models.Q(recorded_by__isnull=False, player_link__isnull=True)
                | models.Q(recorded_by__isnull=True, player_link__isnull=False),
                name=f"{prefix}_recorded_by_one",
            ),
        ]


class AnnouncedAbsence(Announcement):
    """The LO was told a player will miss a meet (R3.1-d); recorded with who and when."""

    meet = models.ForeignKey(Meet, on_delete=models.CASCADE, related_name="announced_absences")

    class Meta:
        constraints = Announcement.constraints_named("announced_absence")

    def __str__(self) -> str:
        return f"{self.player} absent from {self.meet}"


class LatenessNotice(Announcement):
    """The LO was told that a player will be late; `recorded_at` is when he was told. Told
    before the start, it is announced tardiness and the group waits (R2.2-a); told later, it
    is not, and §2.3 applies when the player arrives."""

    meet = models.ForeignKey(Meet, on_delete=models.CASCADE, related_name="lateness_notices")

    class Meta:
        constraints = Announcement.constraints_named("lateness_notice")

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
