"""Cutting a season short: ending it after its last meet started, or lowering its number of
meets once play has begun (R2-a, A68: a venue closes for a month, a storm cancels a night).

Words (`flipwell.rules.season_length`): the *cut* lowers the season's number of meets, never
below the meets started; the planned meets beyond the new number are *cancelled* with it (or
the cut is refused while one is scheduled, `Ruleset.season_cut_planned_meets`). The official's
reason is kept as a ruling (who, when, why). The season's fold reads its number of meets, so
the cut refolds it: the playoff race's meets left and clinched, and the IFPA's meets, follow.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.derived.results import season_fold
from flipwell.league.refusals import ConflictError
from flipwell.league.services._edge import require_reason
from flipwell.league.services._protocol import official_write
from flipwell.rules import SeasonCut, season_cut

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class CutSeason:
    """A season cut short: the season, what the cut changed (None: nothing, the season had
    that number of meets already) and the planned meets cancelled with it (their numbers)."""

    season: m.Season
    cut: SeasonCut | None
    cancelled: tuple[int, ...] = ()


def cut_season(
    *, season: m.Season, number_of_meets: int, reason: str | None, actor: User
) -> CutSeason:
    """Lower `season`'s number of meets to `number_of_meets`, saying why (R2-a, A68): to end
    it early, the number of meets started. Never below the meets started (an open meet is
    played out or closed unfinished, A52). Safe to retry: a season that has that number of
    meets already is left as it is, and nothing is written.

    Side effects: the Season's number of meets, the planned meets beyond it deleted with their
    announced absences and lateness notices (A68.1), a Ruling ``season_cut``, the season's
    refold (the race and eligibility follow, R6.1-d) and an audit event ``season.cut`` (old and
    new number, the meets cancelled, the reason). Raises PermissionDenied unless `actor` is a
    league official of its league; ValidationError on ``number_of_meets`` for a number below
    the meets started or not below the season's, on ``reason`` without one; ConflictError
    ``meets_scheduled`` while a planned meet is beyond it under the reading that refuses it.
    """
    with official_write(
        league=season.league,
        actor=actor,
        action="cut a season short",
        field="number_of_meets",
    ) as write:
        season = m.Season.objects.select_for_update().select_related("league").get(pk=season.pk)
        if season.number_of_meets == number_of_meets:
            return CutSeason(season, None)  # already cut: a retry writes nothing
        why = require_reason(reason, field="reason", what="Cutting a season short")
        folded = season_fold(season)  # stored at the season's revision: not folded again
        ruleset = season_ruleset(season)  # the readings of the row just locked
        cut = season_cut(
            folded.facts, number_of_meets=number_of_meets, ruleset=ruleset, result=folded.result
        )
        planned = list(
            season.meets.select_for_update()
            .filter(number__gt=number_of_meets, status=m.Meet.Status.PLANNED)
            .order_by("number")
        )
        if planned and ruleset.season_cut_planned_meets == "refused":
            raise ConflictError(
                {
                    "number_of_meets": f"Meet {planned[0].number} of {season.name} is "
                    f"scheduled: cancel it before the season has {number_of_meets} meets (A68)."
                },
                code="meets_scheduled",
            )
        old = season.number_of_meets
        cancelled = tuple(meet.number for meet in planned)
        for meet, data in _cancelled(planned, why):
            write.event("meet.cancelled", meet, data)
        m.Meet.objects.filter(pk__in=[meet.pk for meet in planned]).delete()  # and notices
        season.number_of_meets = number_of_meets
        season.save(update_fields=["number_of_meets"])
        write.season = season  # the fold reads the number of meets: refolded once, at the end
        subject = f"{season}: {old} meets cut to {number_of_meets}"[:200]
        write.ruling(kind="season_cut", subject=subject, reason=why)
        data = {"from": old, "to": number_of_meets, "cancelled": list(cancelled), "reason": why}
        write.event("season.cut", season, data)
    return CutSeason(season, cut, cancelled)


def _cancelled(planned: list[m.Meet], why: str) -> list[tuple[m.Meet, dict[str, object]]]:
    """Each planned meet cancelled by a cut (a copy: the delete clears its id) and its audit
    data: what it was and the notices it takes with it (two queries for all of them)."""
    ids = [meet.pk for meet in planned]
    absences: dict[int, list[int]] = {pk: [] for pk in ids}
    lateness: dict[int, list[int]] = {pk: [] for pk in ids}
    for meet_id, player_id in m.AnnouncedAbsence.objects.filter(meet_id__in=ids).values_list(
        "meet_id", "player_id"
    ):
        absences[meet_id].append(player_id)
    for meet_id, player_id in m.LatenessNotice.objects.filter(meet_id__in=ids).values_list(
        "meet_id", "player_id"
    ):
        lateness[meet_id].append(player_id)
    return [
        (
            copy.copy(meet),
            {
                "number": meet.number,
                "date": meet.date.isoformat(),
                "reason": why,
                "by_season_cut": True,
                "absences_removed": absences[meet.pk],
                "lateness_notices_removed": lateness[meet.pk],
            },
        )
        for meet in planned
    ]
