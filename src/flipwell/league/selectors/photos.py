"""Score photos as pages and the API show them: the photos kept (not removed) of some games.

Words: see `flipwell.league.models.photos`. *Taken by*: the player who sent it; else "the
league official" for one sent by a signed-in account (the console, an API token), "a player"
for one sent from the sheet by a player who did not say.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime

from django.db.models import QuerySet

from flipwell.league import models as m

BY_OFFICIAL = "the league official"
BY_PLAYER = "a player"


@dataclass(frozen=True)
class PhotoRef:
    """A kept photo of a game: its key (the page builds its address), who took it, when, and
    its size in pixels."""

    key: str
    game_id: int
    game_number: int
    group_id: int
    taken_by: str
    taken_at: datetime
    width: int
    height: int


def game_photos(game_ids: Iterable[int]) -> Mapping[int, tuple[PhotoRef, ...]]:
    """The kept photos of each game of `game_ids`, oldest first (one query)."""
    found: dict[int, list[PhotoRef]] = defaultdict(list)
    for ref in _refs(_kept().filter(game_id__in=list(game_ids))):
        found[ref.game_id].append(ref)
    return {game_id: tuple(refs) for game_id, refs in found.items()}


def meet_photos(meet: m.Meet) -> tuple[PhotoRef, ...]:
    """The kept photos of every game of `meet`, by group, game, then oldest first (one
    query)."""
    return _refs(_kept().filter(game__group__meet=meet))


@dataclass(frozen=True)
class Removal:
    """The photos of a meet an official removed: how many, the last removal, by whom."""

    count: int
    at: datetime | None
    by: str


def meet_removal(meet: m.Meet) -> Removal:
    """The removed photos of `meet` (count 0: none was removed)."""
    removed = m.ScorePhoto.objects.filter(game__group__meet=meet, removed_at__isnull=False)
    last = removed.select_related("removed_by").order_by("-removed_at").first()
    if last is None:
        return Removal(count=0, at=None, by="")
    return Removal(count=removed.count(), at=last.removed_at, by=str(last.removed_by))


def _kept() -> QuerySet[m.ScorePhoto]:
    return m.ScorePhoto.objects.filter(removed_at__isnull=True)


def _refs(rows: QuerySet[m.ScorePhoto]) -> tuple[PhotoRef, ...]:
    ordered = rows.select_related("uploaded_by", "game").order_by(
        "game__group_id", "game__number", "created_at", "pk"
    )
    return tuple(
        PhotoRef(
            key=row.key,
            game_id=row.game_id,
            game_number=row.game.number,
            group_id=row.game.group_id,
            taken_by=_taken_by(row),
            taken_at=row.created_at,
            width=row.width,
            height=row.height,
        )
        for row in ordered
    )


def _taken_by(row: m.ScorePhoto) -> str:
    if row.uploaded_by is not None:
        return str(row.uploaded_by)
    return BY_OFFICIAL if row.recorded_by_id is not None else BY_PLAYER


def kept_photo(key: str) -> m.ScorePhoto | None:
    """The kept photo of `key`, with its game's group, meet, season and league; None for a
    key that names no photo or a removed one."""
    return (
        m.ScorePhoto.objects.select_related("game__group__meet__season__league")
        .filter(key=key, removed_at__isnull=True)
        .first()
    )
