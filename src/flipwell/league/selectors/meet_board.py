"""The meet board: what a league night looks like right now, for the LO's screen and the TV.

Words:
- *board*: every group of a meet with its players (ladder order), its games (machine, who chose
  it, confirmed scores, finishing order), who picks the next machine and the play order of the
  game being played or about to be.
- *in use*: a machine with a game of the open meet whose scores are not confirmed yet (flipwell
  does not track the ball being played, so such a machine is never "on its final ball", R5-d).
- *late player*: a player who arrived after their group began play (§2.3): they joined a game
  in progress (a `LateJoin`) or forfeited one as late.
- *ranking score*: the machine score a game ranks a player by (R3.2-a): the score entered, plus
  a compensatory game's (R7.3-m, less what the LO subtracted, R7.3-n/o), reduced by 25%
  (R8.1-b) or set to zero (R8.2-a, R8.7-a) as the season fold says. It differs from the score
  entered only when such an adjustment applies; `adjustments` say why, in words with names.

- *game line* (`RankingLine`): one player's line of a confirmed game, the fold's
  (`flipwell.rules.game_lines`): the score that counts, the score entered, each adjustment
  between them (compensatory, subtracted, reduced, zeroed, penalty, forfeited) in plain words
  with its rule apart, the place and the game points.

The meet board is THE derived view of a meet's games: every screen and API read that shows a
game's scores, places or points (public board and TV, score sheet, console, printed sheets
and results, the API's meet and game reads, exports) reads them here, never from the stored
sheet lines (tests/test_one_view.py holds that rule). Everything derived (finishing orders, game
lines, the picker, the play order) comes from flipwell.rules: the finishing orders and game
lines from the season fold, so compensatory games, zero scores and penalties count.
`meet_board` runs a fixed number of queries whatever the meet's size.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from flipwell.league import models as m
from flipwell.league.adapters import (
    COMPENSATORY_COLUMNS,
    machine_id_of,
    machine_key,
    player_key,
    season_ruleset,
)
from flipwell.league.compiled import CompiledQuery, Rows, rows_together
from flipwell.league.results import SeasonFold, season_fold
from flipwell.rules import (
    THE_LO,
    GameLine,
    GameOutcome,
    MachineState,
    MatchFacts,
    MatchResult,
    PlayedGame,
    RuleError,
    Ruleset,
    ScoreChangeKind,
    SeasonResult,
    machine_picker,
    meet_game_lines,
    night_places,
    play_order,
    scores_adjusted_at,
)
from flipwell.rules.corrections import CORRECTION_RULE

GAMES_PER_MATCH = 4


@dataclass(frozen=True)
class CompensatoryParts:
    """A compensatory game's part of a ranking score (R7.3-m..o): its displayed score, and
    the leading and game-state points the LO subtracted from it."""

    new_score: int
    subtracted: int


@dataclass(frozen=True)
class Adjustment:
    """One change the rules made to an entered score: its kind (compensatory, subtracted,
    reduced, zeroed, penalty, forfeited), the signed change where it has one, plain words with
    names, and the rule behind it (shown only in a "why")."""

    kind: ScoreChangeKind
    amount: int | None
    text: str
    rule: str


@dataclass(frozen=True)
class RankingLine:
    """One player's game line (see the module's words): the score entered, the score that
    counts, and its parts when they differ (`changes`, and `adjustments`: every why in words,
    each with its rule)."""

    player: int
    name: str
    entered: int | None
    score: int | None
    """The score that counts (None: no score, a forfeit)."""
    compensatory: CompensatoryParts | None
    adjustments: tuple[str, ...]
    points: int = 0
    """The player's game points for this game, bonus point included (R3.2; 0 for a
    forfeit, R2.4-b)."""
    place: int | None = None
    """His place in the game (1 = first); None when not ranked (a forfeit)."""
    changes: tuple[Adjustment, ...] = ()
    """Each adjustment from the entered score to the one that counts, in order."""

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """The rules behind the changes, each once (the "why")."""
        return tuple(dict.fromkeys(c.rule for c in self.changes))

    @property
    def adjusted(self) -> bool:
        """The ranking score is not the score entered."""
        return self.score != self.entered or bool(self.adjustments)


@dataclass(frozen=True)
class BoardGame:
    """One game of a group: machine, chooser, and once confirmed each player's game line
    (`cells`: what every reader shows) and the finishing order (see the module docstring)."""

    id: int
    number: int
    machine_id: int
    machine: str
    chosen_by: int | None
    confirmed: bool
    entered_scores: Mapping[int, int | None] | None
    """The counted sheet as entered (None until confirmed): a fact the game lines are built
    from, not what a reader shows (`cells` has the score that counts beside it)."""
    finishing_order: tuple[int, ...]
    awaiting_confirmation: bool
    """A score sheet was entered and waits for another player's confirmation (R3-a)."""
    ranking_scores: Mapping[int, int | None] | None = None
    """Player id -> the score the game ranks them by (None: no score); None until confirmed."""
    cells: tuple[RankingLine, ...] = ()
    """Once confirmed: each player's game line, in the group's ladder order."""
    compensatory: Mapping[int, CompensatoryParts] = field(default_factory=dict)
    """Player id -> his compensatory game recorded for this game (R7.3-m), confirmed or not."""


@dataclass(frozen=True)
class NightLine:
    """One player's league points of the night so far: game points, and once the match is
    finished its match bonus (R3.3-a; None before: the bonus is decided by all four games)
    and the player's place in the group's night (`night_places`)."""

    player: int
    name: str
    game_points: int
    match_bonus: int | None
    night_total: int
    place: int | None = None


@dataclass(frozen=True)
class BoardGroup:
    """A group at the meet and where its match stands."""

    id: int
    number: int
    players: tuple[int, ...]
    names: Mapping[int, str]
    games: tuple[BoardGame, ...]
    late: frozenset[int]
    next_picker: int | None
    """Who picks the machine of the next game (R5-c, A21, A24); None while a game is played,
    once the match is over, or when nobody can (nobody played the last game)."""
    play_order: tuple[int, ...]
    """The order of the game being played, or of the next game once its machine is chosen;
    empty once the match is over (no next game, `play_order`)."""
    waiting_for: tuple[int, ...]
    """Players whose compensatory game the group waits for (R7.3-p)."""
    nights: tuple[NightLine, ...] = ()
    """Each player's points of the night, ladder order; empty before a game is confirmed."""
    official_picks: bool = False
    """Nobody played the last (confirmed) game, so the LO chooses or draws the next machine
    (A66)."""

    @property
    def finished(self) -> bool:
        """All four games have confirmed scores."""
        return _finished(self.games)


def _finished(games: Sequence[BoardGame]) -> bool:
    return len(games) == GAMES_PER_MATCH and all(g.confirmed for g in games)


def _nights(
    match: MatchResult | None, names: Mapping[int, str], *, finished: bool
) -> tuple[NightLine, ...]:
    """Each player's night so far from the fold's match (R3.3-a, A19)."""
    if match is None or not match.games:
        return ()
    places = night_places(match) if finished else {}
    lines = []
    for p, name in names.items():
        line = match.players[player_key(p)]
        bonus = line.match_bonus if finished else None
        lines.append(
            NightLine(
                player=p,
                name=name,
                game_points=sum(line.game_points),
                match_bonus=bonus,
                night_total=sum(line.game_points) + (bonus or 0),
                place=places.get(player_key(p)),
            )
        )
    return tuple(lines)


@dataclass(frozen=True)
class MeetBoard:
    """A meet's board: its groups and its machines."""

    meet_id: int
    number: int
    status: str
    groups: tuple[BoardGroup, ...]
    machines: Mapping[int, str]
    in_use: Mapping[int, int]
    """Machine id -> the group number playing on it."""
    unplayable: frozenset[int]


def meet_board(meet: m.Meet) -> MeetBoard:
    """The board of `meet` (a fixed number of queries; no writes)."""
    result: SeasonResult | None = None
    folded = board_fold(meet)
    ruleset = folded.ruleset
    if meet.status != m.Meet.Status.PLANNED:
        result = folded.result
    rows = rows_together(_BOARD, meet.pk)
    members = _members_from(rows["members"])
    games = _games_from(rows["games"], rows["lines"])
    states = _machine_states_from(rows, open_meet=meet.status == m.Meet.Status.OPEN)
    late = _late_players_from(rows)
    waiting = _open_compensatory_from(rows)
    compensatory = _compensatory_from(rows["compensatory"])
    matches = _matches(result, meet.number) if result is not None else {}
    lines = (
        meet_game_lines(folded.facts, result, meet.number, ruleset=ruleset)
        if result is not None
        else {}
    )
    facts = (
        {frozenset(x.players): x for x in folded.facts.meets[meet.number - 1].groups}
        if result is not None and meet.number <= len(folded.facts.meets)
        else {}
    )
    board_groups = []
    for group_id, group_number in rows["groups"]:
        players = tuple(pid for pid, _ in members.get(group_id, ()))
        names = dict(members.get(group_id, ()))
        key = frozenset(player_key(p) for p in players)
        match = matches.get(key)
        group_games = games.get(group_id, [])
        counted = _fold_games(group_games, facts.get(key))
        board_games = tuple(
            _board_game(
                g, match, names, compensatory.get(g.id, {}), lines.get(key, ()), counted.get(g.id)
            )
            for g in group_games
        )
        played = played_games(board_games)
        group_late = late.get(group_id, frozenset())
        board_groups.append(
            BoardGroup(
                id=group_id,
                number=group_number,
                players=players,
                names=names,
                games=board_games,
                late=group_late,
                next_picker=_next_picker(board_games, played, group_late, ruleset),
                play_order=_play_order(players, board_games, played, group_late, ruleset),
                waiting_for=tuple(waiting.get(group_id, ())),
                nights=_nights(match, names, finished=_finished(board_games)),
                official_picks=_official_picks(board_games, played, ruleset),
            )
        )
    return MeetBoard(
        meet_id=meet.pk,
        number=meet.number,
        status=meet.status,
        groups=tuple(board_groups),
        machines={machine_id_of(s.machine): t for s, t in states},
        in_use={
            machine_id_of(s.machine): s.in_use_by for s, _ in states if s.in_use_by is not None
        },
        unplayable=frozenset(machine_id_of(s.machine) for s, _ in states if s.unplayable),
    )


def board_game(game: m.Game) -> BoardGame | None:
    """`game` as its meet's board shows it (the board's queries; None for a game of a meet not
    started)."""
    if game.group.meet.status == m.Meet.Status.PLANNED:
        return None
    board = meet_board(game.group.meet)
    return next((g for grp in board.groups for g in grp.games if g.id == game.pk), None)


def game_play_order(game: m.Game) -> tuple[int, ...]:
    """The play order of `game` (player ids, first to play first, R5.2): that of game 1 in
    seeding order, later games by the finishing order of the group's game before (R5.2-b)."""
    board = meet_board(game.group.meet)
    found = next(g for g in board.groups if g.id == game.group_id)
    before = [g for g in found.games if g.number < game.number]
    order = play_order(
        [player_key(p) for p in found.players],
        games=played_games(before),
        late=[player_key(p) for p in found.late],
        ruleset=season_ruleset(game.group.meet.season),
    )
    return tuple(int(p) for p in order)


def board_fold(meet: m.Meet) -> SeasonFold:
    """The season fold a board (and a score sheet) of `meet` reads: the numbers, or the
    explained fold when a score of the meet is adjusted (`scores_adjusted_at`), whose reasons
    the board shows beside it. The explained fold of a season is folded by the first reader
    after each change; a league night's usual meet needs only the fold its writes store."""
    folded = season_fold(meet.season)
    if scores_adjusted_at(folded.facts, folded.result, meet.number):
        return season_fold(meet.season, explain=True)
    return folded


# --- Shared with the services (reads only) ---------------------------------------------------


def machine_states(meet: m.Meet) -> list[tuple[MachineState, str]]:
    """Every machine of the league as the rules see it at `meet` (R5-d, R7.3-q, R7.3-r), with
    its title. Machines are named by `machine_key`; a machine is unplayable when its standing
    status says so or its latest declaration at this meet does (until marked repaired); in use
    while a game of the open meet on it has no confirmed scores (3 queries, run together)."""
    rows = rows_together(_MACHINES, meet.pk)
    return _machine_states_from(rows, open_meet=meet.status == m.Meet.Status.OPEN)


def _machine_states_from(rows: Rows, *, open_meet: bool) -> list[tuple[MachineState, str]]:
    latest: dict[int, str] = {}
    for machine_id, kind in rows["declarations"]:  # oldest first: the last one counts
        latest[machine_id] = kind
    in_use: dict[int, int] = {}
    if open_meet:
        for machine_id, group_number in rows["in_use"]:
            in_use.setdefault(machine_id, group_number)
    states = []
    for machine_id, title, balls, status in rows["machines"]:
        unplayable = (
            status == m.Machine.Status.UNPLAYABLE
            or latest.get(machine_id) == m.MachineDeclaration.Kind.UNPLAYABLE
        )
        group = None if unplayable else in_use.get(machine_id)
        states.append(
            (
                MachineState(
                    machine=machine_key(machine_id, title),
                    balls_per_game=balls,
                    in_use_by=group,
                    current_ball=None if group is None else 1,
                    unplayable=unplayable,
                ),
                title,
            )
        )
    return states


def _late_players_from(rows: Rows) -> dict[int, frozenset[int]]:
    found: dict[int, set[int]] = defaultdict(set)
    for group_id, player_id in [*rows["late_joins"], *rows["late_forfeits"]]:
        found[group_id].add(player_id)
    return {g: frozenset(p) for g, p in found.items()}


def open_compensatory(meet: m.Meet) -> dict[int, list[int]]:
    """Group id -> players with a granted compensatory game not yet recorded (R7.3-p; 2
    queries, run together)."""
    return _open_compensatory_from(rows_together(_COMPENSATORY, meet.pk))


def late_players_and_open_compensatory(
    meet: m.Meet,
) -> tuple[dict[int, frozenset[int]], dict[int, list[int]]]:
    """Group id -> players who arrived after the group began (joined late or forfeited late),
    and `open_compensatory` of `meet`: what a machine choice needs (4 queries, run
    together)."""
    rows = rows_together({**_LATE, **_COMPENSATORY}, meet.pk)
    return _late_players_from(rows), _open_compensatory_from(rows)


def _open_compensatory_from(rows: Rows) -> dict[int, list[int]]:
    done = {(game_id, player_id) for game_id, player_id, *_ in rows["compensatory"]}
    found: dict[int, list[int]] = defaultdict(list)
    for group_id, game_id, player_id in rows["requested"]:
        if (game_id, player_id) not in done:
            found[group_id].append(player_id)
    return found


def played_games(games: Sequence[BoardGame]) -> list[PlayedGame]:
    """The group's confirmed games as the rules' `PlayedGame`s (keys are player keys)."""
    return [
        PlayedGame(
            machine=machine_key(g.machine_id, g.machine),
            order=tuple(player_key(p) for p in g.finishing_order),
            selector=None if g.chosen_by is None else player_key(g.chosen_by),
        )
        for g in games
        if g.confirmed
    ]


def group_games(group: m.Group, season_result: SeasonResult) -> tuple[BoardGame, ...]:
    """One group's games with their confirmed scores and finishing orders (3 queries; without
    the compensatory games' parts, which the services do not need)."""
    names = dict(_group_members(group).get(group.pk, ()))
    number = group.meet.number
    match = _matches(season_result, number).get(frozenset(player_key(p) for p in names))
    return tuple(
        _board_game(g, match, names, {}, (), g.number - 1 if g.confirmed is not None else None)
        for g in _group_games(group).get(group.pk, [])
    )


def _official_picks(
    games: Sequence[BoardGame], played: Sequence[PlayedGame], ruleset: Ruleset
) -> bool:
    """Nobody played the last game and the match goes on: the LO picks (R5-c, A66)."""
    if not games or not games[-1].confirmed or len(games) >= GAMES_PER_MATCH:
        return False
    return bool(played) and machine_picker(played, ruleset=ruleset) is THE_LO


def _next_picker(
    games: Sequence[BoardGame],
    played: Sequence[PlayedGame],
    late: frozenset[int],
    ruleset: Ruleset,
) -> int | None:
    if not games or not games[-1].confirmed or len(games) >= GAMES_PER_MATCH:
        return None
    try:
        picker = machine_picker(played, late=[player_key(p) for p in late], ruleset=ruleset)
    except RuleError:  # pragma: no cover - the board's games are valid
        return None
    if picker is THE_LO:
        return None  # nobody played the last game: the LO chooses or draws (A66)
    return int(picker)


def _play_order(
    players: Sequence[int],
    games: Sequence[BoardGame],
    played: Sequence[PlayedGame],
    late: frozenset[int],
    ruleset: Ruleset,
) -> tuple[int, ...]:
    before = played if not games or games[-1].confirmed else played[: len(games) - 1]
    order = play_order(
        [player_key(p) for p in players],
        games=before,
        late=[player_key(p) for p in late],
        ruleset=ruleset,
    )
    return tuple(int(p) for p in order)


def _group_members(group: m.Group) -> dict[int, list[tuple[int, str]]]:
    rows = m.GroupMember.objects.filter(group=group)
    return _members_from(rows.order_by("position").values_list(*_MEMBER_COLUMNS))


def _members_from(rows: Iterable[tuple[int, int, str, str]]) -> dict[int, list[tuple[int, str]]]:
    """Group id -> its players (id, name) in ladder order, from rows in that order."""
    found: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for group_id, player_id, first, last in rows:
        found[group_id].append((player_id, f"{first} {last}"))
    return found


@dataclass(frozen=True)
class _GameRow:
    id: int
    group_id: int
    number: int
    machine_id: int
    machine: str
    chosen_by: int | None
    confirmed: dict[int, int | None] | None
    awaiting: bool


def _group_games(group: m.Group) -> dict[int, list[_GameRow]]:
    """Group id -> the group's games with their counted (highest confirmed) sheet (2
    queries)."""
    games = list(m.Game.objects.filter(group=group).order_by("number").values_list(*_GAME_COLUMNS))
    lines = (
        m.ScoreLine.objects.filter(submission__game_id__in=[g[0] for g in games])
        .order_by("submission__game_id", "submission__version")
        .values_list(*_LINE_COLUMNS)
    )
    return _games_from(games, lines)


def _games_from(
    games: Iterable[tuple[int, int, int, int, str, int | None]],
    lines: Iterable[tuple[int, int, int | None, int, int | None]],
) -> dict[int, list[_GameRow]]:
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
    found: dict[int, list[_GameRow]] = defaultdict(list)
    for game_id, group_id, number, machine_id, title, chosen_by in games:
        sheet = counted.get(game_id)
        found[group_id].append(
            _GameRow(
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


def _matches(result: SeasonResult, number: int) -> dict[frozenset[str], MatchResult]:
    if number > len(result.meets):
        return {}
    return {frozenset(match.players): match for match in result.meets[number - 1].matches}


def _compensatory_from(
    rows: Iterable[tuple[int, int, int, int, int]],
) -> dict[int, dict[int, CompensatoryParts]]:
    """Game id -> player id -> their compensatory game's parts."""
    found: dict[int, dict[int, CompensatoryParts]] = defaultdict(dict)
    for game_id, player_id, new, leading, state in rows:
        found[game_id][player_id] = CompensatoryParts(new_score=new, subtracted=leading + state)
    return found


def _board_game(
    row: _GameRow,
    match: MatchResult | None,
    names: Mapping[int, str],
    compensatory: Mapping[int, CompensatoryParts],
    game_lines: Sequence[Sequence[GameLine]],
    index: int | None,
) -> BoardGame:
    """A group's game; once the fold counts it (`index`: its place among the match's games
    the fold scored), its finishing order and each player's game line from the fold
    (`game_lines`: the match's, game 1 first; none for the services' reads)."""
    order: tuple[int, ...] = ()
    ranking: dict[int, int | None] | None = None
    cells: tuple[RankingLine, ...] = ()
    scored = row.confirmed is not None and match is not None and index is not None
    if scored and match is not None and index is not None and index < len(match.games):
        outcome = match.games[index]
        order = tuple(int(p) for p in outcome.result.order)
        ranking = {int(p): s for p, s in outcome.final_scores.items()}
        if index < len(game_lines):
            found = {int(line.player): line for line in game_lines[index]}
            ranking = {p: line.score for p, line in found.items()}
            cells = _cells(found, names, _adjustments(outcome, names), compensatory)
    return BoardGame(
        id=row.id,
        number=row.number,
        machine_id=row.machine_id,
        machine=row.machine,
        chosen_by=row.chosen_by,
        confirmed=row.confirmed is not None,
        entered_scores=row.confirmed,
        finishing_order=order,
        awaiting_confirmation=row.awaiting,
        ranking_scores=ranking,
        cells=cells,
        compensatory=compensatory,
    )


def _fold_games(rows: Sequence[_GameRow], facts: MatchFacts | None) -> dict[int, int]:
    """Game id -> its index among the games of the match the fold scored: each confirmed
    game whose counted sheet is the fold's next game. A game the fold does not count (its
    counted sheet has a discarded score waiting for the replay, R7.4-c, A58) has none, and
    the games after it keep their own lines."""
    games = facts.games if facts is not None else ()
    found: dict[int, int] = {}
    for row in rows:
        if row.confirmed is None or len(found) >= len(games):
            continue
        if {player_key(p): s for p, s in row.confirmed.items()} == dict(games[len(found)].scores):
            found[row.id] = len(found)
    return found


def _cells(
    lines: Mapping[int, GameLine],
    names: Mapping[int, str],
    whys: Mapping[int, tuple[str, ...]],
    compensatory: Mapping[int, CompensatoryParts],
) -> tuple[RankingLine, ...]:
    """Each player's game line, in the group's ladder order (`names`' order)."""
    return tuple(
        RankingLine(
            player=p,
            name=name,
            entered=lines[p].entered,
            score=lines[p].score,
            compensatory=compensatory.get(p),
            adjustments=whys.get(p, ()),
            points=lines[p].points,
            place=lines[p].place,
            changes=tuple(
                Adjustment(kind=a.kind, amount=a.amount, text=a.render(name), rule=a.rule)
                for a in lines[p].adjustments
            ),
        )
        for p, name in names.items()
        if p in lines
    )


def _adjustments(outcome: GameOutcome, names: Mapping[int, str]) -> dict[int, tuple[str, ...]]:
    """Why each player's ranking score differs from the score entered: the outcome's lines
    written before its game points (compensatory game, reduction, zero score, penalty). A
    corrected score is the score entered (its sheet's), so its line is not one of them."""
    before_points = outcome.lines[: len(outcome.lines) - len(outcome.result.lines)]
    keyed = {player_key(p): name for p, name in names.items()}
    found: dict[int, list[str]] = defaultdict(list)
    for line in before_points:
        if line.rule == CORRECTION_RULE:
            continue
        found[int(line.player)].append(f"{line.render(keyed)} ({line.rule})")
    return {p: tuple(lines) for p, lines in found.items()}


# --- The board's queries, each of one meet (its id), compiled once and run together ---------

_MEMBER_COLUMNS = ("group_id", "player_id", "player__first_name", "player__last_name")
_GAME_COLUMNS = ("id", "group_id", "number", "machine_id", "machine__title", "chosen_by_id")
_LINE_COLUMNS = (
    "submission__game_id",
    "submission__version",
    "submission__confirmed_by_id",
    "player_id",
    "machine_score",
)
_MACHINES = {
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
_LATE = {
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
_COMPENSATORY = {
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
_BOARD = {
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
    **_MACHINES,
    **_LATE,
    **_COMPENSATORY,
}
"""Every query of `meet_board`: twelve, answered in one round trip on PostgreSQL."""
