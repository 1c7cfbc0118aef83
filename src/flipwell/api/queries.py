"""The API's plain reads: rows of one table for a list, or one row by its key (or a 404).

Everything computed (standings, boards, brackets, sheets) comes from
`flipwell.league.selectors`; these are only the lists and lookups the selectors do not have.
"""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404

from flipwell.league import models as m


def leagues() -> QuerySet[m.League]:
    """Every league."""
    return m.League.objects.all()


def league(slug: str) -> m.League:
    """The league with this slug (404 when none)."""
    return get_object_or_404(m.League, slug=slug)


def seasons(league: m.League) -> QuerySet[m.Season]:
    """A league's seasons."""
    return m.Season.objects.filter(league=league).select_related("league")


def season(season_id: int) -> m.Season:
    """The season with this id (404 when none)."""
    return get_object_or_404(m.Season.objects.select_related("league"), pk=season_id)


def entries(season: m.Season) -> QuerySet[m.SeasonEntry]:
    """A season's entries with their players."""
    return m.SeasonEntry.objects.filter(season=season).select_related("player")


def player(player_id: int) -> m.Player:
    """The player with this id (404 when none)."""
    return get_object_or_404(m.Player, pk=player_id)


def meets(season: m.Season) -> QuerySet[m.Meet]:
    """A season's meets (planned, open and closed)."""
    return m.Meet.objects.filter(season=season)


def meet(meet_id: int) -> m.Meet:
    """The meet with this id (404 when none)."""
    return get_object_or_404(m.Meet.objects.select_related("season__league"), pk=meet_id)


def game(game_id: int) -> m.Game:
    """The game with this id, its group, meet and machine (404 when none)."""
    return get_object_or_404(
        m.Game.objects.select_related("group__meet__season__league", "machine"), pk=game_id
    )


def game_sheets(game_id: int) -> m.Game:
    """The game with its group's players in ladder order and every version of its score
    sheet with its lines, oldest first, all fetched at once (404 when none)."""
    members = m.GroupMember.objects.select_related("player").order_by("position")
    versions = m.ScoreSubmission.objects.prefetch_related("lines").order_by("version")
    rows = m.Game.objects.select_related("group", "machine").prefetch_related(
        Prefetch("group__members", queryset=members), Prefetch("submissions", queryset=versions)
    )
    return get_object_or_404(rows, pk=game_id)


def submission(submission_id: int) -> m.ScoreSubmission:
    """The score submission with this id and its game's league (404 when none)."""
    return get_object_or_404(
        m.ScoreSubmission.objects.select_related("game__group__meet__season__league"),
        pk=submission_id,
    )


def season_player(season: m.Season, player_id: int) -> m.Player:
    """A player entered in the season (404 when he is not)."""
    entry = get_object_or_404(
        m.SeasonEntry.objects.select_related("player"), season=season, player_id=player_id
    )
    return entry.player


def group(group_id: int) -> m.Group:
    """The meet group with this id and its league (404 when none)."""
    return get_object_or_404(m.Group.objects.select_related("meet__season__league"), pk=group_id)


def machine(league: m.League, machine_id: int) -> m.Machine:
    """The league's machine with this id (404 when none, or another league's)."""
    return get_object_or_404(m.Machine, league=league, pk=machine_id)


def correction(correction_id: int) -> m.CorrectionRequest:
    """The correction request with this id and its game's league (404 when none)."""
    return get_object_or_404(
        m.CorrectionRequest.objects.select_related("game__group__meet__season__league"),
        pk=correction_id,
    )


def violation(violation_id: int) -> m.Violation:
    """The violation with this id and its meet's league (404 when none)."""
    return get_object_or_404(
        m.Violation.objects.select_related("meet__season__league"), pk=violation_id
    )


def ledger_entry(league: m.League, entry_id: int) -> m.LedgerEntry:
    """The league's ledger entry with this id (404 when none, or another league's)."""
    return get_object_or_404(m.LedgerEntry, league=league, pk=entry_id)


def special_ruling(machine_title: str, number: int) -> m.SpecialRuling:
    """A stored version of the special ruling `machine_title #number` (404 when none)."""
    row = (
        m.SpecialRuling.objects.filter(machine_title__iexact=machine_title, number=number)
        .order_by("-version")
        .first()
    )
    if row is None:
        raise Http404(f"No special ruling {machine_title} #{number}.")
    return row


def league_player(league: m.League, player_id: int) -> m.Player:
    """The player with this id, entered in a season of `league` (404 when not)."""
    found = m.Player.objects.filter(pk=player_id, season_entries__season__league=league).first()
    if found is None:
        raise Http404(f"That player is not entered in any season of {league}.")
    return found
