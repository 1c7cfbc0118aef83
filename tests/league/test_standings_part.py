"""The standings part of a league's revision (`flipwell.league.revisions`, issue 36): it changes
when a fold changes the standings, and only then, so a live standings page is fetched after a
confirmed score and not after every write of the night."""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest

from flipwell.league import models as m
from flipwell.league.derived.results import season_fold
from flipwell.league.revisions import (
    STANDINGS_BITS,
    league_revision,
    standings_part,
    standings_tag,
)
from flipwell.league.selectors.meet_board.board import meet_board
from flipwell.league.services._edge import league_changed
from flipwell.league.services.scores.confirmation import confirm_scores
from flipwell.league.services.scores.entry import submit_scores
from tests.league.league_night import game, next_game, play, start


def test_a_league_revision_carries_the_standings_part_it_is_given():
    revisions = {league_revision(standings=1234) for _ in range(50)}

    assert {standings_part(r) for r in revisions} == {1234}
    assert len(revisions) == 50  # the bits above it are drawn
    assert all(0 < r < 2**63 for r in revisions)
    assert standings_part(league_revision(standings=(1 << STANDINGS_BITS) + 7)) == 7


@pytest.mark.django_db
def test_the_tag_is_the_standings_own_and_changes_with_a_players_points(night):
    played = game(start(night), 1, 1)
    a = night.players
    play(played, {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    result = season_fold(night.season).result
    key, first = next(iter(result.players.items()))
    more = dataclasses.replace(first, league_points=first.league_points + Fraction(1, 2))

    tag = standings_tag(result, number_of_meets=10)
    assert standings_tag(dataclasses.replace(result), number_of_meets=10) == tag
    changed = dataclasses.replace(result, players={**result.players, key: more})
    assert standings_tag(changed, number_of_meets=10) != tag
    assert standings_tag(result, number_of_meets=8) != tag  # a cut season: the race moves


def part_of(league: m.League) -> int:
    league.refresh_from_db(fields=["revision"])
    return standings_part(league.revision)


@pytest.mark.django_db
def test_a_sheet_entered_keeps_the_standings_part_and_its_confirmation_changes_it(night):
    """R3-a: an entered sheet counts only once confirmed; so do the standings' readers."""
    played = game(start(night), 1, 1)
    a = night.players
    before = part_of(night.league)
    revision = night.league.revision

    entered = submit_scores(
        game=played,
        scores={a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10},
        entered_by=a[0],
        idempotency_key="sheet-1",
    )
    assert part_of(night.league) == before
    assert night.league.revision != revision  # the board shows the entered sheet

    confirm_scores(submission=entered.submission, confirmed_by=a[1])
    assert part_of(night.league) != before


@pytest.mark.django_db
def test_a_machine_chosen_and_a_league_change_keep_the_standings_part(night):
    """R5-c: the picker's choice changes the board, not a number."""
    meet = start(night)
    a = night.players
    play(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10})
    before, revision = part_of(night.league), night.league.revision

    (group,) = (g for g in meet_board(meet).groups if g.number == 1)
    next_game(meet, 1, m.Player.objects.get(pk=group.next_picker))
    assert part_of(night.league) == before
    assert night.league.revision != revision

    revision = night.league.revision
    league_changed(night.league)  # outside a write: what any page-only change does
    assert (part_of(night.league), night.league.revision != revision) == (before, True)
