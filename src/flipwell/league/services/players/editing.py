"""Use case that corrects a player's name or IFPA number (`edit_player`).

Words: an *edit* changes the Player row itself, so every league he plays in shows it: a
player who plays in several leagues is renamed only by an official of each
(`require_official_everywhere`), and each of those leagues logs it. A *namesake* is another
of the league's own players without an IFPA number, named alike (`line_key`): the league
could no longer tell the two apart by name (`flipwell.league.services.players.recognition`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.db.models import Q

from flipwell.league.audit import record_event
from flipwell.league.models import League, Player, Season, SeasonEntry
from flipwell.league.refusals import Refusal
from flipwell.league.services._edge import player_changed
from flipwell.league.services._protocol import official_write
from flipwell.league.services.identity import require_official_everywhere
from flipwell.league.services.players.recognition import league_rows
from flipwell.league.validators import clean_lines, line_key

if TYPE_CHECKING:
    from django.contrib.auth.models import User

NAME = ("first_name", "last_name")
"""The fields of a player's name: changing them renames him (others change his number)."""


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
    with official_write(league=season.league, actor=actor, action="edit players") as write:
        locked = Player.objects.select_for_update().get(pk=player.pk)
        _check_entered(season, locked)
        wanted: dict[str, Any] = {
            **clean_lines(first_name=first_name, last_name=last_name),
            "ifpa_number": ifpa_number,
        }
        before = {field: getattr(locked, field) for field in wanted}
        if before == wanted:
            return locked  # nothing to change, nothing to log
        renamed = [before[f] for f in NAME] != [wanted[f] for f in NAME]
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
        _log_in_each(leagues, locked, actor, {"season": season.pk, "from": before, "to": wanted})
        player_changed(locked)  # the other seasons that show their name
        write.season = season  # refolded when the write finishes (nothing when unchanged)
    return locked


def _log_in_each(leagues: list[League], player: Player, actor: User, data: dict[str, Any]) -> None:
    """The audit event ``player.edited`` in each league whose pages show the change: by hand,
    as `Write.event` records in the write's league only."""
    for shown in leagues:
        record_event(action="player.edited", obj=player, league=shown, actor=actor, data=data)


def _check_entered(season: Season, player: Player) -> None:
    """Refused unless `player` is entered in `season` (an official edits from a roster)."""
    if not SeasonEntry.objects.filter(season=season, player=player).exists():
        where = f"{player} is not entered in {season.name}"
        raise Refusal(
            {"player": f"{where}: edit them from a roster they are on."}, code="not_entered"
        )


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
    rows = Player.objects.filter(league_rows(league), ifpa_number__isnull=True).exclude(
        Q(pk=person) | Q(merged_into_id=person)
    )
    return next(
        (row for row in rows if (line_key(row.first_name), line_key(row.last_name)) == key), None
    )
