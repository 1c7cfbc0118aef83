"""A meet's records read back: its forfeits, malfunctions, compensatory games, violations and
the officials' rulings about its games, each with who recorded it, when and why.

Words:
- *record*: one stored fact of the meet (a row an official, a scorekeeper or a client wrote),
  or a forfeit that follows from one (a sheet's forfeit box, an absence for the rest of the
  match), as `console.meet_forfeits` finds them.
- *the fold's result*: what the rules derive from the records, read from the season fold, never
  from stored numbers: the score a compensatory game makes count (the meet board's game line),
  a violation's §8.5 penalty (its decision in the fold, `MeetResult.decisions`).

Each function runs a fixed number of queries whatever the meet's size (the API's pages of them
are pages of the lists returned here).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from django.db.models import Q, QuerySet

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.derived.results import season_fold
from flipwell.league.selectors.console import MeetForfeit, meet_forfeits
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.rules.violation_penalties import PenaltyDecision

ForfeitSource = Literal["recorded", "score_sheet", "match_absence"]


@dataclass(frozen=True)
class ForfeitRecord:
    """A forfeit of one game of the meet (§2.4): where it comes from (`source`: recorded by an
    official or a client, the sheet's forfeit box, or an absence for the rest of the match,
    R2.4-a), whether it counts toward the season forfeit (R2.4-g, R2.4-h), and the recorded
    row's reason, note, author and time (empty for the other sources)."""

    forfeit: MeetForfeit
    source: ForfeitSource
    row: m.Forfeit | None


def forfeit_records(meet: m.Meet) -> tuple[ForfeitRecord, ...]:
    """Every forfeit of `meet`, by group, game and player (`console.meet_forfeits`, with the
    recorded rows' authors; 5 queries)."""
    found = []
    for forfeit in meet_forfeits(meet):
        source: ForfeitSource = "recorded"
        if forfeit.on_sheet:
            source = "score_sheet"
        elif forfeit.match_absence:
            source = "match_absence"
        found.append(ForfeitRecord(forfeit, source, forfeit.recorded))
    return tuple(found)


def malfunction_records(meet: m.Meet) -> QuerySet[m.Malfunction]:
    """The malfunctions recorded at `meet`, each with its game, group, machine, player and
    official (one query per page)."""
    return m.Malfunction.objects.filter(game__group__meet=meet).select_related(
        "game__group", "game__machine", "player", "official"
    )


@dataclass(frozen=True)
class CompensatoryRecord:
    """A compensatory game of the meet (R7.3-k): granted (`request`), played (`played`: its
    displayed score and what the official subtracted, R7.3-m..o), and the score that counts in
    the game as the fold decides it (`counts`: None until the game's scores are confirmed)."""

    game: m.Game
    player: m.Player
    request: m.CompensatoryRequest | None
    played: m.CompensatoryGame | None
    entered: int | None
    counts: int | None


def compensatory_records(meet: m.Meet) -> tuple[CompensatoryRecord, ...]:
    """Every compensatory game granted or played at `meet`, by group, game and player (2
    queries and the meet board's)."""
    related = ("game__group", "player", "official")
    requests = {
        (r.game_id, r.player_id): r
        for r in m.CompensatoryRequest.objects.filter(game__group__meet=meet).select_related(
            *related
        )
    }
    played = {
        (g.game_id, g.player_id): g
        for g in m.CompensatoryGame.objects.filter(game__group__meet=meet).select_related(*related)
    }
    lines = _game_lines(meet) if requests or played else {}
    found = []
    for key in requests.keys() | played.keys():
        row = played.get(key) or requests[key]
        entered, counts = lines.get(key, (None, None))
        found.append(
            CompensatoryRecord(
                row.game, row.player, requests.get(key), played.get(key), entered, counts
            )
        )
    return tuple(sorted(found, key=lambda c: (c.game.group.number, c.game.number, c.player.pk)))


def _game_lines(meet: m.Meet) -> Mapping[tuple[int, int], tuple[int | None, int | None]]:
    """(game id, player id) -> the score entered and the score that counts, from the board's
    game lines (the fold's), for each confirmed game of `meet`."""
    board = meet_board(meet)
    return {
        (game.id, line.player): (line.entered, line.score)
        for group in board.groups
        for game in group.games
        for line in game.cells
    }


@dataclass(frozen=True)
class ViolationRecord:
    """A violation recorded at the meet (§8) and its §8.5 penalty as the season fold decides it
    now (None while the fold has not folded the meet)."""

    violation: m.Violation
    penalty: PenaltyDecision | None


def violation_records(meet: m.Meet) -> tuple[ViolationRecord, ...]:
    """The meet's violations in the order they were recorded (the fold's order), each with its
    decision in the fold (the fold's queries and one)."""
    rows = list(
        m.Violation.objects.filter(meet=meet)
        .select_related("player", "game__group", "official")
        .order_by("created_at", "id")
    )
    decisions: tuple[PenaltyDecision, ...] = ()
    if rows:
        folded = season_fold(meet.season).result
        result = next((r for r in folded.meets if r.number == meet.number), None)
        decisions = () if result is None else result.decisions
    if len(decisions) != len(rows):
        return tuple(ViolationRecord(row, None) for row in rows)
    for row, decision in zip(rows, decisions, strict=True):
        if decision.violator != player_key(row.player_id):
            raise AssertionError(f"the fold's violations of meet {meet.pk} are not the stored")
    return tuple(ViolationRecord(row, d) for row, d in zip(rows, decisions, strict=True))


def ruling_records(meet: m.Meet) -> QuerySet[m.Ruling]:
    """The officials' rulings about `meet`: about one of its games (a turn ruling, a
    malfunction's ruling, a forfeit designated not countable, a violation ruled
    accidental...) or about the meet itself (a grouping override, closing it unfinished, its
    date), each with its game, group, player and official (one query per page)."""
    return m.Ruling.objects.filter(Q(meet=meet) | Q(game__group__meet=meet)).select_related(
        "game__group", "player", "official"
    )
