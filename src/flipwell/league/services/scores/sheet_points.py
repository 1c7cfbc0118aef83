"""A game's score sheet stored, and the game points it gives (R3.2), shared by score entry,
corrections (`flipwell.league.services.corrections`) and the replay of discarded scores
(`flipwell.league.services.malfunctions.discarded_scores`).

Words:
- *score sheet*: every group member's machine score for one game, None for a player who did
  not play it (a forfeit, §2.4), and the order a one-ball playoff gave tied players (R3.2-i).
- *version*: each entry of a game's sheet is a new `ScoreSubmission`; an unconfirmed one may
  be replaced by a later one; once one is confirmed by another player of the group (R3-a) the
  sheet changes only through a correction (`flipwell.league.services.corrections`).
- *points once confirmed*: what the sheet will give when confirmed, read from the season's
  fold with anything already recorded on the game counted (a compensatory game, a zero score,
  a penalty: R7.3-m, §8), tonight's meet folded on the stored fold of the closed meets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from flipwell.league import models as m
from flipwell.league.adapters.game_facts import sheet_facts, tie_order_facts
from flipwell.league.adapters.rulesets import season_ruleset
from flipwell.league.derived.results import closed_meets_prefix, season_fold
from flipwell.league.selectors.scoresheet import lines_once_confirmed
from flipwell.league.services._edge import group_player_ids, rules_edge
from flipwell.rules import score_game

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def store_sheet(
    submission: m.ScoreSubmission,
    sheet: Mapping[int, int | None],
    ties: Sequence[Sequence[int]],
    *,
    actor: User | None,
) -> None:
    """Insert a submission's score lines and tie orders."""
    m.ScoreLine.objects.bulk_create(
        m.ScoreLine(submission=submission, player_id=p, machine_score=s) for p, s in sheet.items()
    )
    for order in ties:
        tie = m.TieOrder.objects.create(
            game_id=submission.game_id, submission=submission, recorded_by=actor
        )
        m.TieOrderPlace.objects.bulk_create(
            m.TieOrderPlace(tie_order=tie, player_id=p, position=i)
            for i, p in enumerate(order, start=1)
        )


def points_once_confirmed(
    game: m.Game, sheet: Mapping[int, int | None], ties: Sequence[Sequence[int]]
) -> dict[int, int]:
    """The game points `sheet` will give once confirmed (R3-a): the fold's, with a
    compensatory game, a zero score or a penalty already recorded counted (R7.3-m, §8), so
    the reply to the sheet's sender and the confirmer's table say what will be stored."""
    season = game.group.meet.season
    folded = season_fold(season)
    lines = lines_once_confirmed(
        game_id=game.pk,
        machine=game.machine.title,
        players=group_player_ids(game.group),
        sheet=sheet,
        ties=ties,
        folded=folded,
        meet=game.group.meet.number,
        prefix=closed_meets_prefix(season),
    )
    return {p: line.points for p, line in lines.items()} or _points(game, sheet, ties)


def game_points_of(
    game: m.Game, sheet: Mapping[int, int | None], ties: Sequence[Sequence[int]]
) -> dict[int, int]:
    """The game points a sheet gives (R3.2), via `score_game`; a RuleError is refused."""
    return _points(game, sheet, ties)


def _points(
    game: m.Game, sheet: Mapping[int, int | None], ties: Sequence[Sequence[int]]
) -> dict[int, int]:
    field = "tie_order" if ties else "scores"
    with rules_edge(field, code="scores_refused"):
        result = score_game(
            sheet_facts(sheet),
            tie_order=tie_order_facts(ties),
            ruleset=season_ruleset(game.group.meet.season),
        )
    return {int(p): points for p, points in result.points.items()}
