"""Adapters: the stored facts of a league, as the plain values `flipwell.rules` computes on.

Words:
- *player key*: how the rules name a player: his database id as a string (`str(player.pk)`).
- *the scores that count*: a game's highest confirmed score submission (§3: a correction is a
  newer confirmed version; an unconfirmed entry is not a fact yet). A game whose counted
  version has a discarded score (R7.4-c, A58) has no scores that count until a newer
  confirmed version (the replay) exists.
- *the tie orders that count*: those entered with the counted version; a game whose counted
  version has none falls back to orders entered without a version (imported seasons).

Every loader runs a fixed number of queries whatever the season's size: rows are fetched per
kind for the whole season, then put together in Python (no query in a loop).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, TypeVar

from flipwell.league import models as m
from flipwell.league.compiled import CompiledQuery, Rows, flag, rows_together
from flipwell.league.enums import SERIOUS_MALFUNCTION_KINDS, one_of
from flipwell.rules import (
    AppliedCorrection,
    Compensatory,
    Entrant,
    GameFacts,
    IfpaParameters,
    MatchFacts,
    MeetFacts,
    PlayoffGame,
    RuleError,
    Ruleset,
    SeasonFacts,
    Violation,
    ViolationFacts,
    ViolationKind,
    ifpa_parameters,
    ruleset_from_overrides,
)
from flipwell.rules.malfunctions import AnnouncedProblem, Malfunction
from flipwell.rules.match_scoring import violation_score_changes
from flipwell.rules.violations import VIOLATION_KINDS

PLAYED = (m.Meet.Status.OPEN, m.Meet.Status.CLOSED)
Score = TypeVar("Score", int, int | None)


def player_key(player_id: int) -> str:
    """The rules' name for a player (a string, as flipwell.rules requires)."""
    return str(player_id)


def machine_key(machine_id: int, title: str) -> str:
    """How the rules name a machine here: its title and id, unique and readable in messages."""
    return f"{title} #{machine_id}"


def machine_id_of(key: str) -> int:
    """The machine id in a `machine_key`."""
    return int(key.rsplit("#", 1)[1])


def machines_played(games: Iterable[tuple[int, str]]) -> list[str]:
    """The rules' names (`machine_key`) of the machines of a group's games, from (machine id,
    title) rows in play order: what the §5 rules need to know the group played (R5-d)."""
    return [machine_key(machine_id, title) for machine_id, title in games]


def ruleset_for(league: m.League) -> Ruleset:
    """The league's `Ruleset`: FWPL v1.0 with its stored overrides (JSON) applied. These are
    the readings a season created now takes; a season is folded under its own
    (`season_ruleset`).

    Raises RuleError naming the setting when a stored override is not allowed.
    """
    return ruleset_from_overrides(league.ruleset_overrides or {})


def league_ifpa_parameters(league: m.League) -> IfpaParameters:
    """The IFPA's figures as the league uses them: the IFPA's, with the league's own
    (`League.ifpa_figures`) in their place. RuleError for a stored figure not allowed."""
    return ifpa_parameters(league.ifpa_figures or {})


def season_ruleset(season: m.Season) -> Ruleset:
    """The `Ruleset` a season is played and folded under: FWPL v1.0 with the season's
    readings (its overrides, copied from the league's when it was created) applied.

    Raises RuleError naming the setting when a stored override is not allowed.
    """
    return ruleset_from_overrides(season.ruleset_overrides or {})


def season_facts(season: m.Season) -> SeasonFacts:
    """Every fact of a season that the standings depend on (14 compiled queries, run
    together: `rows_together`)."""
    rows = rows_together(_FACTS, season.pk)
    entries = rows["entries"]  # tuples: a season may have 10,000 entrants
    meets = rows["meets"]
    games = _games_by_group(rows)
    groups = _groups_by_meet(rows, games)
    absences = _by(rows["absences"])
    violations = _violations_by_meet(rows["meet_violations"])
    return SeasonFacts(
        entrants=tuple(
            Entrant(player=player_key(player), first_name=first, last_name=last, ifpa_rank=rank)
            for player, first, last, rank, _, _ in entries
        ),
        meets=tuple(
            MeetFacts(
                number=number,
                groups=tuple(groups.get(meet_id, ())),
                announced_absences=frozenset(player_key(p) for p in absences.get(meet_id, ())),
                violations=tuple(violations.get(meet_id, ())),
                group_override=override or None,
                closed=status == m.Meet.Status.CLOSED,
            )
            for meet_id, number, override, status in meets
        ),
        joined_at={player_key(player): joined for player, _, _, _, joined, _ in entries},
        late_join_non_countable=frozenset(
            player_key(player)
            for player, _, _, _, _, countable in entries
            if flag(countable) is False
        ),
    )


COMPENSATORY_COLUMNS = (
    "game_id",
    "player_id",
    "new_score",
    "leading_subtracted",
    "state_subtracted",
)
"""A compensatory game's row: game, player, its score and the two amounts subtracted (R7.3-m..o)."""
_FACTS = {
    "entries": CompiledQuery(
        lambda s: (
            m.SeasonEntry.objects.filter(season_id=s)
            .order_by("id")
            .values_list(
                "player_id",
                "player__first_name",
                "player__last_name",
                "ifpa_rank_at_start",
                "joined_at_meet",
                "late_join_forfeits_countable",
            )
        )
    ),
    "meets": CompiledQuery(
        lambda s: (
            m.Meet.objects.filter(season_id=s, status__in=PLAYED)
            .order_by("number")
            .values_list("id", "number", "group_override_reason", "status")
        )
    ),
    "games": CompiledQuery(
        lambda s: (
            m.Game.objects.filter(group__meet__season_id=s, group__meet__status__in=PLAYED)
            .order_by("group_id", "number")
            .values_list("id", "group_id", "machine__title")
        )
    ),
    "sheets": CompiledQuery(
        lambda s: (
            m.ScoreLine.objects.filter(
                submission__game__group__meet__season_id=s,
                submission__game__group__meet__status__in=PLAYED,
                submission__confirmed_by__isnull=False,
            )
            .order_by("submission__game_id", "submission__version")
            .values_list(
                "submission__game_id",
                "submission__version",
                "submission_id",
                "player_id",
                "machine_score",
            )
        )
    ),
    # No ordering where none is needed: a model's own would join the game's group and meet.
    "discarded": CompiledQuery(
        lambda s: (
            m.DiscardedScore.objects.filter(game__group__meet__season_id=s)
            .order_by()
            .values_list("game_id", "version")
        )
    ),
    "non_countable": CompiledQuery(
        lambda s: (
            m.Forfeit.objects.filter(game__group__meet__season_id=s, countable=False)
            .order_by()
            .values_list("game_id", "player_id")
        )
    ),
    "tie_places": CompiledQuery(
        lambda s: (
            m.TieOrderPlace.objects.filter(tie_order__game__group__meet__season_id=s)
            .order_by("tie_order__game_id", "tie_order_id", "position")
            .values_list(
                "tie_order__game_id", "tie_order__submission_id", "tie_order_id", "player_id"
            )
        )
    ),
    "compensatory": CompiledQuery(
        lambda s: (
            m.CompensatoryGame.objects.filter(game__group__meet__season_id=s)
            .order_by()
            .values_list(*COMPENSATORY_COLUMNS)
        )
    ),
    "game_violations": CompiledQuery(
        lambda s: (
            m.Violation.objects.filter(game__group__meet__season_id=s)
            .order_by()
            .values_list(
                "game_id", "player_id", "kind", "serious", "last_allowable_ball", "slam_tilted"
            )
        )
    ),
    # R3-d: who agreed to each applied correction, with what it corrected (base -> proposed).
    "corrections": CompiledQuery(
        lambda s: (
            m.CorrectionResponse.objects.filter(
                request__game__group__meet__season_id=s,
                request__status=m.CorrectionRequest.Status.APPLIED,
                agrees=True,
            )
            .order_by("request__game_id", "request__proposed__version", "created_at", "id")
            .values_list(
                "request__game_id",
                "request__base_id",
                "request__proposed_id",
                "request__override_by__username",
                "player_id",
            )
        )
    ),
    "members": CompiledQuery(
        lambda s: (
            m.GroupMember.objects.filter(group__meet__season_id=s, group__meet__status__in=PLAYED)
            .order_by("group__meet_id", "group__number", "position")
            .values_list("group_id", "group__meet_id", "player_id")
        )
    ),
    "match_absences": CompiledQuery(
        lambda s: (
            m.MatchAbsence.objects.filter(group__meet__season_id=s, group__meet__status__in=PLAYED)
            .order_by()
            .values_list("group_id", "player_id", "from_game")
        )
    ),
    "absences": CompiledQuery(
        lambda s: (
            m.AnnouncedAbsence.objects.filter(meet__season_id=s, meet__status__in=PLAYED)
            .order_by()
            .values_list("meet_id", "player_id")
        )
    ),
    "meet_violations": CompiledQuery(
        lambda s: (
            m.Violation.objects.filter(meet__season_id=s, meet__status__in=PLAYED)
            .order_by("meet_id", "created_at", "id")
            .values_list(
                "meet_id",
                "player_id",
                "kind",
                "serious",
                "game__number",
                "games_completed",
                "target_game",
                "last_allowable_ball",
                "slam_tilted",
            )
        )
    ),
}
"""The queries of `season_facts`, each of one season (its id) and compiled once."""


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
    adjustments = _score_adjustments(rows["game_violations"])
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


def _score_adjustments(
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
    reduced, zeroed = _score_adjustments(
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
