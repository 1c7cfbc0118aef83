"""The playoff bracket as its pages show it: each division's matches with their tables, what each
match still needs, the notes on why it went as it did, and the final places (§6.3-§6.6).

The package's words (`flipwell.league.selectors.playoffs`) apply: *match table*, *notes*,
*final places*; the facts read are `facts`'.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.derived.results import season_fold
from flipwell.league.selectors.playoffs.facts import (
    DivisionFacts,
    GameInProgress,
    PlayedGame,
    PlayoffFacts,
    bracket_state,
    load_playoff_facts,
    player_names,
    playoff_qualification_now,
)
from flipwell.league.selectors.standings import PlayerRef, playoff_candidates
from flipwell.rules import (
    PlayoffBracketState,
    PlayoffMatchState,
    RuleError,
    Ruleset,
    match_notes,
    papa_points,
    seed_playoff_notes,
    withdrawal_notes,
)
from flipwell.rules.playoff_matches import EMPTY_RECORD, tiebreakers_needed


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
