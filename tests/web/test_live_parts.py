"""Live parts (flipwell.serving.live_parts): a stream that watches pages carries, per page,
the parts that changed since those it sent, each whole, so the page fetches nothing; a client
whose page is not at the entry's base is never sent a change it cannot place; each revision
is rendered once per process, and once for every worker when they share a cache. The pages'
own parts: test_live_parts_pages."""

from __future__ import annotations

import logging
import socket
import threading
from collections import deque

import pytest
from django.core.cache import caches

from flipwell.league.revisions import STANDINGS_BITS, standings_part
from flipwell.serving import live, live_events, live_parts
from tests.waiting import until
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


def test_an_entry_is_the_pages_changes_from_the_base_with_both_revisions():
    assert live_parts.entry("board=7", B, A) == {
        "watch": "board=7",
        "revision": 11,
        "base": 10,
        "html": {"g1": "<section>1b</section>"},
    }
    assert live_parts.entry("board=7", B, None) == {
        "watch": "board=7",
        "revision": 11,
        "base": None,
        "html": B.html,
    }
    assert live_parts.entry("board=7", live_parts.Parts(12, {"x": ""}), A) is None


def test_an_event_with_parts_is_one_line_of_data_with_the_revision_as_its_id():
    entries = [live_parts.entry("board=7", B, A)]
    payload = live_parts.event(99, entries)
    assert payload.count(b"\n") == 3  # id, data, and the blank line that ends the event
    assert events_of(payload) == [
        {
            "id": "99",
            "data": {"revision": 99, "standings": standings_part(99), "parts": entries},
        }
    ]


# --- the memo ----------------------------------------------------------------------------------


class Page:
    """A stand-in page: the parts its render gives, and how often it was rendered."""

    def __init__(self, *parts: live_parts.Parts | None) -> None:
        self.parts = list(parts)
        self.renders = 0

    def render(self, revision: int = 0) -> live_parts.Parts | None:
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


def watched(hub: live.Hub, revision: int, *pages: Page) -> socket.socket:
    """A stream of league 1 watching `pages` (board=7, board=8...)."""
    mine, theirs = socket.socketpair()
    watches = tuple(live_parts.Watch(f"board={7 + n}", p.render) for n, p in enumerate(pages))
    hub.add(mine, live.Opened(1, revision, watches))
    return theirs


def parts_of(client: socket.socket) -> list[dict[str, object]]:
    """The entries of the next event `client` reads, without their watch when it is board=7."""
    (got,) = events_of(read_until(client, b"\n\n"))
    data = got["data"]
    assert isinstance(data, dict)
    entries = data["parts"]
    assert isinstance(entries, list)
    return [{k: v for k, v in e.items() if (k, v) != ("watch", "board=7")} for e in entries]


def test_a_watching_stream_is_sent_every_part_first_then_only_what_changed(hub):
    made, revisions = hub
    page = Page(A)
    client = watched(made, 1000, page)

    revisions.now[1] = 1001
    assert parts_of(client) == [{"revision": 10, "base": None, "html": A.html}]

    page.parts = [B]
    revisions.now[1] = 1002
    assert parts_of(client) == [
        {"revision": 11, "base": 10, "html": {"g1": "<section>1b</section>"}}
    ]
    assert page.renders == 2  # once per revision, however many streams


def test_streams_of_one_page_share_one_render_per_revision(hub):
    made, revisions = hub
    page = Page(A)
    clients = [watched(made, 1000, page) for _ in range(20)]
    revisions.now[1] = 1001
    for client in clients:
        assert parts_of(client) == [{"revision": 10, "base": None, "html": A.html}]
    assert page.renders == 1


def test_a_new_set_of_parts_goes_without_parts_and_the_next_event_has_every_part(hub):
    made, revisions = hub
    drawn = live_parts.Parts(12, {"machines": "M", "g1": "1", "g2": "2"})
    page = Page(A)
    client = watched(made, 1000, page)
    revisions.now[1] = 1001
    assert len(parts_of(client)) == 1

    page.parts = [drawn]
    revisions.now[1] = 1002
    assert parts_of(client) == []  # no entry: the client fetches the board

    revisions.now[1] = 1003
    assert parts_of(client) == [{"revision": 12, "base": None, "html": drawn.html}]


def test_a_page_with_no_parts_has_no_entry_and_a_stream_watching_none_gets_the_revision(hub):
    made, revisions = hub
    client = watched(made, 1000, Page(None))
    plain = watched(made, 1000)
    revisions.now[1] = 1001
    assert parts_of(client) == []
    assert events_of(read_until(plain, b"\n\n")) == [
        {"id": "1001", "data": {"revision": 1001, "standings": standings_part(1001)}}
    ]


def test_each_page_a_stream_watches_has_its_own_entry_and_base(hub):
    made, revisions = hub
    board, other = Page(A), Page(A)
    client = watched(made, 1000, board, other)
    revisions.now[1] = 1001
    first = parts_of(client)
    assert first == [
        {"revision": 10, "base": None, "html": A.html},
        {"watch": "board=8", "revision": 10, "base": None, "html": A.html},
    ]

    other.parts = [B]
    revisions.now[1] = 1002
    assert parts_of(client) == [
        {"revision": 10, "base": 10, "html": {}},
        {"watch": "board=8", "revision": 11, "base": 10, "html": {"g1": "<section>1b</section>"}},
    ]


def test_a_standings_page_is_rendered_again_only_when_the_standings_part_changed():
    same, changed = 5 << STANDINGS_BITS | 1, 6 << STANDINGS_BITS | 2
    page = Page(live_parts.Parts(4 << STANDINGS_BITS | 1, {"standings": "T"}))
    memo = live_parts.Memo()
    watch = live_parts.Watch("standings=3", page.render, standings=True)
    first = memo.now(watch, 4 << STANDINGS_BITS | 1)
    assert memo.now(watch, same) is first  # a sheet entered: the same standings part
    assert page.renders == 1
    memo.now(watch, changed)
    assert page.renders == 2


def test_an_overtaken_render_is_an_entry_that_keeps_the_clients_base(hub):
    made, revisions = hub
    page = Page(A)
    client = watched(made, 1000, page)
    revisions.now[1] = 1001
    assert parts_of(client) == [{"revision": 10, "base": None, "html": A.html}]

    page.parts = [live_parts.OVERTAKEN]
    revisions.now[1] = 1002
    assert parts_of(client) == [{"overtaken": True}]  # (its watch, board=7, left out)

    page.parts = [B]
    revisions.now[1] = 1003
    assert parts_of(client) == [
        {"revision": 11, "base": 10, "html": {"g1": "<section>1b</section>"}}
    ]


def test_a_watching_stream_behind_has_every_part_at_once_and_one_up_to_date_nothing():
    """A reconnection: the head sent no revision; the hub reads the league's at once (it does
    not wait for its next poll) and sends a client that is behind every part."""
    revisions = Revisions(league1=1000)
    made = live.Hub(revisions, poll_seconds=60, heartbeat_seconds=30, lifetime_seconds=60)
    try:
        up_to_date = watched(made, 1000, Page(A))
        assert until(lambda: revisions.reads == 1)  # the hub's first read, when it starts
        behind = watched(made, 999, Page(A))
        assert parts_of(behind) == [{"revision": 10, "base": None, "html": A.html}]
        assert revisions.reads == 2  # read for it, not at the next poll (a minute away)
        up_to_date.settimeout(0.2)
        with pytest.raises(TimeoutError):
            up_to_date.recv(100)
    finally:
        made.stop()


# --- shared by every worker --------------------------------------------------------------------


@pytest.fixture
def shared_cache(settings):
    settings.SHARED_PAGES = True
    settings.CACHES = {
        "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "parts"}
    }
    caches["default"].clear()
    yield caches["default"]
    caches["default"].clear()


def test_parts_are_rendered_once_for_every_worker(shared_cache):
    page = Page(A)
    assert live_parts.shared("board=7:1:10:b", page.render, first=True) == A
    assert live_parts.shared("board=7:1:10:b", page.render, first=True) == A  # another worker's hub
    assert page.renders == 1


def test_a_worker_waits_for_the_parts_another_claimed_and_renders_none_itself(shared_cache):
    page = Page(A)
    shared_cache.add("rendering-parts:board=7:1:10:b", 1)
    shared_cache.set("parts:board=7:1:10:b", B)  # the other worker's, shared meanwhile
    assert live_parts.shared("board=7:1:10:b", page.render, first=True) == B
    assert page.renders == 0


def test_a_claim_released_with_nothing_shared_gives_no_parts(shared_cache, monkeypatch):
    monkeypatch.setattr(live_parts, "WAIT_SECONDS", 0.05)
    shared_cache.add("rendering-parts:board=7:1:10:b", 1, timeout=0.02)
    assert live_parts.shared("board=7:1:10:b", Page(A).render, first=False) is None


def test_a_waiting_worker_looks_when_the_renders_end_is_announced(shared_cache, monkeypatch):
    """Issue 36 §1: it looks once when told, not every few milliseconds. The looks for a word
    lost are made so rare here that only the word can end the wait within the test."""
    monkeypatch.setattr(live_parts, "FOLLOWER_DELAY_SECONDS", 0)
    monkeypatch.setattr(live_parts, "WAIT_POLL_SECONDS", 60)
    monkeypatch.setattr(live_parts, "WAIT_SECONDS", 120)
    shared_cache.add("rendering-parts:board=7:1:10:b", 1)  # another worker renders them
    got = []
    waiting = threading.Thread(
        target=lambda: got.append(live_parts.shared("board=7:1:10:b", Page(A).render, first=False))
    )
    waiting.start()
    assert until(lambda: "board=7:1:10:b" in live_parts._waiting)
    shared_cache.set("parts:board=7:1:10:b", B)  # ... and shared them
    live_parts.arrived("board=7:1:10:b")
    waiting.join(timeout=10)
    assert got == [B]
    assert "board=7:1:10:b" not in live_parts._waiting


def test_a_worker_announces_the_end_of_its_render_shared_or_not(shared_cache):
    told = []
    live_parts.shared("board=7:1:10:b", Page(A).render, first=True, announce=told.append)
    live_parts.shared("board=8:1:10:b", Page(None).render, first=True, announce=told.append)
    live_parts.shared("board=7:1:10:b", Page(A).render, first=True, announce=told.append)
    assert told == ["board=7:1:10:b", "board=8:1:10:b"]  # the third found them: no render


def test_an_overtaken_render_is_shared_too(shared_cache, monkeypatch):
    monkeypatch.setattr(live_parts, "FOLLOWER_DELAY_SECONDS", 0)
    assert live_parts.shared("t", Page(live_parts.OVERTAKEN).render, first=True) == "overtaken"
    assert live_parts.shared("t", Page(A).render, first=False) == "overtaken"


def test_the_writers_process_is_known_for_its_latest_writes(monkeypatch):
    monkeypatch.setattr(live_parts, "_written", deque(maxlen=2))
    live_parts.wrote(1, 10)
    assert live_parts.written_here(1, 10)
    assert not live_parts.written_here(1, 11)
    assert not live_parts.written_here(2, 10)
    live_parts.wrote(1, 11)
    live_parts.wrote(1, 12)
    assert not live_parts.written_here(1, 10)  # only the latest are kept


def test_publishing_a_revision_marks_it_written_here_even_when_redis_is_away(monkeypatch):
    monkeypatch.setattr(live_parts, "_written", deque(maxlen=4))

    def away():
        raise ConnectionError("no Redis")

    monkeypatch.setattr(live_events, "_client", away)
    live_events.publish(league_id=3, revision=77)
    assert live_parts.written_here(3, 77)


def test_without_a_shared_cache_each_worker_renders(settings):
    settings.SHARED_PAGES = False
    page = Page(A)
    live_parts.shared("board=7:1:10:b", page.render, first=True)
    live_parts.shared("board=7:1:10:b", page.render, first=True)
    assert page.renders == 2
