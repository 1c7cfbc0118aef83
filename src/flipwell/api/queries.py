"""The API's plain reads: rows of one table for a list, or one row by its key.

A row named by the URL's path that does not exist is a 404; one named by a field of the body
(`field`) is a 422 on that field: the request is well-formed, but that id names nothing.
Messages name the thing in the league's words ("No player 12."), never a model.

Everything computed (standings, boards, brackets, sheets) comes from
`flipwell.league.selectors`; these are only the lists and lookups the selectors do not have.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeVar

from django.db.models import Model, OuterRef, Prefetch, QuerySet, Subquery
from django.http import Http404

from flipwell.league import models as m
from flipwell.league.refusals import Refusal
from flipwell.league.selectors import people
from flipwell.league.selectors.meet_board.board import board_game
from flipwell.league.selectors.meet_board.values import BoardGame
from flipwell.league.selectors.people import Person
from flipwell.league.selectors.seasons import current_season_id_subquery, with_state

M = TypeVar("M", bound=Model)


def _one(rows: QuerySet[M], missing: str, field: str | None = None, **lookup: Any) -> M:
    """The row of `rows` matching `lookup`; Http404, or a ValidationError on the body's
    `field`, saying `missing` when none."""
    found = rows.filter(**lookup).first()
    if found is not None:
        return found
    message = missing
    if field is not None:
        raise Refusal({field: message}, code="unknown_id")
    raise Http404(message)


def leagues() -> QuerySet[m.League]:
    """Every league, each with its current season's id (``current_season_id``)."""
    return m.League.objects.annotate(
        current_season_id=Subquery(current_season_id_subquery(OuterRef("pk")))
    )


def league(slug: str) -> m.League:
    """The league with this slug (404 when none)."""
    return _one(m.League.objects.all(), f"No league {slug!r}.", slug=slug)


def seasons(league: m.League) -> QuerySet[m.Season]:
    """A league's seasons, each with its ``state`` and ``is_current`` (`with_state`)."""
    return with_state(m.Season.objects.filter(league=league).select_related("league"))


def season_with_state(season_id: int) -> m.Season:
    """The season with this id, with its ``state`` and ``is_current`` (404 when none)."""
    return _one(
        with_state(m.Season.objects.select_related("league")),
        f"No season {season_id}.",
        pk=season_id,
    )


def season(season_id: int, *, field: str | None = None) -> m.Season:
    """The season with this id (404 when none; 422 on `field` of the body)."""
    return _one(
        m.Season.objects.select_related("league"), f"No season {season_id}.", field, pk=season_id
    )


def entries(season: m.Season) -> QuerySet[m.SeasonEntry]:
    """A season's entries with their players."""
    return m.SeasonEntry.objects.filter(season=season).select_related("player")


def player(player_id: int, *, field: str | None = None) -> m.Player:
    """The player with this id (404 when none; 422 on `field` of the body)."""
    return _one(m.Player.objects.all(), f"No player {player_id}.", field, pk=player_id)


def players(player_ids: list[int], *, field: str, key: str = "") -> list[m.Player]:
    """The players with these ids, in their order, in one query (422 on the item
    ``field.N`` naming an id that is no player; ``field.N.key`` when each item is an object
    whose `key` holds the id)."""
    found = m.Player.objects.in_bulk(player_ids)
    missing = [(i, p) for i, p in enumerate(player_ids) if p not in found]
    if missing:
        raise Refusal(
            {f"{field}.{i}{'.' if key else ''}{key}": f"No player {p}." for i, p in missing},
            code="unknown_id",
        )
    return [found[p] for p in player_ids]


def meets(season: m.Season) -> QuerySet[m.Meet]:
    """A season's meets (planned, open and closed)."""
    return m.Meet.objects.filter(season=season)


def meet(meet_id: int) -> m.Meet:
    """The meet with this id (404 when none)."""
    return _one(m.Meet.objects.select_related("season__league"), f"No meet {meet_id}.", pk=meet_id)


def game(game_id: int, *, field: str | None = None) -> m.Game:
    """The game with this id, its group, meet and machine (404 when none; 422 on `field`)."""
    rows = m.Game.objects.select_related("group__meet__season__league", "machine")
    return _one(rows, f"No game {game_id}.", field, pk=game_id)


@dataclass(frozen=True)
class GameRead:
    """A game as its read shows it: the stored game with its sheets (`game_sheets`) and the
    game as the meet board shows it (its game lines, from the fold; None: not on a board)."""

    game: m.Game
    board: BoardGame | None


def game_read(game_id: int) -> GameRead:
    """`game_sheets` with the game's lines on its meet's board (404 when none)."""
    game = game_sheets(game_id)
    return GameRead(game, board_game(game))


def game_sheets(game_id: int) -> m.Game:
    """The game with its group's players in ladder order and every version of its score
    sheet with its lines, oldest first, all fetched at once (404 when none)."""
    members = m.GroupMember.objects.select_related("player").order_by("position")
    versions = m.ScoreSubmission.objects.prefetch_related("lines").order_by("version")
    rows = m.Game.objects.select_related("group", "machine").prefetch_related(
        Prefetch("group__members", queryset=members), Prefetch("submissions", queryset=versions)
    )
    return _one(rows, f"No game {game_id}.", pk=game_id)


def submission(submission_id: int) -> m.ScoreSubmission:
    """The score submission with this id and its game's league (404 when none)."""
    return _one(
        m.ScoreSubmission.objects.select_related("game__group__meet__season__league"),
        f"No score sheet {submission_id}.",
        pk=submission_id,
    )


def season_player(season: m.Season, player_id: int) -> m.Player:
    """A player entered in the season (404 when he is not)."""
    entry = m.SeasonEntry.objects.select_related("player").filter(
        season=season, player_id=player_id
    )
    found = entry.first()
    if found is None:
        raise Http404(f"No player {player_id} in {season.name}.")
    return found.player


def group(group_id: int) -> m.Group:
    """The meet group with this id and its league (404 when none)."""
    return _one(
        m.Group.objects.select_related("meet__season__league"), f"No group {group_id}.", pk=group_id
    )


def machine(league: m.League, machine_id: int, *, field: str | None = None) -> m.Machine:
    """The league's machine with this id (404 when none, or another league's; 422 on
    `field` of the body)."""
    return _one(
        m.Machine.objects.filter(league=league),
        f"No machine {machine_id} in {league}.",
        field,
        pk=machine_id,
    )


def problem_report(league: m.League, report_id: int) -> m.MachineProblemReport:
    """The problem report with this id on one of the league's machines (404 when none, or
    another league's)."""
    return _one(
        m.MachineProblemReport.objects.filter(machine__league=league).select_related(
            "machine__league"
        ),
        f"No problem report {report_id} in {league}.",
        pk=report_id,
    )


def correction(correction_id: int) -> m.CorrectionRequest:
    """The correction request with this id and its game's league (404 when none)."""
    return _one(
        m.CorrectionRequest.objects.select_related("game__group__meet__season__league"),
        f"No correction request {correction_id}.",
        pk=correction_id,
    )


def violation(violation_id: int) -> m.Violation:
    """The violation with this id and its meet's league (404 when none)."""
    return _one(
        m.Violation.objects.select_related("meet__season__league"),
        f"No violation {violation_id}.",
        pk=violation_id,
    )


def ledger_entry(league: m.League, entry_id: int) -> m.LedgerEntry:
    """The league's ledger entry with this id (404 when none, or another league's)."""
    return _one(
        m.LedgerEntry.objects.filter(league=league),
        f"No ledger entry {entry_id} in {league}.",
        pk=entry_id,
    )


def special_ruling(league: m.League, machine_title: str, number: int) -> m.SpecialRuling:
    """A stored version of the league's special ruling `machine_title #number` (404 when none,
    or only another league's)."""
    row = (
        m.SpecialRuling.objects.filter(
            league=league, machine_title__iexact=machine_title, number=number
        )
        .order_by("-version")
        .first()
    )
    if row is None:
        raise Http404(f"No special ruling {machine_title} #{number} in {league}.")
    return row


def league_player(league: m.League, player_id: int) -> m.Player:
    """The player with this id, entered in a season of `league` (404 when not)."""
    found = m.Player.objects.filter(pk=player_id, season_entries__season__league=league).first()
    if found is None:
        raise Http404(f"That player is not entered in any season of {league}.")
    return found


def player_merge(merge_id: int) -> m.PlayerMerge:
    """The player merge with this id and its two rows (404 when none)."""
    return _one(
        m.PlayerMerge.objects.select_related("kept", "merged"),
        f"No player merge {merge_id}.",
        pk=merge_id,
    )


def person(player_id: int) -> Person:
    """The person of a player row: the row's own person, or, for a row merged into another,
    the person it is merged into; 404 when there is no such row."""
    try:
        return people.person(player_id)
    except people.MergedPlayerError as merged:
        return people.person(merged.kept)
    except people.PersonNotFoundError as error:
        raise Http404(str(error)) from error


def league_person(league: m.League, player_id: int) -> Person:
    """`person`, when one of the person's rows is entered in a season of `league` (404
    otherwise, naming them)."""
    who = person(player_id)
    if not m.SeasonEntry.objects.filter(season__league=league, player_id__in=who.ids).exists():
        raise Http404(f"{who.ref.name} plays in no season of {league}.")
    return who


def player_links(season: m.Season) -> QuerySet[m.PlayerLink]:
    """The season's live personal links (a page of them is read by id)."""
    return m.PlayerLink.objects.filter(season=season, revoked_at__isnull=True)


def live_player_link(season: m.Season, player_id: int) -> m.PlayerLink:
    """The live personal link of a player of the season (404 when he has none)."""
    return _one(
        player_links(season).select_related("player", "season__league"),
        f"Player {player_id} has no live personal link for {season.name}.",
        player_id=player_id,
    )


def playoff_correction(correction_id: int) -> m.PlayoffSheet:
    """The correction of a playoff game's sheet with this id and its league (404 when none,
    or when the id is an entry of scores, not a correction)."""
    status = m.PlayoffSheet.Status
    return _one(
        m.PlayoffSheet.objects.filter(
            status__in=(status.PENDING, status.APPLIED, status.REFUSED)
        ).select_related("match__playoff_night__season__league"),
        f"No playoff correction {correction_id}.",
        pk=correction_id,
    )
