"""A meet's board (`meet_board`), one game of it (`board_game`), and the season fold they read
(`board_fold`): the package's words (`flipwell.league.selectors.meet_board`) apply.

The values are `values`', the queries `queries`' and the next game (picker, play order,
machines' states) `next_games`'.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence

from flipwell.league import models as m
from flipwell.league.adapters.keys import machine_id_of, player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.derived.compiled import rows_together
from flipwell.league.derived.results import SeasonFold, season_fold
from flipwell.league.selectors.meet_board.next_games import (
    absent_at_next,
    absent_from,
    late_players_from,
    machine_states_from,
    next_picker,
    next_play_order,
    official_picks,
    open_compensatory_from,
    played_games,
)
from flipwell.league.selectors.meet_board.queries import (
    BOARD_QUERIES,
    GameRow,
    games_by_group,
    games_from,
    meet_matches,
    members_by_group,
    members_from,
)
from flipwell.league.selectors.meet_board.values import (
    Adjustment,
    BoardGame,
    BoardGroup,
    CompensatoryParts,
    MeetBoard,
    NightLine,
    RankingLine,
    match_finished,
)
from flipwell.rules import (
    GameLine,
    GameOutcome,
    MatchFacts,
    MatchResult,
    SeasonResult,
    meet_game_lines,
    night_places,
    play_order,
    scores_adjusted_at,
)
from flipwell.rules.corrections import CORRECTION_RULE


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


def meet_board(meet: m.Meet) -> MeetBoard:
    """The board of `meet` (a fixed number of queries; no writes)."""
    folded = board_fold(meet)
    ruleset = folded.ruleset
    matches, lines, facts = _folded_meet(folded, meet)
    rows = rows_together(BOARD_QUERIES, meet.pk)
    members = members_from(rows["members"])
    games = games_from(rows["games"], rows["lines"])
    states = machine_states_from(rows, open_meet=meet.status == m.Meet.Status.OPEN)
    late = late_players_from(rows)
    absent = absent_from(rows)
    waiting = open_compensatory_from(rows)
    compensatory = _compensatory_from(rows["compensatory"])
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
        gone = absent_at_next(absent.get(group_id, {}), board_games)
        board_groups.append(
            BoardGroup(
                id=group_id,
                number=group_number,
                players=players,
                names=names,
                games=board_games,
                late=group_late,
                next_picker=next_picker(board_games, played, group_late, ruleset, gone),
                play_order=next_play_order(players, board_games, played, group_late, ruleset, gone),
                waiting_for=tuple(waiting.get(group_id, ())),
                nights=_nights(match, names, finished=match_finished(board_games)),
                official_picks=official_picks(board_games, played, ruleset),
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


def _folded_meet(
    folded: SeasonFold, meet: m.Meet
) -> tuple[
    dict[frozenset[str], MatchResult],
    dict[frozenset[str], tuple[tuple[GameLine, ...], ...]],
    dict[frozenset[str], MatchFacts],
]:
    """What the fold says of `meet`'s matches, by their players' keys: each match's result,
    its games' lines and its facts; nothing for a planned meet (not folded yet)."""
    if meet.status == m.Meet.Status.PLANNED:
        return {}, {}, {}
    result = folded.result
    matches = meet_matches(result, meet.number)
    lines = meet_game_lines(folded.facts, result, meet.number, ruleset=folded.ruleset)
    facts = (
        {frozenset(x.players): x for x in folded.facts.meets[meet.number - 1].groups}
        if meet.number <= len(folded.facts.meets)
        else {}
    )
    return matches, lines, facts


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


def group_games(group: m.Group, season_result: SeasonResult) -> tuple[BoardGame, ...]:
    """One group's games with their confirmed scores and finishing orders (3 queries; without
    the compensatory games' parts, which the services do not need)."""
    names = dict(members_by_group(group).get(group.pk, ()))
    number = group.meet.number
    match = meet_matches(season_result, number).get(frozenset(player_key(p) for p in names))
    return tuple(
        _board_game(g, match, names, {}, (), g.number - 1 if g.confirmed is not None else None)
        for g in games_by_group(group).get(group.pk, [])
    )


def _compensatory_from(
    rows: Iterable[tuple[int, int, int, int, int]],
) -> dict[int, dict[int, CompensatoryParts]]:
    """Game id -> player id -> their compensatory game's parts."""
    found: dict[int, dict[int, CompensatoryParts]] = defaultdict(dict)
    for game_id, player_id, new, leading, state in rows:
        found[game_id][player_id] = CompensatoryParts(new_score=new, subtracted=leading + state)
    return found


def _board_game(
    row: GameRow,
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


def _fold_games(rows: Sequence[GameRow], facts: MatchFacts | None) -> dict[int, int]:
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
