"""Use case of a playoff match's tiebreaker (R6.5): record the order a tiebreaker game gave
the match's tied players.

Words: see `flipwell.league.services.playoff_matches.match_facts`. A *tiebreaker* is one game
between a match's players tied on points (R6.5-a), on a machine drawn at random from every
playable machine (R6.5-b, A44) unless the official names the one it was played on.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.refusals import ConflictError
from flipwell.league.services._edge import league_changed
from flipwell.league.services._playoff_night import drawn_machine
from flipwell.league.services._protocol import official_write
from flipwell.league.services.playoff_matches.match_facts import (
    check_record,
    match_facts,
    match_row,
)
from flipwell.rules.playoff_matches import PlayoffGame

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class RecordedTiebreaker:
    """A recorded tiebreaker game (R6.5-a): the stored Tiebreaker and its places, winner
    first."""

    tiebreaker: m.Tiebreaker
    places: list[m.TiebreakerPlace]


def record_playoff_tiebreaker(
    *,
    season: m.Season,
    division: str,
    match: str,
    order: Sequence[m.Player],
    actor: User,
    machine: m.Machine | None = None,
) -> RecordedTiebreaker:
    """Record a tiebreaker game's finishing order for tied players of a match (R6.5-a, A40).

    order: the tied players, winner first. machine: where it was played; None draws it at
    random from every playable machine (R6.5-b, A44). Side effects: inserts the Tiebreaker
    (purpose match) with its places and an audit event ``playoffs.tiebreaker_recorded``;
    returns both (`RecordedTiebreaker`).
    Raises PermissionDenied unless `actor` is a league official, and ValidationError
    (nothing written) when the match needs no tiebreaker or the order is not its tie.
    """
    with official_write(league=season.league, actor=actor, action="run the playoffs") as write:
        league_changed(season.league_id)
        night, facts, div, state = match_facts(season, division, match)
        if state.status != "tiebreaker_needed":
            raise ConflictError(
                {"match": f"{match} needs no tiebreaker ({state.needed or 'it is complete'})."},
                code="no_tiebreaker_needed",
            )
        drawn = machine or drawn_machine(night, f"{division}:{match}:tiebreaker", True, facts)
        game = PlayoffGame(machine=str(drawn.pk), order=tuple(player_key(p.pk) for p in order))
        check_record(season, div, match, lambda r: replace(r, tiebreakers=(*r.tiebreakers, game)))
        row = match_row(night, division, match)
        tiebreaker = m.Tiebreaker.objects.create(
            playoff_night=night,
            purpose=m.Tiebreaker.Purpose.MATCH,
            match=row,
            machine=drawn,
            recorded_by=actor,
        )
        places = m.TiebreakerPlace.objects.bulk_create(
            m.TiebreakerPlace(tiebreaker=tiebreaker, player=p, place=i)
            for i, p in enumerate(order, 1)
        )
        data = {"match": match, "order": [p.pk for p in order], "machine": drawn.pk}
        write.event("playoffs.tiebreaker_recorded", tiebreaker, data)
    return RecordedTiebreaker(tiebreaker=tiebreaker, places=places)
