"""The live pages' own parts (flipwell.web.live_parts): the meet board's machines line and
group cards, and the standings, are the pages' own HTML byte for byte, exact as of their
revision; a page of another league, or not live, has none; a stream asks for them by its query
(``?board=<meet id>``, ``?standings=<season id>``) and a query that names no id is refused."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from django.http import QueryDict

from flipwell.league import models as m
from flipwell.league.selectors import revisions as revision_reads
from flipwell.league.services._edge import league_changed
from flipwell.serving import live
from flipwell.serving.live_parts import OVERTAKEN, Parts, Rendered
from flipwell.web import live_parts
from tests import factories as f
from tests.league import league_night as night_

pytestmark = pytest.mark.django_db


@dataclass
class Board:
    league: m.League
    season: m.Season
    meet: m.Meet


@pytest.fixture
def open_board(db):
    built = night_.build_night(players=8, machines=8)
    return Board(built.league, built.season, night_.start(built))


def parts_of(board: Board, page: str, revision: int | None = None) -> Rendered:
    """The parts of `page` at `revision` (None: the league's revision now)."""
    (watch,) = live_parts.watches(board.league.slug, board.league.pk, QueryDict(page))
    if revision is None:
        revision = m.League.objects.values_list("revision", flat=True).get(pk=board.league.pk)
    return watch.render(revision)


def test_the_boards_parts_are_its_own_html_each_part_by_its_id(client, open_board):
    league, meet = open_board.league, open_board.meet
    fragment = client.get(f"/leagues/{league.slug}/meets/{meet.pk}/", HTTP_HX_REQUEST="true")
    parts = parts_of(open_board, f"board={meet.pk}")

    assert parts is not None
    league.refresh_from_db()
    assert parts.revision == league.revision
    groups = sorted(meet.groups.all(), key=lambda g: g.number)
    assert list(parts.html) == ["board-machines"] + [f"board-group-{g.pk}" for g in groups]
    board = fragment.content.decode()
    for part_id, html in parts.html.items():
        assert f'id="{part_id}" data-live-part' in html
        assert html in board  # byte for byte
    assert board.count("data-live-part") == len(parts.html)
    assert f'data-live-watch="board={meet.pk}"' in board


def test_the_standings_part_is_the_standings_pages_own_html(client, open_board):
    league, season = open_board.league, open_board.season
    page = client.get(f"/leagues/{league.slug}/seasons/{season.pk}/").content.decode()
    parts = parts_of(open_board, f"standings={season.pk}")

    assert parts is not None
    assert list(parts.html) == ["standings-body"]
    assert parts.html["standings-body"] in page  # byte for byte
    assert page.count("data-live-part") == 1
    assert f'data-live-watch="standings={season.pk}"' in page
    assert "<table" in parts.html["standings-body"]


def test_a_page_that_is_not_live_or_not_the_leagues_has_no_parts(open_board):
    meet, season = open_board.meet, open_board.season
    other = Board(f.LeagueFactory(), season, meet)
    assert parts_of(other, f"board={meet.pk}") is None
    assert parts_of(other, f"standings={season.pk}") is None
    assert parts_of(open_board, "board=999999") is None
    meet.status = "closed"
    meet.save(update_fields=["status"])
    assert parts_of(open_board, f"board={meet.pk}") is None
    assert parts_of(open_board, f"standings={season.pk}") is None  # no meet is open


def test_parts_rendered_while_a_write_came_in_are_overtaken(open_board, monkeypatch):
    """The revision read after the render differs: which revision the parts show is unknown,
    and the write's own event follows."""
    real = revision_reads.of_leagues

    def written_meanwhile(league_ids):
        league_changed(open_board.league.pk)
        return real(league_ids)

    monkeypatch.setattr(revision_reads, "of_leagues", written_meanwhile)
    assert parts_of(open_board, f"board={open_board.meet.pk}") == OVERTAKEN


def test_parts_asked_at_a_revision_the_league_is_no_longer_at_are_overtaken(open_board):
    """A hub told of a revision renders that revision's parts or none: the league's newer
    revision has its own event, with its own parts."""
    page = f"board={open_board.meet.pk}"
    told = m.League.objects.get(pk=open_board.league.pk).revision
    league_changed(open_board.league.pk)
    assert parts_of(open_board, page, told) == OVERTAKEN
    assert isinstance(parts_of(open_board, page), Parts)


def test_a_stream_whose_leagues_slug_names_another_league_now_has_no_parts(open_board):
    """Its page is fetched (and answers as that address now does), never another league's
    parts, nor parts held back for a revision that will not come."""
    other = f.LeagueFactory()
    (watch,) = live_parts.watches(other.slug, open_board.league.pk, QueryDict("board=1"))
    assert watch.render(other.revision) is None


def test_a_worker_that_finds_the_parts_shared_reads_nothing_from_the_database(
    open_board, settings, django_assert_num_queries
):
    """Issue 36 §1: the hubs of the workers that did not write a revision take its parts
    from the shared cache with no query (before, each read the league for each page)."""
    settings.SHARED_PAGES = True
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "p"}
    }
    page = f"board={open_board.meet.pk}"
    revision = m.League.objects.get(pk=open_board.league.pk).revision
    rendered = parts_of(open_board, page, revision)  # the writer's hub
    with django_assert_num_queries(0):
        assert parts_of(open_board, page, revision) == rendered  # another worker's hub


def test_a_stream_watches_the_pages_its_query_names_and_a_bad_one_is_refused(client, open_board):
    url = f"/live/{open_board.league.slug}/events/"
    meet, season = open_board.meet.pk, open_board.season.pk
    answered = client.get(f"{url}?standings={season}&board={meet}", **{live.CAN_HAND_OFF_KEY: True})
    opened = answered.wsgi_request.META[live.STREAM_KEY]
    assert [w.key for w in opened.watches] == [f"board={meet}", f"standings={season}"]
    assert [w.standings for w in opened.watches] == [False, True]
    revision = m.League.objects.get(pk=open_board.league.pk).revision
    assert opened.watches[0].render(revision) == parts_of(open_board, f"board={meet}")

    plain = client.get(url, **{live.CAN_HAND_OFF_KEY: True})
    assert plain.wsgi_request.META[live.STREAM_KEY].watches == ()

    for query, named in (("board=twelve", b"meet's id"), ("standings=-1", b"season's id")):
        refused = client.get(f"{url}?{query}")
        assert refused.status_code == 400
        assert named in refused.content


def test_a_watching_stream_handed_off_leaves_its_first_event_to_the_hub(client, open_board):
    """A client behind gets no revision alone in the head (its pages would be fetched): the
    hub sends it every part instead. Not handed off, the head says the revision as before."""
    url = f"/live/{open_board.league.slug}/events/?revision=5&board={open_board.meet.pk}"
    handed = client.get(url, **{live.CAN_HAND_OFF_KEY: True})
    assert b"data: " not in handed.content
    assert handed.wsgi_request.META[live.STREAM_KEY].revision == 5  # what the client has

    polled = client.get(url)
    assert b"data: " in polled.content


def test_a_card_is_rendered_again_only_when_what_its_group_shows_changed(
    client, open_board, monkeypatch
):
    """A revision changes one group's card or none: the others are the HTML they were, and
    every card stays the page's own HTML byte for byte."""
    meet, page = open_board.meet, f"board={open_board.meet.pk}"
    rendered: list[int] = []
    real = live_parts.render_to_string

    def counted(name, context=None, *args, **kwargs):
        if name == "public/_board_group.html":
            rendered.append(context["group"].number)
        return real(name, context, *args, **kwargs)

    live_parts._cards.clear()
    monkeypatch.setattr(live_parts, "render_to_string", counted)
    before = parts_of(open_board, page)
    assert sorted(rendered) == [1, 2]

    rendered.clear()
    game = night_.game(meet, 1, 1)
    members = [gm.player for gm in game.group.members.order_by("position")]
    night_.play(game, {p: 1000 * (i + 1) for i, p in enumerate(members)})
    after = parts_of(open_board, page)

    assert rendered == [1]
    assert isinstance(before, Parts)
    assert isinstance(after, Parts)
    card = live_parts.group_part(night_.group(meet, 1).pk)
    assert after.html[card] != before.html[card]
    fragment = client.get(
        f"/leagues/{open_board.league.slug}/meets/{meet.pk}/", HTTP_HX_REQUEST="true"
    ).content.decode()
    assert all(html in fragment for html in after.html.values())  # byte for byte
