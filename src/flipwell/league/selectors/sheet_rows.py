"""The rows a form posted from a score sheet names, each looked up as that sheet's: a game, a
sheet version, a correction request of a group (`flipwell.web.views.scoresheet`) or of a
playoff match (`flipwell.web.views.playoff_sheet`), a machine of the league, a player.

Words: a row *of the group* (or *of the match*) is one its sheet may name; another's (a form
from a stale or forged page) is None, and the sheet says to reload. One query each.
"""

from __future__ import annotations

from flipwell.league import models as m
from flipwell.league.selectors.playoffs.facts import match_round


def group_game(group: m.Group, game_id: int) -> m.Game | None:
    """The game with id `game_id` if it is one of `group`'s."""
    return m.Game.objects.filter(pk=game_id, group=group).first()


def group_submission(group: m.Group, submission_id: int) -> m.ScoreSubmission | None:
    """The score sheet version with id `submission_id` if it is of one of `group`'s games."""
    return m.ScoreSubmission.objects.filter(pk=submission_id, game__group=group).first()


def group_correction(group: m.Group, request_id: int) -> m.CorrectionRequest | None:
    """The correction request with id `request_id` if it is of one of `group`'s games."""
    return m.CorrectionRequest.objects.filter(pk=request_id, game__group=group).first()


def league_machine(league: m.League, machine_id: int) -> m.Machine | None:
    """The machine with id `machine_id` if it is one of `league`'s."""
    return m.Machine.objects.filter(pk=machine_id, league=league).first()


def match_sheet_row(
    night: m.PlayoffNight, division: str, match: str, sheet_id: int
) -> m.PlayoffSheet | None:
    """The playoff sheet (a version of a game's scores, or a correction) with id `sheet_id`
    if it is of match `match` (a rules match id, ``QF1``) of `division` at `night`."""
    round_, number = match_round(match)
    return m.PlayoffSheet.objects.filter(
        pk=sheet_id,
        match__playoff_night=night,
        match__division=division,
        match__round=round_,
        match__number=number,
    ).first()


def sheet_player(player_id: int) -> m.Player:
    """The player a sheet's form chose among the group's players (the form offered no other):
    a missing one is an impossible state, and fails loudly."""
    return m.Player.objects.get(pk=player_id)


def chosen_player(player_id: int) -> m.Player | None:
    """The player a machine choice names, None when there is none (the choice is no longer
    offered)."""
    return m.Player.objects.filter(pk=player_id).first()
