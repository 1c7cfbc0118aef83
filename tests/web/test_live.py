"""The live stream of a league's revision (flipwell.serving.live): its events, the view's head, the
hand-off's hub, and the pages that open it."""

from __future__ import annotations

import os
import re
import socket
import time
import uuid

import pytest

from flipwell.league.revisions import STANDINGS_BITS, standings_part
from flipwell.league.services._edge import league_changed
from flipwell.serving import live, live_events, live_parts
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests import factories as f
from tests.league import league_night as night_
from tests.waiting import until
from tests.web.live_streams import Revisions, events_of, read_until

pytestmark = pytest.mark.django_db


def sent(revision: int) -> dict[str, object]:
    """The event of `revision`, as `events_of` reads it."""
    return {
        "id": str(revision),
        "data": {"revision": revision, "standings": standings_part(revision)},
    }


def test_an_event_is_the_revision_as_its_id_and_its_data_with_its_standings_part():
    revision = (5 << STANDINGS_BITS) | 42
    assert live.event(revision) == (
        f'id: {revision}\ndata: {{"revision": {revision}, "standings": 42}}\n\n'.encode()
    )
    assert events_of(live.event(7)) == [sent(7)]


def test_the_head_sends_the_revision_only_to_a_client_behind():
    assert events_of(live.head(5, None, retry_ms=2000)) == [sent(5)]
    assert events_of(live.head(5, 4, retry_ms=2000)) == [sent(5)]
    assert events_of(live.head(5, 5, retry_ms=2000)) == []
    assert live.head(5, 5, retry_ms=2000).startswith(b"retry: 2000\n")


def test_the_known_revision_is_the_last_event_id_else_the_pages():
    assert live.known_revision("12", "3") == 12
    assert live.known_revision(None, "3") == 3
    assert live.known_revision("", "-3") == -3
    assert live.known_revision("twelve", "1e3") is None
    assert live.known_revision("9" * 30, None) is None


def test_the_stream_answers_the_current_revision_at_once(client):
    league = f.LeagueFactory()
    other = f.LeagueFactory()

    response = client.get(f"/live/{league.slug}/events/")

    assert response.status_code == 200
    assert response["Content-Type"] == "text/event-stream"
    assert "no-store" in response["Cache-Control"]
    league.refresh_from_db()
    other.refresh_from_db()
    assert events_of(response.content) == [sent(league.revision)]
    assert str(other.revision).encode() not in response.content  # never another league's
    # Without a server to hand the stream to (the test client), the head is the whole answer
    # and the client asks again after a longer wait: polling.
    assert response.content.startswith(f"retry: {live.SHORT_RETRY_MS}\n".encode())


def test_a_reconnection_is_told_only_of_a_revision_it_missed(client):
    league = f.LeagueFactory()
    league.refresh_from_db()
    url = f"/live/{league.slug}/events/"

    current = client.get(url, headers={"Last-Event-ID": str(league.revision)})
    league_changed(league)
    league.refresh_from_db()
    behind = client.get(url, headers={"Last-Event-ID": "1"})
    page = client.get(f"{url}?revision={league.revision}")

    assert events_of(current.content) == []
    assert events_of(behind.content) == [sent(league.revision)]
    assert events_of(page.content) == []


def test_the_stream_of_no_league_is_not_found_and_only_get_is_answered(client):
    league = f.LeagueFactory()

    assert client.get("/live/no-such-league/events/").status_code == 404
    assert client.post(f"/live/{league.slug}/events/").status_code == 405


def test_the_tv_the_board_and_the_sheet_open_the_leagues_stream(client):
    night = night_.build_night(players=8, machines=8)
    meet = night_.start(night)
    night.league.refresh_from_db()
    stream = f'data-live-events="/live/{night.league.slug}/events/"'

    tv = client.get(f"/tv/{night.league.slug}/").text
    board = client.get(f"/leagues/{night.league.slug}/meets/{meet.pk}/").text

    for page in (tv, board):
        assert stream in page
        assert f'data-live-revision="{night.league.revision}"' in page
        assert "flipwell/live.js" in page
        assert re.search(r'hx-trigger="every \d+s, flipwell:live"[^>]*data-live-refresh', page)
    assert f'data-live-watch="board={meet.pk}"' in board  # its stream carries the board's parts
    assert "data-live-watch" not in tv
    sheet = client.get(scoresheet_path(meet.groups.order_by("number").first())).text
    assert stream in sheet
    assert f'data-live-revision="{night.league.revision}"' in sheet
    assert "flipwell/live.js" in sheet


# --- the hub ----------------------------------------------------------------------------------


@pytest.fixture
def hub():
    revisions = Revisions(league1=10, league2=20)
    made = live.Hub(revisions, poll_seconds=0.02, heartbeat_seconds=0.3, lifetime_seconds=60)
    yield made, revisions
    made.stop()


def stream(hub: live.Hub, league: int, revision: int) -> socket.socket:
    mine, theirs = socket.socketpair()
    hub.add(mine, live.Opened(league, revision))
    return theirs


def test_the_hub_sends_a_new_revision_to_its_leagues_streams_only(hub):
    made, revisions = hub
    ones = [stream(made, 1, 10) for _ in range(3)]
    two = stream(made, 2, 20)

    revisions.now[1] = 11

    for client in ones:
        assert events_of(read_until(client, b"\n\n")) == [sent(11)]
    two.settimeout(0.1)
    with pytest.raises(TimeoutError):
        two.recv(100)  # nothing for league 2, whose revision did not change


def test_the_hub_reads_every_league_at_once_and_repeats_the_revision(hub):
    made, revisions = hub
    clients = [stream(made, 1 + n % 2, 10 + 10 * (n % 2)) for n in range(10)]
    began, before = time.monotonic(), revisions.reads
    assert until(lambda: revisions.reads >= before + 10)  # ten polls, at 20 ms each
    polled, reads = time.monotonic() - began, revisions.reads - before

    beat = read_until(clients[0], b"\n\n", seconds=2)

    assert events_of(beat) == [sent(10)]  # the heartbeat
    assert reads <= polled / 0.02 + 2  # one read per poll for all ten streams, not one each
    assert revisions.asked[-5:] == [{1, 2}] * 5  # each read asks for both leagues at once


def test_the_hub_forgets_a_client_that_left_and_ends_streams_in_time():
    revisions = Revisions(league1=10)
    made = live.Hub(revisions, poll_seconds=0.02, heartbeat_seconds=0.1, lifetime_seconds=0.3)
    try:
        leaving = stream(made, 1, 10)
        staying = stream(made, 1, 10)
        assert made.count == 2
        leaving.close()
        assert until(lambda: made.count == 1, seconds=2)
        read_until(staying, b"never", seconds=2)  # until the hub ends it
        assert made.count == 0
    finally:
        made.stop()


def test_the_hub_ends_the_streams_of_a_league_that_is_gone(hub):
    made, revisions = hub
    client = stream(made, 1, 10)

    del revisions.now[1]

    assert read_until(client, b"never", seconds=2) == b""
    assert made.count == 0


# --- a hub told of each change (live events through Redis) -----------------------------------


@pytest.fixture
def told():
    """A hub that reads the revisions only once a minute: what reaches its streams sooner was
    told (`Hub.notify`)."""
    revisions = Revisions(league1=10, league2=20)
    made = live.Hub(revisions, poll_seconds=60, heartbeat_seconds=60, lifetime_seconds=60)
    yield made, revisions
    made.stop()


def test_a_hub_told_of_a_revision_sends_it_at_once_without_reading(told):
    made, revisions = told
    ones = [stream(made, 1, 10) for _ in range(2)]
    two = stream(made, 2, 20)
    assert until(lambda: revisions.reads == 1)  # its first read, when it starts
    assert events_of(read_until(ones[0], b"\n\n", seconds=0.2)) == []

    made.notify(1, 11)

    for client in ones:
        assert events_of(read_until(client, b"\n\n")) == [sent(11)]
    assert events_of(read_until(two, b"\n\n", seconds=0.2)) == []
    assert revisions.reads == 1


def test_a_stream_that_came_after_the_news_is_checked_against_the_database(told):
    made, revisions = told
    early, _two = stream(made, 1, 10), stream(made, 2, 20)
    assert until(lambda: revisions.reads == 1)
    revisions.now[1] = 11
    made.notify(1, 11)
    assert events_of(read_until(early, b"\n\n")) == [sent(11)]

    late = stream(made, 1, 10)  # its page read the revision before the news

    assert events_of(read_until(late, b"\n\n")) == [sent(11)]
    assert (revisions.reads, revisions.asked[-1]) == (2, {1})  # that league only


def test_news_of_several_leagues_has_the_hub_read_every_league(told):
    made, revisions = told
    one, two = stream(made, 1, 10), stream(made, 2, 20)
    assert until(lambda: revisions.reads == 1)
    revisions.now[2] = 21

    made.notify(None, None)

    assert events_of(read_until(two, b"\n\n")) == [sent(21)]
    assert events_of(read_until(one, b"\n\n", seconds=0.2)) == []
    assert revisions.asked[-1] == {1, 2}


def test_a_live_event_message_is_a_league_and_its_revision_or_every_league():
    assert live_events.message(3, 12) == "3 12"
    assert live_events.message(None, None) == "*"
    assert live_events.parsed(b"3 12") == (3, 12)
    assert live_events.parsed("*") == (None, None)
    assert [live_events.parsed(m) for m in (b"3", b"x 1", b"1 -2", b"")] == [None] * 4


def test_a_word_that_a_render_of_parts_ended_is_its_tag_and_no_revision():
    assert live_events.parts_tag(b"parts board=7:3:12:b1") == "board=7:3:12:b1"
    assert live_events.parts_tag(b"3 12") is None
    assert live_events.parts_tag("*") is None
    assert live_events.parsed(b"parts board=7:3:12:b1") is None  # never read as a revision


REDIS_URL = os.environ.get("FLIPWELL_TEST_REDIS_URL", "redis://127.0.0.1:6379/13")


@pytest.fixture
def redis_channel(settings):
    """This test's own channel on the test Redis (skipped without one), for the publisher."""
    redis = pytest.importorskip("redis")
    try:
        redis.Redis.from_url(REDIS_URL, socket_connect_timeout=2).ping()
    except redis.RedisError:
        pytest.skip(f"no Redis server at {REDIS_URL} (FLIPWELL_TEST_REDIS_URL)")
    settings.REDIS_URL = REDIS_URL
    settings.LIVE_CHANNEL = f"flipwell-test-{uuid.uuid4().hex}:flipwell:live"
    live_events._client.cache_clear()
    yield settings.LIVE_CHANNEL
    live_events._client.cache_clear()


def test_a_revision_published_reaches_a_listening_hub_at_once(told, redis_channel):
    made, revisions = told
    client = stream(made, 1, 10)
    assert until(lambda: revisions.reads == 1)
    listener = live_events.Listener(made, url=REDIS_URL, channel=redis_channel).start()
    try:
        assert listener.subscribed.wait(5)
        assert until(lambda: revisions.reads == 2)  # subscribed: it reads every league once

        live_events.publish(league_id=1, revision=11)

        assert events_of(read_until(client, b"\n\n")) == [sent(11)]
    finally:
        listener.stop()


def test_a_word_of_parts_shared_wakes_this_process_and_tells_the_hub_nothing(
    redis_channel, monkeypatch
):
    """Issue 36 §1: a worker that rendered a page's parts says so on the channel, and the
    hubs of the others, waiting for them, look at once instead of every few milliseconds."""

    class Hub:
        def __init__(self) -> None:
            self.told: list[tuple[int | None, int | None]] = []

        def notify(self, league_id: int | None, revision: int | None) -> None:
            self.told.append((league_id, revision))

    woken: list[str] = []
    monkeypatch.setattr(live_parts, "arrived", woken.append)
    hub = Hub()
    listener = live_events.Listener(hub, url=REDIS_URL, channel=redis_channel).start()
    try:
        assert listener.subscribed.wait(5)
        live_events.announce_parts("board=7:1:12:b1")
        live_events.publish(league_id=1, revision=12)
        assert until(lambda: hub.told == [(None, None), (1, 12)])
        assert woken == ["board=7:1:12:b1"]  # the word came first, and went to the parts
    finally:
        listener.stop()
