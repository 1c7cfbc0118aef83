"""The rows a form of the web cleans the ids it was posted into (`flipwell.web.forms`).

Words: a form's field offers the ids the page may act on (a group's players, the league's
machines) and cleans the one posted into its row; the rows here are where it looks it up.
A *query* is lazy: the field runs it when it cleans, one query for the row it names. Where
the rows are a league's (or a meet's), another league's id is no row, which the form shows
as a stale choice.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import QuerySet

from flipwell.league import models as m


def machines() -> QuerySet[m.Machine]:
    """Every machine: a field whose choices are the page's (the league's) cleans into one."""
    return m.Machine.objects.all()


def league_machines(league: m.League) -> QuerySet[m.Machine]:
    """The machines of `league`."""
    return m.Machine.objects.filter(league=league)


def problem_reports() -> QuerySet[m.MachineProblemReport]:
    """Every machine problem report (the field's choices are the league's open ones)."""
    return m.MachineProblemReport.objects.all()


def players() -> QuerySet[m.Player]:
    """Every player row (the field's choices, or the service, say which the page may name)."""
    return m.Player.objects.all()


def season_players(season: m.Season) -> QuerySet[m.Player]:
    """The players entered in `season`."""
    return m.Player.objects.filter(season_entries__season=season)


def players_in_order(player_ids: Iterable[int]) -> list[m.Player]:
    """The players with these ids, by id ascending (one query)."""
    return list(m.Player.objects.filter(pk__in=list(player_ids)).order_by("pk"))


def player_merges() -> QuerySet[m.PlayerMerge]:
    """Every merge of two player rows (the service refuses one the official may not undo)."""
    return m.PlayerMerge.objects.all()


def seasons() -> QuerySet[m.Season]:
    """Every season (the field's choices are the league's)."""
    return m.Season.objects.all()


def league_ledger_entries(league: m.League) -> QuerySet[m.LedgerEntry]:
    """The entries of `league`'s ledger."""
    return m.LedgerEntry.objects.filter(league=league)


def meet_corrections(meet: m.Meet) -> QuerySet[m.CorrectionRequest]:
    """The correction requests of `meet`'s games."""
    return m.CorrectionRequest.objects.filter(game__group__meet=meet)


def games() -> QuerySet[m.Game]:
    """Every game, with its group (the field's choices are the meet's)."""
    return m.Game.objects.select_related("group")


def meet_games(meet: m.Meet) -> QuerySet[m.Game]:
    """The games of `meet`'s groups, with their group."""
    return games().filter(group__meet=meet)


def special_rulings() -> QuerySet[m.SpecialRuling]:
    """Every stored version of every special ruling (narrowed by the form to a league's)."""
    return m.SpecialRuling.objects.all()


def league_special_rulings(league: m.League) -> QuerySet[m.SpecialRuling]:
    """The stored versions of `league`'s own special rulings."""
    return m.SpecialRuling.objects.filter(league=league)


def other_leagues_special_rulings(league: m.League) -> QuerySet[m.SpecialRuling]:
    """The stored versions of the special rulings of every league but `league` (what it may
    copy)."""
    return m.SpecialRuling.objects.exclude(league=league)


def no_special_rulings() -> QuerySet[m.SpecialRuling]:
    """No special ruling: a field's rows before the form knows its league."""
    return m.SpecialRuling.objects.none()


def sign_ups_in_order(sign_up_ids: Iterable[int]) -> list[m.SignUp]:
    """The sign-ups with these ids, by id ascending (one query)."""
    return list(m.SignUp.objects.filter(pk__in=list(sign_up_ids)).order_by("pk"))
