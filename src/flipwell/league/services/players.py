"""Use cases that enter players in a season, one by one or from a roster CSV.

Words: *registering* a player enters him in a season (a SeasonEntry), creating the Player the
first time he plays in any league. A player is recognised by his IFPA number when he has one;
without one, by his name among the players who have none (case-insensitive), so an unranked
player keeps one history across seasons.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from django.core.exceptions import ValidationError
from django.db import transaction

from flipwell.league.audit import record_event
from flipwell.league.models import LeagueOfficial, Player, Season, SeasonEntry
from flipwell.league.players_csv import PlayersCsvError, parse_players_csv
from flipwell.league.services.permissions import require_role

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
    joined_at_meet: int = 1,
    actor: User,
) -> SeasonEntry:
    """Enter a player in `season` with his IFPA rank at the start (week-1 seeding, R3.1-b).

    Side effects: inserts the Player if he is new, the SeasonEntry, and audit events
    ``player.created`` (when new) and ``player.registered``. Raises PermissionDenied unless
    `actor` is a league official of the season's league, and ValidationError (nothing written,
    keyed by field) for an empty name, an IFPA number that belongs to a player of another name,
    a player already entered, or a joining meet outside the season.
    """
    with transaction.atomic():
        require_role(
            actor=actor,
            league=season.league,
            roles=(LeagueOfficial.Role.LEAGUE_OFFICIAL,),
            action="register players",
        )
        entry, _created = _register(
            season=season,
            first_name=first_name,
            last_name=last_name,
            ifpa_number=ifpa_number,
            ifpa_rank=ifpa_rank,
            joined_at_meet=joined_at_meet,
            actor=actor,
        )
    return entry


def import_players_csv(*, season: Season, csv_text: str, actor: User) -> ImportResult:
    """Register every player of a roster CSV (see `flipwell.league.players_csv`) in `season`.

    All or nothing: the first bad line raises `PlayersCsvError` naming its line and column,
    and nothing is written. Side effects otherwise: as `register_player` for each row, plus an
    audit event ``players.imported`` on the season.
    """
    rows = parse_players_csv(csv_text)
    with transaction.atomic():
        require_role(
            actor=actor,
            league=season.league,
            roles=(LeagueOfficial.Role.LEAGUE_OFFICIAL,),
            action="import players",
        )
        entries: list[SeasonEntry] = []
        created_players: list[Player] = []
        for row in rows:
            try:
                entry, created = _register(
                    season=season,
                    first_name=row.first_name,
                    last_name=row.last_name,
                    ifpa_number=row.ifpa_number,
                    ifpa_rank=row.ifpa_rank,
                    joined_at_meet=1,
                    actor=actor,
                )
            except ValidationError as exc:
                column, message = _first_problem(exc)
                raise PlayersCsvError(row.line, column, message) from exc
            entries.append(entry)
            if created:
                created_players.append(entry.player)
        record_event(
            action="players.imported",
            obj=season,
            league=season.league,
            actor=actor,
            data={
                "entries": [entry.pk for entry in entries],
                "created_players": [player.pk for player in created_players],
            },
        )
    return ImportResult(entries=entries, created_players=created_players)


def _register(
    *,
    season: Season,
    first_name: str,
    last_name: str,
    ifpa_number: int | None,
    ifpa_rank: int | None,
    joined_at_meet: int,
    actor: User,
) -> tuple[SeasonEntry, bool]:
    first_name, last_name = first_name.strip(), last_name.strip()
    player, created = _find_or_create_player(
        first_name=first_name, last_name=last_name, ifpa_number=ifpa_number
    )
    if SeasonEntry.objects.filter(season=season, player=player).exists():
        raise ValidationError(
            {"last_name": f"{player} is already entered in {season.name}."}, code="entered"
        )
    if not 1 <= joined_at_meet <= season.number_of_meets:
        raise ValidationError(
            {
                "joined_at_meet": f"Meet {joined_at_meet} is not in {season.name}, which has "
                f"meets 1 to {season.number_of_meets}."
            },
            code="no_such_meet",
        )
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


def _find_or_create_player(
    *, first_name: str, last_name: str, ifpa_number: int | None
) -> tuple[Player, bool]:
    if ifpa_number is not None:
        known = Player.objects.filter(ifpa_number=ifpa_number).first()
        if known is not None:
            if not _same_name(known, first_name, last_name):
                raise ValidationError(
                    {
                        "ifpa_number": f"IFPA number {ifpa_number} belongs to {known}, not "
                        f"{first_name} {last_name}; check the number or the spelling."
                    },
                    code="ifpa_number_taken",
                )
            return known, False
    else:
        namesakes = list(
            Player.objects.filter(
                ifpa_number__isnull=True,
                first_name__iexact=first_name,
                last_name__iexact=last_name,
            )[:2]
        )
        if len(namesakes) == 1:
            return namesakes[0], False
        if len(namesakes) > 1:
            raise ValidationError(
                {
                    "last_name": f"Several players named {first_name} {last_name} have no IFPA "
                    "number, so flipwell cannot tell which one this is; add his IFPA number."
                },
                code="ambiguous_name",
            )
    player = Player(first_name=first_name, last_name=last_name, ifpa_number=ifpa_number)
    player.full_clean()
    player.save()
    return player, True


def _same_name(player: Player, first_name: str, last_name: str) -> bool:
    return (player.first_name.casefold(), player.last_name.casefold()) == (
        first_name.casefold(),
        last_name.casefold(),
    )


def _first_problem(error: ValidationError) -> tuple[str | None, str]:
    """The field and message of a service's ValidationError, for a CSV line's report."""
    if hasattr(error, "error_dict"):
        field, problems = next(iter(error.message_dict.items()))
        column = "ifpa_rank" if field == "ifpa_rank_at_start" else field
        return (None if column == "__all__" else column), problems[0]
    return None, error.messages[0]
