"""A league's new revision is announced once its write commits, never before and never for a
write rolled back (`flipwell.league.revisions`); the live streams of every app server hear of it
through that announcement (issue 36 §3)."""

from __future__ import annotations

import pytest
from django.db import transaction

from flipwell.league.revisions import revised
from flipwell.league.services._edge import every_league_changed, league_changed
from tests import factories as f

pytestmark = pytest.mark.django_db


@pytest.fixture
def heard():
    """What the announcements said, (league id, revision) each."""
    said: list[tuple[int | None, int | None]] = []

    def listener(sender, *, league_id, revision, **kwargs):
        said.append((league_id, revision))

    revised.connect(listener)
    yield said
    revised.disconnect(listener)


def test_a_new_revision_is_announced_after_the_commit(heard, django_capture_on_commit_callbacks):
    league = f.LeagueFactory()

    with django_capture_on_commit_callbacks(execute=True), transaction.atomic():
        league_changed(league)
        assert heard == []  # not before the commit

    league.refresh_from_db()
    assert heard == [(league.pk, league.revision)]


def test_a_write_rolled_back_announces_nothing(heard, django_capture_on_commit_callbacks):
    league = f.LeagueFactory()

    def failing_write():
        with transaction.atomic():
            league_changed(league)
            raise RuntimeError("the write fails")

    with (
        django_capture_on_commit_callbacks(execute=True),
        transaction.atomic(),
        pytest.raises(RuntimeError),
    ):
        failing_write()

    assert heard == []


def test_a_change_of_every_league_is_announced_as_several(
    heard, django_capture_on_commit_callbacks
):
    f.LeagueFactory()

    with django_capture_on_commit_callbacks(execute=True):
        every_league_changed()

    assert heard == [(None, None)]
