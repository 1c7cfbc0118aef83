"""Live pages: a league's revision pushed to its TV, meet board and score sheets (Server-Sent
Events), so they refresh when something changed instead of polling on a timer.

Words:
- *stream*: ``GET /live/<slug>/events``, answered ``text/event-stream``. Each event is the
  league's revision (``id: <revision>`` and ``data: {"revision": ..., "standings": ...}``):
  a random number that says only "something changed", and its standings part
  (`flipwell.league.revisions`), which changes only when the standings may have. A page
  refreshes its own fragment on a new revision, through its ETag as before (a 304 when its
  part did not change); a part that shows the standings only when the standings part changed.
  A stream that watches pages (``?board=<meet id>``, ``?standings=<season id>``: the meet
  board and the standings) has in each event, under ``parts``, what changed of those pages
  (`flipwell.serving.live_parts`), and its pages fetch nothing.
- *known revision*: what the client already has: the ``Last-Event-ID`` header an EventSource
  sends when it reconnects, else the page's own revision (``?revision=``). A stream whose
  client is behind starts with the current revision at once: the revisions it missed while
  away are folded into the latest, which is all a page needs.
- *head*: what the view answers (through Django's middleware: host check, security headers,
  request id): the status, headers and the first bytes: ``retry:``, and the current revision
  when the client is behind.
- *hand-off*: under gunicorn (the socket in ``environ["gunicorn.socket"]``, plain HTTP/1.x),
  `hand_off` writes the head on the client's socket itself (``Connection: close``: the body
  ends when the connection does), keeps a duplicate of the socket, and gives gunicorn's own
  copy a dead end (a socket whose peer is closed, in its place), so whatever gunicorn writes
  next fails quietly (a broken pipe, which it ignores) and its thread is free at once. The
  stream then belongs to this process's `Hub`. Elsewhere (``manage.py runserver``, the test
  client, TLS terminated by gunicorn itself, HTTP/2) the head is the whole answer: the client
  asks again after ``retry:`` (`SHORT_RETRY_MS`), which is polling by another name.
- *hub*: one thread per server process, holding every stream that process handed off. It
  reads the revisions of the leagues it has streams for, with one query, every
  `POLL_SECONDS` (however many viewers: 500 streams cost one query, not 500), writes an event
  to each stream of a league whose revision changed (with Redis, it is told of each change
  at once instead, by any app server, and reads only every `SAFETY_POLL_SECONDS`:
  `flipwell.serving.live_events`), repeats the current revision to every
  stream every `HEARTBEAT_SECONDS` (so a client knows its stream still works, and proxies
  keep it open), notices a client that left (its socket reads as closed), drops one that
  does not take its bytes, and ends each stream after about `LIFETIME_SECONDS` (spread, so
  the reconnections are too): the client reconnects with its ``Last-Event-ID``, maybe to
  another worker.

Why this serving model: production is gunicorn with threaded (gthread) workers, which answer
pages well (bench_http); a stream held by a request thread would take one of its few threads
(``GUNICORN_THREADS``) per viewer. An ASGI worker would serve every page through an event loop
and asgiref's single thread for synchronous views, a change of the whole server for one route;
a second server for the stream route would need a proxy to route it and a second port at a
venue. Handing the socket to a thread of the same process keeps one server and one port, lets
Django's middleware answer the request as for any page, and costs one thread per process. The
revision is already in the database, so a single server needs no Redis or notification
channel: a process polls it, for all its streams at once (one indexed query per process every
quarter second). An installation of several app servers has Redis, and there a write tells
every process of its league's new revision (`flipwell.serving.live_events`).

The client (``static/flipwell/live.js``) opens an EventSource where the browser has one; the
page's own polling pauses while its stream is heard from, and resumes when it fails.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import selectors
import socket
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from flipwell.env import env_int
from flipwell.league.revisions import standings_part
from flipwell.serving import live_parts

logger = logging.getLogger("flipwell.serving.live")

POLL_SECONDS = 0.25
"""How often a hub reads its leagues' revisions: a change reaches the pages within this."""
SAFETY_POLL_SECONDS = 5.0
"""How often a hub told of changes through Redis reads them anyway: a message lost (Redis
restarted, the listener reconnecting) reaches the pages within this."""
HEARTBEAT_SECONDS = 15.0
LIFETIME_SECONDS = 300.0
"""A stream ends after this long, give or take a fifth."""
LONG_RETRY_MS = 2000
"""``retry:`` of a handed-off stream: how long a client waits to reconnect after it ends."""
SHORT_RETRY_MS = 10000
"""``retry:`` of a head that is the whole answer (no hub): the client's polling interval."""
STREAM_KEY = "flipwell.serving.live.stream"
"""The environ key the view sets for `hand_off`: the `Opened` stream of its answer."""
CAN_HAND_OFF_KEY = "flipwell.serving.live.can_hand_off"
"""The environ key `hand_off` sets for the view when it can take the stream over."""
MAX_STREAMS = env_int("FLIPWELL_LIVE_STREAMS", 2000, minimum=0)
"""The most streams one process holds; a viewer past it gets a head only (and polls)."""
CONTENT_TYPE = "text/event-stream"

RevisionsOf = Callable[[Iterable[int]], dict[int, int]]


@dataclass(frozen=True)
class Opened:
    """A stream the view answered: its league, the revision the head sent or found, and the
    pages whose parts its events carry (`flipwell.serving.live_parts`)."""

    league_id: int
    revision: int
    watches: tuple[live_parts.Watch, ...] = ()


def event(revision: int) -> bytes:
    """One event: the revision as its id and its data, with its standings part."""
    data = f'{{"revision": {revision}, "standings": {standings_part(revision)}}}'
    return f"id: {revision}\ndata: {data}\n\n".encode()


def head(revision: int, known: int | None, *, retry_ms: int) -> bytes:
    """The first bytes of a stream: the reconnection delay, and the current revision unless
    the client already has it (`known`)."""
    opening = f"retry: {retry_ms}\n: flipwell live\n\n".encode()
    return opening if known == revision else opening + event(revision)


def known_revision(last_event_id: str | None, page_revision: str | None) -> int | None:
    """The revision the client has: its ``Last-Event-ID`` (a reconnection), else the page's
    own; None when neither is a number."""
    for text in (last_event_id, page_revision):
        value = (text or "").strip()
        if value.lstrip("-").isdigit() and len(value) < 21:
            return int(value)
    return None


# --- the hub -------------------------------------------------------------------------------


@dataclass(eq=False)
class Stream:
    """One handed-off stream: its socket, league, the revision it last sent, and when; the
    pages it watches, and the revision of each one's parts its client has (its `bases`, by
    the watch's key: see `live_parts`)."""

    sock: socket.socket
    league_id: int
    revision: int
    ends_at: float
    last_sent: float = field(default_factory=time.monotonic)
    watches: tuple[live_parts.Watch, ...] = ()
    bases: tuple[int | None, ...] = ()


class Hub:
    """Every stream of this process, fed by one thread (see the module's words)."""

    def __init__(
        self,
        revisions_of: RevisionsOf,
        *,
        poll_seconds: float = POLL_SECONDS,
        heartbeat_seconds: float = HEARTBEAT_SECONDS,
        lifetime_seconds: float = LIFETIME_SECONDS,
    ) -> None:
        self._revisions_of = revisions_of
        self._poll = poll_seconds
        self._heartbeat = heartbeat_seconds
        self._lifetime = lifetime_seconds
        self._lock = threading.Lock()
        self._incoming: list[Stream] = []
        self._streams: dict[int, set[Stream]] = {}  # league id -> its streams (hub thread)
        self._count = 0
        self._selector = selectors.DefaultSelector()
        self._wake_r, self._wake_w = socket.socketpair()
        self._wake_r.setblocking(False)
        self._wake_w.setblocking(False)
        self._selector.register(self._wake_r, selectors.EVENT_READ, None)
        self._thread: threading.Thread | None = None
        self._stopping = False
        self._failing = False
        self._notices: list[tuple[int | None, int | None]] = []  # heard, not yet sent
        self._heard: dict[int, int] = {}  # league id -> the last revision heard (hub thread)
        self._check: set[int] = set()  # leagues whose revision to read now (hub thread)
        self._parts = live_parts.Memo()  # the pages' parts rendered (hub thread)

    @property
    def count(self) -> int:
        """How many streams this hub holds (those being added included)."""
        return self._count

    def full(self) -> bool:
        return self._count >= MAX_STREAMS

    def add(self, sock: socket.socket, opened: Opened) -> None:
        """Take over the stream on `sock` (its head already sent); from any thread."""
        sock.setblocking(False)
        spread = self._lifetime * random.uniform(0.8, 1.2)
        ends_at = time.monotonic() + spread
        stream = Stream(sock, opened.league_id, opened.revision, ends_at, watches=opened.watches)
        stream.bases = (None,) * len(opened.watches)
        with self._lock:
            self._incoming.append(stream)
            self._count += 1
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name="flipwell-live", daemon=True)
                self._thread.start()
        self._wake()

    def notify(self, league_id: int | None, revision: int | None) -> None:
        """The league `league_id` has the revision `revision` now (both None: some leagues
        changed, read them all): its streams get the event at once; from any thread. Before
        its first stream the hub keeps nothing: it reads every revision when it starts."""
        with self._lock:
            if self._thread is None:
                return
            self._notices.append((league_id, revision))
        self._wake()

    def stop(self) -> None:
        """End every stream and the thread (tests)."""
        self._stopping = True
        self._wake()
        if self._thread is not None:
            self._thread.join(timeout=5)

    def _wake(self) -> None:
        with contextlib.suppress(OSError):  # a full buffer: the hub is awake already
            self._wake_w.send(b"x")

    def _run(self) -> None:
        next_poll = 0.0
        next_beat = time.monotonic() + self._heartbeat
        while not self._stopping:
            timeout = max(0.0, min(next_poll, next_beat) - time.monotonic())
            for key, _mask in self._selector.select(timeout=timeout):
                if key.data is None:
                    self._drain_wake()
                else:
                    self._on_readable(key.data)
            self._take_incoming()
            if self._take_notices():
                next_poll = 0.0
            now = time.monotonic()
            if now >= next_poll:
                next_poll = now + self._poll
                self._check.clear()
                self._send_changes()
            elif self._check:
                self._send_changes(self._check)
                self._check.clear()
            if now >= next_beat:
                next_beat = now + self._heartbeat
                self._beat(now)
        for streams in list(self._streams.values()):
            for stream in list(streams):
                self._close(stream)

    def _drain_wake(self) -> None:
        try:
            while self._wake_r.recv(4096):
                pass
        except OSError:
            pass

    def _take_incoming(self) -> None:
        with self._lock:
            incoming, self._incoming = self._incoming, []
        for stream in incoming:
            self._streams.setdefault(stream.league_id, set()).add(stream)
            self._selector.register(stream.sock, selectors.EVENT_READ, stream)
            heard = self._heard.get(stream.league_id)
            if (heard is None and stream.watches) or (
                heard is not None and heard != stream.revision
            ):
                # Heard before this stream was here, or its read is newer than what was heard
                # (a message on its way), or its client may be behind (a stream that watches
                # pages has its first event from the hub): the database says which.
                self._check.add(stream.league_id)

    def _take_notices(self) -> bool:
        """Send each league's newest revision heard to its streams; whether every league's
        revision is to be read now (a notice of several leagues)."""
        with self._lock:
            notices, self._notices = self._notices, []
        newest: dict[int, int] = {}
        read_all = False
        for league_id, revision in notices:
            if league_id is None or revision is None:
                read_all = True
            else:
                newest[league_id] = revision
        self._heard.update(newest)
        for league_id, revision in newest.items():
            self._send_revision(league_id, revision)
        return read_all

    def _on_readable(self, stream: Stream) -> None:
        """A client sends nothing after its request: readable means it left (or misbehaves)."""
        try:
            data = stream.sock.recv(1024)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._close(stream)

    def _send_changes(self, league_ids: Iterable[int] | None = None) -> None:
        """Read the revisions of `league_ids` (default: every league with streams) and send
        each changed one to its streams."""
        wanted = list(self._streams if league_ids is None else set(league_ids) & set(self._streams))
        if not wanted:
            return
        try:
            current = self._revisions_of(wanted)
        except Exception:  # the database is away: keep the streams, say so once
            if not self._failing:
                logger.warning("live streams cannot read the revisions", exc_info=True)
            self._failing = True
            return
        self._failing = False
        for league_id in wanted:
            revision = current.get(league_id)
            if revision is None:  # the league is gone
                for stream in list(self._streams.get(league_id, ())):
                    self._close(stream)
            else:
                if league_id in self._heard:
                    self._heard[league_id] = revision
                self._send_revision(league_id, revision)

    def _send_revision(self, league_id: int, revision: int) -> None:
        """Send `revision` to each stream of the league that has another one: with the changes
        of the parts of the pages it watches, for each from its base (one payload for all the
        streams at the same bases)."""
        payloads: dict[tuple[object, ...], tuple[bytes, tuple[int | None, ...]]] = {}
        for stream in list(self._streams.get(league_id, ())):
            if stream.revision == revision:
                continue
            stream.revision = revision
            if not stream.watches:
                self._send(stream, event(revision))
                continue
            key = (*(w.key for w in stream.watches), *stream.bases)
            if key not in payloads:
                payloads[key] = self._with_parts(stream.watches, stream.bases, revision)
            payload, stream.bases = payloads[key]
            self._send(stream, payload)

    def _with_parts(
        self, watches: tuple[live_parts.Watch, ...], bases: tuple[int | None, ...], revision: int
    ) -> tuple[bytes, tuple[int | None, ...]]:
        """The event of `revision` for a client whose pages are at `bases`, and its bases
        after it: each page's parts' revision, or None when the event has no entry for it
        (the client fetches that page)."""
        entries: list[dict[str, object]] = []
        after: list[int | None] = []
        for watch, base in zip(watches, bases, strict=True):
            parts = self._parts.now(watch, revision)
            found = None
            if parts is not None:
                found = live_parts.entry(watch.key, parts, self._parts.at(watch.key, base))
            if found is not None:
                entries.append(found)
            if isinstance(parts, live_parts.Parts) and found is not None:
                after.append(parts.revision)
            else:  # overtaken: the client's page stays as it is, at its base
                after.append(base if parts == live_parts.OVERTAKEN else None)
        return live_parts.event(revision, entries), tuple(after)

    def _beat(self, now: float) -> None:
        for streams in list(self._streams.values()):
            for stream in list(streams):
                if now >= stream.ends_at:
                    self._close(stream)
                elif now - stream.last_sent >= self._heartbeat * 0.9:
                    self._send(stream, event(stream.revision))

    def _send(self, stream: Stream, payload: bytes) -> None:
        """Write `payload` whole, or drop the stream: a client whose buffer is full of a few
        hundred bytes is gone or stuck, and reconnects when it can."""
        try:
            sent = stream.sock.send(payload)
        except OSError:
            sent = -1
        if sent != len(payload):
            self._close(stream)
        else:
            stream.last_sent = time.monotonic()

    def _close(self, stream: Stream) -> None:
        streams = self._streams.get(stream.league_id)
        if streams is None or stream not in streams:
            return
        streams.discard(stream)
        if not streams:
            del self._streams[stream.league_id]
        with contextlib.suppress(KeyError, ValueError):
            self._selector.unregister(stream.sock)
        with self._lock:
            self._count -= 1
        stream.sock.close()


_hubs: dict[int, Hub] = {}  # process id -> its hub (a forked process makes its own)
_hub_lock = threading.Lock()


def hub() -> Hub:
    """This process's hub, made on first use (in the server's worker, after the fork): told of
    every change through Redis when the installation has it (`flipwell.serving.live_events`),
    reading the revisions only every `SAFETY_POLL_SECONDS` then; else polling them."""
    from flipwell.serving import live_events

    with _hub_lock:
        made = _hubs.get(os.getpid())
        if made is None:
            if live_events.configured():
                made = Hub(_read_revisions, poll_seconds=SAFETY_POLL_SECONDS)
                live_events.listen(made)
            else:
                made = Hub(_read_revisions)
            _hubs[os.getpid()] = made
        return made


def _read_revisions(league_ids: Iterable[int]) -> dict[int, int]:
    """The leagues' revisions, read on the hub's own database connection; a failed read
    closes it, so the next one connects afresh (a database restarted meanwhile)."""
    from django.db import connection

    from flipwell.league.selectors.revisions import of_leagues

    try:
        return of_leagues(league_ids)
    except Exception:
        connection.close()
        raise


# --- the hand-off --------------------------------------------------------------------------

Wsgi = Callable[[dict[str, Any], Callable[..., Any]], Iterable[bytes]]
HOP_BY_HOP = frozenset(
    ("connection", "content-length", "keep-alive", "transfer-encoding", "upgrade")
)


def can_hand_off(environ: dict[str, Any]) -> bool:
    """Whether the client's plain socket is there to take (gunicorn, HTTP/1.x, no TLS)."""
    sock = environ.get("gunicorn.socket")
    return (
        type(sock) is socket.socket
        and environ.get("SERVER_PROTOCOL") in ("HTTP/1.0", "HTTP/1.1")
        and not hub().full()
    )


def hand_off(app: Wsgi) -> Wsgi:
    """Wrap the WSGI application: a stream the view opened is taken over by the hub."""

    def application(environ: dict[str, Any], start_response: Callable[..., Any]) -> Any:
        if not environ.get("PATH_INFO", "").startswith("/live/"):
            return app(environ, start_response)
        environ[CAN_HAND_OFF_KEY] = can_hand_off(environ)
        answered: list[Any] = []

        def capture(status: str, headers: list[tuple[str, str]], exc_info: Any = None) -> Any:
            if environ.get(STREAM_KEY) is None or not environ[CAN_HAND_OFF_KEY]:
                return start_response(status, headers, exc_info)
            answered[:] = [status, headers]
            return lambda _data: None

        result = app(environ, capture)
        if not answered:
            return result
        try:
            body = b"".join(result)
        finally:
            getattr(result, "close", lambda: None)()
        _take(environ, answered[0], answered[1], body)
        start_response(answered[0], answered[1])  # gunicorn's access log; written nowhere
        return []

    return application


def _take(
    environ: dict[str, Any], status: str, headers: list[tuple[str, str]], body: bytes
) -> None:
    """Write the head on the client's socket, and give the stream to the hub."""
    sock: socket.socket = environ["gunicorn.socket"]
    lines = [f"{environ['SERVER_PROTOCOL']} {status}"]
    lines += [f"{name}: {value}" for name, value in headers if name.lower() not in HOP_BY_HOP]
    lines.append("Connection: close")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
    mine = sock.dup()
    dead, peer = socket.socketpair()
    peer.close()
    os.dup2(dead.fileno(), sock.fileno())  # gunicorn's copy now leads nowhere
    dead.close()
    hub().add(mine, environ[STREAM_KEY])
