"""The playoff night as read from its facts (§6): qualification, every match, final places.

Words:
- *playoff facts*: what was recorded for the night: the qualifiers (division and seed, the
  bracket the night is played with), the no-shows of each match, each game's machine and
  results, and each match's tiebreakers. `load_playoff_facts` turns them into the rules'
  `PlayoffSeeding` and `PlayoffMatchRecord` values per division.
- *game in progress*: a playoff game started on a machine (its row exists) whose results are
  not recorded yet; the rules see only recorded games.
- *machine key*: a machine's database id as a string, how the rules name a machine here.
- *match table*: a match's players (best first once it is complete) with each game's PAPA
  points and the running total, as the games are recorded (R6.3-a, R6.3-c).
- *notes*: the rules' plain sentences on why the bracket went as it did where totals were
  equal or a player was missing (`flipwell.rules.match_notes`, `seed_playoff_notes`,
  `withdrawal_notes`); each ends with its rule id in brackets, for the page's "why".
- *final places*: from `flipwell.rules.playoff_bracket` once a division's final is complete:
  the final's order, then the eliminated of each earlier round sharing a place. They are
  derived, never stored (see `flipwell.league.models.playoffs`).

Qualification before the bracket is drawn comes from `playoff_qualification` (the season's
final standings, the recorded single-ball playoffs and the withdrawals).
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace

from flipwell.league import models as m
from flipwell.league.adapters import player_key, season_ruleset
from flipwell.league.models.playoffs import PlayoffNoShow  # exported by models later
from flipwell.league.results import season_fold
from flipwell.league.selectors.standings import PlayerRef, playoff_candidates
from flipwell.rules import (
    PlayoffBracketState,
    PlayoffGame,
    PlayoffMatchRecord,
    PlayoffMatchState,
    PlayoffQualification,
    PlayoffSeeding,
    RuleError,
    Ruleset,
    match_notes,
    papa_points,
    playoff_bracket_state,
    playoff_qualification,
    seed_playoff_notes,
    withdrawal_notes,
)
from flipwell.rules.playoff_matches import EMPTY_RECORD, tiebreakers_needed
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


@dataclass(frozen=True)
class GameColumn:
    """One game of a match as its table's column: number, machine, and whether it is being
    played now (its points are not known yet)."""

    number: int
    machine: str
    playing: bool = False


@dataclass(frozen=True)
class MatchRow:
    """One player's line in a match table: PAPA points per game column (None while that game
    is being played), total so far, and how the match ended for the player ("through",
    "out", a final place, or "")."""

    player: PlayerRef
    points: tuple[int | None, ...]
    total: int | None
    result: str
    no_show: bool = False


@dataclass(frozen=True)
class MatchView:
    """One playoff match: who plays, where it stands, what it still needs (§6.3-§6.6)."""

    match: str
    round: str
    status: str
    needed: str
    players: tuple[PlayerRef, ...]
    no_shows: tuple[PlayerRef, ...]
    games: tuple[PlayedGame, ...]
    game_in_progress: GameInProgress | None
    next_game: int | None
    play_order: tuple[PlayerRef, ...]
    machine_chooser: PlayerRef | None
    """Who picks the next machine (R6.4-c); None: it is drawn at random (R6.4-b, R6.5-b)."""
    totals: tuple[tuple[PlayerRef, int], ...]
    tied: tuple[tuple[PlayerRef, ...], ...]
    advancing: tuple[PlayerRef, ...]
    eliminated: tuple[PlayerRef, ...]
    placing: tuple[PlayerRef, ...]
    columns: tuple[GameColumn, ...] = ()
    rows: tuple[MatchRow, ...] = ()
    notes: tuple[str, ...] = ()
    """Why equal totals or a no-show went as they did, one sentence each ("... [R6.5-a]")."""

    @property
    def in_progress(self) -> bool:
        """True once a game has started and until the match is complete."""
        return self.status != "complete" and bool(self.games or self.game_in_progress)


@dataclass(frozen=True)
class DivisionView:
    """One division's bracket and, once its final is complete, every player's place."""

    name: str
    bracket: int
    seeds: tuple[tuple[int, PlayerRef | None], ...]
    matches: tuple[MatchView, ...]
    complete: bool
    places: tuple[tuple[int, PlayerRef], ...]

    @property
    def notes(self) -> tuple[tuple[str, str], ...]:
        """Every match's sentences with its id, in playing order: ("SF1", "... [R6.5-a]")."""
        return tuple((match.match, line) for match in self.matches for line in match.notes)


@dataclass(frozen=True)
class PlayoffBracket:
    """The playoff night: its status, and each division (empty until qualification is done)."""

    season_id: int
    date: datetime.date | None
    status: str
    ties: tuple[str, ...] = ()
    """Qualification ties still waiting for a single-ball playoff (R6.1-e, A39)."""
    tie_players: tuple[tuple[tuple[int, str], ...], ...] = ()
    """Each of `ties`' players (id, name), in the same order: a seed playoff's players."""
    divisions: tuple[DivisionView, ...] = field(default_factory=tuple)
    notes: tuple[str, ...] = ()
    """How the seeds were settled: single-ball playoffs and withdrawals (R6.1-e, R6.6-b)."""


def playoff_bracket(season: m.Season) -> PlayoffBracket:
    """The playoff bracket of each division with what each match still needs (§6.3-§6.6).

    Before the bracket is drawn, the open qualification ties are listed instead.
    """
    night = m.PlayoffNight.objects.filter(season=season).first()
    if night is None:
        return PlayoffBracket(season_id=season.pk, date=None, status="not planned")
    facts = load_playoff_facts(night)
    if not facts.divisions:
        open_ties = playoff_qualification_now(season, night).ties
        names = player_names(p for t in open_ties for p in t.players)
        ties = tuple(t.render(names) for t in open_ties)
        tie_players = tuple(tuple((int(p), names[p]) for p in t.players) for t in open_ties)
        return PlayoffBracket(
            season.pk, night.date, night.status, ties=ties, tie_players=tie_players
        )
    ruleset = season_ruleset(season)
    views = []
    for _name, division in facts.divisions.items():
        state = bracket_state(division, ruleset)
        views.append(_division_view(facts, division, state))
    return PlayoffBracket(
        season.pk,
        night.date,
        night.status,
        divisions=tuple(views),
        notes=_seed_notes(season, night, facts, ruleset),
    )


def _seed_notes(
    season: m.Season, night: m.PlayoffNight, facts: PlayoffFacts, ruleset: Ruleset
) -> tuple[str, ...]:
    """Why the drawn seeds are what they are: each recorded single-ball playoff (R6.1-e) and
    the withdrawals (R6.6-b). Nothing to say, and no season fold read, when neither exists."""
    places = (
        m.TiebreakerPlace.objects.filter(
            tiebreaker__playoff_night=night,
            tiebreaker__purpose__in=[m.Tiebreaker.Purpose.ENTRY, m.Tiebreaker.Purpose.SEEDING],
        )
        .order_by("tiebreaker_id", "place")
        .values_list("tiebreaker_id", "tiebreaker__machine__title", "player_id")
    )
    orders: dict[int, list[str]] = defaultdict(list)
    machines: dict[int, str | None] = {}
    for tiebreaker, machine, player in places:
        orders[tiebreaker].append(player_key(player))
        machines[tiebreaker] = machine
    withdrawn = night.withdrawals.exists()
    if not orders and not withdrawn:
        return ()
    folded = season_fold(season)
    points = {c.player: c.points for c in playoff_candidates(folded.result)}
    names = player_names([*points, *(p for order in orders.values() for p in order)])
    seedings = [d.seeding for d in facts.divisions.values()]
    notes = seed_playoff_notes(
        list(orders.values()),
        points=points,
        seedings=seedings,
        names=names,
        machines=[machines[t] for t in orders],
    )
    if withdrawn:
        try:
            qualification = playoff_qualification_now(season, night)
        except RuleError:
            return notes  # the standings changed since the draw: the seeds say the rest
        notes += withdrawal_notes(qualification, names=names, ruleset=ruleset)
    return notes


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
    tiebreakers: dict[int, dict[int, list[str]]] = defaultdict(lambda: defaultdict(list))
    tiebreaker_machine: dict[int, str] = {}
    for match_pk, tb, machine, player in (
        m.TiebreakerPlace.objects.filter(
            tiebreaker__playoff_night=night, tiebreaker__purpose=m.Tiebreaker.Purpose.MATCH
        )
        .order_by("tiebreaker_id", "place")
        .values_list("tiebreaker__match_id", "tiebreaker_id", "tiebreaker__machine_id", "player_id")
    ):
        tiebreakers[match_pk][tb].append(player_key(player))
        tiebreaker_machine[tb] = str(machine) if machine else "drawn machine"
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
    seedings = _seedings(night.cut, qualifiers)
    divisions: dict[str, DivisionFacts] = {}
    for name, seeding in seedings.items():
        records: dict[str, PlayoffMatchRecord] = {}
        progress: dict[str, GameInProgress] = {}
        started_ids: set[str] = set()
        for pk, (division, mid) in matches.items():
            if division != name:
                continue
            if pk in in_progress:
                progress[mid] = in_progress[pk]
            if pk in started:
                started_ids.add(mid)
            record = PlayoffMatchRecord(
                absent=tuple(absent.get(pk, ())),
                games=tuple(by_match_games.get(pk, ())),
                tiebreakers=tuple(
                    PlayoffGame(machine=tiebreaker_machine[tb], order=tuple(order))
                    for tb, order in tiebreakers.get(pk, {}).items()
                ),
            )
            if record.absent or record.games or record.tiebreakers:
                records[mid] = record
        divisions[name] = DivisionFacts(seeding, records, progress, frozenset(started_ids))
    return PlayoffFacts(night, divisions, machines, names)


def _seedings(cut: int, qualifiers: list[m.Qualifier]) -> dict[str, PlayoffSeeding]:
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


def _division_view(
    facts: PlayoffFacts, division: DivisionFacts, state: PlayoffBracketState
) -> DivisionView:
    names = facts.names
    plain = {key: ref.name for key, ref in names.items()}

    def refs(players: tuple[str, ...]) -> tuple[PlayerRef, ...]:
        return tuple(names[p] for p in players)

    matches = []
    for match in state.matches:
        record = division.records.get(match.match, EMPTY_RECORD)
        orders = [g.finishing_order() for g in record.games]
        played = tuple(
            PlayedGame(
                number=i,
                machine=facts.machines.get(g.machine, g.machine),
                order=refs(order),
            )
            for i, (g, order) in enumerate(zip(record.games, orders, strict=True), 1)
        )
        in_progress = division.in_progress.get(match.match)
        view = _match_view(match, played, in_progress, refs)
        matches.append(
            replace(
                view,
                columns=_columns(played, in_progress),
                rows=_rows(match, orders, names, playing=in_progress is not None),
                notes=match_notes(match, record, names=plain, machines=facts.machines),
            )
        )
    seeds = tuple(
        (i, names[p] if p is not None else None) for i, p in enumerate(division.seeding.seeds, 1)
    )
    places = tuple(
        sorted(((place, names[p]) for p, place in state.places.items()), key=lambda x: x[0])
    )
    return DivisionView(
        name=state.division,
        bracket=division.seeding.division.bracket,
        seeds=seeds,
        matches=tuple(matches),
        complete=state.complete,
        places=places,
    )


def _columns(
    played: tuple[PlayedGame, ...], in_progress: GameInProgress | None
) -> tuple[GameColumn, ...]:
    """The match table's game columns: the recorded games, then the one being played."""
    columns = [GameColumn(g.number, g.machine) for g in played]
    if in_progress is not None:
        columns.append(GameColumn(in_progress.number, in_progress.machine, playing=True))
    return tuple(columns)


def _rows(
    match: PlayoffMatchState,
    orders: list[tuple[str, ...]],
    names: Mapping[str, PlayerRef],
    *,
    playing: bool,
) -> tuple[MatchRow, ...]:
    """Each player's PAPA points per recorded game (None for the game being played) and
    total so far (R6.3-a, R6.3-c), best first once the match is complete, else in seed
    order; no-shows last (R6.6-c)."""
    if match.status == "waiting":
        return ()
    points = [papa_points(order) for order in orders]
    present = match.standing or tuple(p for p in match.players if p not in match.absent)
    place = {p: i for i, p in enumerate(match.placing, 1)}
    rows = []
    for player in present:
        if match.placing:
            result = f"{place[player]}{_suffix(place[player])}"
        else:
            result = (
                "through"
                if player in match.advancing
                else "out"
                if player in match.eliminated
                else ""
            )
        rows.append(
            MatchRow(
                player=names[player],
                points=tuple(game.get(player) for game in points) + ((None,) if playing else ()),
                total=match.totals.get(player),
                result=result,
            )
        )
    for player in match.absent:
        result = f"{place[player]}{_suffix(place[player])}" if player in place else "out"
        rows.append(MatchRow(names[player], (), None, result, no_show=True))
    return tuple(rows)


def _suffix(number: int) -> str:
    return "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")


def _match_view(
    match: PlayoffMatchState,
    played: tuple[PlayedGame, ...],
    in_progress: GameInProgress | None,
    refs: Callable[[tuple[str, ...]], tuple[PlayerRef, ...]],
) -> MatchView:
    needed = match.needed
    if match.tied:
        needed = tiebreakers_needed(
            match.tied, {p: refs((p,))[0].name for t in match.tied for p in t}
        )
    if in_progress is not None:
        needed = f"game {in_progress.number} is being played on {in_progress.machine}"
    return MatchView(
        match=match.match,
        round=match.round,
        status=match.status,
        needed=needed,
        players=refs(match.players),
        no_shows=refs(match.absent),
        games=played,
        game_in_progress=in_progress,
        next_game=match.next_game,
        play_order=refs(match.play_order),
        machine_chooser=refs((match.machine_chooser,))[0] if match.machine_chooser else None,
        totals=tuple((refs((p,))[0], t) for p, t in match.totals.items()),
        tied=tuple(refs(t) for t in match.tied),
        advancing=refs(match.advancing),
        eliminated=refs(match.eliminated),
        placing=refs(match.placing),
    )
