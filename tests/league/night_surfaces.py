"""How each surface of a league night shows a confirmed game's numbers, read one way each.

The stateful night test (test_night_state_machine.py) compares these readings with the
season fold after every step. Each reader is small and alone on purpose: when a surface's
shape changes (the API's game lines of issue 33's contract), only its reader changes.

Words:
- *line*: what a surface shows for one player in one confirmed game: the score that counts
  (the fold's final score: compensatory game added, §8 reductions and zeros applied), the
  score entered on the counted sheet, his place in the game (1 = first; None for a forfeit)
  and his game points (bonus point included, R3.2). A surface that does not show a part
  gives `NOT_SHOWN` for it, and that part is not compared; a surface that should show it and
  does not (a field missing from an API read) gives `MISSING`, which equals nothing.
- *game lines*: game id -> player id -> line, for the games a surface shows as confirmed.
- *truth*: the lines the season fold gives (`fold_lines`): what every surface must show.

The API readers are written against the issue 33 contract for game lines (`machine_score` is
the score that counts, `entered_score` the sheet's, then `place` and `points`; the board's
`scores` and the game read's `result` are lists of them, null until confirmed).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any

from django.test import Client

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.derived.results import season_fold
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.selectors.scoresheet import scoresheet
from flipwell.league.selectors.standings import PlayerHistory, player_history


class _Marker:
    def __init__(self, name: str) -> None:
        self.name = name

    def __repr__(self) -> str:
        return self.name


NOT_SHOWN: Any = _Marker("<not shown>")
"""A part of a line the surface does not show: not compared."""
MISSING: Any = _Marker("<missing>")
"""A part of a line the surface should show but does not (an absent API field)."""


@dataclass(frozen=True)
class Line:
    """One player's line of one confirmed game (module words)."""

    score: int | None
    entered: int | None
    place: int | None
    points: int | None


GameLines = dict[int, dict[int, Line]]
"""Game id -> player id -> line."""


def differences(truth: GameLines, shown: GameLines, *, surface: str) -> list[str]:
    """Every way `shown` differs from `truth`, in words; empty when they agree. A part the
    surface does not show is skipped; a game shown confirmed that the fold does not count,
    or a counted game not shown, is a difference."""
    found = []
    for game_id in sorted(set(truth) | set(shown)):
        if game_id not in shown:
            found.append(f"{surface}: game {game_id} is counted by the fold but not shown")
            continue
        if game_id not in truth:
            found.append(f"{surface}: game {game_id} is shown confirmed but the fold has none")
            continue
        expected, got = truth[game_id], shown[game_id]
        if set(expected) != set(got):
            found.append(
                f"{surface}: game {game_id} shows players {sorted(got)}, not {sorted(expected)}"
            )
        for player in sorted(set(expected) & set(got)):
            for part in fields(Line):
                want = getattr(expected[player], part.name)
                have = getattr(got[player], part.name)
                if have is not NOT_SHOWN and have != want:
                    found.append(
                        f"{surface}: game {game_id}, player {player}: {part.name} {have!r}, "
                        f"the fold says {want!r}"
                    )
    return found


# --- The truth: the season fold -------------------------------------------------------------


@dataclass(frozen=True)
class Truth:
    """The fold's lines of every counted game, and where each sits in the fold: (player,
    meet number, the game's number in the fold's match) -> game id (the fold numbers the
    counted games of a match 1, 2, ... in game order)."""

    lines: GameLines
    slots: dict[tuple[int, int, int], int]
    forfeited: dict[int, dict[int, bool]]
    """Game id -> each forfeiting player -> whether the forfeit is countable."""


def fold_lines(season: m.Season) -> Truth:
    """The lines of every game the season fold counts (a game with a confirmed sheet whose
    scores were not discarded), matched to the game rows by group and game order."""
    folded = season_fold(season)
    result = folded.result
    penalty_score = None if folded.ruleset.serious_violation_penalty == "forfeit" else 0
    counted = _counted_sheets(season)
    discarded = set(
        m.DiscardedScore.objects.filter(game__group__meet__season=season).values_list(
            "game_id", "version"
        )
    )
    games: dict[int, list[int]] = defaultdict(list)
    for game_id, group_id in (
        m.Game.objects.filter(group__meet__season=season)
        .order_by("group_id", "number")
        .values_list("id", "group_id")
    ):
        if game_id in counted and (game_id, counted[game_id][0]) not in discarded:
            games[group_id].append(game_id)
    members: dict[int, list[int]] = defaultdict(list)
    meet_of: dict[int, int] = {}
    for group_id, number, player_id in (
        m.GroupMember.objects.filter(group__meet__season=season)
        .order_by("group_id", "position")
        .values_list("group_id", "group__meet__number", "player_id")
    ):
        members[group_id].append(player_id)
        meet_of[group_id] = number
    lines: GameLines = {}
    slots: dict[tuple[int, int, int], int] = {}
    forfeited: dict[int, dict[int, bool]] = {}
    for group_id, players in members.items():
        number = meet_of[group_id]
        if number > len(result.meets):
            continue
        penalties = result.meets[number - 1].penalties
        keys = frozenset(player_key(p) for p in players)
        match = next((x for x in result.meets[number - 1].matches if set(x.players) == keys), None)
        if match is None:
            continue
        for index, (game_id, outcome) in enumerate(zip(games[group_id], match.games, strict=True)):
            sheet = counted[game_id][1]
            penalized = {
                int(k) for k, on in penalties.items() if index + 1 in on
            }  # a §8.5 penalty's game: no score counts, or zero (R8.5-c)
            lines[game_id] = {
                p: Line(
                    score=penalty_score
                    if p in penalized
                    else outcome.final_scores.get(player_key(p)),
                    entered=sheet.get(p),
                    place=outcome.result.place(player_key(p)),
                    points=match.players[player_key(p)].game_points[index],
                )
                for p in players
            }
            forfeited[game_id] = {int(k): c for k, c in outcome.forfeits.items()}
            for p in players:
                slots[(p, number, outcome.number)] = game_id
    return Truth(lines=lines, slots=slots, forfeited=forfeited)


def _counted_sheets(season: m.Season) -> dict[int, tuple[int, dict[int, int | None]]]:
    """Game id -> (version, player -> score) of its counted sheet: its highest confirmed."""
    found: dict[int, tuple[int, dict[int, int | None]]] = {}
    for game_id, version, player_id, score in (
        m.ScoreLine.objects.filter(
            submission__game__group__meet__season=season, submission__confirmed_by__isnull=False
        )
        .order_by("submission__game_id", "submission__version")
        .values_list("submission__game_id", "submission__version", "player_id", "machine_score")
    ):
        if game_id not in found or found[game_id][0] < version:
            found[game_id] = (version, {})
        found[game_id][1][player_id] = score
    return found


# --- The meet board and the phone score sheet ----------------------------------------------


def board_lines(meet: m.Meet) -> GameLines:
    """The meet board (console, TV, public meet page): each confirmed game's cells."""
    found: GameLines = {}
    for group in meet_board(meet).groups:
        for game in group.games:
            if not game.confirmed:
                continue
            order = list(game.finishing_order)
            found[game.id] = {
                cell.player: Line(
                    score=cell.score,
                    entered=cell.entered,
                    place=order.index(cell.player) + 1 if cell.player in order else None,
                    points=cell.points,
                )
                for cell in game.cells
            }
    return found


def sheet_lines(group: m.Group) -> GameLines:
    """A group's phone score sheet: its confirmed games' lines (the sheet shows no place)."""
    found: GameLines = {}
    for game in scoresheet(group).games:
        if game.confirmed:
            found[game.id] = {
                line.player_id: Line(
                    score=line.machine_score,
                    entered=line.entered,
                    place=NOT_SHOWN,
                    points=line.points,
                )
                for line in game.lines
            }
    return found


@dataclass(frozen=True)
class CheckTable:
    """The table a confirmer checks before confirming a pending sheet (R3-a)."""

    submission_id: int
    game_id: int
    confirmers: tuple[int, ...]
    points: dict[int, int]
    """Player id -> the game points shown (a line without points shows none: 0)."""


def check_table(group: m.Group) -> CheckTable | None:
    """The group's pending sheet as its confirmer sees it; None when none waits."""
    sheet = scoresheet(group)
    if sheet.pending is None or sheet.current is None:
        return None
    return CheckTable(
        submission_id=sheet.pending.submission_id,
        game_id=sheet.current.id,
        confirmers=tuple(p for p, _ in sheet.pending.confirmers),
        points={line.player_id: line.points or 0 for line in sheet.pending.lines},
    )


def sheet_forfeits(group: m.Group) -> dict[int, frozenset[int]]:
    """Game id -> the players the group's sheet marks as forfeiting that game: the game being
    played (`forfeits`) and every confirmed game (each line's `forfeited`)."""
    sheet = scoresheet(group)
    found = {
        game.id: frozenset(line.player_id for line in game.lines if line.forfeited)
        for game in sheet.games
        if game.confirmed
    }
    if sheet.current is not None:
        found[sheet.current.id] = frozenset(sheet.forfeits)
    return found


# --- The API (issue 33 contract) -----------------------------------------------------------


def _api_line(line: Mapping[str, Any]) -> Line:
    """A game line of the API (contract): machine_score counts, entered_score as entered."""
    return Line(
        score=line.get("machine_score", MISSING),
        entered=line.get("entered_score", MISSING),
        place=line.get("place", MISSING),
        points=line.get("points", MISSING),
    )


def api_board_lines(client: Client, meet: m.Meet) -> GameLines:
    """GET /api/v1/meets/{id}: each group's games whose `scores` are not null."""
    body = _get(client, f"/api/v1/meets/{meet.pk}")
    found: GameLines = {}
    for group in body["groups"]:
        for game in group["games"]:
            if game["scores"] is not None:
                found[game["id"]] = {line["player_id"]: _api_line(line) for line in game["scores"]}
    return found


def api_game_lines(client: Client, game_id: int) -> dict[int, Line] | None:
    """GET /api/v1/games/{id}: its `result` (None: not confirmed, or no such field)."""
    result = _get(client, f"/api/v1/games/{game_id}").get("result")
    if result is None:
        return None
    return {line["player_id"]: _api_line(line) for line in result}


def api_compensatory_games(client: Client, game_id: int) -> set[tuple[int, int, int]] | None:
    """GET /api/v1/games/{id}: its `compensatory_games` as (player, score, subtracted); None
    when the read has no such field."""
    found = _get(client, f"/api/v1/games/{game_id}").get("compensatory_games")
    if found is None:
        return None
    return {(g["player_id"], g["score"], g["subtracted"]) for g in found}


def _get(client: Client, url: str) -> dict[str, Any]:
    response = client.get(url)
    assert response.status_code == 200, f"GET {url} answered {response.status_code}"
    body: dict[str, Any] = response.json()
    return body


# --- A player's history and the standings ---------------------------------------------------


def history_lines(history: PlayerHistory, truth: Truth) -> GameLines:
    """A player's history (his page): his own line of each game, placed by the fold's slot
    of (player, meet, game number); a game the fold has no slot for is keyed by a negative
    number, so that it shows as a difference."""
    player = history.player.id
    found: GameLines = {}
    for meet in history.meets:
        for game in meet.games:
            own = [score for ref, score in game.scores if ref.id == player]
            game_id = truth.slots.get((player, meet.meet, game.number), -game.number)
            found[game_id] = {
                player: Line(
                    score=own[0] if own else MISSING,
                    entered=NOT_SHOWN,
                    place=game.place,
                    points=game.points,
                )
            }
    return found


def history_of(season: m.Season, player_id: int) -> PlayerHistory:
    return player_history(season, m.Player.objects.get(pk=player_id))


def api_history_lines(client: Client, season: m.Season, player_id: int, truth: Truth) -> GameLines:
    """GET /api/v1/seasons/{id}/players/{id}/history: his own line of each game."""
    body = _get(client, f"/api/v1/seasons/{season.pk}/players/{player_id}/history")
    found: GameLines = {}
    for meet in body["meets"]:
        for game in meet["games"]:
            own = [s["machine_score"] for s in game["scores"] if s["player"]["id"] == player_id]
            game_id = truth.slots.get((player_id, meet["meet"], game["number"]), -game["number"])
            found[game_id] = {
                player_id: Line(
                    score=own[0] if own else MISSING,
                    entered=NOT_SHOWN,
                    place=game["place"],
                    points=game["points"],
                )
            }
    return found


def own_truth(truth: Truth, player_id: int) -> GameLines:
    """The fold's lines of the games a player was grouped in, his own line only."""
    return {
        game_id: {player_id: truth.lines[game_id][player_id]}
        for (p, _, _), game_id in truth.slots.items()
        if p == player_id
    }
