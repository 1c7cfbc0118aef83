"""Use case that enters every player of a roster CSV in a season (`import_players_csv`).

Words: a *roster* is the CSV `flipwell.league.players_csv` parses, a line per player; each
line is recognised as `flipwell.league.services.players.recognition` says (in bulk: the
*known players* are loaded in one query) and every player joins at the next unplayed meet
(`flipwell.league.services.players.joining`). All or nothing: the first bad line refuses
the whole file.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from django.core.exceptions import ValidationError
from django.db.models import Field, Q

from flipwell.league.models import League, Player, Season, SeasonEntry
from flipwell.league.players_csv import COLUMNS, PlayerRow, PlayersCsvError, parse_players_csv
from flipwell.league.refusals import Refusal
from flipwell.league.services._protocol import official_write
from flipwell.league.services.players.joining import joining_meet
from flipwell.league.services.players.recognition import (
    already_entered,
    ambiguous_name,
    check_same_name,
    distinct_people,
    league_rows,
    person_of,
)
from flipwell.league.validators import clean_lines, line_key

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class ImportResult:
    """What a roster import wrote: the season entries, and which players were new."""

    entries: list[SeasonEntry]
    created_players: list[Player]


def import_players_csv(
    *,
    season: Season,
    csv_text: str,
    actor: User,
    progress: Callable[[int], object] | None = None,
) -> ImportResult:
    """Register every player of a roster CSV (see `flipwell.league.players_csv`) in `season`.

    Every player joins at the next unplayed meet (`joining_meet`). All or nothing: the first
    bad line raises `PlayersCsvError` naming its line and column, and nothing is written.
    In bulk: a fixed number of queries whatever the file's length (the inserts go in the
    database's batches), and `progress`, if given, is called with the number of rows written
    after each chunk of `IMPORT_CHUNK` rows. Side effects otherwise: the new Players, the
    SeasonEntries, and one audit event ``players.imported`` on the season listing them.
    """
    rows = parse_players_csv(csv_text)
    with official_write(
        league=season.league, actor=actor, action="import players", season=season
    ) as write:
        entries = _planned_entries(season, rows)
        created_players = [entry.player for entry in entries if entry.player.pk is None]
        _insert(entries, progress)
        write.event(
            "players.imported",
            season,
            {
                "entries": [entry.pk for entry in entries],
                "created_players": [player.pk for player in created_players],
                "joined_at_meet": entries[0].joined_at_meet if entries else None,
            },
        )
    return ImportResult(entries=entries, created_players=created_players)


IMPORT_CHUNK = 1000
"""Rows a roster import inserts per step of its progress report."""


IN_LIMIT = 10_000
"""The most IFPA numbers looked up by value in one query (SQLite allows 32,766 parameters)."""


class _KnownPlayers:
    """The stored players a roster of `league` may name: by IFPA number (any league's), and
    the league's own players without one by name (module docstring).

    Loaded in one query; the roster's new players are added as they are planned, so a later
    line naming one of them finds him (as one by one registration would).
    """

    def __init__(self, rows: Sequence[PlayerRow], league: League) -> None:
        numbers = {row.ifpa_number for row in rows if row.ifpa_number is not None}
        numbered = (
            Q(ifpa_number__in=numbers) if len(numbers) <= IN_LIMIT else Q(ifpa_number__isnull=False)
        )
        self.by_number: dict[int, Player] = {}
        self.by_name: dict[tuple[str, str], list[Player]] = {}
        unnumbered = Q(ifpa_number__isnull=True) & league_rows(league)
        found = Player.objects.filter(numbered | unnumbered)
        for player in found.select_related("merged_into").order_by():
            self._add(player)

    def _add(self, player: Player) -> None:
        if player.ifpa_number is not None:
            self.by_number[player.ifpa_number] = player
        else:
            key = (line_key(player.first_name), line_key(player.last_name))
            self.by_name.setdefault(key, []).append(player)

    def find_or_plan(self, row: PlayerRow) -> Player:
        """The player a row names, or a new (unsaved, checked) one; as `find_or_create_player`."""
        named = clean_lines(first_name=row.first_name, last_name=row.last_name)
        first_name, last_name = named["first_name"], named["last_name"]
        if row.ifpa_number is not None:
            known = self.by_number.get(row.ifpa_number)
            if known is not None:
                check_same_name(known, first_name, last_name)
                return person_of(known)
        else:
            namesakes = distinct_people(
                self.by_name.get((line_key(first_name), line_key(last_name)), [])
            )
            if len(namesakes) == 1:
                return namesakes[0]
            if len(namesakes) > 1:
                raise ambiguous_name(first_name, last_name)
        player = Player(first_name=first_name, last_name=last_name, ifpa_number=row.ifpa_number)
        _check_fields(player, ("first_name", "last_name", "ifpa_number"))
        self._add(player)
        return player


def _planned_entries(season: Season, rows: Sequence[PlayerRow]) -> list[SeasonEntry]:
    """Every row's SeasonEntry, unsaved and checked; the first bad row's PlayersCsvError."""
    if not rows:
        return []
    try:
        joined = joining_meet(season, None, who="a new player")
    except ValidationError as exc:
        raise PlayersCsvError(rows[0].line, None, _first_problem(exc)[1]) from exc
    known = _KnownPlayers(rows, season.league)
    entered = set(SeasonEntry.objects.filter(season=season).values_list("player_id", flat=True))
    planned: set[int] = set()  # id() of each player already given a row of this file
    entries: list[SeasonEntry] = []
    for row in rows:
        try:
            player = known.find_or_plan(row)
            if player.pk in entered or id(player) in planned:
                raise already_entered(player, season)
            entry = SeasonEntry(
                season=season,
                player=player,
                ifpa_rank_at_start=row.ifpa_rank,
                joined_at_meet=joined,
            )
            _check_fields(entry, ("ifpa_rank_at_start",))
        except ValidationError as exc:
            column, message = _first_problem(exc)
            raise PlayersCsvError(row.line, column, message) from exc
        planned.add(id(player))
        entries.append(entry)
    return entries


def _check_fields(row: Player | SeasonEntry, names: Sequence[str]) -> None:
    """`full_clean` of these fields only (lengths, number ranges), with no query.

    For a bulk import's many rows: its lookups stand for the unique checks, and the parser
    guarantees the check constraints (a name, numbers of 1 or more).
    """
    errors: dict[str, list[ValidationError]] = {}
    for name in names:
        field = cast("Field[Any, Any]", row._meta.get_field(name))  # a concrete column
        try:
            field.clean(getattr(row, field.attname), row)
        except ValidationError as error:
            errors[name] = error.error_list
    if errors:
        raise Refusal(errors, code="invalid_player")


def _insert(entries: Sequence[SeasonEntry], progress: Callable[[int], object] | None) -> None:
    """Insert the new players and the entries, `IMPORT_CHUNK` rows at a time."""
    for start in range(0, len(entries), IMPORT_CHUNK):
        chunk = entries[start : start + IMPORT_CHUNK]
        Player.objects.bulk_create([entry.player for entry in chunk if entry.player.pk is None])
        SeasonEntry.objects.bulk_create(chunk)  # takes each new player's id (bulk_create)
        if progress is not None:
            progress(len(chunk))


def _first_problem(error: ValidationError) -> tuple[str | None, str]:
    """The CSV column and message of a service's ValidationError, for a CSV line's report."""
    if hasattr(error, "error_dict"):
        field, problems = next(iter(error.message_dict.items()))
        column = "ifpa_rank" if field == "ifpa_rank_at_start" else field
        return (column if column in COLUMNS else None), problems[0]
    return None, error.messages[0]
