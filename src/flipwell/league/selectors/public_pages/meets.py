"""A meet's public board (`meet_page`): each group as a reader sees it (the package's words).

Words:
- *score cell*: one player's score in one game: the ranking score (None: forfeit or not
  entered), the place and the game line's adjustments.
- *panel line*: a player as a group's panel (the TV) lists them: in play order while the match
  goes on, by place once it is over.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.selectors import ratings
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.meet_board.values import (
    Adjustment,
    BoardGame,
    BoardGroup,
    CompensatoryParts,
    MeetBoard,
    NightLine,
)
from flipwell.league.selectors.public_pages.seasons import (
    MeetRef,
    NotFoundError,
    SeasonRef,
    season_ref,
)


@dataclass(frozen=True)
class ScoreCell:
    """One player's score in one game: the ranking score (None: forfeit or not entered), with
    the score entered and its parts when they differ (a compensatory game, R7.3-m)."""

    player: str
    score: int | None
    place: int | None
    entered: int | None = None
    compensatory: CompensatoryParts | None = None
    adjustments: tuple[str, ...] = ()
    points: int | None = None
    """Game points, bonus point included (R3.2), once the game is confirmed."""
    changes: tuple[Adjustment, ...] = ()
    """Each adjustment from the entered score to the one that counts (the game line's)."""

    @property
    def adjusted(self) -> bool:
        """The ranking score is not the score entered."""
        return self.score != self.entered or bool(self.adjustments)


@dataclass(frozen=True)
class GameView:
    """A game of a group: its machine and, once confirmed, every score with its place."""

    number: int
    machine: str
    confirmed: bool
    awaiting_confirmation: bool
    cells: tuple[ScoreCell, ...]
    machine_id: int = 0
    """The machine's id, for a link to its page (0: none)."""


@dataclass(frozen=True)
class PanelLine:
    """A player as a group's panel (the TV) lists them: in play order while the match goes
    on, with the night's points so far (None before a game is confirmed); by place once the
    match is over, with the night's total (R3.3-a, `night_places`)."""

    name: str
    points: int | None
    place: int | None = None


@dataclass(frozen=True)
class GroupView:
    """A group on the meet board (see the module docstring)."""

    id: int
    number: int
    players: tuple[str, ...]
    """In the order they play the current or next game; once the match is over (no next
    game), in ladder order."""
    late: tuple[str, ...]
    games: tuple[GameView, ...]
    now: str
    """Where the match stands, in one sentence."""
    machine: str
    """The machine being played, or "" between games."""
    next_picker: str
    finished: bool
    nights: tuple[NightLine, ...] = ()
    """Each player's points of the night so far; the match bonus once finished (R3.3-a)."""
    lines: tuple[PanelLine, ...] = ()
    """The group's players as its TV panel lists them (see `PanelLine`)."""
    chances: tuple[tuple[str, int], ...] = ()
    """Before the match is over: each player of the game being played, or of the next one,
    with his chance in percent to win it from the ratings (`flipwell.league.selectors.ratings`;
    computed, not stored); best chance first."""

    @property
    def ranked_nights(self) -> tuple[NightLine, ...]:
        """`nights` by place once the match is over (equal places in ladder order), else in
        ladder order."""
        return tuple(sorted(self.nights, key=lambda line: line.place or 0))


@dataclass(frozen=True)
class MeetPage:
    """A meet's board as the public sees it."""

    league: m.League
    season: SeasonRef
    meet: MeetRef
    groups: tuple[GroupView, ...]
    machines_in_use: tuple[tuple[str, int], ...]
    """(machine title, group number) for every machine in play."""
    unplayable: tuple[str, ...]


def meet_page(league: m.League, meet_id: int) -> MeetPage:
    """A meet's board with words for where each group stands; NotFoundError if not ours."""
    meet = (
        m.Meet.objects.select_related("season__league")
        .filter(pk=meet_id, season__league=league)
        .first()
    )
    if meet is None:
        raise NotFoundError(f"No meet {meet_id} in {league}.")
    return board_page(league, meet, meet_board(meet))


GAMES_PER_MATCH = 4


def board_page(league: m.League, meet: m.Meet, board: MeetBoard) -> MeetPage:
    playing = [g for g in board.groups if not g.finished]
    chances = dict(
        zip(
            [g.id for g in playing],
            ratings.win_chances_in_games([g.play_order or g.players for g in playing]),
            strict=True,
        )
    )
    groups = tuple(group_view(group, chances.get(group.id, {})) for group in board.groups)
    return MeetPage(
        league=league,
        season=season_ref(meet.season),
        meet=MeetRef(meet.pk, meet.number, meet.date, meet.status),
        groups=groups,
        machines_in_use=tuple(
            sorted(((board.machines[k], g) for k, g in board.in_use.items()), key=lambda x: x[1])
        ),
        unplayable=tuple(sorted(board.machines[k] for k in board.unplayable)),
    )


def _score_cells(game: BoardGame, group: BoardGroup) -> tuple[ScoreCell, ...]:
    """A game's cells in the group's order: once confirmed, each player's game line (the score
    that counts, with its parts, place and points); empty cells before."""
    lines = {cell.player: cell for cell in game.cells}
    cells = []
    for p in group.players:
        line = lines.get(p)
        cells.append(
            ScoreCell(
                player=group.names[p],
                score=None if line is None else line.score,
                place=None if line is None else line.place,
                entered=None if line is None else line.entered,
                compensatory=None if line is None else line.compensatory,
                adjustments=() if line is None else line.adjustments,
                points=None if line is None else line.points,
                changes=() if line is None else line.changes,
            )
        )
    return tuple(cells)


def group_view(group: BoardGroup, chances: Mapping[int, float]) -> GroupView:
    names = group.names
    games = tuple(
        GameView(
            number=game.number,
            machine=game.machine,
            machine_id=game.machine_id,
            confirmed=game.confirmed,
            awaiting_confirmation=game.awaiting_confirmation,
            cells=_score_cells(game, group),
        )
        for game in group.games
    )
    current = group.games[-1] if group.games and not group.games[-1].confirmed else None
    picker = names.get(group.next_picker, "") if group.next_picker is not None else ""
    if group.finished:
        now = "Match finished."
    elif current is not None and current.awaiting_confirmation:
        now = (
            f"Game {current.number} on {current.machine}: scores entered, waiting to be confirmed."
        )
    elif current is not None:
        now = f"Game {current.number} on {current.machine}: being played."
    elif not group.games:
        now = "Waiting for the first machine."
    elif group.waiting_for:
        waiting = ", ".join(names[p] for p in group.waiting_for)
        now = f"Waiting for a compensatory game: {waiting}."
    elif picker:
        now = f"{picker} picks the machine for game {len(group.games) + 1}."
    else:
        now = f"The league official picks the machine for game {len(group.games) + 1}."
    return GroupView(
        id=group.id,
        number=group.number,
        players=tuple(names[p] for p in group.play_order or group.players),
        late=tuple(names[p] for p in group.players if p in group.late),
        games=games,
        now=now,
        machine=current.machine if current is not None else "",
        next_picker=picker,
        finished=group.finished,
        nights=group.nights,
        lines=_panel_lines(group),
        chances=tuple(
            (names[p], round(100 * c)) for p, c in sorted(chances.items(), key=lambda x: -x[1])
        ),
    )


def _panel_lines(group: BoardGroup) -> tuple[PanelLine, ...]:
    """`GroupView.lines`: the result by place once the match is over (equal places in
    ladder order), else the play order with the points so far."""
    nights = {line.player: line for line in group.nights}
    if group.finished and nights:
        ranked = sorted(group.nights, key=lambda line: line.place or 0)  # as `ranked_nights`
        return tuple(PanelLine(line.name, line.night_total, line.place) for line in ranked)
    return tuple(
        PanelLine(group.names[p], nights[p].night_total if p in nights else None)
        for p in group.play_order or group.players
    )
