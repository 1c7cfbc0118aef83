"""Pages rendered before their viewers ask (flipwell.serving.warming): after a change, the pages
viewers watched at the league's earlier revision are rendered at its new one, so the viewers
the live event sends are each served a kept page (issue 36 section 1: the night's slow pages
were those waiting for that render)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext

from flipwell.league import models as m
from flipwell.league.revisions import league_revision, standings_part
from flipwell.league.selectors import revisions
from flipwell.serving import http_cache, warming
from tests.league import league_night as night_

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_page_memo")]
FRAGMENT = {"HX-Request": "true"}


@pytest.fixture
def started() -> night_.Night:
    built = night_.build_night(players=8)
    _play(night_.start(built), 1)
    return built


def _play(meet: m.Meet, group_number: int) -> None:
    game = night_.game(meet, group_number, 1)
    members = [gm.player for gm in game.group.members.order_by("position")]
    night_.play(game, {p: 1111 * (i + 1) for i, p in enumerate(members)})


def _board(night: night_.Night) -> str:
    meet = night.season.meets.get(number=1)
    return f"/leagues/{night.league.slug}/meets/{meet.pk}/"


def _revision(night: night_.Night) -> int:
    found = revisions.by_slug(night.league.slug)
    assert found is not None
    return found


def test_a_page_two_viewers_watched_is_rendered_ahead_and_served_kept(
    started, django_assert_num_queries
):
    url, before = _board(started), _revision(started)
    for _viewer in range(2):
        Client().get(url, headers=FRAGMENT)
    _play(started.season.meets.get(number=1), 2)

    assert warming.warm({before}, _revision(started)) == 1
    with django_assert_num_queries(1):  # the revision's lookup only: the page was kept
        served = Client().get(url, headers=FRAGMENT)
    http_cache.forget_pages()
    rendered = Client().get(url, headers=FRAGMENT)

    assert (served.status_code, served["ETag"]) == (200, rendered["ETag"])
    assert served.content == rendered.content  # the page at the new revision
    assert "2,222" in served.content.decode()  # group 2's score, played after the views


def test_a_page_viewed_once_is_not_rendered_ahead(started):
    url, before = _board(started), _revision(started)
    Client().get(url, headers=FRAGMENT)
    _play(started.season.meets.get(number=1), 2)

    assert warming.warm({before}, _revision(started)) == 0
    assert _queries_of(lambda: Client().get(url, headers=FRAGMENT)) > 1  # rendered when asked


def test_a_fragment_watched_warms_the_fragment_not_the_page(started):
    url, before = _board(started), _revision(started)
    for _viewer in range(2):
        Client().get(url, headers=FRAGMENT)
    _play(started.season.meets.get(number=1), 2)
    warming.warm({before}, _revision(started))

    assert _queries_of(lambda: Client().get(url, headers=FRAGMENT)) == 1
    assert _queries_of(lambda: Client().get(url)) > 1


def test_a_warming_render_is_not_a_view_and_a_304_is(started):
    url, before = _board(started), _revision(started)
    first = Client().get(url)
    Client().get(url, headers={"If-None-Match": first["ETag"]})
    assert len(warming.watched({before}, before)) == 1  # a page and its 304: watched
    _play(started.season.meets.get(number=1), 2)

    assert warming.warm({before}, _revision(started)) == 1

    now = _revision(started)
    assert warming.watched({now}, now) == []


def test_only_the_pages_watched_at_the_given_revisions_are_rendered(started):
    url = _board(started)
    for _viewer in range(2):
        Client().get(url)

    now = _revision(started)
    other_league = league_revision(standings=standings_part(now))

    assert warming.warm({other_league}, now) == 0


def test_a_revision_counts_a_bounded_number_of_pages(started):
    slug, before = started.league.slug, _revision(started)
    for page in range(warming.PAGES_PER_REVISION + 5):
        for _viewer in range(2):
            Client().get(f"/leagues/{slug}/?page={page}")

    assert len(warming.watched({before}, before)) == warming.PAGES_PER_REVISION


def test_a_page_that_fails_to_render_is_skipped_and_logged(started, monkeypatch, caplog):
    url, before = _board(started), _revision(started)
    for _viewer in range(2):
        Client().get(url)

    def broken():
        raise RuntimeError("the middleware is broken")

    monkeypatch.setattr(warming, "_handler", broken)

    assert warming.warm({before}, _revision(started)) == 0
    assert "rendered ahead" in caplog.text


def test_a_page_showing_the_standings_is_rendered_ahead_when_they_change():
    """live.js asks for the standings only when the revision's standings part changed: they
    were watched since the standings last changed, not at the revision just before."""
    standings, board = _request("/standings/"), _request("/board/")
    at_the_change = league_revision(standings=7)
    for _viewer in range(2):
        warming.saw(at_the_change, standings)
        warming.saw(at_the_change, board)
    entered = league_revision(standings=7)  # a score entered: the standings as they were
    for _viewer in range(2):
        warming.saw(entered, board)

    confirmed = league_revision(standings=8)
    again = league_revision(standings=7)

    assert warming.watched({entered}, again) == [_watched(board)]
    assert sorted(warming.watched({entered}, confirmed)) == sorted(
        [_watched(board), _watched(standings)]
    )


def _request(path: str):
    return RequestFactory().get(path, headers=FRAGMENT)


def _watched(request) -> warming.Watched:
    return tuple((k, str(request.META[k])) for k in warming.REQUEST_KEYS if k in request.META)


def _queries_of(request) -> int:
    with CaptureQueriesContext(connection) as captured:
        request()
    return len(captured)
