"""How the rules name a league's players and machines.

Words:
- *player key*: how the rules name a player: his database id as a string (`str(player.pk)`).
- *machine key*: how the rules name a machine here: its title and id, unique and readable in
  messages (`machine_key`; `machine_id_of` reads the id back).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from flipwell.league import models as m

PLAYED = (m.Meet.Status.OPEN, m.Meet.Status.CLOSED)
Score = TypeVar("Score", int, int | None)


def player_key(player_id: int) -> str:
    """The rules' name for a player (a string, as flipwell.rules requires)."""
    return str(player_id)


def machine_key(machine_id: int, title: str) -> str:
    """How the rules name a machine here: its title and id, unique and readable in messages."""
    return f"{title} #{machine_id}"


def machine_id_of(key: str) -> int:
    """The machine id in a `machine_key`."""
    return int(key.rsplit("#", 1)[1])


def machines_played(games: Iterable[tuple[int, str]]) -> list[str]:
    """The rules' names (`machine_key`) of the machines of a group's games, from (machine id,
    title) rows in play order: what the §5 rules need to know the group played (R5-d)."""
    return [machine_key(machine_id, title) for machine_id, title in games]
