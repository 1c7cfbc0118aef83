"""A request body as the keyword arguments of the service it is for: one contract per use case.

Words: a write's body schema names each attribute as the service's keyword; where the field
sent is named otherwise (``season_id`` for the service's ``season``), the attribute carries
the name sent as its *alias*, so the wire and the OpenAPI document keep it. `resolved` passes
every attribute through once; a *lookup* turns what was sent into what the service takes
(an id into its row, a list of lines into a mapping). An id that names nothing, or another
league's machine, is a 422 on the field as sent (`flipwell.api.queries`); players, seasons and
games are checked by the service, as its rules say. A field and a service keyword that do not
match make the call a ``TypeError`` (tests/api/test_arguments.py finds it without a request).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from typing import Any, Protocol

from pydantic import BaseModel

from flipwell.api import queries
from flipwell.league import models as m


class Lookup(Protocol):
    """What a field sent (never null) becomes for the service; `field` is its name as sent
    (a dotted path inside the body), for a refusal."""

    def __call__(self, value: Any, /, *, field: str) -> Any: ...


def resolved(payload: BaseModel, /, **lookups: Lookup) -> dict[str, Any]:
    """The body's fields by their attributes' names, each field in `lookups` through its
    lookup (a null stays null). A nested object or a list of them must go through a lookup:
    a schema never reaches a service."""
    fields = type(payload).model_fields
    stray = sorted(lookups.keys() - fields.keys())
    if stray:
        raise TypeError(f"{type(payload).__name__} has no field {', '.join(stray)}")
    arguments: dict[str, Any] = {}
    for name, info in fields.items():
        value = getattr(payload, name)
        lookup = lookups.get(name)
        if lookup is not None and value is not None:
            value = lookup(value, field=info.alias or name)
        elif _holds_schema(value):
            raise TypeError(f"{type(payload).__name__}.{name} needs a lookup")
        arguments[name] = value
    return arguments


def _holds_schema(value: Any) -> bool:
    if isinstance(value, (list, tuple)):
        return any(_holds_schema(item) for item in value)
    return isinstance(value, BaseModel)


PLAYER: Lookup = queries.player
"""A player by id (players belong to no one league: the service checks they may play)."""

PLAYERS: Lookup = queries.players
"""Players by id, in their order (422 on ``field.N``)."""

GAME: Lookup = queries.game
"""A game by id (the service checks it is of the meet)."""

SEASON: Lookup = queries.season
"""A season by id (the service checks it is of the league)."""


def machine_of(league: m.League) -> Lookup:
    """The league's machine by id: another league's is a 422 on the field."""
    return partial(queries.machine, league)


def each(lookup: Lookup) -> Lookup:
    """A list, each item through `lookup` (a refusal on ``field.N...``)."""

    def items(values: Sequence[Any], *, field: str) -> list[Any]:
        return [lookup(value, field=f"{field}.{i}") for i, value in enumerate(values)]

    return items


def by_player(attribute: str) -> Lookup:
    """Lines naming a player's id, as player id -> the line's `attribute` (scores, balls)."""

    def mapping(lines: Sequence[Any], *, field: str) -> dict[int, Any]:
        return {line.player: getattr(line, attribute) for line in lines}

    return mapping


def scores_of_players(lines: Sequence[Any], *, field: str) -> dict[m.Player, int]:
    """Lines ``{player, machine_score}`` as player row -> score (422 on ``field.N.player``)."""
    rows = queries.players([line.player for line in lines], field=field, key="player")
    return dict(zip(rows, (line.machine_score for line in lines), strict=True))
