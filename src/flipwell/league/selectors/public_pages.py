"""What the public pages, the TV and the printed sheets show: one selector per page.

Words:
- *current season*: the season being played (`flipwell.league.selectors.seasons`); its
  standings are the league's home page. A season being prepared is listed nowhere until its
  first meet starts (its own address still shows it).
- *playoff season*: the newest season with a playoff night; the playoffs page shows it.
- *group view*: a group of the meet board as a reader sees it: players in the order they play
  the current (or next) game, every game's scores in the group's order with each player's
  place, and one sentence saying where the match stands (who picks the next machine).
- *league staff*: a superuser or a user with a role (official or scorekeeper) in the league;
  only they see the score-sheet QR codes (a code is a key to a group's score sheet).

Nothing private is returned: no ledger, no rulings' notes, no official's name. Every selector
runs a fixed number of queries whatever the league's size.
"""

from __future__ import annotations

import datetime
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser

from flipwell.league import models as m
from flipwell.league.selectors import people, ratings
from flipwell.league.selectors.machine_history import (
    MachineSheet,
    machine_histories,
    sheets_open_first,
)
from flipwell.league.selectors.machines import maintenance_sheet
from flipwell.league.selectors.machines import stored_special_rulings as _stored_rulings
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.meet_board.values import (
    Adjustment,
    BoardGame,
    BoardGroup,
    CompensatoryParts,
    MeetBoard,
    NightLine,
)
from flipwell.league.selectors.playoffs import PlayoffBracket, playoff_bracket
from flipwell.league.selectors.seasons import being_prepared, current_of, seasons_newest_first
from flipwell.league.selectors.standings import (
    PlayerHistory,
    PlayerRef,
    StandingLine,
    Standings,
    player_history,
    standings,
)
from flipwell.rules import RuleError, SpecialRuling, rulings_for


class NotFoundError(LookupError):
    """The page's object does not exist in this league (the view answers 404)."""


@dataclass(frozen=True)
class SeasonRef:
    """A season as listed: id, name, length."""

    id: int
    name: str
    number_of_meets: int


@dataclass(frozen=True)
class MeetRef:
    """A meet as listed: id, number, date and status (planned, open, closed)."""

    id: int
    number: int
    date: datetime.date
    status: str


@dataclass(frozen=True)
class SeasonPage:
    """A season's standings page: the table, the race, the meets and the other seasons."""

    league: m.League
    season: SeasonRef
    seasons: tuple[SeasonRef, ...]
    meets: tuple[MeetRef, ...]
    standings: Standings
    has_playoffs: bool

    @property
    def open_meet(self) -> MeetRef | None:
        """The meet being played tonight, if any."""
        return next((meet for meet in self.meets if meet.status == m.Meet.Status.OPEN), None)

    @property
    def chart_series(self) -> tuple[tuple[str, tuple[Fraction, ...]], ...]:
        """Each player's running total after each meet, standings order (for the chart)."""
        return tuple((line.player.name, line.points_after_meet) for line in self.standings.lines)


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


@dataclass(frozen=True)
class PlayerPage:
    """One player's season, every point explained in words with names."""

    league: m.League
    season: SeasonRef
    seasons: tuple[SeasonRef, ...]
    """The league's seasons this player is entered in."""
    history: PlayerHistory
    rank: int | None
    person: PlayerRef
    """The person as shown (their own row's name, whichever row played this season)."""
    also_as: tuple[str, ...]
    """Other names the person was entered under (rows merged into theirs), if any."""
    stats: people.PlayerStats
    standing: StandingLine | None = None
    """His line in the season's standings (his place in the playoff race); None: not in it."""
    standings: Standings | None = None
    """The season's standings the line is read from."""


@dataclass(frozen=True)
class HighScoresPage:
    """The league's high scores: each machine title's best scores that stood as displayed."""

    league: m.League
    machines: tuple[people.MachineHighScores, ...]


@dataclass(frozen=True)
class PlayoffsPage:
    """The newest playoff night of the league (or of the season asked for)."""

    league: m.League
    season: SeasonRef | None
    seasons: tuple[SeasonRef, ...]
    """Seasons with a playoff night, newest first."""
    bracket: PlayoffBracket | None


@dataclass(frozen=True)
class MachineView:
    """A machine of the league with the special rulings in force on its title (RA-a)."""

    id: int
    title: str
    location: str
    balls_per_game: int
    status: str
    rulings: tuple[SpecialRuling, ...]


@dataclass(frozen=True)
class MachinesPage:
    """Every machine of the league and its special rulings."""

    league: m.League
    machines: tuple[MachineView, ...]


@dataclass(frozen=True)
class MaintenancePage:
    """The league's maintenance sheet (R7.3-u): machines with open problems first."""

    league: m.League
    machines: tuple[MachineSheet, ...]


@dataclass(frozen=True)
class MachinePage:
    """One machine's page: where it stands, its history, problems and reliability (R7.3-u)."""

    league: m.League
    machine: m.Machine
    sheet: MachineSheet


@dataclass(frozen=True)
class TvPage:
    """Everything the venue's TV rotates through."""

    league: m.League
    season: SeasonRef | None
    meet: MeetPage | None
    """Tonight's meet (the open one), else None."""
    standings: Standings | None
    bracket: PlayoffBracket | None
    """The newest playoff night's bracket, once its divisions are drawn, while it is news
    (see `tv_page`)."""
    sheet_groups: tuple[m.Group, ...] = ()
    """Tonight's groups, for their score-sheet QR codes: only when the viewer is league
    staff, else empty."""
    bracket_season: SeasonRef | None = None
    """The season whose playoffs `bracket` is (the TV names it)."""


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


# --- Pages ---------------------------------------------------------------------------------


def league_list() -> tuple[m.League, ...]:
    """Every league hosted here, by name (one query)."""
    return tuple(m.League.objects.order_by("name"))


def league_by_slug(slug: str) -> m.League:
    """The league with this slug; NotFoundError when there is none (one query)."""
    league = m.League.objects.filter(slug=slug).first()
    if league is None:
        raise NotFoundError(f"No league {slug!r}.")
    return league


def season_page(league: m.League, season_id: int | None = None) -> SeasonPage | None:
    """The standings page of a season (the current one when `season_id` is None).

    None when the league has no season yet; NotFoundError for another league's season.
    """
    seasons = _seasons(league)
    if not seasons:
        if season_id is not None:
            raise NotFoundError(f"No season {season_id} in {league}.")
        return None
    season = _pick(seasons, season_id)
    ref = _season_ref(season)
    prepared = being_prepared(seasons)
    meets = tuple(
        MeetRef(pk, number, date, status)
        for pk, number, date, status in season.meets.order_by("number").values_list(
            "id", "number", "date", "status"
        )
    )
    return SeasonPage(
        league=league,
        season=ref,
        seasons=tuple(_season_ref(s) for s in seasons if s.pk not in prepared),
        meets=meets,
        standings=standings(season),
        has_playoffs=m.PlayoffNight.objects.filter(season=season).exists(),
    )


def meet_page(league: m.League, meet_id: int) -> MeetPage:
    """A meet's board with words for where each group stands; NotFoundError if not ours."""
    meet = (
        m.Meet.objects.select_related("season__league")
        .filter(pk=meet_id, season__league=league)
        .first()
    )
    if meet is None:
        raise NotFoundError(f"No meet {meet_id} in {league}.")
    return _meet_page(league, meet, meet_board(meet))


def player_page(league: m.League, player_id: int, season_id: int | None = None) -> PlayerPage:
    """One person's season (the newest they are entered in that is not being prepared, or
    `season_id`) and their statistics over every season of this league, their merged rows'
    seasons included.

    NotFoundError if they are not entered in a season of this league; MergedPlayerError
    (naming the person's own row) when `player_id` is a row merged into another.
    """
    try:
        who = people.person(player_id)
    except people.PersonNotFoundError as error:
        raise NotFoundError(str(error)) from error
    entries = list(
        m.SeasonEntry.objects.filter(season__league=league, player_id__in=who.ids)
        .select_related("season")
        .order_by("-season__created_at", "-season__pk")
    )
    if not entries:
        raise NotFoundError(f"Player {player_id} plays in no season of {league}.")
    entered = [entry.season for entry in entries]
    prepared = being_prepared(_seasons(league))
    shown = [s for s in entered if s.pk not in prepared]
    season = _pick(entered, season_id, default=(shown or entered)[0])
    row_id = next(entry.player_id for entry in entries if entry.season_id == season.pk)
    player = next(row for row in who.rows if row.pk == row_id)
    try:
        history = player_history(season, player)
    except RuleError as error:
        raise NotFoundError(str(error)) from error
    table = standings(season)
    line = next((line for line in table.lines if line.player.id == row_id), None)
    rank = line.rank if line else None
    return PlayerPage(
        league=league,
        season=_season_ref(season),
        seasons=tuple(_season_ref(s) for s in shown or entered),
        history=history,
        rank=rank,
        person=who.ref,
        also_as=tuple(sorted({str(row) for row in who.rows} - {who.ref.name})),
        stats=people.player_stats(who, league=league),
        standing=line,
        standings=table,
    )


def high_scores_page(league: m.League) -> HighScoresPage:
    """The league's best machine scores per machine title, every season (4 queries)."""
    return HighScoresPage(league=league, machines=people.league_high_scores(league))


def playoffs_page(league: m.League, season_id: int | None = None) -> PlayoffsPage:
    """The playoff night of a season (the newest with one when `season_id` is None)."""
    with_night = list(
        m.Season.objects.filter(league=league, playoff_night__isnull=False).order_by(
            "-created_at", "-pk"
        )
    )
    if not with_night:
        if season_id is not None:
            raise NotFoundError(f"No playoff night for season {season_id} in {league}.")
        return PlayoffsPage(league, None, (), None)
    season = _pick(with_night, season_id, default=with_night[0])
    return PlayoffsPage(
        league=league,
        season=_season_ref(season),
        seasons=tuple(_season_ref(s) for s in with_night),
        bracket=playoff_bracket(season),
    )


def machines_page(league: m.League) -> MachinesPage:
    """The league's machines with the league's special rulings in force on their titles (2
    queries)."""
    rulings = _stored_rulings(league)
    machines = m.Machine.objects.filter(league=league).order_by("title", "id")
    return MachinesPage(
        league=league,
        machines=tuple(
            MachineView(
                id=machine.pk,
                title=machine.title,
                location=machine.location,
                balls_per_game=machine.balls_per_game,
                status=machine.status,
                rulings=rulings_for(machine.title, rulings=rulings),
            )
            for machine in machines
        ),
    )


def maintenance_page(league: m.League) -> MaintenancePage:
    """The league's maintenance sheet (R7.3-u)."""
    return MaintenancePage(league=league, machines=sheets_open_first(maintenance_sheet(league)))


def machine_page(league: m.League, machine_id: int) -> MachinePage:
    """One machine of `league` with its history (NotFoundError for another league's)."""
    machine = league_machine(league, machine_id)
    (sheet,) = machine_histories(league, machine_id=machine.pk)
    return MachinePage(league=league, machine=machine, sheet=sheet)


def league_machine(league: m.League, machine_id: int) -> m.Machine:
    """The machine `machine_id` of `league` (NotFoundError for none or another league's)."""
    machine = m.Machine.objects.filter(league=league, pk=machine_id).first()
    if machine is None:
        raise NotFoundError(f"No machine {machine_id} in {league}.")
    return machine


def tv_page(league: m.League, viewer: AbstractBaseUser | AnonymousUser) -> TvPage:
    """Tonight's groups and machines, the current standings and the newest bracket; with
    the groups' rows for their QR codes when `viewer` is league staff."""
    season = current_of(_seasons(league))
    if season is None:
        return TvPage(league, None, None, None, None)
    meet = m.Meet.objects.filter(season=season, status=m.Meet.Status.OPEN).first()
    night_season = _bracket_season(league, season)
    bracket = playoff_bracket(night_season) if night_season is not None else None
    return TvPage(
        league=league,
        season=_season_ref(season),
        meet=_meet_page(league, meet, meet_board(meet)) if meet is not None else None,
        standings=standings(season),
        bracket=bracket if bracket is not None and bracket.divisions else None,
        sheet_groups=tuple(meet.groups.order_by("number"))
        if meet is not None and is_league_staff(viewer, league)
        else (),
        bracket_season=_season_ref(night_season) if night_season is not None else None,
    )


def _bracket_season(league: m.League, current: m.Season) -> m.Season | None:
    """The season whose bracket the TV shows: the newest playoff night's, unless a newer
    season has begun its meets (then last season's playoffs are history, not tonight's news:
    the public playoffs page keeps them)."""
    night_season = (
        m.Season.objects.filter(league=league, playoff_night__qualifiers__isnull=False)
        .order_by("-created_at", "-pk")
        .first()
    )
    if night_season is None or night_season.pk == current.pk:
        return night_season
    started = current.meets.exclude(status=m.Meet.Status.PLANNED).exists()
    return None if started else night_season


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
        season=_season_ref(meet.season),
        meet=MeetRef(meet.pk, meet.number, meet.date, meet.status),
        groups=tuple(_sheet_group(groups[g.id], g) for g in board.groups) if board else (),
        games_per_match=GAMES_PER_MATCH,
    )


def _sheet_group(row: m.Group, group: BoardGroup) -> SheetGroup:
    view = _group_view(group, {})  # a printed sheet shows no chances
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


def is_league_staff(user: AbstractBaseUser | AnonymousUser, league: m.League) -> bool:
    """A superuser, or a user with a role in `league` (one query at most)."""
    if not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    return m.LeagueOfficial.objects.filter(user_id=user.pk, league=league).exists()


# --- Helpers -------------------------------------------------------------------------------

GAMES_PER_MATCH = 4


def _seasons(league: m.League) -> list[m.Season]:
    """The league's seasons, newest first, annotated ``begun`` (one query)."""
    return list(seasons_newest_first(league))


def _pick(
    seasons: list[m.Season], season_id: int | None, *, default: m.Season | None = None
) -> m.Season:
    """The season `season_id` among `seasons`; without an id, `default` or else the current
    season (`seasons` then annotated and newest first, as `_seasons` returns them)."""
    if season_id is None:
        chosen = default or current_of(seasons)
        assert chosen is not None, "no season to pick from"
        return chosen
    for season in seasons:
        if season.pk == season_id:
            return season
    raise NotFoundError(f"No season {season_id} here.")


def _season_ref(season: m.Season) -> SeasonRef:
    return SeasonRef(season.pk, season.name, season.number_of_meets)


def _meet_page(league: m.League, meet: m.Meet, board: MeetBoard) -> MeetPage:
    playing = [g for g in board.groups if not g.finished]
    chances = dict(
        zip(
            [g.id for g in playing],
            ratings.win_chances_in_games([g.play_order or g.players for g in playing]),
            strict=True,
        )
    )
    groups = tuple(_group_view(group, chances.get(group.id, {})) for group in board.groups)
    return MeetPage(
        league=league,
        season=_season_ref(meet.season),
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


def _group_view(group: BoardGroup, chances: Mapping[int, float]) -> GroupView:
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


__all__ = [
    "GameView",
    "GroupView",
    "MachinesPage",
    "MaintenancePage",
    "MeetPage",
    "MeetRef",
    "NotFoundError",
    "PlayerPage",
    "PlayerRef",
    "PlayoffsPage",
    "SeasonPage",
    "SeasonRef",
    "SheetGame",
    "SheetGroup",
    "SheetsPage",
    "TvPage",
    "is_league_staff",
    "league_by_slug",
    "league_list",
    "machines_page",
    "maintenance_page",
    "meet_page",
    "player_page",
    "playoffs_page",
    "season_page",
    "sheets_page",
    "tv_page",
]
