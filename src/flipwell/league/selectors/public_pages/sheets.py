"""A meet's printed score sheets, one per group.

Words:
- *sheet game*: a game on a printed sheet: its machine as far as known (game 1's drawn machine,
  the others blank until picked).
- *sheet group*: a group's printed sheet: players in ladder order, which is game 1's play order.
"""

from __future__ import annotations

from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.meet_board.values import (
    BoardGroup,
    NightLine,
)
from flipwell.league.selectors.public_pages.meets import GAMES_PER_MATCH, ScoreCell, group_view
from flipwell.league.selectors.public_pages.seasons import (
    MeetRef,
    NotFoundError,
    SeasonRef,
    season_ref,
)


@dataclass(frozen=True)
class SheetGame:
    """A game on a printed score sheet: its machine as far as known (game 1's drawn at the
    start, R5-a; a later game's once picked, R5-c; "" before), and once confirmed each
    player's score, place and points in the sheet's order (empty before)."""

    number: int
    machine: str
    cells: tuple[ScoreCell, ...] = ()


@dataclass(frozen=True)
class SheetGroup:
    """A group's printed score sheet: players in play order of game 1 (ladder order), the
    group row (for its QR), its four games, and once the match is over the night's totals
    by place."""

    group: m.Group
    players: tuple[str, ...]
    games: tuple[SheetGame, ...] = ()
    nights: tuple[NightLine, ...] = ()

    @property
    def machines(self) -> tuple[str, ...]:
        """Each game's machine title, "" for one not picked yet."""
        return tuple(game.machine for game in self.games)


@dataclass(frozen=True)
class SheetsPage:
    """A meet's printed score sheets, one per group."""

    league: m.League
    season: SeasonRef
    meet: MeetRef
    groups: tuple[SheetGroup, ...]
    games_per_match: int


def sheets_page(league: m.League, meet_id: int) -> SheetsPage:
    """A meet's groups for printing: players in ladder order, which is game 1's play order
    (R5.2-a), and each game's machine; once a game is confirmed, its scores, places and
    points, and once the match is over the night's totals (a closed meet's sheets print
    filled in). NotFoundError for another league's meet."""
    meet = (
        m.Meet.objects.select_related("season__league")
        .filter(pk=meet_id, season__league=league)
        .first()
    )
    if meet is None:
        raise NotFoundError(f"No meet {meet_id} in {league}.")
    groups = {g.pk: g for g in meet.groups.order_by("number")}
    board = meet_board(meet) if groups else None
    return SheetsPage(
        league=league,
        season=season_ref(meet.season),
        meet=MeetRef(meet.pk, meet.number, meet.date, meet.status),
        groups=tuple(_sheet_group(groups[g.id], g) for g in board.groups) if board else (),
        games_per_match=GAMES_PER_MATCH,
    )


def _sheet_group(row: m.Group, group: BoardGroup) -> SheetGroup:
    view = group_view(group, {})  # a printed sheet shows no chances
    games = {game.number: game for game in view.games}
    return SheetGroup(
        group=row,
        players=tuple(group.names[p] for p in group.players),
        games=tuple(
            SheetGame(
                number=n,
                machine=games[n].machine if n in games else "",
                cells=games[n].cells if n in games and games[n].confirmed else (),
            )
            for n in range(1, GAMES_PER_MATCH + 1)
        ),
        nights=view.ranked_nights if view.finished else (),
    )
