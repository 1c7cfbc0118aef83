"""The queries a season's facts are read from: one per kind of fact for the whole season (or
for its meets after a number), compiled once and run together (no query in a loop).

Words:
- *compensatory columns*: the columns of a compensatory game read with its game (its displayed
  score and the LO's subtractions).
"""

from __future__ import annotations

from flipwell.league import models as m
from flipwell.league.adapters.keys import PLAYED
from flipwell.league.derived.compiled import STAND_IN, CompiledQuery

COMPENSATORY_COLUMNS = (
    "game_id",
    "player_id",
    "new_score",
    "leading_subtracted",
    "state_subtracted",
)
"""A compensatory game's row: game, player, its score and the two amounts subtracted (R7.3-m..o)."""
STAND_INS = (STAND_IN, 32_111)
"""The queries' parameters when compiled: a season id, and a meet number no season reaches
within the number's column (`CompiledQuery`)."""


ENTRIES = {
    "entries": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.SeasonEntry.objects.filter(season_id=s)
            .order_by("id")
            .values_list(
                "player_id",
                "player__first_name",
                "player__last_name",
                "ifpa_rank_at_start",
                "joined_at_meet",
                "late_join_forfeits_countable",
            )
        ),
    ),
}
"""The season's entrants and when each joined: (season id, an unused meet number).
"""

MEET_QUERIES = {
    "meets": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.Meet.objects.filter(season_id=s, number__gt=n, status__in=PLAYED)
            .order_by("number")
            .values_list("id", "number", "group_override_reason", "status")
        ),
    ),
    "games": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.Game.objects.filter(
                group__meet__season_id=s,
                group__meet__number__gt=n,
                group__meet__status__in=PLAYED,
            )
            .order_by("group_id", "number")
            .values_list("id", "group_id", "machine__title")
        ),
    ),
    "sheets": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.ScoreLine.objects.filter(
                submission__game__group__meet__season_id=s,
                submission__game__group__meet__number__gt=n,
                submission__game__group__meet__status__in=PLAYED,
                submission__confirmed_by__isnull=False,
            )
            .order_by("submission__game_id", "submission__version")
            .values_list(
                "submission__game_id",
                "submission__version",
                "submission_id",
                "player_id",
                "machine_score",
            )
        ),
    ),
    # No ordering where none is needed: a model's own would join the game's group and meet.
    "discarded": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.DiscardedScore.objects.filter(
                game__group__meet__season_id=s, game__group__meet__number__gt=n
            )
            .order_by()
            .values_list("game_id", "version")
        ),
    ),
    "non_countable": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.Forfeit.objects.filter(
                game__group__meet__season_id=s, game__group__meet__number__gt=n, countable=False
            )
            .order_by()
            .values_list("game_id", "player_id")
        ),
    ),
    "tie_places": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.TieOrderPlace.objects.filter(
                tie_order__game__group__meet__season_id=s,
                tie_order__game__group__meet__number__gt=n,
            )
            .order_by("tie_order__game_id", "tie_order_id", "position")
            .values_list(
                "tie_order__game_id", "tie_order__submission_id", "tie_order_id", "player_id"
            )
        ),
    ),
    "compensatory": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.CompensatoryGame.objects.filter(
                game__group__meet__season_id=s, game__group__meet__number__gt=n
            )
            .order_by()
            .values_list(*COMPENSATORY_COLUMNS)
        ),
    ),
    "game_violations": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.Violation.objects.filter(
                game__group__meet__season_id=s, game__group__meet__number__gt=n
            )
            .order_by()
            .values_list(
                "game_id", "player_id", "kind", "serious", "last_allowable_ball", "slam_tilted"
            )
        ),
    ),
    # R3-d: who agreed to each applied correction, with what it corrected (base -> proposed).
    "corrections": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.CorrectionResponse.objects.filter(
                request__game__group__meet__season_id=s,
                request__game__group__meet__number__gt=n,
                request__status=m.CorrectionRequest.Status.APPLIED,
                agrees=True,
            )
            .order_by("request__game_id", "request__proposed__version", "created_at", "id")
            .values_list(
                "request__game_id",
                "request__base_id",
                "request__proposed_id",
                "request__override_by__username",
                "player_id",
            )
        ),
    ),
    "members": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.GroupMember.objects.filter(
                group__meet__season_id=s,
                group__meet__number__gt=n,
                group__meet__status__in=PLAYED,
            )
            .order_by("group__meet_id", "group__number", "position")
            .values_list("group_id", "group__meet_id", "player_id")
        ),
    ),
    "match_absences": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.MatchAbsence.objects.filter(
                group__meet__season_id=s,
                group__meet__number__gt=n,
                group__meet__status__in=PLAYED,
            )
            .order_by()
            .values_list("group_id", "player_id", "from_game")
        ),
    ),
    "absences": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.AnnouncedAbsence.objects.filter(
                meet__season_id=s, meet__number__gt=n, meet__status__in=PLAYED
            )
            .order_by()
            .values_list("meet_id", "player_id")
        ),
    ),
    "meet_violations": CompiledQuery(
        stand_ins=STAND_INS,
        build=lambda s, n: (
            m.Violation.objects.filter(
                meet__season_id=s, meet__number__gt=n, meet__status__in=PLAYED
            )
            .order_by("meet_id", "created_at", "id")
            .values_list(
                "meet_id",
                "player_id",
                "kind",
                "serious",
                "game__number",
                "games_completed",
                "target_game",
                "last_allowable_ball",
                "slam_tilted",
            )
        ),
    ),
}
"""The queries of the facts of a season's meets after a number: each of (season id, meet
number), compiled once. After 0: every meet; after a prefix's last meet: tonight's
(`flipwell.league.derived.results`)."""

SEASON_QUERIES = {**ENTRIES, **MEET_QUERIES}
"""The queries of `season_facts`: (season id, 0)."""
