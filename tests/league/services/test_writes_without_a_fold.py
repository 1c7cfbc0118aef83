"""Writes that change no number do not fold the season (R3-a: only a confirmed sheet is a
fact of the fold): a score entry waiting for confirmation and the next machine's choice keep
the season's revision and stored fold, and give the league a new revision with the same
standings part, so the pages showing them change and the standings do not; the confirmation
folds. Each is the most frequent write of a night (issue 36: a write costs tonight)."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from flipwell.league.adapters.keys import player_key
from flipwell.league.derived.results import compute_fold, season_fold
from flipwell.league.revisions import standings_part
from flipwell.league.services.scores.confirmation import confirm_scores
from flipwell.league.services.scores.entry import submit_scores
from flipwell.rules import meet_game_lines
from tests.league.league_night import build_night, game, next_game, start

pytestmark = pytest.mark.django_db


def _revisions(season: m.Season) -> tuple[int, int]:
    """(the season's revision, the league's)."""
    season.refresh_from_db(fields=["revision"])
    league = m.League.objects.get(pk=season.league_id)
    return season.revision, league.revision


def _members(game_: m.Game) -> list[m.Player]:
    return [gm.player for gm in game_.group.members.order_by("position")]


def test_an_entered_sheet_keeps_the_seasons_fold_and_shows_through_the_leagues_revision():
    """R3-a: the entry is no fact: no fold is computed or stored, the season's revision stays,
    the league's changes with its standings part kept; the points it will give are the
    fold's with the sheet confirmed."""
    night = build_night()
    meet = start(night)
    first = game(meet, 1, 1)
    players = _members(first)
    season_before, league_before = _revisions(night.season)
    folds_before = m.DerivedResult.objects.filter(scope__startswith="fold:").count()

    entered = submit_scores(
        game=first,
        scores={p: 1000 * (i + 1) for i, p in enumerate(players)},
        entered_by=players[0],
        idempotency_key="no-fold-1",
    )

    season_after, league_after = _revisions(night.season)
    assert season_after == season_before
    assert league_after != league_before
    assert standings_part(league_after) == standings_part(league_before)
    assert m.DerivedResult.objects.filter(scope__startswith="fold:").count() == folds_before
    assert season_fold(night.season).result == compute_fold(night.season).result
    # R3.2-e..g: 7/5/3/1, the first bonus to 3rd (4,000 is not over 3,000 + 2,000), the
    # second to 4th (3,000 is not over 2,000 + 1,000).
    points = {players[3].pk: 7, players[2].pk: 5, players[1].pk: 4, players[0].pk: 2}
    assert entered.points == points

    confirm_scores(submission=entered.submission, confirmed_by=players[1])

    season_confirmed, _ = _revisions(night.season)
    assert season_confirmed != season_after  # a fact now: folded
    folded = season_fold(night.season)
    assert folded.result == compute_fold(night.season).result
    # What the entry's reply said the sheet would give is what the fold now gives.
    match = frozenset(player_key(p.pk) for p in players)
    lines = meet_game_lines(folded.facts, folded.result, 1)[match][0]
    assert {int(line.player): line.points for line in lines} == entered.points


def test_the_next_machine_keeps_the_seasons_fold_and_shows_through_the_leagues_revision():
    """A game chosen has no score: no fact of the fold (R3-a, R5-c)."""
    night = build_night()
    meet = start(night)
    first = game(meet, 1, 1)
    players = _members(first)
    entered = submit_scores(
        game=first,
        scores={p: 1000 * (i + 1) for i, p in enumerate(players)},
        entered_by=players[0],
        idempotency_key="no-fold-2",
    )
    confirm_scores(submission=entered.submission, confirmed_by=players[1])
    season_before, league_before = _revisions(night.season)

    second = next_game(meet, 1, players[0])  # last place picks (R5-c)

    season_after, league_after = _revisions(night.season)
    assert second.number == 2
    assert season_after == season_before
    assert league_after != league_before
    assert standings_part(league_after) == standings_part(league_before)
    assert season_fold(night.season).result == compute_fold(night.season).result
