"""A write that cannot change a number does not refold; a write that can, refolds once (issue
35, STYLE.md convention 15, `flipwell.league.services._protocol`).

Words: a *fold* is counted where it is stored: `season_changed` writes the season's fold to
its `DerivedResult` row (`flipwell.league.derived.caches.store_fold`: one UPDATE), so the folds of a
write are the UPDATEs of that table among the queries it sends (`CaptureQueriesContext`);
nothing of flipwell is patched.
"""

from __future__ import annotations

import datetime
import io
from collections.abc import Callable

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from flipwell.league import models as m
from flipwell.league.services import (
    announce_absence,
    announce_absence_by_link,
    announce_lateness,
    announce_lateness_by_link,
    attach_photo,
    cancel_meet,
    change_season_schedule,
    declare_machine_unplayable,
    issue_player_link,
    record_turn_ruling,
    reschedule_meet,
    schedule_meet,
    withdraw_announcement,
    withdraw_announcement_by_link,
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


def _league_revision(night: Night) -> int:
    return m.League.objects.get(pk=night.season.league_id).revision


def _unfolded(night: Night, write: Callable[[], object]) -> tuple[int, bool, bool]:
    """The folds `write` stores, whether the season's revision changed (it must not: nothing
    it derives changed) and whether the league's did (its pages show what was written)."""
    season, league = _revision(night), _league_revision(night)
    with CaptureQueriesContext(connection) as queries:
        write()
    return _folds(queries), _revision(night) != season, _league_revision(night) != league


NOT_FOLDED = (0, False, True)
"""`_unfolded` of a write that cannot change a number and that a page shows."""


def _planned(night: Night, number: int = 1, *, days: int = 7) -> m.Meet:
    """Meet `number` of the night's season scheduled `days` from today (planned)."""
    return schedule_meet(
        season=night.season,
        number=number,
        date=timezone.localdate() + datetime.timedelta(days=days),
        actor=night.user,
        date_reason="The league's night moved this season",
    )


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


def test_scheduling_a_meet_does_not_refold(night):
    """A planned meet is no fact of the fold (only started meets are): R2-a."""
    assert _unfolded(night, lambda: _planned(night)) == NOT_FOLDED
    assert m.Meet.objects.filter(season=night.season, number=1).count() == 1


def test_rescheduling_a_planned_meet_does_not_refold(night):
    meet = _planned(night)
    later = meet.date + datetime.timedelta(days=7)

    moved = _unfolded(
        night, lambda: reschedule_meet(meet=meet, date=later, reason="Bar closed", actor=night.user)
    )

    assert moved == NOT_FOLDED
    assert m.Meet.objects.get(pk=meet.pk).date == later


def test_cancelling_a_planned_meet_does_not_refold(night):
    """The later planned meets move down a number, the season keeps its number of meets: no
    number the fold derives changes (R2-a)."""
    first, second = _planned(night, 1), _planned(night, 2, days=14)

    cancelled = _unfolded(
        night, lambda: cancel_meet(meet=first, reason="Bar closed", actor=night.user)
    )

    assert cancelled == NOT_FOLDED
    assert m.Meet.objects.get(pk=second.pk).number == 1


@pytest.mark.parametrize(
    ("kind", "announce"),
    [("absence", announce_absence), ("lateness", announce_lateness)],
)
def test_an_announcement_and_its_withdrawal_do_not_refold(night, kind, announce):
    """An announced absence counts only once its meet starts (R3.1-d), a lateness notice never
    (R2.2-a, A59): neither folds, nor does its withdrawal."""
    meet, player = _planned(night), night.players[0]

    told = _unfolded(night, lambda: announce(meet=meet, player=player, actor=night.user))
    withdrawn = _unfolded(
        night,
        lambda: withdraw_announcement(meet=meet, player=player, kind=kind, actor=night.user),
    )

    assert (told, withdrawn) == (NOT_FOLDED, NOT_FOLDED)
    assert m.AuditEvent.objects.filter(action=f"meet.{kind}_withdrawn").count() == 1


@pytest.mark.parametrize(
    ("kind", "announce"),
    [("absence", announce_absence_by_link), ("lateness", announce_lateness_by_link)],
)
def test_an_announcement_by_link_and_its_withdrawal_do_not_refold(night, kind, announce):
    meet, player = _planned(night), night.players[0]
    link = issue_player_link(season=night.season, player=player, actor=night.user)

    told = _unfolded(night, lambda: announce(link=link, meet=meet))
    withdrawn = _unfolded(
        night, lambda: withdraw_announcement_by_link(link=link, meet=meet, kind=kind)
    )

    assert (told, withdrawn) == (NOT_FOLDED, NOT_FOLDED)
    assert m.AuditEvent.objects.filter(action=f"meet.{kind}_withdrawn").count() == 1


def test_changing_a_season_schedule_does_not_refold(night):
    """Before its first meet the fold has no meet to read, and the number of meets is read
    with the fold by the pages (the season's progress and race), not folded."""
    changed = _unfolded(
        night,
        lambda: change_season_schedule(season=night.season, number_of_meets=12, actor=night.user),
    )

    assert changed == NOT_FOLDED
    assert m.Season.objects.get(pk=night.season.pk).number_of_meets == 12
