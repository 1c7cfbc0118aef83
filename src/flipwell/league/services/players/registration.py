"""Use case that enters one player in a season (`register_player`).

Words: *registering* a player enters him in a season (a SeasonEntry), creating the Player the
first time he plays (recognised as `flipwell.league.services.players.recognition` says), at
the meet he joins (`flipwell.league.services.players.joining`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from flipwell.league.models import Season, SeasonEntry
from flipwell.league.services._protocol import Write, official_write
from flipwell.league.services.players.joining import joining_meet
from flipwell.league.services.players.recognition import already_entered, find_or_create_player
from flipwell.league.validators import clean_lines

if TYPE_CHECKING:
    from django.contrib.auth.models import User


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
    with official_write(
        league=season.league, actor=actor, action="register players", season=season
    ) as write:
        entry, _created = _register(
            write,
            season=season,
            first_name=first_name,
            last_name=last_name,
            ifpa_number=ifpa_number,
            ifpa_rank=ifpa_rank,
            joined_at_meet=joined_at_meet,
        )
    return entry


def _register(
    write: Write,
    *,
    season: Season,
    first_name: str,
    last_name: str,
    ifpa_number: int | None,
    ifpa_rank: int | None,
    joined_at_meet: int | None,
) -> tuple[SeasonEntry, bool]:
    """Enter the player named in `season` (`register_player`, in its `write`): the Player when
    he is new, his SeasonEntry, and their audit events; whether the Player is new."""
    named = clean_lines(first_name=first_name, last_name=last_name)
    first_name, last_name = named["first_name"], named["last_name"]
    player, created = find_or_create_player(
        league=season.league, first_name=first_name, last_name=last_name, ifpa_number=ifpa_number
    )
    if SeasonEntry.objects.filter(season=season, player=player).exists():
        raise already_entered(player, season)
    joined_at_meet = joining_meet(season, joined_at_meet, who=str(player))
    if created:
        new = {"first_name": first_name, "last_name": last_name, "ifpa_number": ifpa_number}
        write.event("player.created", player, new)
    entry = SeasonEntry(
        season=season, player=player, ifpa_rank_at_start=ifpa_rank, joined_at_meet=joined_at_meet
    )
    entry.full_clean()
    entry.save()
    write.event(
        "player.registered",
        entry,
        {
            "season": season.pk,
            "player": player.pk,
            "ifpa_rank_at_start": ifpa_rank,
            "joined_at_meet": joined_at_meet,
        },
    )
    return entry, created
