"""Selector results and rows -> the API's JSON shapes (`flipwell.api.schemas`).

Only reshaping happens here: every number was computed by a selector from the rules.
League points become a number and an exact fraction string (``number_and_exact``).
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from typing import Any

from flipwell.api.schemas.common import as_exact, as_number
from flipwell.league.selectors.standings import (
    PlayerRef,
)
from flipwell.rules import (
    PlayoffQualification,
)


def points(value: Fraction | int, name: str = "league_points") -> dict[str, Any]:
    """``{name: number, name_exact: fraction}``."""
    return {name: as_number(value), f"{name}_exact": as_exact(value)}


def ref(player: PlayerRef) -> dict[str, Any]:
    return {"id": player.id, "name": player.name}


def refs(players: Iterable[PlayerRef]) -> list[dict[str, Any]]:
    return [ref(p) for p in players]


# --- writes' answers (`flipwell.api.schemas`) ------------------------------------------


def player_ids(keys: Iterable[str]) -> list[int]:
    """The rules' player keys (strings) as player ids."""
    return [int(k) for k in keys]


def qualification(value: PlayoffQualification) -> dict[str, Any]:
    return {
        "league_size": value.league_size,
        "cut": value.cut,
        "divisions": [
            {
                "name": d.name,
                "first_rank": d.first_rank,
                "last_rank": d.last_rank,
                "bracket": d.bracket,
            }
            for d in value.divisions
        ],
        "seedings": [
            {
                "division": s.division.name,
                "seeds": [None if p is None else int(p) for p in s.seeds],
            }
            for s in value.seedings
        ],
        "reserves": player_ids(value.reserves),
        "ties": [
            {
                "players": player_ids(t.players),
                **points(t.points, "points"),
                "line": t.line,
                "message": t.message,
            }
            for t in value.ties
        ],
        "complete": value.complete,
    }
