"""A season's stored facts, read into the rules' `SeasonFacts` (`season_facts`, 14 compiled
queries run together) and the counted tie orders of its games.

The package's words (`flipwell.league.adapters`) apply: *player key*, *the scores that count*,
*the tie orders that count*. The queries are `season_queries`'.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.season_queries import MEET_QUERIES, SEASON_QUERIES
from flipwell.league.derived.compiled import Rows, flag, rows_together
from flipwell.rules import (
    AppliedCorrection,
    Compensatory,
    Entrant,
    GameFacts,
    MatchFacts,
    MeetFacts,
    RuleError,
    SeasonFacts,
    Violation,
    ViolationFacts,
    ViolationKind,
)
from flipwell.rules.match_scoring import violation_score_changes
from flipwell.rules.violations import VIOLATION_KINDS


def season_facts(season: m.Season) -> SeasonFacts:
    """Every fact of a season that the standings depend on (14 compiled queries, run
    together: `rows_together`)."""
    rows = rows_together(SEASON_QUERIES, (season.pk, 0))
    entries = rows["entries"]  # tuples: a season may have 10,000 entrants
    return SeasonFacts(
        entrants=tuple(
            Entrant(player=player_key(player), first_name=first, last_name=last, ifpa_rank=rank)
            for player, first, last, rank, _, _ in entries
        ),
        meets=_meet_facts(rows),
        joined_at={player_key(player): joined for player, _, _, _, joined, _ in entries},
        late_join_non_countable=frozenset(
            player_key(player)
            for player, _, _, _, _, countable in entries
            if flag(countable) is False
        ),
        number_of_meets=season.number_of_meets,  # R2-a; lowered by a cut (A68)
    )


def meets_after(season: m.Season, number: int) -> tuple[MeetFacts, ...]:
    """The facts of the season's meets after meet `number`, in order (13 compiled queries, run
    together): tonight's, folded on a stored prefix of the meets before
    (`flipwell.league.derived.results`). No fact of an earlier meet is read."""
    return _meet_facts(rows_together(MEET_QUERIES, (season.pk, number)))


def _meet_facts(rows: Rows) -> tuple[MeetFacts, ...]:
    games = _games_by_group(rows)
    groups = _groups_by_meet(rows, games)
    absences = _by(rows["absences"])
    violations = _violations_by_meet(rows["meet_violations"])
    return tuple(
        MeetFacts(
            number=number,
            groups=tuple(groups.get(meet_id, ())),
            announced_absences=frozenset(player_key(p) for p in absences.get(meet_id, ())),
            violations=tuple(violations.get(meet_id, ())),
            group_override=override or None,
            closed=status == m.Meet.Status.CLOSED,
        )
        for meet_id, number, override, status in rows["meets"]
    )


def _by(pairs: Iterable[tuple[int, int]]) -> dict[int, list[int]]:
    grouped: dict[int, list[int]] = defaultdict(list)
    for key, value in pairs:
        grouped[key].append(value)
    return grouped


def _groups_by_meet(
    rows: Rows, games: Mapping[int, tuple[GameFacts, ...]]
) -> dict[int, list[MatchFacts]]:
    players: dict[int, list[str]] = defaultdict(list)
    meet_of: dict[int, int] = {}
    for group_id, meet_id, player_id in rows["members"]:
        players[group_id].append(player_key(player_id))
        meet_of[group_id] = meet_id
    absent: dict[int, dict[str, int]] = defaultdict(dict)
    for group_id, player_id, from_game in rows["match_absences"]:
        absent[group_id][player_key(player_id)] = from_game  # R2.4-a
    by_meet: dict[int, list[MatchFacts]] = defaultdict(list)
    for group_id, group_players in players.items():  # already in meet, group order
        by_meet[meet_of[group_id]].append(
            MatchFacts(
                players=tuple(group_players),
                games=games.get(group_id, ()),
                absent_from=absent.get(group_id, {}),
            )
        )
    return by_meet


def _games_by_group(rows: Rows) -> dict[int, tuple[GameFacts, ...]]:
    """Each group's games that have confirmed scores, in game order (from 8 queries)."""
    game_ids = [row[0] for row in rows["games"]]
    confirmed = _confirmed_sheets(rows["sheets"])
    counted = {g: (version, pk) for g, (version, pk, _) in confirmed.items()}
    scores = {g: sheet for g, (_, _, sheet) in confirmed.items()}
    discarded = {(game, version) for game, version in rows["discarded"]}
    non_countable = _by(rows["non_countable"])
    orders = _tie_orders(rows["tie_places"], game_ids, counted)
    ties = {
        g: tuple(tuple(player_key(p) for p in order) for order in found)
        for g, found in orders.items()
    }
    compensatory = _by_game_player(rows["compensatory"])
    adjustments = score_adjustments(rows["game_violations"])
    corrections = _applied_corrections(rows["corrections"], rows["sheets"], scores)
    games: dict[int, list[GameFacts]] = defaultdict(list)
    for game_id, group_id, title in rows["games"]:
        if game_id not in scores:
            continue  # not confirmed yet: not a fact the standings can use
        if (game_id, counted[game_id][0]) in discarded:
            continue  # R7.4-c, A58: a discarded score leaves the game incomplete until replayed
        reduced, zeroed = adjustments.get(game_id, (frozenset(), {}))
        games[group_id].append(
            GameFacts(
                machine=title,
                scores=scores[game_id],
                tie_order=ties.get(game_id, ()),
                compensatory={
                    player_key(p): Compensatory(new, leading, state)
                    for p, (new, leading, state) in compensatory.get(game_id, {}).items()
                },
                reduced=reduced,
                zeroed=zeroed,
                non_countable=frozenset(player_key(p) for p in non_countable.get(game_id, ())),
                corrections=corrections.get(game_id, ()),
            )
        )
    return {group: tuple(g) for group, g in games.items()}


def _applied_corrections(
    agreed: Iterable[tuple[int, int, int, str | None, int]],
    lines: Iterable[tuple[int, int, int, int, int | None]],
    counted: Mapping[int, dict[str, int | None]],
) -> dict[int, tuple[AppliedCorrection, ...]]:
    """Game -> the corrections that led to its counted sheet, each player's changed score
    with the players who agreed and the official who accepted a late request (R3-d, A45.2).

    `agreed`: (game, base sheet, proposed sheet, overriding official's username, agreeing
    player) of applied corrections, in the order applied; `lines`: the confirmed score lines
    (the base and proposed sheets are among them); `counted`: each game's counted sheet. A
    corrected score that a later sheet changed again (a replay) no longer explains anything."""
    requests: dict[tuple[int, int, int], tuple[str, list[str]]] = {}
    for game_id, base, proposed, official, player in agreed:
        if game_id in counted:
            requests.setdefault((game_id, base, proposed), (official or "", []))[1].append(
                player_key(player)
            )
    if not requests:
        return {}
    wanted = {sheet for _, base, proposed in requests for sheet in (base, proposed)}
    sheets: dict[int, dict[str, int | None]] = defaultdict(dict)
    for _, _, submission, player, score in lines:
        if submission in wanted:
            sheets[submission][player_key(player)] = score
    found: dict[int, list[AppliedCorrection]] = defaultdict(list)
    for (game_id, base, proposed), (official, players) in requests.items():
        before, after, now = sheets[base], sheets[proposed], counted[game_id]
        for key, score in after.items():
            if before.get(key) != score and now.get(key) == score:
                found[game_id].append(
                    AppliedCorrection(key, before.get(key), score, tuple(players), official)
                )
    return {game: tuple(c) for game, c in found.items()}


def _confirmed_sheets(
    lines: Iterable[tuple[int, int, int, int, int | None]],
) -> dict[int, tuple[int, int, dict[str, int | None]]]:
    """Game -> (version, submission id, {player: machine score or None}) of its highest
    confirmed version, from confirmed score lines in game and version order."""
    latest: dict[int, tuple[int, int, dict[str, int | None]]] = {}
    for game_id, version, submission_id, player_id, score in lines:
        if game_id not in latest or latest[game_id][0] < version:
            latest[game_id] = (version, submission_id, {})
        latest[game_id][2][player_key(player_id)] = score
    return latest


def _counted_versions(game_ids: list[int]) -> dict[int, tuple[int, int]]:
    """Game -> (version, submission id) of its counted (highest confirmed) score sheet."""
    rows = (
        m.ScoreSubmission.objects.filter(game_id__in=game_ids, confirmed_by__isnull=False)
        .order_by("game_id", "version")
        .values_list("game_id", "version", "id")
    )
    return {game_id: (version, pk) for game_id, version, pk in rows}  # the last is highest


def counted_tie_orders(
    game_ids: list[int], counted: Mapping[int, tuple[int, int]] | None = None
) -> dict[int, tuple[tuple[int, ...], ...]]:
    """Game -> the tie orders (player ids, winner first) that go with its counted sheet (R3.2-i).

    The orders entered with the counted version; when it has none, the orders entered with no
    version (imported games). Orders of other versions (replaced, refused or pending sheets)
    never count. `counted`: the games' counted versions, when the caller has them (2 queries
    otherwise 1).
    """
    if counted is None:
        counted = _counted_versions(game_ids)
    places = (
        m.TieOrderPlace.objects.filter(tie_order__game_id__in=game_ids)
        .order_by("tie_order__game_id", "tie_order_id", "position")
        .values_list("tie_order__game_id", "tie_order__submission_id", "tie_order_id", "player_id")
    )
    return _tie_orders(places, game_ids, counted)


def _tie_orders(
    places: Iterable[tuple[int, int | None, int, int]],
    game_ids: Iterable[int],
    counted: Mapping[int, tuple[int, int]],
) -> dict[int, tuple[tuple[int, ...], ...]]:
    """`counted_tie_orders` from the tie order places (game, submission or None, order,
    player), in game, order and position order."""
    by_version: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    unversioned: dict[int, dict[int, list[int]]] = defaultdict(lambda: defaultdict(list))
    for game_id, submission_id, order_id, player_id in places:
        if submission_id is None:
            unversioned[game_id][order_id].append(player_id)
        elif game_id in counted and counted[game_id][1] == submission_id:
            by_version[game_id][order_id].append(player_id)
    found: dict[int, tuple[tuple[int, ...], ...]] = {}
    for game_id in game_ids:
        orders = by_version.get(game_id) or unversioned.get(game_id)
        if orders:
            found[game_id] = tuple(tuple(o) for o in orders.values())
    return found


def _by_game_player(
    rows: Iterable[tuple[int, int, int, int, int]],
) -> dict[int, dict[int, tuple[int, int, int]]]:
    found: dict[int, dict[int, tuple[int, int, int]]] = defaultdict(dict)
    for game_id, player_id, *values in rows:
        new, leading, state = values
        found[game_id][player_id] = (new, leading, state)
    return found


def score_adjustments(
    rows: Iterable[tuple[int, int, str, bool, bool, bool]],
) -> dict[int, tuple[frozenset[str], dict[str, str]]]:
    """Game -> (players whose score is reduced 25%, players whose score is zero and why), as
    the rules decide from the game's violations (`violation_score_changes`, §8.1/§8.2/§8.7):
    rows of (game, player, kind, serious, last allowable ball, slam tilted)."""
    by_game: dict[int, list[Violation]] = defaultdict(list)
    for game_id, player_id, kind, serious, last_ball, slam in rows:
        by_game[game_id].append(_violation(player_id, kind, serious, last_ball, slam))
    changes = {g: violation_score_changes(found) for g, found in by_game.items()}
    return {g: (reduced, zeroed) for g, (reduced, zeroed) in changes.items() if reduced or zeroed}


def _violation(player_id: int, kind: str, serious: bool, last_ball: bool, slam: bool) -> Violation:
    """A stored violation as the rules' `Violation`."""
    return Violation(  # bool(): SQLite's booleans are 0 and 1 (`CompiledQuery` rows)
        violator=player_key(player_id),
        kind=_violation_kind(kind),
        last_allowable_ball=bool(last_ball),
        slam_tilted=bool(slam),
        lo_marked_not_serious=kind == "opponents_ball" and not serious,
    )


def _violations_by_meet(rows: Iterable[tuple[Any, ...]]) -> dict[int, list[ViolationFacts]]:
    by_meet: dict[int, list[ViolationFacts]] = defaultdict(list)
    for meet_id, player_id, kind, serious, game, completed, target, last_ball, slam in rows:
        violation = _violation(player_id, kind, serious, last_ball, slam)
        by_meet[meet_id].append(
            ViolationFacts(
                violation=violation,
                current_game=game,
                games_completed=completed,
                target_game=target,
            )
        )
    return by_meet


def _violation_kind(kind: str) -> ViolationKind:
    if kind not in VIOLATION_KINDS:  # the database constraint makes this unreachable
        raise RuleError(f"stored violation kind {kind!r} is not one of the rules' kinds")
    return kind
