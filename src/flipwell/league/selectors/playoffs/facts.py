"""The playoff night's recorded facts, read into the rules' values (a fixed number of queries),
and the qualification before the bracket is drawn (§6.1-§6.3).

Words:
- *playoff facts*, *game in progress*, *machine key*: see the package
  `flipwell.league.selectors.playoffs`.
- *match id*: the rules' id of a stored match (QF1, QF2, SF1, SF2 or F), from its round and
  number (`match_id`, `match_round`).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.derived.results import season_fold
from flipwell.league.models.playoffs import PlayoffNoShow  # exported by models later
from flipwell.league.selectors.standings import PlayerRef, playoff_candidates
from flipwell.rules import (
    PlayoffBracketState,
    PlayoffGame,
    PlayoffMatchRecord,
    PlayoffQualification,
    PlayoffSeeding,
    RuleError,
    Ruleset,
    playoff_bracket_state,
    playoff_qualification,
)
from flipwell.rules.playoffs import divisions_for_qualifiers

ROUND_PREFIX = {"quarterfinal": "QF", "semifinal": "SF", "final": "F"}


def match_id(round_: str, number: int) -> str:
    """The rules' id of a stored match: QF1, QF2, SF1, SF2 or F."""
    prefix = ROUND_PREFIX[round_]
    return prefix if prefix == "F" else f"{prefix}{number}"


def match_round(match: str) -> tuple[str, int]:
    """The stored round and number of a rules match id (inverse of `match_id`)."""
    for round_, prefix in ROUND_PREFIX.items():
        if match == prefix or (match.startswith(prefix) and match[len(prefix) :].isdigit()):
            number = int(match[len(prefix) :] or 1)
            if match_id(round_, number) == match:
                return round_, number
    raise RuleError(f"unknown playoff match {match!r}; allowed: QF1, QF2, SF1, SF2, F")


@dataclass(frozen=True)
class GameInProgress:
    """A started playoff game whose results are not recorded yet."""

    game_id: int
    number: int
    machine_id: int
    machine: str


@dataclass(frozen=True)
class DivisionFacts:
    """One division's recorded facts, as the rules take them."""

    seeding: PlayoffSeeding
    records: Mapping[str, PlayoffMatchRecord]
    in_progress: Mapping[str, GameInProgress]
    started: frozenset[str]
    """Matches with at least one game started (no-shows are then too late, R6.6-c)."""


@dataclass(frozen=True)
class PlayoffFacts:
    """The night's facts per division, with machine titles and player names for display."""

    night: m.PlayoffNight
    divisions: Mapping[str, DivisionFacts]
    machines: Mapping[str, str]
    """Machine key -> title."""
    names: Mapping[str, PlayerRef]


@dataclass(frozen=True)
class PlayedGame:
    """A recorded game of a match: number, machine and finishing order."""

    number: int
    machine: str
    order: tuple[PlayerRef, ...]


def player_names(keys: Iterable[str]) -> dict[str, str]:
    """Player key -> "First Last" for the players `keys` name (one query)."""
    rows = m.Player.objects.filter(pk__in={int(k) for k in keys}).values_list(
        "pk", "first_name", "last_name"
    )
    return {player_key(pk): f"{first} {last}" for pk, first, last in rows}


def bracket_state(division: DivisionFacts, ruleset: Ruleset) -> PlayoffBracketState:
    """The rules' state of one division from its recorded facts."""
    return playoff_bracket_state(division.seeding, results=division.records, ruleset=ruleset)


def playoff_qualification_now(
    season: m.Season, night: m.PlayoffNight | None = None
) -> PlayoffQualification:
    """Qualification from the final standings, recorded seed playoffs and withdrawals (§6.1,
    §6.2, R6.6-b): the rules' `playoff_qualification` on the season's facts."""
    folded = season_fold(season)
    result, ruleset = folded.result, folded.ruleset
    settled: list[list[str]] = []
    withdrawn: list[str] = []
    cut = None
    if night is not None:
        places = (
            m.TiebreakerPlace.objects.filter(
                tiebreaker__playoff_night=night,
                tiebreaker__purpose__in=[m.Tiebreaker.Purpose.ENTRY, m.Tiebreaker.Purpose.SEEDING],
            )
            .order_by("tiebreaker_id", "place")
            .values_list("tiebreaker_id", "player_id")
        )
        orders: dict[int, list[str]] = defaultdict(list)
        for tiebreaker, player in places:
            orders[tiebreaker].append(player_key(player))
        settled = list(orders.values())
        withdrawn = [player_key(p) for p in night.withdrawals.values_list("player_id", flat=True)]
        cut = night.cut_override
    return playoff_qualification(
        playoff_candidates(result),
        previous_ladder=result.ladder,
        settled=settled,
        withdrawn=withdrawn,
        cut=cut,
        ruleset=ruleset,
    )


def load_playoff_facts(night: m.PlayoffNight) -> PlayoffFacts:
    """The night's recorded facts per division (a fixed number of queries)."""
    qualifiers = list(night.qualifiers.select_related("player").order_by("division", "seed"))
    names = {
        player_key(q.player_id): PlayerRef(
            q.player_id, f"{q.player.first_name} {q.player.last_name}"
        )
        for q in qualifiers
    }
    machines = {
        str(pk): title
        for pk, title in m.Machine.objects.filter(league_id=night.season.league_id).values_list(
            "id", "title"
        )
    }
    if not qualifiers or night.cut is None:
        return PlayoffFacts(night, {}, machines, names)
    matches = {
        pk: (division, match_id(round_, number))
        for pk, division, round_, number in night.matches.values_list(
            "id", "division", "round", "number"
        )
    }
    records, in_progress, started = _match_records(night)
    divisions = {
        name: _division_facts(name, seeding, matches, records, in_progress, started)
        for name, seeding in seedings_of(night.cut, qualifiers).items()
    }
    return PlayoffFacts(night, divisions, machines, names)


def _match_records(
    night: m.PlayoffNight,
) -> tuple[dict[int, PlayoffMatchRecord], dict[int, GameInProgress], set[int]]:
    """Match id -> its record (no-shows, recorded games, tiebreakers) for each match with one;
    match id -> its game in progress; the ids of the matches with a game started."""
    games = list(
        m.PlayoffGame.objects.filter(match__playoff_night=night)
        .order_by("match_id", "number")
        .values_list("id", "match_id", "number", "machine_id", "machine__title")
    )
    results: dict[int, list[tuple[str, int | None, int | None, int | None]]] = defaultdict(list)
    for game_id, player, score, place, tie_place in m.PlayoffResult.objects.filter(
        game__match__playoff_night=night
    ).values_list("game_id", "player_id", "machine_score", "place", "tie_place"):
        results[game_id].append((player_key(player), score, place, tie_place))
    absent: dict[int, list[str]] = defaultdict(list)
    for match_pk, player in PlayoffNoShow.objects.filter(match__playoff_night=night).values_list(
        "match_id", "player_id"
    ):
        absent[match_pk].append(player_key(player))
    tiebreakers = _tiebreaker_games(night)
    by_match_games: dict[int, list[PlayoffGame]] = defaultdict(list)
    in_progress: dict[int, GameInProgress] = {}
    started: set[int] = set()
    for game_id, match_pk, number, machine_id, title in games:
        started.add(match_pk)
        lines = results.get(game_id)
        if not lines:
            in_progress[match_pk] = GameInProgress(game_id, number, machine_id, title)
            continue
        by_match_games[match_pk].append(_rules_game(str(machine_id), lines))
    records = {
        pk: PlayoffMatchRecord(
            absent=tuple(absent.get(pk, ())),
            games=tuple(by_match_games.get(pk, ())),
            tiebreakers=tuple(tiebreakers.get(pk, ())),
        )
        for pk in {*absent, *by_match_games, *tiebreakers}
    }
    return records, in_progress, started


def _tiebreaker_games(night: m.PlayoffNight) -> dict[int, list[PlayoffGame]]:
    """Match id -> its recorded tiebreaker games (R6.5-a), each as its machine and order."""
    orders: dict[int, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    machine_of: dict[int, str] = {}
    for match_pk, tb, machine, player in (
        m.TiebreakerPlace.objects.filter(
            tiebreaker__playoff_night=night, tiebreaker__purpose=m.Tiebreaker.Purpose.MATCH
        )
        .order_by("tiebreaker_id", "place")
        .values_list("tiebreaker__match_id", "tiebreaker_id", "tiebreaker__machine_id", "player_id")
    ):
        orders[match_pk][tb].append(player_key(player))
        machine_of[tb] = str(machine) if machine else "drawn machine"
    return {
        match_pk: [
            PlayoffGame(machine=machine_of[tb], order=tuple(order)) for tb, order in by_tb.items()
        ]
        for match_pk, by_tb in orders.items()
    }


def _division_facts(
    name: str,
    seeding: PlayoffSeeding,
    matches: Mapping[int, tuple[str, str]],
    records: Mapping[int, PlayoffMatchRecord],
    in_progress: Mapping[int, GameInProgress],
    started: set[int],
) -> DivisionFacts:
    """Division `name`'s facts: its matches' records, games in progress and started matches,
    by the rules' match id."""
    division_records: dict[str, PlayoffMatchRecord] = {}
    progress: dict[str, GameInProgress] = {}
    started_ids: set[str] = set()
    for pk, (division, mid) in matches.items():
        if division != name:
            continue
        if pk in in_progress:
            progress[mid] = in_progress[pk]
        if pk in started:
            started_ids.add(mid)
        if pk in records:
            division_records[mid] = records[pk]
    return DivisionFacts(seeding, division_records, progress, frozenset(started_ids))


def seedings_of(cut: int, qualifiers: list[m.Qualifier]) -> dict[str, PlayoffSeeding]:
    seedings = {}
    for division in divisions_for_qualifiers(cut):
        seeds: list[str | None] = [None] * division.bracket
        for q in qualifiers:
            if q.division == division.name and q.seed <= division.bracket:
                seeds[q.seed - 1] = player_key(q.player_id)
        seedings[division.name] = PlayoffSeeding(division, tuple(seeds))
    return seedings


def _rules_game(
    machine: str, lines: list[tuple[str, int | None, int | None, int | None]]
) -> PlayoffGame:
    """A recorded game: a finishing order (places), or machine scores with tie orders."""
    if all(score is None for _, score, _, _ in lines):
        return PlayoffGame(machine=machine, order=tuple(p for p, *_ in sorted(lines, key=_place)))
    scores = {p: score for p, score, _, _ in lines if score is not None}
    tied: dict[int, list[tuple[int, str]]] = defaultdict(list)
    for player, score, _, tie_place in lines:
        if tie_place is not None and score is not None:
            tied[score].append((tie_place, player))
    tie_order = tuple(tuple(p for _, p in sorted(group)) for group in tied.values())
    return PlayoffGame(machine=machine, scores=scores, tie_order=tie_order)


def _place(line: tuple[str, int | None, int | None, int | None]) -> int:
    return line[2] or 0
