"""Use cases that enter players in a season, one by one or from a roster CSV.

Words: *registering* a player enters him in a season (a SeasonEntry), creating the Player the
first time he plays. A player is recognised by his IFPA number when he has one, in any league
(the number is his public identity at the IFPA); without one, by his name among the league's
own players who have none (case-insensitive: the players entered in a season of the league,
and the rows merged with theirs), so an unranked player keeps one history across the league's
seasons. A name is never matched to another league's player: an official of one league cannot
reach another league's player by typing his name. Either way what a league
collected about him (his e-mail address and notices, his personal link's address) stays that
league's own; and a player who plays in several leagues is renamed only by an official of
each (`edit_player`).

A player registered once meets were played *joins* at the next unplayed meet (the first meet
not yet started): the meets before it are their late-join forfeits (R2.4-f, A14.5). A meet that
has started cannot be joined: its groups were drawn without him.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Field, Max, Q
from django.db.models.functions import Coalesce

from flipwell.league.adapters.keys import PLAYED
from flipwell.league.audit import record_event
from flipwell.league.models import League, Player, Season, SeasonEntry
from flipwell.league.players_csv import COLUMNS, PlayerRow, PlayersCsvError, parse_players_csv
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.services._edge import (
    player_changed,
    require_official,
    season_changed,
)
from flipwell.league.services.identity import require_official_everywhere
from flipwell.league.validators import clean_lines, line_key

if TYPE_CHECKING:
    from django.contrib.auth.models import User


@dataclass(frozen=True)
class ImportResult:
    """What a roster import wrote: the season entries, and which players were new."""

    entries: list[SeasonEntry]
    created_players: list[Player]


def register_player(
    *,
    season: Season,
    first_name: str,
    last_name: str,
    ifpa_number: int | None = None,
    ifpa_rank: int | None = None,
    joined_at_meet: int | None = None,
    actor: User,
) -> SeasonEntry:
    """Enter a player in `season` with his IFPA rank at the start (week-1 seeding, R3.1-b).

    joined_at_meet: the meet he joins at; None, the next unplayed meet (`joining_meet`).
    Side effects: inserts the Player if he is new, the SeasonEntry, and audit events
    ``player.created`` (when new) and ``player.registered``. Raises PermissionDenied unless
    `actor` is a league official of the season's league, and ValidationError (nothing written,
    keyed by field) for an empty name, an IFPA number that belongs to a player of another name,
    a player already entered, or a joining meet outside the season or already started.
    """
    with transaction.atomic():
        require_official(actor=actor, league=season.league, action="register players")
        entry, _created = _register(
            season=season,
            first_name=first_name,
            last_name=last_name,
            ifpa_number=ifpa_number,
            ifpa_rank=ifpa_rank,
            joined_at_meet=joined_at_meet,
            actor=actor,
        )
        season_changed(season)
    return entry


def edit_player(
    *,
    season: Season,
    player: Player,
    first_name: str,
    last_name: str,
    ifpa_number: int | None,
    actor: User,
) -> Player:
    """Correct a player's name or IFPA number from the roster of `season` (a typo, a number
    learnt later); their history follows the id. Every league the player plays in shows the
    change, so it is for an official of each (`require_official_everywhere`), and each logs
    ``player.edited`` with the values before and after (nothing when nothing changes).
    ValidationError for a player not in `season`, an empty name, another's IFPA number.
    """
    with transaction.atomic():
        require_official(actor=actor, league=season.league, action="edit players")
        locked = Player.objects.select_for_update().get(pk=player.pk)
        if not SeasonEntry.objects.filter(season=season, player=locked).exists():
            where = f"{locked} is not entered in {season.name}"
            raise Refusal(
                {"player": f"{where}: edit them from a roster they are on."}, code="not_entered"
            )
        wanted: dict[str, Any] = {
            **clean_lines(first_name=first_name, last_name=last_name),
            "ifpa_number": ifpa_number,
        }
        before = {field: getattr(locked, field) for field in wanted}
        if before == wanted:
            return locked  # nothing to change, nothing to log
        renamed = (before["first_name"], before["last_name"]) != (
            wanted["first_name"],
            wanted["last_name"],
        )
        leagues = require_official_everywhere(
            actor=actor,
            league=season.league,
            players=[locked],
            doing="rename them" if renamed else "change their IFPA number",
        )
        _check_edit(locked, wanted, league=season.league)
        for field, value in wanted.items():
            setattr(locked, field, value)
        locked.full_clean()
        locked.save(update_fields=list(wanted))
        for shown in leagues:  # each league whose pages show the change logs it
            record_event(
                action="player.edited",
                obj=locked,
                league=shown,
                actor=actor,
                data={"season": season.pk, "from": before, "to": wanted},
            )
        player_changed(locked)  # the other seasons that show their name
        season_changed(season)
    return locked


def _check_edit(player: Player, wanted: dict[str, Any], *, league: League) -> None:
    """ValidationError, keyed by field, for an empty name, another player's IFPA number, an
    IFPA number other than that of a row merged with this one (one person, one number), or,
    without an IFPA number, the name of another of the league's players without one (compared
    as `line_key` does: the league could no longer tell them apart by name)."""
    errors: dict[str, str] = {}
    for field, words in (("first_name", "first name"), ("last_name", "last name")):
        if not wanted[field]:
            errors[field] = f"Type {player}'s {words}: it cannot be empty."
    namesake = _namesake(player, wanted, league) if not errors else None
    if namesake is not None:
        errors["last_name"] = (
            f"{namesake} is already a player of {league} without an IFPA number: give this "
            "player's IFPA number, or merge the two if they are one person."
        )
    number = wanted["ifpa_number"]
    if number is not None:
        owner = Player.objects.filter(ifpa_number=number).exclude(pk=player.pk).first()
        if owner is not None:
            errors["ifpa_number"] = (
                f"IFPA number {number} is {owner}'s: check the number on ifpapinball.com."
            )
        person = player.merged_into_id or player.pk
        twin = (
            Player.objects.filter(
                Q(pk=person) | Q(merged_into_id=person), ifpa_number__isnull=False
            )
            .exclude(pk=player.pk)
            .exclude(ifpa_number=number)
            .first()
        )
        if owner is None and twin is not None:
            errors["ifpa_number"] = (
                f"{player} and {twin} are merged as one person, and {twin}'s IFPA number is "
                f"{twin.ifpa_number}: one person has one IFPA number."
            )
    if errors:
        raise Refusal(errors, code="invalid_player")


def _namesake(player: Player, wanted: dict[str, Any], league: League) -> Player | None:
    """Another person of `league` without an IFPA number named as `wanted` (None when
    `wanted` has an IFPA number)."""
    if wanted["ifpa_number"] is not None:
        return None
    person = player.merged_into_id or player.pk
    key = (line_key(wanted["first_name"]), line_key(wanted["last_name"]))
    rows = Player.objects.filter(_league_rows(league), ifpa_number__isnull=True).exclude(
        Q(pk=person) | Q(merged_into_id=person)
    )
    return next(
        (row for row in rows if (line_key(row.first_name), line_key(row.last_name)) == key), None
    )


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
    with transaction.atomic():
        require_official(actor=actor, league=season.league, action="import players")
        entries = _planned_entries(season, rows)
        created_players = [entry.player for entry in entries if entry.player.pk is None]
        _insert(entries, progress)
        record_event(
            action="players.imported",
            obj=season,
            league=season.league,
            actor=actor,
            data={
                "entries": [entry.pk for entry in entries],
                "created_players": [player.pk for player in created_players],
                "joined_at_meet": entries[0].joined_at_meet if entries else None,
            },
        )
        season_changed(season)
    return ImportResult(entries=entries, created_players=created_players)


IMPORT_CHUNK = 1000
"""Rows a roster import inserts per step of its progress report."""

IN_LIMIT = 10_000
"""The most IFPA numbers looked up by value in one query (SQLite allows 32,766 parameters)."""


def next_unplayed_meet(season: Season) -> int:
    """The first meet of `season` not yet started (it may lie beyond the season's last meet).

    Meets start in order (§2), so it is the one after the highest started or closed meet.
    """
    last = season.meets.filter(status__in=PLAYED).aggregate(last=Max("number"))["last"]
    return (last or 0) + 1


def joining_meet(season: Season, joined_at_meet: int | None, *, who: str) -> int:
    """The meet `who` joins `season` at: `joined_at_meet`, by default the next unplayed meet.

    R2.4-f, A14.5: the played meets before it are their late-join forfeits. A meet that has
    started is refused: its groups were drawn without him, and the season fold finds every
    player of a started meet in a group or announced absent (R3.1-e). ValidationError on
    ``joined_at_meet`` for a meet outside the season, a meet that has started, or a season
    whose every meet has started.
    """
    last = season.number_of_meets
    if joined_at_meet is not None and not 1 <= joined_at_meet <= last:
        raise Refusal(
            {
                "joined_at_meet": f"Meet {joined_at_meet} is not in {season.name}, which has "
                f"meets 1 to {last}."
            },
            code="no_such_meet",
        )
    first = next_unplayed_meet(season)
    if first > last:
        raise ConflictError(
            {
                "joined_at_meet": f"Every meet of {season.name} has started (it has {last}): "
                f"no meet is left for {who} to join."
            },
            code="no_meet_left",
        )
    if joined_at_meet is None:
        return first
    if joined_at_meet < first:
        meets = f"meet {first}" if first == last else f"meet {first} to {last}"
        raise Refusal(
            {
                "joined_at_meet": f"Meet {joined_at_meet} of {season.name} has started: {who} "
                f"can join at {meets} (the meets before are their late-join forfeits, R2.4-f)."
            },
            code="joins_started_meet",
        )
    return joined_at_meet


def _register(
    *,
    season: Season,
    first_name: str,
    last_name: str,
    ifpa_number: int | None,
    ifpa_rank: int | None,
    joined_at_meet: int | None,
    actor: User,
) -> tuple[SeasonEntry, bool]:
    named = clean_lines(first_name=first_name, last_name=last_name)
    first_name, last_name = named["first_name"], named["last_name"]
    player, created = _find_or_create_player(
        league=season.league, first_name=first_name, last_name=last_name, ifpa_number=ifpa_number
    )
    if SeasonEntry.objects.filter(season=season, player=player).exists():
        raise _already_entered(player, season)
    joined_at_meet = joining_meet(season, joined_at_meet, who=str(player))
    if created:
        record_event(
            action="player.created",
            obj=player,
            league=season.league,
            actor=actor,
            data={"first_name": first_name, "last_name": last_name, "ifpa_number": ifpa_number},
        )
    entry = SeasonEntry(
        season=season, player=player, ifpa_rank_at_start=ifpa_rank, joined_at_meet=joined_at_meet
    )
    entry.full_clean()
    entry.save()
    record_event(
        action="player.registered",
        obj=entry,
        league=season.league,
        actor=actor,
        data={
            "season": season.pk,
            "player": player.pk,
            "ifpa_rank_at_start": ifpa_rank,
            "joined_at_meet": joined_at_meet,
        },
    )
    return entry, created


def _league_rows(league: League) -> Q:
    """The player rows that are the league's own (module docstring): a row entered in a season
    of the league, the row it is merged into, and the rows merged into either."""
    persons = (
        SeasonEntry.objects.filter(season__league=league)
        .annotate(person=Coalesce("player__merged_into_id", "player_id"))
        .values("person")
    )
    return Q(pk__in=persons) | Q(merged_into__in=persons)


def _find_or_create_player(
    *, league: League, first_name: str, last_name: str, ifpa_number: int | None
) -> tuple[Player, bool]:
    """The person a new entry of `league` names (module docstring: by IFPA number in any
    league, else by name among the league's own players), or a new row."""
    rows = Player.objects.select_related("merged_into")
    if ifpa_number is not None:
        known = rows.filter(ifpa_number=ifpa_number).first()
        if known is not None:
            _check_same_name(known, first_name, last_name)
            return _person(known), False
    else:
        namesakes = _people(
            rows.filter(
                _league_rows(league),
                ifpa_number__isnull=True,
                first_name__iexact=first_name,
                last_name__iexact=last_name,
            )[:3]
        )
        if len(namesakes) == 1:
            return namesakes[0], False
        if len(namesakes) > 1:
            raise _ambiguous(first_name, last_name)
    player = Player(first_name=first_name, last_name=last_name, ifpa_number=ifpa_number)
    player.full_clean()
    player.save()
    return player, True


def _person(player: Player) -> Player:
    """The person's own row (`merged_into` loaded): a merged row registers as its kept row."""
    return player.merged_into or player


def _people(players: Iterable[Player]) -> list[Player]:
    """The distinct persons' rows of `players` (a merged row and its kept row are one)."""
    return list({person.pk: person for person in map(_person, players)}.values())


# --- the roster import, in bulk ---------------------------------------------------------------


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
        unnumbered = Q(ifpa_number__isnull=True) & _league_rows(league)
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
        """The player a row names, or a new (unsaved, checked) one; as `_find_or_create_player`."""
        named = clean_lines(first_name=row.first_name, last_name=row.last_name)
        first_name, last_name = named["first_name"], named["last_name"]
        if row.ifpa_number is not None:
            known = self.by_number.get(row.ifpa_number)
            if known is not None:
                _check_same_name(known, first_name, last_name)
                return _person(known)
        else:
            namesakes = _people(self.by_name.get((line_key(first_name), line_key(last_name)), []))
            if len(namesakes) == 1:
                return namesakes[0]
            if len(namesakes) > 1:
                raise _ambiguous(first_name, last_name)
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
                raise _already_entered(player, season)
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


# --- shared checks and messages ---------------------------------------------------------------


def _check_same_name(known: Player, first_name: str, last_name: str) -> None:
    if not _same_name(known, first_name, last_name):
        raise Refusal(
            {
                "ifpa_number": f"IFPA number {known.ifpa_number} belongs to {known}, not "
                f"{first_name} {last_name}; check the number or the spelling."
            },
            code="ifpa_number_taken",
        )


def _ambiguous(first_name: str, last_name: str) -> Refusal:
    return Refusal(
        {
            "last_name": f"Several players named {first_name} {last_name} have no IFPA "
            "number, so flipwell cannot tell which one this is; add their IFPA number."
        },
        code="ambiguous_name",
    )


def _already_entered(player: Player, season: Season) -> ConflictError:
    return ConflictError(
        {"last_name": f"{player} is already entered in {season.name}."},
        code="player_already_entered",
    )


def _same_name(player: Player, first_name: str, last_name: str) -> bool:
    return (line_key(player.first_name), line_key(player.last_name)) == (
        line_key(first_name),
        line_key(last_name),
    )


def _first_problem(error: ValidationError) -> tuple[str | None, str]:
    """The CSV column and message of a service's ValidationError, for a CSV line's report."""
    if hasattr(error, "error_dict"):
        field, problems = next(iter(error.message_dict.items()))
        column = "ifpa_rank" if field == "ifpa_rank_at_start" else field
        return (column if column in COLUMNS else None), problems[0]
    return None, error.messages[0]
