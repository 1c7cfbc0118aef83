"""Live parts (flipwell.serving.live_parts, flipwell.web.live_parts): a meet board's stream
carries the board's parts that changed, each whole, so the board fetches nothing; the parts
are the board's own HTML, exact as of their revision, and a client whose page is not at the
event's base is never sent a change it cannot place."""

from __future__ import annotations

import logging
import socket
from dataclasses import dataclass

import pytest

from flipwell.league import models as m
from flipwell.league.revisions import standings_part
from flipwell.league.selectors import revisions as revision_reads
from flipwell.league.services._edge import league_changed
from flipwell.serving import live, live_parts
from flipwell.web import live_parts as board_parts
from tests import factories as f
from tests.league import league_night as night_
from tests.web.live_streams import Revisions, events_of, read_until

A = live_parts.Parts(10, {"machines": "<div id=machines>M</div>", "g1": "<section>1</section>"})
B = live_parts.Parts(11, {"machines": "<div id=machines>M</div>", "g1": "<section>1b</section>"})


# --- what an event carries --------------------------------------------------------------------


def test_a_client_with_no_known_parts_is_sent_every_part():
    assert live_parts.changes(B, None) == B.html


def test_a_client_at_the_base_is_sent_only_the_parts_that_changed():
    assert live_parts.changes(B, A) == {"g1": "<section>1b</section>"}
    assert live_parts.changes(A, A) == {}


def test_parts_that_are_not_the_bases_are_not_sent_the_page_is_fetched():
    drawn = live_parts.Parts(12, {"machines": "M", "g1": "1", "g2": "2"})
    reordered = live_parts.Parts(13, {"g1": "1", "machines": "M"})
    assert live_parts.changes(drawn, A) is None
    assert live_parts.changes(reordered, A) is None


def test_an_event_with_parts_is_one_line_of_data_with_the_revision_as_its_id():
    payload = live_parts.event(99, standings_part(99), B, A)
    assert payload is not None
    assert payload.count(b"\n") == 3  # id, data, and the blank line that ends the event
    assert events_of(payload) == [
        {
            "id": "99",
            "data": {
                "revision": 99,
                "standings": standings_part(99),
                "parts": {"revision": 11, "base": 10, "html": {"g1": "<section>1b</section>"}},
            },
        }
    ]
    assert live_parts.event(99, 0, live_parts.Parts(12, {"x": ""}), A) is None


# --- the memo ----------------------------------------------------------------------------------


class Page:
    """A stand-in page: the parts its render gives, and how often it was rendered."""

    def __init__(self, *parts: live_parts.Parts | None) -> None:
        self.parts = list(parts)
        self.renders = 0

    def render(self) -> live_parts.Parts | None:
        self.renders += 1
        got = self.parts[0] if len(self.parts) == 1 else self.parts.pop(0)
        if isinstance(got, Exception):
            raise got
        return got


def test_a_revision_is_rendered_once_and_its_parts_kept_by_their_revision():
    page = Page(A, B)
    memo = live_parts.Memo()
    watch = live_parts.Watch("board:1", page.render)

    assert memo.now(watch, 100) == A
    assert memo.now(watch, 100) == A
    assert memo.now(watch, 101) == B
    assert page.renders == 2
    assert memo.at("board:1", 10) == A
    assert memo.at("board:1", None) is None
    assert memo.at("board:2", 10) is None


def test_a_page_keeps_only_its_last_parts():
    made = [live_parts.Parts(n, {"g": str(n)}) for n in range(live_parts.KEPT_PER_PAGE + 2)]
    memo = live_parts.Memo()
    watch = live_parts.Watch("board:1", Page(*made).render)
    for revision in range(len(made)):
        memo.now(watch, revision)
    assert memo.at("board:1", 0) is None  # forgotten: a stream at it is sent every part
    assert memo.at("board:1", len(made) - 1) == made[-1]


def test_a_render_that_fails_gives_no_parts_and_is_logged_once(caplog):
    page = Page(RuntimeError("database away"), RuntimeError("still away"), A)
    memo = live_parts.Memo()
    watch = live_parts.Watch("board:1", page.render)
    with caplog.at_level(logging.WARNING, logger="flipwell.serving.live"):
        assert memo.now(watch, 1) is None
        assert memo.now(watch, 2) is None
        assert memo.now(watch, 3) == A
    assert len(caplog.records) == 1


# --- the hub -------------------------------------------------------------------------------------


@pytest.fixture
def hub():
    revisions = Revisions(league1=1000)
    made = live.Hub(revisions, poll_seconds=0.02, heartbeat_seconds=30, lifetime_seconds=60)
    yield made, revisions
    made.stop()


def watched(hub: live.Hub, revision: int, page: Page) -> socket.socket:
    mine, theirs = socket.socketpair()
    watch = live_parts.Watch("board:7", page.render)
    hub.add(mine, live.Opened(1, revision, watch))
    return theirs


def parts_of(client: socket.socket) -> object:
    """The parts of the next event `client` reads (None: an event without parts)."""
    (got,) = events_of(read_until(client, b"\n\n"))
    data = got["data"]
    assert isinstance(data, dict)
    return data.get("parts")


def test_a_watching_stream_is_sent_every_part_first_then_only_what_changed(hub):
    made, revisions = hub
    page = Page(A)
    client = watched(made, 1000, page)

    revisions.now[1] = 1001
    assert parts_of(client) == {"revision": 10, "base": None, "html": A.html}

    page.parts = [B]
    revisions.now[1] = 1002
    assert parts_of(client) == {"revision": 11, "base": 10, "html": {"g1": "<section>1b</section>"}}
    assert page.renders == 2  # once per revision, however many streams


def test_streams_of_one_page_share_one_render_per_revision(hub):
    made, revisions = hub
    page = Page(A)
    clients = [watched(made, 1000, page) for _ in range(20)]
    revisions.now[1] = 1001
    for client in clients:
        assert parts_of(client) == {"revision": 10, "base": None, "html": A.html}
    assert page.renders == 1


def test_a_new_set_of_parts_goes_without_parts_and_the_next_event_has_every_part(hub):
    made, revisions = hub
    drawn = live_parts.Parts(12, {"machines": "M", "g1": "1", "g2": "2"})
    page = Page(A)
    client = watched(made, 1000, page)
    revisions.now[1] = 1001
    assert parts_of(client) is not None

    page.parts = [drawn]
    revisions.now[1] = 1002
    assert parts_of(client) is None  # the client fetches the board

    revisions.now[1] = 1003
    assert parts_of(client) == {"revision": 12, "base": None, "html": drawn.html}


def test_a_board_with_no_parts_gets_the_revision_alone(hub):
    made, revisions = hub
    client = watched(made, 1000, Page(None))
    revisions.now[1] = 1001
    assert events_of(read_until(client, b"\n\n")) == [
        {"id": "1001", "data": {"revision": 1001, "standings": standings_part(1001)}}
    ]


# --- the board's parts, rendered ---------------------------------------------------------------


@dataclass
class Board:
    league: m.League
    meet: m.Meet


@pytest.fixture
def open_board(db):
    built = night_.build_night(players=8, machines=8)
    return Board(built.league, night_.start(built))


def test_the_parts_are_the_boards_own_html_each_part_by_its_id(client, open_board):
    league, meet = open_board.league, open_board.meet
    fragment = client.get(f"/leagues/{league.slug}/meets/{meet.pk}/", HTTP_HX_REQUEST="true")
    parts = board_parts.board_parts(league.slug, meet.pk)

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


def test_a_board_that_is_not_live_or_not_the_leagues_has_no_parts(open_board):
    other = f.LeagueFactory()
    assert board_parts.board_parts(other.slug, open_board.meet.pk) is None
    assert board_parts.board_parts(open_board.league.slug, 10**9) is None
    open_board.meet.status = "closed"
    open_board.meet.save(update_fields=["status"])
    assert board_parts.board_parts(open_board.league.slug, open_board.meet.pk) is None


def test_parts_rendered_while_a_write_came_in_are_not_given(open_board, monkeypatch):
    """The revision read after the render differs: which revision the parts show is unknown."""
    real = revision_reads.of_leagues

    def written_meanwhile(league_ids):
        league_changed(open_board.league.pk)
        return real(league_ids)

    monkeypatch.setattr(revision_reads, "of_leagues", written_meanwhile)
    assert board_parts.board_parts(open_board.league.slug, open_board.meet.pk) is None


# --- the stream's view ---------------------------------------------------------------------------


def test_a_stream_of_the_board_watches_its_parts_and_a_bad_board_is_refused(client, open_board):
    url = f"/live/{open_board.league.slug}/events/"
    answered = client.get(f"{url}?board={open_board.meet.pk}", **{live.CAN_HAND_OFF_KEY: True})
    opened = answered.wsgi_request.META[live.STREAM_KEY]
    assert opened.watch.key == f"board:{open_board.meet.pk}"
    assert opened.watch.render() == board_parts.board_parts(
        open_board.league.slug, open_board.meet.pk
    )

    plain = client.get(url, **{live.CAN_HAND_OFF_KEY: True})
    assert plain.wsgi_request.META[live.STREAM_KEY].watch is None

    refused = client.get(f"{url}?board=twelve")
    assert refused.status_code == 400
    assert b"meet's id" in refused.content
