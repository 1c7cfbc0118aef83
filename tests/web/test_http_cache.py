"""Conditional requests and remembered pages (issue #10 item 2): an unchanged page costs one
indexed query and a 304; any change of what it shows gives it a new ETag."""

from __future__ import annotations

import os
import threading

import pytest
from django.core.cache import caches
from django.http import HttpResponse
from django.test import Client, RequestFactory

from flipwell.league import models as m
from flipwell.league.selectors import revisions
from flipwell.serving import http_cache, pages
from tests.league import league_night as night_
from tests.waiting import inside, until

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("empty_page_memo")]


@pytest.fixture
def played_night() -> night_.Night:
    built = night_.build_night(players=8)
    meet = night_.start(built)
    _play(meet, 1)
    return built


def _play(meet: m.Meet, group_number: int) -> None:
    game = night_.game(meet, group_number, 1)
    members = [gm.player for gm in game.group.members.order_by("position")]
    night_.play(game, {p: 1000 * (i + 1) for i, p in enumerate(members)})


def _urls(played_night: night_.Night) -> list[str]:
    slug, meet = played_night.league.slug, played_night.season.meets.get(number=1)
    player = played_night.players[0]
    return [
        f"/leagues/{slug}/",
        f"/leagues/{slug}/seasons/{played_night.season.pk}/",
        f"/leagues/{slug}/meets/{meet.pk}/",
        f"/leagues/{slug}/players/{player.pk}/",
        f"/leagues/{slug}/machines/",
        f"/tv/{slug}/",
        f"/api/v1/seasons/{played_night.season.pk}/standings",
        f"/api/v1/meets/{meet.pk}",
        f"/api/v1/leagues/{slug}",
    ]


def test_every_public_read_answers_304_to_its_etag_with_one_query(
    played_night, django_assert_num_queries
):
    client = Client()
    for url in _urls(played_night):
        first = client.get(url)
        assert (url, first.status_code, first["ETag"].startswith('W/"')) == (url, 200, True)

        with django_assert_num_queries(1):
            again = client.get(url, headers={"If-None-Match": first["ETag"]})

        assert (url, again.status_code, again["ETag"], again.content) == (
            url,
            304,
            first["ETag"],
            b"",
        )


def test_an_unchanged_anonymous_page_is_served_from_memory_with_one_query(
    played_night, django_assert_num_queries
):
    url = f"/leagues/{played_night.league.slug}/"
    first = Client().get(url)

    with django_assert_num_queries(1):
        second = Client().get(url)

    assert (second.status_code, second.content, second["ETag"]) == (
        200,
        first.content,
        first["ETag"],
    )


def test_a_score_gives_the_board_a_new_etag_and_shows_it(played_night):
    client = Client()
    meet = played_night.season.meets.get(number=1)
    url = f"/leagues/{played_night.league.slug}/meets/{meet.pk}/"
    before = client.get(url)

    _play(meet, 2)
    after = client.get(url, headers={"If-None-Match": before["ETag"]})

    assert (
        after.status_code,
        after["ETag"] != before["ETag"],
        after.content != before.content,
    ) == (
        200,
        True,
        True,
    )


def test_a_fragment_and_its_page_have_different_etags_and_vary_on_hx_request(played_night):
    client = Client()
    meet = played_night.season.meets.get(number=1)
    url = f"/leagues/{played_night.league.slug}/meets/{meet.pk}/"

    page = client.get(url)
    fragment = client.get(url, headers={"HX-Request": "true"})

    assert page["ETag"] != fragment["ETag"]
    assert {"HX-Request", "Cookie"} <= {v.strip() for v in fragment["Vary"].split(",")}
    assert fragment["Cache-Control"] == "no-cache"


def test_a_signed_in_user_gets_his_own_private_etag(played_night):
    url = f"/leagues/{played_night.league.slug}/"
    anonymous = Client().get(url)
    official = Client()
    official.force_login(played_night.user)

    own = official.get(url)

    assert (own["ETag"] != anonymous["ETag"], own["Cache-Control"]) == (True, "private, no-cache")


def test_an_anonymous_etag_does_not_match_a_signed_in_page(played_night):
    url = f"/leagues/{played_night.league.slug}/"
    anonymous = Client().get(url)
    official = Client()
    official.force_login(played_night.user)

    answer = official.get(url, headers={"If-None-Match": anonymous["ETag"]})

    assert answer.status_code == 200


def test_an_unknown_league_is_still_a_404():
    assert Client().get("/leagues/nowhere/").status_code == 404


def test_an_api_read_with_a_malformed_id_is_refused_by_the_api_not_the_cache():
    answer = Client().get("/api/v1/seasons/null,null/standings")

    assert answer.status_code in (404, 422)


def test_a_post_is_never_answered_from_memory_or_with_304(played_night):
    url = f"/leagues/{played_night.league.slug}/"
    tag = Client().get(url)["ETag"]

    answer = Client().post(url, headers={"If-None-Match": tag})

    assert (answer.status_code, answer.has_header("ETag")) == (200, False)


def test_a_page_gets_a_new_etag_each_quarter_hour_so_tonight_follows_the_clock(
    played_night, monkeypatch
):
    # A league's "tonight" turns at its own midnight; every zone's offset is whole quarter
    # hours, so a tag that changes each quarter hour (UTC) never outlives the page's date.
    url = f"/leagues/{played_night.league.slug}/"
    monkeypatch.setattr(http_cache.time, "time", lambda: 900.0 * 1000 + 899)
    before = Client().get(url)["ETag"]
    monkeypatch.setattr(http_cache.time, "time", lambda: 900.0 * 1001)
    after = Client().get(url)["ETag"]

    assert before != after


def test_the_revision_lookups_name_their_league_with_one_query(
    played_night, django_assert_num_queries
):
    meet = played_night.season.meets.get(number=1)
    game = night_.game(meet, 1, 1)
    expected = m.League.objects.get(pk=played_night.league.pk).revision
    with django_assert_num_queries(5):
        found = [
            revisions.by_slug(played_night.league.slug),
            revisions.by_season(played_night.season.pk),
            revisions.by_meet(meet.pk),
            revisions.by_game(game.pk),
            revisions.by_group(game.group_id),
        ]

    assert found == [expected] * 5
    assert (revisions.by_slug("no-such-league"), revisions.by_meet(10**9)) == (None, None)


def test_viewers_asking_at_once_for_a_changed_page_share_one_render():
    # After a change, every viewer's poll misses the memo at the same moment; one thread
    # renders, the others wait for that page instead of rendering it again.
    # The render lasts until the five others wait for its lock (`one_render`), no longer.
    renders = []
    started = threading.Event()
    others: list[threading.Thread] = []

    def slow_view(request):
        renders.append(request.path)
        started.set()
        assert until(lambda: len(others) == 5 and all(inside(t, "one_render") for t in others))
        return HttpResponse(b"the board", content_type="text/html")

    def poll(answers):
        request = RequestFactory().get("/leagues/x/meets/1/")
        answers.append(http_cache._answer(request, 'W/"tag"', slow_view, (), {}))

    answers: list[HttpResponse] = []
    first = threading.Thread(target=poll, args=(answers,))
    first.start()
    assert started.wait(5)
    others += [threading.Thread(target=poll, args=(answers,)) for _ in range(5)]
    for thread in [*others]:
        thread.start()
    for thread in [first, *others]:
        thread.join(5)

    assert (len(renders), [a.content for a in answers]) == (1, [b"the board"] * 6)
    assert pages._rendering == {}


# --- Pages shared by every worker (SHARED_PAGES, with REDIS_URL) -----------------------------


def _counted(renders: list[str]):
    def view(request):
        renders.append(request.path)
        return HttpResponse(b"the board", content_type="text/html")

    return view


def _poll(view) -> HttpResponse:
    request = RequestFactory().get("/leagues/x/meets/1/")
    return http_cache._answer(request, 'W/"tag2"', view, (), {})


@pytest.fixture
def shared_pages(settings):
    """A shared cache as Redis would be (a local memory one here): `forget_pages` then plays
    another worker, whose own memo is empty."""
    settings.SHARED_PAGES = True
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "p"}
    }
    caches["default"].clear()
    yield
    caches["default"].clear()


def test_with_shared_pages_a_page_one_worker_rendered_is_fetched_by_another(shared_pages):
    renders: list[str] = []
    first = _poll(_counted(renders))
    http_cache.forget_pages()  # another worker: nothing in its own memory

    second = _poll(_counted(renders))

    assert (len(renders), second.content, second["ETag"]) == (1, b"the board", first["ETag"])


def test_without_shared_pages_each_worker_renders_its_own(settings):
    settings.SHARED_PAGES = False
    renders: list[str] = []
    _poll(_counted(renders))
    http_cache.forget_pages()

    _poll(_counted(renders))

    assert len(renders) == 2


def test_a_shared_cache_that_fails_only_costs_a_render(shared_pages, monkeypatch, caplog):
    def down(*args, **kwargs):
        raise ConnectionError("cache server unreachable")

    for method in ("get", "set", "add", "get_many", "delete"):
        monkeypatch.setattr(caches["default"], method, down)
    renders: list[str] = []

    answers = [_poll(_counted(renders)), _poll(_counted(renders))]

    assert [a.content for a in answers] == [b"the board"] * 2
    assert len(renders) == 1  # the second from this worker's own memory
    assert "shared page cache unavailable" in caplog.text


def _claimed_by_another_worker(tag: str = 'W/"tag2"') -> None:
    assert caches["default"].add(pages.claim_key(tag), 999, 30)


def test_a_page_another_worker_claimed_is_waited_for_not_rendered(shared_pages):
    # After a score, four workers miss the board at once: one renders, the others fetch it.
    _claimed_by_another_worker()
    shared = pages.Page(200, b"rendered elsewhere", "text/html")

    here = threading.current_thread()

    def other_worker_shares() -> None:  # once this worker waits for it, not before
        assert until(lambda: inside(here, "rendered_elsewhere"))
        caches["default"].set(pages.shared_key('W/"tag2"'), shared)
        caches["default"].delete(pages.claim_key('W/"tag2"'))

    sharer = threading.Thread(target=other_worker_shares)
    sharer.start()
    renders: list[str] = []
    answer = _poll(_counted(renders))
    sharer.join()

    assert (renders, answer.content) == ([], b"rendered elsewhere")


def test_a_claim_released_with_nothing_shared_is_rendered_here(shared_pages):
    _claimed_by_another_worker()
    threading.Timer(0.05, lambda: caches["default"].delete(pages.claim_key('W/"tag2"'))).start()
    renders: list[str] = []

    answer = _poll(_counted(renders))

    assert (len(renders), answer.content) == (1, b"the board")


def test_a_claim_held_too_long_is_rendered_here(shared_pages, monkeypatch):
    # The claiming worker died while rendering: its claim would only expire in 30 s.
    monkeypatch.setattr(pages, "RENDER_WAIT_SECONDS", 0.05)
    _claimed_by_another_worker()
    renders: list[str] = []

    answer = _poll(_counted(renders))

    assert (len(renders), answer.content) == (1, b"the board")


def test_a_render_claims_the_page_and_releases_it_once_shared(shared_pages, monkeypatch):
    claims: list[object] = []

    def view(request):
        claims.append(caches["default"].get(pages.claim_key('W/"tag2"')))
        return HttpResponse(b"the board", content_type="text/html")

    _poll(view)

    assert claims == [os.getpid()]
    assert caches["default"].get(pages.claim_key('W/"tag2"')) is None
    assert caches["default"].get(pages.shared_key('W/"tag2"')).content == b"the board"
