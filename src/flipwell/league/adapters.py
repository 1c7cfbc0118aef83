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
from collections.abc import Iterable, Mapping

from flipwell.league import models as m
from flipwell.league.validators import ruleset_from_overrides
from flipwell.rules import (
    Compensatory,
    Entrant,
    GameFacts,
    MatchFacts,
    MeetFacts,
    RuleError,
    Ruleset,
    SeasonFacts,
    Violation,
    ViolationFacts,
    ViolationKind,
)
from flipwell.rules.match import (
    violation_score_changes,
)
from flipwell.rules.violations import (
    VIOLATION_KINDS,
)

PLAYED = (m.Meet.Status.OPEN, m.Meet.Status.CLOSED)


def player_key(player_id: int) -> str:
    """The rules' name for a player (a string, as flipwell.rules requires)."""
    return str(player_id)


def ruleset_for(league: m.League) -> Ruleset:
    """The league's `Ruleset`: FWPL v1.0 with its stored overrides (JSON) applied.

    Raises RuleError naming the setting when a stored override is not allowed.
    """
    return ruleset_from_overrides(league.ruleset_overrides or {})


def season_facts(season: m.Season) -> SeasonFacts:
    """Every fact of a season that the standings depend on (11 queries)."""
    entries = list(
        season.entries.order_by("id").values_list(  # tuples: a season may have 10,000 entrants
            "player_id",
            "player__first_name",
            "player__last_name",
            "ifpa_rank_at_start",
            "joined_at_meet",
            "late_join_forfeits_countable",
        )
    )
    meets = list(season.meets.filter(status__in=PLAYED).order_by("number"))
    meet_ids = [meet.id for meet in meets]
    games = _games_by_group(meet_ids)
    groups = _groups_by_meet(meet_ids, games)
    absences = _by(
        m.AnnouncedAbsence.objects.filter(meet_id__in=meet_ids).values_list("meet_id", "player_id")
    )
    violations = _violations_by_meet(meet_ids)
    return SeasonFacts(
        entrants=tuple(
            Entrant(player=player_key(player), first_name=first, last_name=last, ifpa_rank=rank)
            for player, first, last, rank, _, _ in entries
        ),
        meets=tuple(
            MeetFacts(
                number=meet.number,
                groups=tuple(groups.get(meet.id, ())),
                announced_absences=frozenset(player_key(p) for p in absences.get(meet.id, ())),
                violations=tuple(violations.get(meet.id, ())),
                group_override=meet.group_override_reason or None,
                closed=meet.status == m.Meet.Status.CLOSED,
            )
            for meet in meets
        ),
        joined_at={player_key(player): joined for player, _, _, _, joined, _ in entries},
        late_join_non_countable=frozenset(
            player_key(player) for player, _, _, _, _, countable in entries if countable is False
        ),
    )


def _by(pairs: Iterable[tuple[int, int]]) -> dict[int, list[int]]:
    grouped: dict[int, list[int]] = defaultdict(list)
    for key, value in pairs:
        grouped[key].append(value)
    return grouped


def _groups_by_meet(
    meet_ids: list[int], games: Mapping[int, tuple[GameFacts, ...]]
) -> dict[int, list[MatchFacts]]:
    members = m.GroupMember.objects.filter(group__meet_id__in=meet_ids).order_by(
        "group__meet_id", "group__number", "position"
    )
    players: dict[int, list[str]] = defaultdict(list)
    meet_of: dict[int, int] = {}
    for group_id, meet_id, player_id in members.values_list(
        "group_id", "group__meet_id", "player_id"
    ):
        players[group_id].append(player_key(player_id))
        meet_of[group_id] = meet_id
    by_meet: dict[int, list[MatchFacts]] = defaultdict(list)
    for group_id, group_players in players.items():  # already in meet, group order
        by_meet[meet_of[group_id]].append(
            MatchFacts(players=tuple(group_players), games=games.get(group_id, ()))
        )
    return by_meet


def _games_by_group(meet_ids: list[int]) -> dict[int, tuple[GameFacts, ...]]:
    """Each group's games that have confirmed scores, in game order (5 queries)."""
    rows = list(
        m.Game.objects.filter(group__meet_id__in=meet_ids)
        .order_by("group_id", "number")
        .values_list("id", "group_id", "machine__title")
    )
    game_ids = [row[0] for row in rows]
    confirmed = _confirmed_sheets(game_ids)
    counted = {g: (version, pk) for g, (version, pk, _) in confirmed.items()}
    scores = {g: sheet for g, (_, _, sheet) in confirmed.items()}
    discarded = set(  # a set: no ordering (the model's would join the game's group and meet)
        m.DiscardedScore.objects.filter(game_id__in=game_ids)
        .order_by()
        .values_list("game_id", "version")
    )
    non_countable = _by(
        m.Forfeit.objects.filter(game_id__in=game_ids, countable=False).values_list(
            "game_id", "player_id"
        )
    )
    ties = {
        g: tuple(tuple(player_key(p) for p in order) for order in orders)
        for g, orders in counted_tie_orders(game_ids, counted).items()
    }
    compensatory = _by_game_player(
        m.CompensatoryGame.objects.filter(game_id__in=game_ids).values_list(
            "game_id", "player_id", "new_score", "leading_subtracted", "state_subtracted"
        )
    )
    adjustments = _score_adjustments(game_ids)
    games: dict[int, list[GameFacts]] = defaultdict(list)
    for game_id, group_id, title in rows:
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
            )
        )
    return {group: tuple(g) for group, g in games.items()}


def _confirmed_sheets(game_ids: list[int]) -> dict[int, tuple[int, int, dict[str, int | None]]]:
    """Game -> (version, submission id, {player: machine score or None}) of its highest
    confirmed version."""
    lines = (
        m.ScoreLine.objects.filter(
            submission__game_id__in=game_ids, submission__confirmed_by__isnull=False
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
    game_ids: list[int],
) -> dict[int, tuple[frozenset[str], dict[str, str]]]:
    """Game -> (players whose score is reduced 25%, players whose score is zero and why), as
    the rules decide from the game's violations (`violation_score_changes`, §8.1/§8.2/§8.7)."""
    rows = m.Violation.objects.filter(game_id__in=game_ids).values_list(
        "game_id", "player_id", "kind", "serious", "last_allowable_ball", "slam_tilted"
    )
    by_game: dict[int, list[Violation]] = defaultdict(list)
    for game_id, player_id, kind, serious, last_ball, slam in rows:
        by_game[game_id].append(_violation(player_id, kind, serious, last_ball, slam))
    changes = {g: violation_score_changes(found) for g, found in by_game.items()}
    return {g: (reduced, zeroed) for g, (reduced, zeroed) in changes.items() if reduced or zeroed}


def _violation(player_id: int, kind: str, serious: bool, last_ball: bool, slam: bool) -> Violation:
    """A stored violation as the rules' `Violation`."""
    return Violation(
        violator=player_key(player_id),
        kind=_violation_kind(kind),
        last_allowable_ball=last_ball,
        slam_tilted=slam,
        lo_marked_not_serious=kind == "opponents_ball" and not serious,
    )


def _violations_by_meet(meet_ids: list[int]) -> dict[int, list[ViolationFacts]]:
    rows = (
        m.Violation.objects.filter(meet_id__in=meet_ids)
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
