"""The playoff night's state both playoff service modules read: the locked night, its
machine-draw seeds, the machines busy or unplayable, and a random machine draw (R6.1-e, R6.4-b,
R6.5-b, A44).
"""

from __future__ import annotations

import zlib

from flipwell.league import models as m
from flipwell.league.refusals import ConflictError
from flipwell.league.selectors.playoffs.facts import PlayoffFacts
from flipwell.league.services._edge import rules_edge
from flipwell.rules.playoff_machines import draw_tiebreaker_machine


def locked_night(season: m.Season) -> m.PlayoffNight:
    """The season's playoff night, locked for the service's transaction; refused before it is
    qualified."""
    night = m.PlayoffNight.objects.select_for_update().filter(season=season).first()
    if night is None:
        raise ConflictError(
            f"{season.name} has no playoff night yet: qualify the players first.",
            code="no_playoff_night",
        )
    return night


def begin_night(night: m.PlayoffNight) -> None:
    """The playoff night is open from its first game or recorded no-show on (§6)."""
    if night.status == m.PlayoffNight.Status.PLANNED:
        night.status = m.PlayoffNight.Status.OPEN
        night.save(update_fields=["status"])


def draw_seed(night: m.PlayoffNight, what: str) -> int:
    """A draw's seed: the night's recorded seed and what is drawn, so it can be repeated."""
    return (night.machine_draw_seed or 0) + zlib.crc32(what.encode())


def busy_machines(facts: PlayoffFacts, *, exclude: tuple[str, str]) -> list[str]:
    """Machines with a game in progress in another match (R5-d)."""
    return sorted(
        {
            str(game.machine_id)
            for name, div in facts.divisions.items()
            for match, game in div.in_progress.items()
            if (name, match) != exclude
        }
    )


def unplayable_machines(season: m.Season) -> list[str]:
    """The league's machines marked unplayable, as machine keys."""
    return [
        str(pk)
        for pk in m.Machine.objects.filter(
            league=season.league, status=m.Machine.Status.UNPLAYABLE
        ).values_list("id", flat=True)
    ]


def drawn_machine(
    night: m.PlayoffNight, what: str, tiebreaker: bool, facts: PlayoffFacts | None = None
) -> m.Machine:
    """A machine drawn at random for `what` (the night's seed and `what`) among the league's
    playable machines not busy in another match (R6.1-e, R6.5-b, A44)."""
    machines = (
        facts.machines
        if facts is not None
        else {
            str(pk): title
            for pk, title in m.Machine.objects.filter(league_id=night.season.league_id).values_list(
                "id", "title"
            )
        }
    )
    with rules_edge("machine", code="tiebreaker_machine_refused", message=str):
        key = draw_tiebreaker_machine(
            list(machines),
            seed=draw_seed(night, what),
            busy=busy_machines(facts, exclude=("", "")) if facts is not None else (),
            unplayable=unplayable_machines(night.season),
        )
    return m.Machine.objects.get(pk=int(key))
