"""One game's facts as the rules take them, for a write or a sheet: its malfunctions, announced
problems, who plays it, absences and forfeits, a pending sheet's facts, a playoff game.

Words:
- *pending game facts*: the facts a game will have once a sheet waiting for confirmation is
  confirmed (the fold scores it as if it were).
- *absent at*: the players recorded absent for the rest of the match (R2.4-a) from a game on.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from flipwell.league import models as m
from flipwell.league.adapters.keys import Score, player_key
from flipwell.league.adapters.season_facts import score_adjustments
from flipwell.league.adapters.season_queries import COMPENSATORY_COLUMNS
from flipwell.league.enums import SERIOUS_MALFUNCTION_KINDS, one_of
from flipwell.rules import (
    Compensatory,
    GameFacts,
    PlayoffGame,
)
from flipwell.rules.malfunctions import AnnouncedProblem, Malfunction


def serious_malfunctions(game: m.Game) -> list[Malfunction]:
    """The game's major and catastrophic malfunctions, as the rules take them (R7.3-k)."""
    rows = m.Malfunction.objects.filter(
        game=game, kind__in=(m.Malfunction.Kind.MAJOR, m.Malfunction.Kind.CATASTROPHIC)
    ).values_list("player_id", "ball", "kind")
    return [
        Malfunction(player_key(p), ball, one_of(kind, SERIOUS_MALFUNCTION_KINDS, field="kind"))
        for p, ball, kind in rows
    ]


def announced_problems(meet: m.Meet, machine: m.Machine, key: str) -> list[AnnouncedProblem]:
    """The problems the LO announced on `machine` (the rules' machine `key`) before play at
    `meet` (R7.3-g)."""
    problems = m.AnnouncedProblem.objects.filter(meet=meet, machine=machine)
    return [AnnouncedProblem(key, text) for text in problems.values_list("problem", flat=True)]


def players_playing(game: m.Game, members: Iterable[int]) -> list[str]:
    """The player keys of the group's `members` who did not forfeit `game`."""
    forfeited = forfeited_in(game)
    return [player_key(p) for p in members if p not in forfeited]


def match_absences(group_ids: Iterable[int]) -> dict[int, dict[int, int]]:
    """Group id -> its players recorded absent for the rest of the match -> the first game
    they are absent for (R2.4-a; 1 query)."""
    found: dict[int, dict[int, int]] = defaultdict(dict)
    rows = m.MatchAbsence.objects.filter(group_id__in=list(group_ids)).order_by()
    for group_id, player_id, from_game in rows.values_list("group_id", "player_id", "from_game"):
        found[group_id][player_id] = from_game
    return dict(found)


def absent_at(absences: Mapping[int, int], number: int) -> set[int]:
    """The players of `absences` (player id -> first game absent) absent at game `number`."""
    return {p for p, first in absences.items() if first <= number}


def forfeited_in(game: m.Game) -> set[int]:
    """The players who forfeit `game`: its recorded forfeits (R2.4-a, R2.3-a), and the
    players recorded absent for the rest of the match from this game or an earlier one, whose
    forfeit of it follows from that one fact (2 queries)."""
    forfeited = set(m.Forfeit.objects.filter(game=game).values_list("player_id", flat=True))
    absent = match_absences([game.group_id]).get(game.group_id, {})
    return forfeited | absent_at(absent, game.number)


def pending_game_facts(
    game_id: int, title: str, sheet: Mapping[int, int | None], ties: Iterable[Iterable[int]]
) -> GameFacts:
    """The facts game `game_id` (on the machine titled `title`) will have once `sheet`, its
    entered and not yet confirmed sheet with its tie orders `ties`, is confirmed (R3-a): its
    compensatory games (R7.3-m), its violations' score changes (§8) and its non-countable
    forfeits, as `season_facts` loads them for a confirmed game (3 queries)."""
    compensatory = m.CompensatoryGame.objects.filter(game_id=game_id).order_by()
    violations = m.Violation.objects.filter(game_id=game_id).order_by()
    non_countable = m.Forfeit.objects.filter(game_id=game_id, countable=False).order_by()
    reduced, zeroed = score_adjustments(
        violations.values_list(
            "game_id", "player_id", "kind", "serious", "last_allowable_ball", "slam_tilted"
        )
    ).get(game_id, (frozenset(), {}))
    return GameFacts(
        machine=title,
        scores=sheet_facts(sheet),
        tie_order=tie_order_facts(ties),
        compensatory={
            player_key(p): Compensatory(new, leading, state)
            for _, p, new, leading, state in compensatory.values_list(*COMPENSATORY_COLUMNS)
        },
        reduced=reduced,
        zeroed=zeroed,
        non_countable=frozenset(
            player_key(p) for p in non_countable.values_list("player_id", flat=True)
        ),
    )


def sheet_facts(sheet: Mapping[int, Score]) -> dict[str, Score]:
    """A score sheet (player id -> machine score, None for a forfeit) by player key."""
    return {player_key(p): score for p, score in sheet.items()}


def tie_order_facts(ties: Iterable[Iterable[int]]) -> tuple[tuple[str, ...], ...]:
    """Tie orders (player ids, winner first) by player key."""
    return tuple(tuple(player_key(p) for p in order) for order in ties)


def playoff_game(
    machine_id: int | str,
    *,
    order: Sequence[int] | None = None,
    scores: Mapping[int, int] | None = None,
    tie_orders: Sequence[Sequence[int]] = (),
) -> PlayoffGame:
    """A playoff game's result on machine `machine_id` as the rules take it (R6.3-a, A54):
    its finishing order (player ids, winner first), or else every present player's machine
    score with, for equal scores, the one-ball playoff's orders (winner first)."""
    if order is not None:
        return PlayoffGame(machine=str(machine_id), order=tuple(player_key(p) for p in order))
    facts = sheet_facts(scores or {})
    return PlayoffGame(machine=str(machine_id), scores=facts, tie_order=tie_order_facts(tie_orders))
