"""Live parts: the pieces of live pages sent inside their stream's events, so a viewer's page
changes what changed without asking the server for the page again.

Words:
- *part*: an element of a live page with an id and ``data-live-part`` (the meet board's
  machines line and each group's card; the standings), rendered on its own by the web layer
  (`flipwell.web.live_parts`); the page holds the same parts, rendered by the same templates.
- *parts*: every part of one page as of one revision of its league (`Parts`), in the page's
  order. Exact: rendered between two reads of the league's revision that agree, so no write
  came in between (a write and its new revision commit together).
- *watch*: a page a stream's events carry the parts of (`Watch`): its key, the query of the
  stream's URL that asks for it (``board=12``: the board of meet 12; ``standings=3``: the
  standings of season 3), and how to render its parts now. A stream may watch several pages
  (a viewer's board and standings); a stream without any (the TV, a score sheet) gets the
  revision only, and its page fetches its fragment as before.
- *follows the standings*: a watch whose page shows only the standings (`Watch.standings`):
  its parts are rendered again only when the revision's standings part changed
  (`flipwell.league.revisions`); until then the parts already rendered stand for it.
- *base*: the parts of a page a stream's client has, as far as its hub knows: the revision of
  the parts it last sent that stream. None until it sent any (the page came from the server's
  own HTML, which the hub never saw) and after an event without them (the page is fetched).
- *entry*: what an event carries for one watch: its key, the parts' revision, the base, and
  the parts that differ from the base, or every part when the base is None or forgotten (a
  full entry, ``base: null``). When the parts are not the base's ids in the base's order (a
  group drawn) or cannot be rendered (the meet closed, the database away), the event has no
  entry for the watch and its page is fetched as before.
- *overtaken*: a render during which a write came in (the revision read after it is another):
  which revision its parts show is not known, so they are not sent, but the write's own
  event follows; the entry says ``overtaken`` and the page waits for it instead of fetching.
- *shared parts*: with ``SHARED_PAGES`` (Redis), the parts of a page at a revision are
  rendered by one worker and read by the others (`shared`): each worker's hub hears of a
  revision at the same instant, and one render then serves every worker's streams. The
  worker whose write gave the revision claims the render first (it holds that revision's fold
  already: `flipwell.league.derived`); the others give it `FOLLOWER_DELAY_SECONDS` to.

The client (``static/flipwell/live.js``) replaces each part it is sent, whole, when its page
is at the entry's base (a full entry: when its page has the same parts); otherwise it fetches
the page and reconnects, so that its next event is full.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from django.conf import settings
from django.core.cache import caches

from flipwell.league.revisions import standings_part

logger = logging.getLogger("flipwell.serving.live")

KEPT_PER_PAGE = 8
"""Parts kept per page, newest last: the bases of streams a few revisions behind."""
RENDERED_KEPT = 256
"""(page, revision) renders remembered, so each revision of a page renders once per process."""
SHARED_SECONDS = 15 * 60
"""A shared entry's life; its key holds the revision and the build, so it is never stale."""
CLAIM_SECONDS = 10
"""When a claim to render parts expires by itself, if its worker never released it."""
WAIT_SECONDS = 1.0
"""How long a hub waits for parts another worker claimed (a board renders in tens of ms)."""
WAIT_POLL_SECONDS = 0.1
"""How often a waiting hub looks for the parts when no word of them came (each look is a
Redis round trip): the word (`arrived`) wakes it at once; this is for a word lost."""
FOLLOWER_DELAY_SECONDS = 0.01
"""How long a hub whose process did not write the revision waits before it claims a render."""
WRITTEN_KEPT = 64

_written: deque[tuple[int, int]] = deque(maxlen=WRITTEN_KEPT)
"""(league id, revision) of this process's latest writes (`wrote`)."""
_waiting: dict[str, threading.Event] = {}
"""Tag -> the event a hub waiting for another worker's render of it waits on (`arrived`)."""
_waiting_lock = threading.Lock()


def wrote(league_id: int, revision: int) -> None:
    """This process's write gave the league `revision` (the publisher of live events says so,
    in the writing process, after the commit)."""
    _written.append((league_id, revision))


def written_here(league_id: int, revision: int) -> bool:
    """Whether this process's write gave the league `revision` (of its latest writes)."""
    return (league_id, revision) in _written


@dataclass(frozen=True)
class Parts:
    """Every part of a page as of `revision`: each part's id and HTML, in the page's order."""

    revision: int
    html: dict[str, str]


OVERTAKEN: Literal["overtaken"] = "overtaken"
Rendered = Parts | Literal["overtaken"] | None
"""What a page's render gives: its parts, `OVERTAKEN`, or None (no parts: fetch the page)."""


@dataclass(frozen=True)
class Watch:
    """A page a stream watches: its `key` (its query, ``board=12``), and `render`, which gives
    its parts at the league's revision it is given (`Rendered`: None when it has none, such
    as a meet that is not open; `OVERTAKEN` when the league is at another revision; it may
    raise, which counts as None); `standings`: it shows only the standings (see the words)."""

    key: str
    render: Callable[[int], Rendered]
    standings: bool = False


def changes(parts: Parts, base: Parts | None) -> dict[str, str] | None:
    """The parts to send a client whose page is at `base` (None: every part); None when the
    page's parts are not the base's (the client must fetch the page)."""
    if base is None:
        return dict(parts.html)
    if list(parts.html) != list(base.html):
        return None
    return {key: html for key, html in parts.html.items() if base.html[key] != html}


def entry(
    key: str, parts: Parts | Literal["overtaken"], base: Parts | None
) -> dict[str, object] | None:
    """The event's entry of the page `key` for a client at `base`; None when there is none."""
    if parts == OVERTAKEN:
        return {"watch": key, OVERTAKEN: True}
    assert isinstance(parts, Parts)
    changed = changes(parts, base)
    if changed is None:
        return None
    return {
        "watch": key,
        "revision": parts.revision,
        "base": None if base is None else base.revision,
        "html": changed,
    }


def event(revision: int, entries: Sequence[Mapping[str, object]]) -> bytes:
    """A stream's event of `revision` with its `entries` (see `flipwell.serving.live.event`)."""
    data = {"revision": revision, "standings": standings_part(revision), "parts": list(entries)}
    text = json.dumps(data, separators=(",", ":"))  # one line: SSE data ends at a newline
    return f"id: {revision}\ndata: {text}\n\n".encode()


class Memo:
    """The parts a hub rendered (hub thread only): each page's last `KEPT_PER_PAGE`, and which
    parts each revision it was told of rendered to."""

    def __init__(self) -> None:
        self._pages: dict[str, OrderedDict[int, Parts]] = {}
        self._rendered: OrderedDict[tuple[str, int], Rendered] = OrderedDict()
        self._failing: set[str] = set()

    def now(self, watch: Watch, revision: int) -> Rendered:
        """The parts of `watch` for the league's `revision`, rendered on first asking."""
        key = (watch.key, revision)
        if key not in self._rendered:
            self._rendered[key] = self._unchanged(watch, revision) or self._render(watch, revision)
            if len(self._rendered) > RENDERED_KEPT:
                self._rendered.popitem(last=False)
        parts = self._rendered[key]
        if isinstance(parts, Parts):
            kept = self._pages.setdefault(watch.key, OrderedDict())
            kept[parts.revision] = parts
            kept.move_to_end(parts.revision)
            while len(kept) > KEPT_PER_PAGE:
                kept.popitem(last=False)
        return parts

    def at(self, page: str, revision: int | None) -> Parts | None:
        """The parts of `page` this hub sent as of `revision`; None when it has them not."""
        kept = self._pages.get(page)
        return None if revision is None or kept is None else kept.get(revision)

    def _unchanged(self, watch: Watch, revision: int) -> Parts | None:
        """A standings page's latest parts, when `revision` has their standings part."""
        kept = self._pages.get(watch.key)
        if not watch.standings or not kept:
            return None
        latest = next(reversed(kept.values()))
        return latest if standings_part(latest.revision) == standings_part(revision) else None

    def _render(self, watch: Watch, revision: int) -> Rendered:
        try:
            parts = watch.render(revision)
        except Exception:  # the page's parts cannot be had: the client fetches the page
            if watch.key not in self._failing:
                logger.warning("live parts of %s cannot be rendered", watch.key, exc_info=True)
            self._failing.add(watch.key)
            return None
        self._failing.discard(watch.key)
        return parts


def shared(
    tag: str,
    render: Callable[[], Rendered],
    *,
    first: bool,
    announce: Callable[[str], None] = lambda tag: None,
) -> Rendered:
    """The parts `tag` (a page, its league's revision and the code's build) rendered once for
    every worker: another worker's when it shared them or claimed their render (waited for, at
    most `WAIT_SECONDS`), else `render`'s, shared and then announced (`announce`: the word
    that wakes the other workers' hubs waiting for them, `arrived`); `first`: this process
    wrote the revision (else it gives the writer's hub a moment to claim). Without
    ``SHARED_PAGES``: `render`'s."""
    if not settings.SHARED_PAGES:
        return render()
    if not first:
        time.sleep(FOLLOWER_DELAY_SECONDS)
    cache, key, claim = caches["default"], f"parts:{tag}", f"rendering-parts:{tag}"
    with _waiting_for(tag) as word:  # before the first look: a word may come right after it
        try:
            found = cache.get(key)
            if _is_rendered(found) or not cache.add(claim, os.getpid(), CLAIM_SECONDS):
                return found if _is_rendered(found) else _rendered_elsewhere(key, claim, word)
        except Exception:  # Redis away: render here, as a page would be
            logger.warning("shared live parts unavailable; rendering them", exc_info=True)
            return render()
    try:
        parts = render()
        if parts is not None:  # overtaken too: the others wait for the next revision's
            cache.set(key, parts, timeout=SHARED_SECONDS)
        return parts
    finally:
        with contextlib.suppress(Exception):  # it expires by itself (CLAIM_SECONDS)
            cache.delete(claim)
        announce(tag)  # shared or not: a waiting hub looks, and stops waiting


def arrived(tag: str) -> None:
    """Another worker's render of `tag` ended (its word came): wake a hub waiting for it."""
    with _waiting_lock:
        word = _waiting.get(tag)
    if word is not None:
        word.set()


@contextlib.contextmanager
def _waiting_for(tag: str) -> Iterator[threading.Event]:
    word = threading.Event()
    with _waiting_lock:
        _waiting[tag] = word
    try:
        yield word
    finally:
        with _waiting_lock:
            _waiting.pop(tag, None)


def _is_rendered(found: object) -> bool:
    return isinstance(found, Parts) or found == OVERTAKEN


def _rendered_elsewhere(key: str, claim: str, word: threading.Event) -> Rendered:
    """The parts another worker claimed to render, once shared; None when its claim is gone
    with nothing shared (it found no exact parts) or after `WAIT_SECONDS`. Looked for when
    the `word` comes that the render ended, else every `WAIT_POLL_SECONDS` (before, every
    15 ms: a tenth of a busy night's interpreter time went to looking)."""
    deadline = time.monotonic() + WAIT_SECONDS
    while time.monotonic() < deadline:
        word.wait(min(WAIT_POLL_SECONDS, max(0.0, deadline - time.monotonic())))
        word.clear()
        found = caches["default"].get_many([key, claim])
        parts = found.get(key)
        if isinstance(parts, Parts) or parts == OVERTAKEN:
            return parts
        if claim not in found:
            return None
    return None
