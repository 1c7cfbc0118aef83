"""A write that cannot change a number does not refold; a write that can, refolds once (issue
35, STYLE.md convention 15, `flipwell.league.services._protocol`).

Words: a *fold* is counted where it is stored: `season_changed` writes the season's fold to
its `DerivedResult` row (`flipwell.league.derived.caches.store_fold`: one UPDATE), so the folds of a
write are the UPDATEs of that table among the queries it sends (`CaptureQueriesContext`);
nothing of flipwell is patched.
"""

from __future__ import annotations

import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from flipwell.league import models as m
from flipwell.league.services import (
    attach_photo,
    declare_machine_unplayable,
    record_turn_ruling,
)
from flipwell.league.services.scores.confirmation import confirm_scores
from flipwell.league.services.scores.entry import submit_scores
from tests import photo_files as pf
from tests.league.league_night import Night, game

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("media_root")]


def _folds(queries: CaptureQueriesContext) -> int:
    """The season folds stored by the queries captured."""
    table = m.DerivedResult._meta.db_table
    return sum(
        1
        for query in queries.captured_queries
        if query["sql"].lstrip().upper().startswith("UPDATE")
        and table in query["sql"]
        and "prefix:" not in query["sql"]  # the prefix carried to the new revision
    )


def _first_game(meet: m.Meet) -> tuple[m.Game, list[m.Player]]:
    """Group 1's first game at `meet` and its players in group order."""
    first = game(meet, 1, 1)
    return first, [row.player for row in first.group.members.order_by("position")]


def _revision(night: Night) -> int:
    return m.Season.objects.get(pk=night.season.pk).revision


def test_a_turn_ruling_does_not_refold(night, meet):
    first, players = _first_game(meet)
    before = _revision(night)

    with CaptureQueriesContext(connection) as queries:
        record_turn_ruling(
            kind="slow_play_warning",
            game=first,
            player=players[1],
            reason="Waited two minutes at the plunger",
            actor=night.user,
        )

    assert (_folds(queries), _revision(night)) == (0, before)
    assert m.Ruling.objects.filter(kind="slow_play_warning").count() == 1


def test_a_photo_does_not_refold(night, meet):
    first, players = _first_game(meet)
    before = _revision(night)
    sent = pf.jpeg_with_location()

    with CaptureQueriesContext(connection) as queries:
        attach_photo(game=first, photo=io.BytesIO(sent), size=len(sent), uploaded_by=players[0])

    assert (_folds(queries), _revision(night)) == (0, before)
    assert m.ScorePhoto.objects.filter(game=first).count() == 1


def test_a_machine_declared_unplayable_does_not_refold(night, meet):
    first, _ = _first_game(meet)
    before = _revision(night)
    league_before = m.League.objects.get(pk=night.season.league_id).revision

    with CaptureQueriesContext(connection) as queries:
        declare_machine_unplayable(
            meet=meet, machine=first.machine, reason="Flipper dead", actor=night.user
        )

    assert (_folds(queries), _revision(night)) == (0, before)
    assert m.League.objects.get(pk=night.season.league_id).revision != league_before


def test_a_confirmed_score_refolds_once(night, meet):
    first, players = _first_game(meet)
    scores = {player: 1000 * (i + 1) for i, player in enumerate(players)}
    entered = submit_scores(
        game=first, scores=scores, entered_by=players[0], idempotency_key="fold-count"
    )
    before = _revision(night)

    with CaptureQueriesContext(connection) as queries:
        confirm_scores(submission=entered.submission, confirmed_by=players[1])

    assert _folds(queries) == 1
    assert _revision(night) != before
