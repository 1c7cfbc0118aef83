"""One row by the id a URL or a form names, looked up as the league's (or season's, or meet's)
it is asked of: the console's and the public pages' lookups (`flipwell.web.views`), and the
API's (`flipwell.api.queries`, which answers a missing row with a 404 or a 422).

Words: a row *of the league* is one its pages may name; another league's (a guessed or stale
id) is None, which the page shows as a 404 or a refusal. One query each, joined to what the
page reads of it next.
"""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Prefetch

from flipwell.league import models as m
from flipwell.league.selectors.seasons import with_state


def league_season(league: m.League, season_id: int) -> m.Season | None:
    """The season with id `season_id` if it is one of `league`'s."""
    return m.Season.objects.select_related("league").filter(pk=season_id, league=league).first()


def league_meet(league: m.League, meet_id: int) -> m.Meet | None:
    """The meet with id `meet_id` if it is of one of `league`'s seasons."""
    return (
        m.Meet.objects.select_related("season__league")
        .filter(pk=meet_id, season__league=league)
        .first()
    )


def meet_game(meet: m.Meet, game_id: int) -> m.Game | None:
    """The game with id `game_id` if it is of one of `meet`'s groups."""
    return m.Game.objects.select_related("group").filter(pk=game_id, group__meet=meet).first()


def meet_group(meet: m.Meet, number: int) -> m.Group | None:
    """The group numbered `number` of `meet`, None when the meet has none."""
    return m.Group.objects.filter(meet=meet, number=number).first()


def season_meet(season_id: int, number: int) -> m.Meet | None:
    """The meet numbered `number` of the season with id `season_id`, None when not scheduled."""
    return m.Meet.objects.filter(season_id=season_id, number=number).first()


def season_entry(season: m.Season, player_id: int) -> m.SeasonEntry | None:
    """The entry of the player with id `player_id` in `season`, with the player."""
    return (
        m.SeasonEntry.objects.select_related("player")
        .filter(season=season, player_id=player_id)
        .first()
    )


def league_api_token(league: m.League, token_id: int) -> m.ApiToken | None:
    """The API token with id `token_id` if it is one of `league`'s."""
    return m.ApiToken.objects.filter(league=league, pk=token_id).first()


def playoff_night_of(season: m.Season | None) -> m.PlayoffNight | None:
    """The playoff night of `season`, None before it is planned (or without a season)."""
    if season is None:
        return None
    return m.PlayoffNight.objects.filter(season=season).first()


def playoff_night_id(season: m.Season) -> int | None:
    """The id of `season`'s playoff night, None before it is planned."""
    return m.PlayoffNight.objects.filter(season=season).values_list("pk", flat=True).first()


# --- by id alone (the API's lookups: the row's league is read with it) ------------------------


def league_by_slug(slug: str) -> m.League | None:
    """The league with this slug."""
    return m.League.objects.filter(slug=slug).first()


def season_by_id(season_id: int) -> m.Season | None:
    """The season with this id, with its league."""
    return m.Season.objects.select_related("league").filter(pk=season_id).first()


def season_with_state(season_id: int) -> m.Season | None:
    """The season with this id and its league, with its ``state`` and ``is_current``
    (`with_state`)."""
    return with_state(m.Season.objects.select_related("league")).filter(pk=season_id).first()


def player_by_id(player_id: int) -> m.Player | None:
    """The player row with this id."""
    return m.Player.objects.filter(pk=player_id).first()


def players_by_id(player_ids: Iterable[int]) -> dict[int, m.Player]:
    """The player rows with these ids, by id, in one query (an id that names none is left
    out)."""
    return m.Player.objects.in_bulk(list(player_ids))


def meet_by_id(meet_id: int) -> m.Meet | None:
    """The meet with this id, with its season and league."""
    return m.Meet.objects.select_related("season__league").filter(pk=meet_id).first()


def game_by_id(game_id: int) -> m.Game | None:
    """The game with this id, with its group, meet, season, league and machine."""
    rows = m.Game.objects.select_related("group__meet__season__league", "machine")
    return rows.filter(pk=game_id).first()


def game_with_sheets(game_id: int) -> m.Game | None:
    """The game with this id, its group's players in ladder order and every version of its
    score sheet with its lines, oldest first, all fetched at once."""
    members = m.GroupMember.objects.select_related("player").order_by("position")
    versions = m.ScoreSubmission.objects.prefetch_related("lines").order_by("version")
    rows = m.Game.objects.select_related("group", "machine").prefetch_related(
        Prefetch("group__members", queryset=members), Prefetch("submissions", queryset=versions)
    )
    return rows.filter(pk=game_id).first()


def submission_by_id(submission_id: int) -> m.ScoreSubmission | None:
    """The score submission with this id, with its game's league."""
    rows = m.ScoreSubmission.objects.select_related("game__group__meet__season__league")
    return rows.filter(pk=submission_id).first()


def group_by_id(group_id: int) -> m.Group | None:
    """The meet group with this id, with its league."""
    return m.Group.objects.select_related("meet__season__league").filter(pk=group_id).first()


def correction_by_id(correction_id: int) -> m.CorrectionRequest | None:
    """The correction request with this id, with its game's league."""
    rows = m.CorrectionRequest.objects.select_related("game__group__meet__season__league")
    return rows.filter(pk=correction_id).first()


def violation_by_id(violation_id: int) -> m.Violation | None:
    """The violation with this id, with its meet's league."""
    rows = m.Violation.objects.select_related("meet__season__league")
    return rows.filter(pk=violation_id).first()


def player_merge_by_id(merge_id: int) -> m.PlayerMerge | None:
    """The player merge with this id and its two rows."""
    return m.PlayerMerge.objects.select_related("kept", "merged").filter(pk=merge_id).first()


def playoff_correction_by_id(correction_id: int) -> m.PlayoffSheet | None:
    """The correction of a playoff game's sheet with this id, with its league; None for an
    entry of scores (not a correction)."""
    status = m.PlayoffSheet.Status
    rows = m.PlayoffSheet.objects.filter(
        status__in=(status.PENDING, status.APPLIED, status.REFUSED)
    ).select_related("match__playoff_night__season__league")
    return rows.filter(pk=correction_id).first()


# --- of a league or a season, by id -----------------------------------------------------------


def league_machine(league: m.League, machine_id: int) -> m.Machine | None:
    """The machine with this id if it is one of `league`'s."""
    return m.Machine.objects.filter(league=league, pk=machine_id).first()


def league_problem_report(league: m.League, report_id: int) -> m.MachineProblemReport | None:
    """The problem report with this id if it is about one of `league`'s machines, with the
    machine and its league."""
    rows = m.MachineProblemReport.objects.filter(machine__league=league)
    return rows.select_related("machine__league").filter(pk=report_id).first()


def league_ledger_entry(league: m.League, entry_id: int) -> m.LedgerEntry | None:
    """The ledger entry with this id if it is `league`'s."""
    return m.LedgerEntry.objects.filter(league=league, pk=entry_id).first()


def league_special_ruling(
    league: m.League, machine_title: str, number: int
) -> m.SpecialRuling | None:
    """The latest stored version of `league`'s special ruling `machine_title #number` (the
    title in any case)."""
    rows = m.SpecialRuling.objects.filter(
        league=league, machine_title__iexact=machine_title, number=number
    )
    return rows.order_by("-version").first()


def league_player(league: m.League, player_id: int) -> m.Player | None:
    """The player with this id if they are entered in a season of `league`."""
    rows = m.Player.objects.filter(pk=player_id, season_entries__season__league=league)
    return rows.first()


def plays_in_league(league: m.League, player_ids: Iterable[int]) -> bool:
    """Whether one of the player rows `player_ids` (one person's) is entered in a season of
    `league`."""
    rows = m.SeasonEntry.objects.filter(season__league=league, player_id__in=list(player_ids))
    return rows.exists()


def live_player_link(season: m.Season, player_id: int) -> m.PlayerLink | None:
    """The live personal link of the player with this id for `season`, with the player and
    the season's league."""
    rows = m.PlayerLink.objects.filter(season=season, revoked_at__isnull=True)
    return rows.select_related("player", "season__league").filter(player_id=player_id).first()
