"""Live events across app servers: a league's new revision told through Redis pub/sub.

One app server's hub could poll the revisions it streams (`flipwell.serving.live`); with
several, each process of each server would poll, and a score confirmed on one server would
reach a viewer of another only at that one's next read. With ``REDIS_URL`` set, a write
tells every process instead, at once.

Words:
- *channel*: the Redis pub/sub channel ``settings.LIVE_CHANNEL`` (``flipwell:live`` after
  ``REDIS_KEY_PREFIX``).
- *message*: ``"<league id> <revision>"``: the league's revision after a write committed; or
  ``"*"``: several leagues changed (a player's name, every league), read them again; or
  ``"parts <tag>"``: one worker's render of a page's parts ended (`announce_parts`), which
  wakes the hubs of the others waiting for them (`flipwell.serving.live_parts.shared`).
- *publisher*: `publish`, connected to the league's announcements
  (`flipwell.league.revisions.revised`, sent after the write's commit) in
  `flipwell.web.apps.WebConfig.ready`, in whichever process writes: a web or API worker of
  any app server, the command line, the notice worker. A Redis that cannot be reached costs
  the write at most `TIMEOUT_SECONDS` and is logged once; the write stands.
- *listener*: one thread in each process with a hub (`listen`, started with the hub, after
  the server's fork), subscribed to the channel: each message goes to the hub
  (`flipwell.serving.live.Hub.notify`), which writes the event to that league's streams at
  once. The hub then reads the revisions itself only every
  `flipwell.serving.live.SAFETY_POLL_SECONDS`, which catches a message lost (pub/sub keeps
  nothing for a listener that is away) and a message overtaken by a later one. When the
  listener (re)subscribes, the hub reads every league it streams at once.

Why Redis rather than PostgreSQL's LISTEN/NOTIFY: an installation of several app servers has
Redis already (the shared pages and the rate limits); LISTEN holds a database connection per
process outside Django's (the connections are what PostgreSQL has least of, see the bench),
does not pass through a PgBouncer in transaction mode, and SQLite has nothing like it. A
revision announced after the commit, not in it, may be lost on its way, which the safety
poll catches within seconds; the database stays the only truth.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from functools import cache
from typing import TYPE_CHECKING, Any

from django.conf import settings

from flipwell.serving import live_parts

if TYPE_CHECKING:
    import redis

    from flipwell.serving.live import Hub

logger = logging.getLogger("flipwell.serving.live")

TIMEOUT_SECONDS = 0.5
"""How long a publish or a subscription waits for Redis before it gives up."""
RECONNECT_SECONDS = 1.0
"""How long a listener whose Redis went away waits before it subscribes again."""
EVERY_LEAGUE = "*"


def configured() -> bool:
    """Whether the installation tells its live events through Redis (``REDIS_URL``)."""
    return bool(settings.REDIS_URL)


def message(league_id: int | None, revision: int | None) -> str:
    """The message of a league's new revision (`EVERY_LEAGUE` for several leagues)."""
    if league_id is None or revision is None:
        return EVERY_LEAGUE
    return f"{league_id} {revision}"


PARTS_WORD = "parts "


def parts_tag(data: bytes | str) -> str | None:
    """The tag of a message that a render of parts ended; None for any other message."""
    text = data.decode("ascii", "replace") if isinstance(data, bytes) else data
    return text.removeprefix(PARTS_WORD) if text.startswith(PARTS_WORD) else None


def parsed(data: bytes | str) -> tuple[int | None, int | None] | None:
    """(league id, revision) of a message ((None, None): several leagues); None for a message
    that is not one (ignored)."""
    text = data.decode("ascii", "replace") if isinstance(data, bytes) else data
    if text == EVERY_LEAGUE:
        return None, None
    league, _, revision = text.partition(" ")
    if not (league.isdigit() and revision.isdigit()):
        return None
    return int(league), int(revision)


@cache
def _client() -> redis.Redis:
    import redis
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis.from_url(
        settings.REDIS_URL,
        socket_connect_timeout=TIMEOUT_SECONDS,
        socket_timeout=TIMEOUT_SECONDS,
        retry=Retry(NoBackoff(), 1),  # once more on a fresh connection (Redis restarted)
    )


_publish_failing = False


def publish(sender: Any = None, *, league_id: int | None, revision: int | None, **_: Any) -> None:
    """Tell every app server's hubs the league's new revision (the receiver of
    `flipwell.league.revisions.revised`)."""
    global _publish_failing
    if league_id is not None and revision is not None:
        live_parts.wrote(league_id, revision)  # this process's hub renders its pages first
    try:
        _client().publish(settings.LIVE_CHANNEL, message(league_id, revision))
    except Exception:  # Redis away: the hubs' safety poll finds the change
        if not _publish_failing:
            logger.warning("live events cannot be published to Redis", exc_info=True)
        _publish_failing = True
        return
    _publish_failing = False


def announce_parts(tag: str) -> None:
    """Tell every app server's hubs that this worker's render of the parts `tag` ended; a
    word lost costs a waiting hub at most `flipwell.serving.live_parts.WAIT_POLL_SECONDS`."""
    if not configured():
        return
    with contextlib.suppress(Exception):  # Redis away: the waiting hubs look by themselves
        _client().publish(settings.LIVE_CHANNEL, PARTS_WORD + tag)


def connect_publisher() -> None:
    """Publish every league's new revision from now on, when ``REDIS_URL`` is set."""
    from flipwell.league.revisions import revised

    if configured():
        revised.connect(publish, dispatch_uid="flipwell.serving.live_events.publish")


class Listener:
    """The thread that hands the channel's messages to a hub (see the module's words)."""

    def __init__(self, hub: Hub, *, url: str, channel: str) -> None:
        self._hub = hub
        self._url = url
        self._channel = channel
        self._stopping = threading.Event()
        self.subscribed = threading.Event()
        """Set while subscribed (tests wait for it)."""
        self._thread = threading.Thread(target=self._run, name="flipwell-live-events", daemon=True)

    def start(self) -> Listener:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=5)

    def _run(self) -> None:
        failing = False
        while not self._stopping.is_set():
            try:
                self._listen()
                failing = False
            except Exception:  # Redis away or restarted: subscribe again in a moment
                if not failing:
                    logger.warning("live events: Redis cannot be heard", exc_info=True)
                failing = True
            self.subscribed.clear()
            self._stopping.wait(RECONNECT_SECONDS)

    def _listen(self) -> None:
        import redis
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        client = redis.Redis.from_url(
            self._url,
            socket_connect_timeout=TIMEOUT_SECONDS,
            health_check_interval=30,
            retry=Retry(NoBackoff(), 0),  # a lost connection ends `_listen`: all read again
        )
        pubsub = client.pubsub(ignore_subscribe_messages=True)  # type: ignore[no-untyped-call]
        try:
            pubsub.subscribe(self._channel)
            pubsub.get_message(timeout=TIMEOUT_SECONDS)  # the subscription's confirmation
            self.subscribed.set()
            self._hub.notify(None, None)  # what was said while not subscribed: read it all
            while not self._stopping.is_set():
                received = pubsub.get_message(timeout=1.0)
                if received:
                    self._hand_on(received["data"])
        finally:
            pubsub.close()
            client.close()

    def _hand_on(self, data: bytes) -> None:
        tag = parts_tag(data)
        if tag is not None:
            live_parts.arrived(tag)
            return
        heard = parsed(data)
        if heard is not None:
            self._hub.notify(*heard)


def listen(hub: Hub) -> Listener:
    """Start this process's listener for `hub` (once per hub: `flipwell.serving.live.hub`)."""
    return Listener(hub, url=settings.REDIS_URL, channel=settings.LIVE_CHANNEL).start()
