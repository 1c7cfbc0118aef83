"""How a roster's line is recognised as a player already stored, or becomes a new one.

Words: a player is recognised by his IFPA number when he has one, in any league (the number
is his public identity at the IFPA); without one, by his name among the *league's own
players* who have none (case-insensitive: the players entered in a season of the league,
and the rows merged with theirs), so an unranked player keeps one history across the
league's seasons. A name is never matched to another league's player: an official of one
league cannot reach another league's player by typing his name. Either way what a league
collected about him (his e-mail address and notices, his personal link's address) stays
that league's own. A *person* is a player's own row: a row merged into another (`merged_into`)
registers as the row it was merged into.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Q
from django.db.models.functions import Coalesce

from flipwell.league.models import League, Player, Season, SeasonEntry
from flipwell.league.refusals import ConflictError, Refusal
from flipwell.league.validators import line_key


def league_rows(league: League) -> Q:
    """The player rows that are the league's own (module docstring): a row entered in a season
    of the league, the row it is merged into, and the rows merged into either."""
    persons = (
        SeasonEntry.objects.filter(season__league=league)
        .annotate(person=Coalesce("player__merged_into_id", "player_id"))
        .values("person")
    )
    return Q(pk__in=persons) | Q(merged_into__in=persons)


def find_or_create_player(
    *, league: League, first_name: str, last_name: str, ifpa_number: int | None
) -> tuple[Player, bool]:
    """The person a new entry of `league` names (module docstring: by IFPA number in any
    league, else by name among the league's own players), or a new row."""
    rows = Player.objects.select_related("merged_into")
    if ifpa_number is not None:
        known = rows.filter(ifpa_number=ifpa_number).first()
        if known is not None:
            check_same_name(known, first_name, last_name)
            return person_of(known), False
    else:
        namesakes = distinct_people(
            rows.filter(
                league_rows(league),
                ifpa_number__isnull=True,
                first_name__iexact=first_name,
                last_name__iexact=last_name,
            )[:3]
        )
        if len(namesakes) == 1:
            return namesakes[0], False
        if len(namesakes) > 1:
            raise ambiguous_name(first_name, last_name)
    player = Player(first_name=first_name, last_name=last_name, ifpa_number=ifpa_number)
    player.full_clean()
    player.save()
    return player, True


def person_of(player: Player) -> Player:
    """The person's own row (`merged_into` loaded): a merged row registers as its kept row."""
    return player.merged_into or player


def distinct_people(players: Iterable[Player]) -> list[Player]:
    """The distinct persons' rows of `players` (a merged row and its kept row are one)."""
    return list({person.pk: person for person in map(person_of, players)}.values())


def check_same_name(known: Player, first_name: str, last_name: str) -> None:
    if not _same_name(known, first_name, last_name):
        raise Refusal(
            {
                "ifpa_number": f"IFPA number {known.ifpa_number} belongs to {known}, not "
                f"{first_name} {last_name}; check the number or the spelling."
            },
            code="ifpa_number_taken",
        )


def ambiguous_name(first_name: str, last_name: str) -> Refusal:
    return Refusal(
        {
            "last_name": f"Several players named {first_name} {last_name} have no IFPA "
            "number, so flipwell cannot tell which one this is; add their IFPA number."
        },
        code="ambiguous_name",
    )


def already_entered(player: Player, season: Season) -> ConflictError:
    return ConflictError(
        {"last_name": f"{player} is already entered in {season.name}."},
        code="player_already_entered",
    )


def _same_name(player: Player, first_name: str, last_name: str) -> bool:
    return (line_key(player.first_name), line_key(player.last_name)) == (
        line_key(first_name),
        line_key(last_name),
    )
