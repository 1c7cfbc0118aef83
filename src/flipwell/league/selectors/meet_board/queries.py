"""The meet board's queries, each of one meet (its id), compiled once and run together, and the
rows they are read into.

Words:
- *counted sheet*: a game's highest confirmed score sheet, the one the fold counts.
- *members*: a group's players (id, name) in ladder order.
- *game row*: one game of a group with its counted sheet's machine scores.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.adapters.season_queries import COMPENSATORY_COLUMNS
from flipwell.league.derived.compiled import CompiledQuery
from flipwell.rules import (
    MatchResult,
    SeasonResult,
)


def members_by_group(group: m.Group) -> dict[int, list[tuple[int, str]]]:
    rows = m.GroupMember.objects.filter(group=group)
    return members_from(rows.order_by("position").values_list(*_MEMBER_COLUMNS))


def members_from(rows: Iterable[tuple[int, int, str, str]]) -> dict[int, list[tuple[int, str]]]:
    """Group id -> its players (id, name) in ladder order, from rows in that order."""
    found: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for group_id, player_id, first, last in rows:
        found[group_id].append((player_id, f"{first} {last}"))
    return found


@dataclass(frozen=True)
class GameRow:
    id: int
    group_id: int
    number: int
    machine_id: int
    machine: str
    chosen_by: int | None
    confirmed: dict[int, int | None] | None
    awaiting: bool


def games_by_group(group: m.Group) -> dict[int, list[GameRow]]:
    """Group id -> the group's games with their counted (highest confirmed) sheet (2
    queries)."""
    games = list(m.Game.objects.filter(group=group).order_by("number").values_list(*_GAME_COLUMNS))
    lines = (
        m.ScoreLine.objects.filter(submission__game_id__in=[g[0] for g in games])
        .order_by("submission__game_id", "submission__version")
        .values_list(*_LINE_COLUMNS)
    )
    return games_from(games, lines)


def games_from(
    games: Iterable[tuple[int, int, int, int, str, int | None]],
    lines: Iterable[tuple[int, int, int | None, int, int | None]],
) -> dict[int, list[GameRow]]:
    """Group id -> its games with their counted (highest confirmed) sheet, from the games in
    group and game order and their score lines in game and version order."""
    counted: dict[int, tuple[int, dict[int, int | None]]] = {}
    latest_version: dict[int, tuple[int, bool]] = {}
    for game_id, version, confirmed_by, player_id, score in lines:
        latest_version[game_id] = (version, confirmed_by is not None)
        if confirmed_by is None:
            continue
        if game_id not in counted or counted[game_id][0] < version:
            counted[game_id] = (version, {})
        counted[game_id][1][player_id] = score
    found: dict[int, list[GameRow]] = defaultdict(list)
    for game_id, group_id, number, machine_id, title, chosen_by in games:
        sheet = counted.get(game_id)
        found[group_id].append(
            GameRow(
                id=game_id,
                group_id=group_id,
                number=number,
                machine_id=machine_id,
                machine=title,
                chosen_by=chosen_by,
                confirmed=None if sheet is None else sheet[1],
                awaiting=sheet is None and game_id in latest_version,
            )
        )
    return found


def meet_matches(result: SeasonResult, number: int) -> dict[frozenset[str], MatchResult]:
    if number > len(result.meets):
        return {}
    return {frozenset(match.players): match for match in result.meets[number - 1].matches}


_MEMBER_COLUMNS = ("group_id", "player_id", "player__first_name", "player__last_name")
_GAME_COLUMNS = ("id", "group_id", "number", "machine_id", "machine__title", "chosen_by_id")
_LINE_COLUMNS = (
    "submission__game_id",
    "submission__version",
    "submission__confirmed_by_id",
    "player_id",
    "machine_score",
)


MACHINE_QUERIES = {
    "machines": CompiledQuery(
        lambda meet: (
            m.Machine.objects.filter(league__seasons__meets=meet)
            .order_by("pk")
            .values_list("pk", "title", "balls_per_game", "status")
        )
    ),
    "declarations": CompiledQuery(
        lambda meet: (
            m.MachineDeclaration.objects.filter(meet_id=meet)
            .order_by("created_at", "id")
            .values_list("machine_id", "kind")
        )
    ),
    "in_use": CompiledQuery(
        lambda meet: (
            m.Game.objects.filter(group__meet_id=meet)
            .exclude(submissions__confirmed_by__isnull=False)
            .order_by("group__number")
            .values_list("machine_id", "group__number")
        )
    ),
}


LATE_QUERIES = {
    "late_joins": CompiledQuery(
        lambda meet: (
            m.LateJoin.objects.filter(game__group__meet_id=meet)
            .order_by()
            .values_list("game__group_id", "player_id")
        )
    ),
    "late_forfeits": CompiledQuery(
        lambda meet: (
            m.Forfeit.objects.filter(game__group__meet_id=meet, reason=m.Forfeit.Reason.LATE)
            .order_by()
            .values_list("game__group_id", "player_id")
        )
    ),
}


COMPENSATORY_QUERIES = {
    "requested": CompiledQuery(
        lambda meet: (
            m.CompensatoryRequest.objects.filter(game__group__meet_id=meet)
            .order_by("created_at", "id")  # the order the LO granted them in
            .values_list("game__group_id", "game_id", "player_id")
        )
    ),
    "compensatory": CompiledQuery(
        lambda meet: (
            m.CompensatoryGame.objects.filter(game__group__meet_id=meet)
            .order_by()
            .values_list(*COMPENSATORY_COLUMNS)
        )
    ),
}


BOARD_QUERIES = {
    "groups": CompiledQuery(
        lambda meet: (
            m.Group.objects.filter(meet_id=meet).order_by("number").values_list("id", "number")
        )
    ),
    "members": CompiledQuery(
        lambda meet: (
            m.GroupMember.objects.filter(group__meet_id=meet)
            .order_by("group_id", "position")
            .values_list(*_MEMBER_COLUMNS)
        )
    ),
    "games": CompiledQuery(
        lambda meet: (
            m.Game.objects.filter(group__meet_id=meet)
            .order_by("group_id", "number")
            .values_list(*_GAME_COLUMNS)
        )
    ),
    "lines": CompiledQuery(
        lambda meet: (
            m.ScoreLine.objects.filter(submission__game__group__meet_id=meet)
            .order_by("submission__game_id", "submission__version")
            .values_list(*_LINE_COLUMNS)
        )
    ),
    "match_absences": CompiledQuery(
        lambda meet: (
            m.MatchAbsence.objects.filter(group__meet_id=meet)
            .order_by()
            .values_list("group_id", "player_id", "from_game")
        )
    ),
    **MACHINE_QUERIES,
    **LATE_QUERIES,
    **COMPENSATORY_QUERIES,
}
"""Every query of `meet_board`: thirteen, answered in one round trip on PostgreSQL."""
