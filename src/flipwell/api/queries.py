"""The API's plain reads: rows of one table for a list, or one row by its key, answered as the
API answers a missing one.

A row named by the URL's path that does not exist is a 404; one named by a field of the body
(`field`) is a 422 on that field: the request is well-formed, but that id names nothing.
Messages name the thing in the league's words ("No player 12."), never a model.

The rows come from the league's selectors (`flipwell.league.selectors.lookups` for one row,
`listings` for a list, `people` for a person); this module reads no table itself, it says
what a missing row means to a client. Everything computed (standings, boards, brackets,
sheets) comes from the other selectors.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar

from django.db.models import Model, QuerySet
from django.http import Http404

from flipwell.league import models as m
from flipwell.league.refusals import Refusal
from flipwell.league.selectors import listings, lookups, people
from flipwell.league.selectors.meet_board.board import board_game
from flipwell.league.selectors.meet_board.values import BoardGame
from flipwell.league.selectors.people import Person

M = TypeVar("M", bound=Model)


def _found(row: M | None, missing: str, field: str | None = None) -> M:
    """`row`; when it is None, Http404, or a ValidationError on the body's `field`, saying
    `missing`."""
    if row is not None:
        return row
    if field is not None:
        raise Refusal({field: missing}, code="unknown_id")
    raise Http404(missing)


def leagues() -> QuerySet[m.League]:
    """Every league, each with its current season's id (``current_season_id``)."""
    return listings.leagues_with_current_season()


def league(slug: str) -> m.League:
    """The league with this slug (404 when none)."""
    return _found(lookups.league_by_slug(slug), f"No league {slug!r}.")


def seasons(league: m.League) -> QuerySet[m.Season]:
    """A league's seasons, each with its ``state`` and ``is_current`` (`with_state`)."""
    return listings.league_seasons(league)


def season_with_state(season_id: int) -> m.Season:
    """The season with this id, with its ``state`` and ``is_current`` (404 when none)."""
    return _found(lookups.season_with_state(season_id), f"No season {season_id}.")


def season(season_id: int, *, field: str | None = None) -> m.Season:
    """The season with this id (404 when none; 422 on `field` of the body)."""
    return _found(lookups.season_by_id(season_id), f"No season {season_id}.", field)


def entries(season: m.Season) -> QuerySet[m.SeasonEntry]:
    """A season's entries with their players."""
    return listings.season_entries(season)


def player(player_id: int, *, field: str | None = None) -> m.Player:
    """The player with this id (404 when none; 422 on `field` of the body)."""
    return _found(lookups.player_by_id(player_id), f"No player {player_id}.", field)


def players(player_ids: list[int], *, field: str, key: str = "") -> list[m.Player]:
    """The players with these ids, in their order, in one query (422 on the item
    ``field.N`` naming an id that is no player; ``field.N.key`` when each item is an object
    whose `key` holds the id)."""
    found = lookups.players_by_id(player_ids)
    missing = [(i, p) for i, p in enumerate(player_ids) if p not in found]
    if missing:
        raise Refusal(
            {f"{field}.{i}{'.' if key else ''}{key}": f"No player {p}." for i, p in missing},
            code="unknown_id",
        )
    return [found[p] for p in player_ids]


def meets(season: m.Season) -> QuerySet[m.Meet]:
    """A season's meets (planned, open and closed)."""
    return listings.season_meets(season)


def meet(meet_id: int) -> m.Meet:
    """The meet with this id (404 when none)."""
    return _found(lookups.meet_by_id(meet_id), f"No meet {meet_id}.")


def game(game_id: int, *, field: str | None = None) -> m.Game:
    """The game with this id, its group, meet and machine (404 when none; 422 on `field`)."""
    return _found(lookups.game_by_id(game_id), f"No game {game_id}.", field)


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
    return _found(lookups.game_with_sheets(game_id), f"No game {game_id}.")


def submission(submission_id: int) -> m.ScoreSubmission:
    """The score submission with this id and its game's league (404 when none)."""
    return _found(lookups.submission_by_id(submission_id), f"No score sheet {submission_id}.")


def season_player(season: m.Season, player_id: int) -> m.Player:
    """A player entered in the season (404 when they are not)."""
    found = lookups.season_entry(season, player_id)
    if found is None:
        raise Http404(f"No player {player_id} in {season.name}.")
    return found.player


def group(group_id: int) -> m.Group:
    """The meet group with this id and its league (404 when none)."""
    return _found(lookups.group_by_id(group_id), f"No group {group_id}.")


def machine(league: m.League, machine_id: int, *, field: str | None = None) -> m.Machine:
    """The league's machine with this id (404 when none, or another league's; 422 on
    `field` of the body)."""
    found = lookups.league_machine(league, machine_id)
    return _found(found, f"No machine {machine_id} in {league}.", field)


def problem_report(league: m.League, report_id: int) -> m.MachineProblemReport:
    """The problem report with this id on one of the league's machines (404 when none, or
    another league's)."""
    found = lookups.league_problem_report(league, report_id)
    return _found(found, f"No problem report {report_id} in {league}.")


def correction(correction_id: int) -> m.CorrectionRequest:
    """The correction request with this id and its game's league (404 when none)."""
    found = lookups.correction_by_id(correction_id)
    return _found(found, f"No correction request {correction_id}.")


def violation(violation_id: int) -> m.Violation:
    """The violation with this id and its meet's league (404 when none)."""
    return _found(lookups.violation_by_id(violation_id), f"No violation {violation_id}.")


def ledger_entry(league: m.League, entry_id: int) -> m.LedgerEntry:
    """The league's ledger entry with this id (404 when none, or another league's)."""
    found = lookups.league_ledger_entry(league, entry_id)
    return _found(found, f"No ledger entry {entry_id} in {league}.")


def special_ruling(league: m.League, machine_title: str, number: int) -> m.SpecialRuling:
    """A stored version of the league's special ruling `machine_title #number` (404 when none,
    or only another league's)."""
    found = lookups.league_special_ruling(league, machine_title, number)
    return _found(found, f"No special ruling {machine_title} #{number} in {league}.")


def league_player(league: m.League, player_id: int) -> m.Player:
    """The player with this id, entered in a season of `league` (404 when not)."""
    found = lookups.league_player(league, player_id)
    return _found(found, f"That player is not entered in any season of {league}.")


def player_merge(merge_id: int) -> m.PlayerMerge:
    """The player merge with this id and its two rows (404 when none)."""
    return _found(lookups.player_merge_by_id(merge_id), f"No player merge {merge_id}.")


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
    if not lookups.plays_in_league(league, who.ids):
        raise Http404(f"{who.ref.name} plays in no season of {league}.")
    return who


def player_links(season: m.Season) -> QuerySet[m.PlayerLink]:
    """The season's live personal links (a page of them is read by id)."""
    return listings.live_player_links(season)


def live_player_link(season: m.Season, player_id: int) -> m.PlayerLink:
    """The live personal link of a player of the season (404 when they have none)."""
    found = lookups.live_player_link(season, player_id)
    return _found(found, f"Player {player_id} has no live personal link for {season.name}.")


def playoff_correction(correction_id: int) -> m.PlayoffSheet:
    """The correction of a playoff game's sheet with this id and its league (404 when none,
    or when the id is an entry of scores, not a correction)."""
    found = lookups.playoff_correction_by_id(correction_id)
    return _found(found, f"No playoff correction {correction_id}.")
