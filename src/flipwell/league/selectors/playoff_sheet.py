"""A playoff match's score sheet as its players see it on their phones (§6.3-§6.5).

Words (see `flipwell.league.services.playoff_sheets.match_sheet`): the *current* game is the
game in play (or the tiebreaker game, once the match needs one); its *pending* entry is the
latest version entered and not yet confirmed. *Running totals* are the PAPA points after each game
(`flipwell.rules.playoff_sheet.running_totals`).
"""

from __future__ import annotations

import datetime
import re
import zlib
from dataclasses import dataclass

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.selectors.playoffs.facts import (
    DivisionFacts,
    PlayoffFacts,
    bracket_state,
    load_playoff_facts,
    match_round,
)
from flipwell.rules import (
    PlayoffGame,
    PlayoffMatchState,
    RuleError,
    papa_points,
    running_totals,
    tiebreaker_explanation,
)
from flipwell.rules.playoff_machines import draw_tiebreaker_machine, selectable_playoff_machines

TIEBREAKER = m.PlayoffSheet.TIEBREAKER
MATCH_TITLES = {
    "QF1": "Quarterfinal 1",
    "QF2": "Quarterfinal 2",
    "SF1": "Semifinal 1",
    "SF2": "Semifinal 2",
    "F": "Final",
}

Choice = tuple[int, str]
"""(id, name) of a player or a machine, as a form's choices take it."""


@dataclass(frozen=True)
class SheetCell:
    """One player's line in a game: machine score (None: recorded as a place), PAPA points in
    the game and running total after it."""

    player_id: int
    machine_score: int | None
    points: int
    total: int


@dataclass(frozen=True)
class SheetGame:
    number: int
    machine: str
    chosen_by: str
    """Who picked its machine; "" when drawn at random (R6.4-b)."""
    cells: tuple[SheetCell, ...]
    correctable: bool


@dataclass(frozen=True)
class PendingLine:
    player_id: int
    name: str
    machine_score: int
    points: int | None


@dataclass(frozen=True)
class PendingEntry:
    sheet_id: int
    version: int
    entered_by_id: int
    entered_by: str
    lines: tuple[PendingLine, ...]


@dataclass(frozen=True)
class PendingCorrection:
    sheet_id: int
    number: int
    requested_by: str
    reason: str
    changes: tuple[tuple[str, int, int], ...]
    answered: tuple[tuple[str, bool], ...]
    waiting_for: tuple[Choice, ...]


@dataclass(frozen=True)
class CurrentGame:
    number: int
    """1-3, or `TIEBREAKER`."""
    machine: str
    play_order: tuple[Choice, ...]
    version: int
    pending: PendingEntry | None


@dataclass(frozen=True)
class MatchSheet:
    """Everything a match's sheet shows."""

    league: str
    season: str
    date: datetime.date
    division: str
    divisions: int
    match: str
    title: str
    open: bool
    status: str
    needed: str
    players: tuple[Choice, ...]
    """Present players by original seed."""
    no_shows: tuple[str, ...]
    games: tuple[SheetGame, ...]
    totals: tuple[tuple[str, int], ...]
    current: CurrentGame | None
    next_game: int | None
    picker: Choice | None
    """Who picks the next game's machine (R6.4-c); None: drawn at random (R6.4-b)."""
    previous_loser_game: int
    selectable: tuple[Choice, ...]
    tiebreaker: str
    tied: tuple[str, ...]
    tiebreakers_played: tuple[tuple[str, tuple[str, ...]], ...]
    """Each tiebreaker game played: its machine and its order, winner first (R6.5-a)."""
    corrections: tuple[PendingCorrection, ...]
    advancing: tuple[str, ...]
    eliminated: tuple[str, ...]
    placing: tuple[str, ...]

    @property
    def tiebreaker_number(self) -> int:
        return TIEBREAKER

    @property
    def correctable(self) -> tuple[SheetGame, ...]:
        return tuple(g for g in self.games if g.correctable)


def match_sheet(night: m.PlayoffNight, division: str, match: str) -> MatchSheet:
    """The sheet of `match` of `division` on the playoff night (a fixed number of queries)."""
    facts = load_playoff_facts(night)
    season = night.season
    div = facts.divisions[division]
    state = bracket_state(div, season_ruleset(season)).match(match)
    names = {k: ref.name for k, ref in facts.names.items()}
    present = [p for p in state.players if p not in state.absent]
    row = _row(night, division, match)
    sheets = _sheets(row)
    current = _current(facts, div, state, night, division, sheets, names)
    games = _games(facts, div, state, row, present)
    ready = state.status == "ready" and match not in div.in_progress
    return MatchSheet(
        league=season.league.name,
        season=season.name,
        date=night.date,
        division=division,
        divisions=len(facts.divisions),
        match=match,
        title=MATCH_TITLES.get(match, match),
        open=night.status != m.PlayoffNight.Status.CLOSED,
        status="in_play" if match in div.in_progress else state.status,
        needed=state.needed,
        players=tuple((int(p), names[p]) for p in present),
        no_shows=tuple(names[p] for p in state.absent),
        games=games,
        totals=tuple((names[p], state.totals.get(p, 0)) for p in present),
        current=current,
        next_game=state.next_game if ready else None,
        picker=_choice(state.machine_chooser, names) if ready else None,
        previous_loser_game=(state.next_game or 1) - 1,
        selectable=_selectable(facts, div, state, season, division) if ready else (),
        tiebreaker=tiebreaker_explanation(state, names),
        tied=tuple(names[p] for t in state.tied for p in t),
        tiebreakers_played=_tiebreakers_played(facts, div, match, names),
        corrections=_corrections(sheets, names, present, row),
        advancing=tuple(names[p] for p in state.advancing),
        eliminated=tuple(names[p] for p in state.eliminated),
        placing=tuple(names[p] for p in state.placing),
    )


def _tiebreakers_played(
    facts: PlayoffFacts, div: DivisionFacts, match: str, names: dict[str, str]
) -> tuple[tuple[str, tuple[str, ...]], ...]:
    record = div.records.get(match)
    return tuple(
        (facts.machines.get(g.machine, g.machine), tuple(names[p] for p in g.finishing_order()))
        for g in (record.tiebreakers if record is not None else ())
    )


def _choice(player: str | None, names: dict[str, str]) -> Choice | None:
    return (int(player), names[player]) if player is not None else None


def _row(night: m.PlayoffNight, division: str, match: str) -> m.PlayoffMatch | None:
    round_, number = match_round(match)
    return m.PlayoffMatch.objects.filter(
        playoff_night=night, division=division, round=round_, number=number
    ).first()


def _sheets(row: m.PlayoffMatch | None) -> list[m.PlayoffSheet]:
    if row is None:
        return []
    return list(
        m.PlayoffSheet.objects.filter(match=row)
        .select_related("entered_by")
        .prefetch_related("lines", "answers__player")
        .order_by("number", "version")
    )


def _current(
    facts: PlayoffFacts,
    div: DivisionFacts,
    state: PlayoffMatchState,
    night: m.PlayoffNight,
    division: str,
    sheets: list[m.PlayoffSheet],
    names: dict[str, str],
) -> CurrentGame | None:
    """The game in play (or the tiebreaker to play) with its latest unconfirmed entry."""
    in_play = div.in_progress.get(state.match)
    if in_play is not None:
        number, machine = in_play.number, in_play.machine
        order = state.play_order
    elif state.status == "tiebreaker_needed" and state.match:
        number = TIEBREAKER
        machine = _tiebreaker_machine(facts, night, f"{division}:{state.match}:tiebreaker")
        order = state.tied[0]
    else:
        return None
    versions = [s for s in sheets if s.number == number]
    latest = versions[-1] if versions else None
    pending = None
    if latest is not None and latest.status == m.PlayoffSheet.Status.ENTERED:
        pending = _pending(latest, names)
    return CurrentGame(
        number=number,
        machine=machine,
        play_order=tuple((int(p), names[p]) for p in order),
        version=latest.version if latest is not None else 0,
        pending=pending,
    )


def _busy(facts: PlayoffFacts, *, exclude: tuple[str, str]) -> list[str]:
    """Machines with a game in progress in another match (R5-d); as the services read them."""
    return sorted(
        {
            str(game.machine_id)
            for name, div in facts.divisions.items()
            for match, game in div.in_progress.items()
            if (name, match) != exclude
        }
    )


def _unplayable(night: m.PlayoffNight) -> list[str]:
    return [
        str(pk)
        for pk in m.Machine.objects.filter(
            league_id=night.season.league_id, status=m.Machine.Status.UNPLAYABLE
        ).values_list("id", flat=True)
    ]


def _tiebreaker_machine(facts: PlayoffFacts, night: m.PlayoffNight, what: str) -> str:
    """The machine the tiebreaker is drawn on (R6.5-b): the draw the services make, with the
    night's seed and `what` (`_playoff_night.draw_seed`), so the sheet shows where it is played."""
    try:
        key = draw_tiebreaker_machine(
            list(facts.machines),
            seed=(night.machine_draw_seed or 0) + zlib.crc32(what.encode()),
            busy=_busy(facts, exclude=("", "")),
            unplayable=_unplayable(night),
        )
    except RuleError:
        return "a machine the league official draws"
    return facts.machines[key]


def _pending(sheet: m.PlayoffSheet, names: dict[str, str]) -> PendingEntry:
    """The entered, unconfirmed version: each line with its PAPA points (none while a tie
    has no order, or for the tiebreaker game, which gives no points)."""
    lines = list(sheet.lines.all())
    points: dict[str, int] = {}
    if sheet.number != TIEBREAKER:
        game = PlayoffGame(
            machine="entered",
            scores={player_key(line.player_id): line.machine_score for line in lines},
            tie_order=_tie_order(lines),
        )
        try:
            points = papa_points(game.finishing_order())
        except RuleError:
            points = {}
    lines.sort(key=lambda line: (-line.machine_score, line.tie_place or 0))
    return PendingEntry(
        sheet_id=sheet.pk,
        version=sheet.version,
        entered_by_id=sheet.entered_by_id,
        entered_by=str(sheet.entered_by),
        lines=tuple(
            PendingLine(
                line.player_id,
                names.get(player_key(line.player_id), str(line.player_id)),
                line.machine_score,
                points.get(player_key(line.player_id)),
            )
            for line in lines
        ),
    )


def _tie_order(lines: list[m.PlayoffSheetLine]) -> tuple[tuple[str, ...], ...]:
    tied: dict[int, list[tuple[int, str]]] = {}
    for line in lines:
        if line.tie_place is not None:
            tied.setdefault(line.machine_score, []).append(
                (line.tie_place, player_key(line.player_id))
            )
    return tuple(tuple(p for _, p in sorted(group)) for group in tied.values())


def _games(
    facts: PlayoffFacts,
    div: DivisionFacts,
    state: PlayoffMatchState,
    row: m.PlayoffMatch | None,
    present: list[str],
) -> tuple[SheetGame, ...]:
    """The match's recorded games with each player's score, PAPA points and running total
    (R6.3-a, R6.3-c)."""
    record = div.records.get(state.match)
    games = record.games if record is not None else ()
    if not games:
        return ()
    lines = running_totals(present, [g.finishing_order() for g in games])
    chosen = {}
    if row is not None:
        chosen = {
            number: f"{first} {last}" if first else ""
            for number, first, last in row.games.values_list(
                "number", "chosen_by__first_name", "chosen_by__last_name"
            )
        }
    return tuple(
        SheetGame(
            number=line.number,
            machine=facts.machines.get(game.machine, game.machine),
            chosen_by=chosen.get(line.number, ""),
            cells=tuple(
                SheetCell(
                    int(p),
                    game.scores.get(p) if game.scores is not None else None,
                    line.points[p],
                    line.totals[p],
                )
                for p in present
            ),
            correctable=game.scores is not None,
        )
        for game, line in zip(games, lines, strict=True)
    )


def _selectable(
    facts: PlayoffFacts,
    div: DivisionFacts,
    state: PlayoffMatchState,
    season: m.Season,
    division: str,
) -> tuple[Choice, ...]:
    """The machines the loser may pick for the next game (R6.4-a, A44); none for game 1,
    whose machine is drawn (R6.4-b)."""
    if state.machine_chooser is None:
        return ()
    record = div.records.get(state.match)
    played = [g.machine for g in record.games] if record is not None else []
    unplayable = _unplayable(facts.night)
    try:
        keys = selectable_playoff_machines(
            list(facts.machines),
            played=played,
            busy=_busy(facts, exclude=(division, state.match)),
            unplayable=unplayable,
            ruleset=season_ruleset(season),
        )
    except RuleError:
        return ()
    return tuple(sorted(((int(k), facts.machines[k]) for k in keys), key=lambda c: c[1]))


def _corrections(
    sheets: list[m.PlayoffSheet],
    names: dict[str, str],
    present: list[str],
    row: m.PlayoffMatch | None,
) -> tuple[PendingCorrection, ...]:
    """Corrections waiting for answers, with who answered and who is still asked (R3-c)."""
    pending = [s for s in sheets if s.status == m.PlayoffSheet.Status.PENDING]
    if not pending or row is None:
        return ()
    confirmed = {
        (number, player): score
        for number, player, score in m.PlayoffResult.objects.filter(game__match=row).values_list(
            "game__number", "player_id", "machine_score"
        )
    }
    found = []
    for sheet in pending:
        answered = {a.player_id: a.agrees for a in sheet.answers.all()}
        changes = tuple(
            (names[player_key(line.player_id)], before, line.machine_score)
            for line in sheet.lines.all()
            if (before := confirmed.get((sheet.number, line.player_id))) is not None
            and before != line.machine_score
        )
        found.append(
            PendingCorrection(
                sheet_id=sheet.pk,
                number=sheet.number,
                requested_by=str(sheet.entered_by),
                reason=sheet.reason,
                changes=changes,
                answered=tuple((names[player_key(p)], agrees) for p, agrees in answered.items()),
                waiting_for=tuple((int(p), names[p]) for p in present if int(p) not in answered),
            )
        )
    return tuple(found)


@dataclass(frozen=True)
class PrintedMatch:
    """One match's printed sheet: its players by seed (game 1's play order, R5.3-a), or what
    they wait for."""

    division: str
    match: str
    title: str
    players: tuple[str, ...]
    needed: str

    @property
    def rows(self) -> tuple[str, ...]:
        """The known players, then a blank line for each still to come (4 in all)."""
        return self.players + ("",) * (4 - len(self.players)) if self.needed else self.players


def printed_matches(night: m.PlayoffNight) -> tuple[PrintedMatch, ...]:
    """Every match of the night in playing order, division by division (a fixed number of
    queries)."""
    facts = load_playoff_facts(night)
    ruleset = season_ruleset(night.season)
    found = []
    for name, div in facts.divisions.items():
        for state in bracket_state(div, ruleset).matches:
            players = tuple(facts.names[p].name for p in state.players if p not in state.absent)
            waiting = state.needed if state.status == "waiting" else ""
            for match_id_, title in MATCH_TITLES.items():
                waiting = re.sub(rf"\b{match_id_}\b", title.lower(), waiting)
            found.append(
                PrintedMatch(name, state.match, MATCH_TITLES[state.match], players, waiting)
            )
    return tuple(found)
