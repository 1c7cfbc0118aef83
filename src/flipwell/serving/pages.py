"""Rendered pages kept to be served again: this process's page memo, the pages every worker
shares, and the claims to render one: see the table in `flipwell.serving`.

Words:
- *tag*: a page's entity tag (`flipwell.serving.http_cache`: build, league revision, quarter
  hour, variant, site, path); an entry is never invalidated, its tag is simply never asked
  again once any of those changes.
- *shared cache*: Django's default cache when every worker shares it (Redis, with
  ``SHARED_PAGES``). It holds nothing needed for correctness: when it fails, the page is
  rendered.
- *compressed body*: a kept page's content gzip-compressed once, when it is kept
  (`Page.of`), and served to every client that accepts gzip (every browser does): a board or
  standings page of 50 KB goes over a venue's Wi-Fi in a tenth of the bytes, and serving it
  costs the server and the phone less than the plain body. Only kept pages are compressed: they
  are anonymous and hold no secret (no session, no form token), so compression cannot leak one
  (BREACH); a signed-in page is served as its view made it.
"""

from __future__ import annotations

import gzip
import logging
import os
import threading
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches

from flipwell.league.derived.caches import LeastRecentlyUsed

log = logging.getLogger(__name__)
PAGE_MEMO_SIZE = 512
"""Pages kept per process (a standings page is ~50 KB and ~7 KB compressed: at most ~30 MB)."""
SHARED_PAGE_SECONDS = 15 * 60
"""A shared page's life: the quarter hour its tag holds
(`flipwell.serving.http_cache.quarter_hour`)."""
RENDER_WAIT_SECONDS = 2.0
"""How long a worker waits for a page another worker claimed to render (a board renders in
tens of milliseconds; a claim older than this is taken for a worker that died rendering)."""
RENDER_CLAIM_SECONDS = 30
"""When a claim to render expires by itself, if its worker never released it."""
CLAIM_POLL_SECONDS = 0.01
COMPRESS_MIN_BYTES = 1024
"""A page shorter than this is kept without a compressed body: gzip's header and the
Content-Encoding it needs would save too little."""
COMPRESS_LEVEL = 6
"""gzip's default: a 50 KB page in about a millisecond, once per render."""


@dataclass(frozen=True)
class Page:
    """A rendered page as it is served again: its content, and the same compressed (`gzipped`,
    None when it is too short to gain)."""

    status: int
    content: bytes
    content_type: str
    gzipped: bytes | None = None

    @classmethod
    def of(cls, status: int, content: bytes, content_type: str) -> Page:
        """The page to keep, with its compressed body when it gains."""
        gzipped = None
        if len(content) >= COMPRESS_MIN_BYTES:
            packed = gzip.compress(content, compresslevel=COMPRESS_LEVEL, mtime=0)
            gzipped = packed if len(packed) < len(content) else None
        return cls(status, content, content_type, gzipped)


_pages: LeastRecentlyUsed[str, Page] = LeastRecentlyUsed(PAGE_MEMO_SIZE)
_rendering: dict[str, threading.Lock] = {}
"""The lock of each page being rendered in this process right now, by tag."""
_rendering_guard = threading.Lock()


def remembered_page(tag: str) -> Page | None:
    """The page this process keeps for entity tag `tag`, if any."""
    return _pages.get(tag)


def remember_page(tag: str, page: Page, *, share: bool = True) -> None:
    """Keep `page` in this process, and (with `share`) in the shared cache."""
    _pages.put(tag, page)
    if share:
        _share_page(tag, page)


def shared_page(tag: str) -> Page | None:
    """The page `tag` from the shared cache, when there is one and it has it."""
    if not settings.SHARED_PAGES:
        return None
    try:
        page = caches["default"].get(shared_key(tag))
    except Exception:  # a cache server down or full: render the page instead
        log.warning("shared page cache unavailable; rendering the page", exc_info=True)
        return None
    return page if isinstance(page, Page) else None


def claim_render(tag: str) -> bool:
    """Claim the render of page `tag` for this worker in the shared cache: whether no other
    worker holds the claim (and so this one renders). True when nothing is shared."""
    if not settings.SHARED_PAGES:
        return True
    try:
        return bool(caches["default"].add(claim_key(tag), os.getpid(), RENDER_CLAIM_SECONDS))
    except Exception:
        log.warning("shared page cache unavailable; rendering the page", exc_info=True)
        return True


def release_claim(tag: str) -> None:
    try:
        caches["default"].delete(claim_key(tag))
    except Exception:  # it expires by itself (RENDER_CLAIM_SECONDS)
        log.warning("shared page cache unavailable; render claim left to expire", exc_info=True)


def rendered_elsewhere(tag: str) -> Page | None:
    """The page `tag` another worker claimed to render, once it shares it; None when the
    claim is released with nothing shared, or after `RENDER_WAIT_SECONDS` (render it then)."""
    keys = (shared_key(tag), claim_key(tag))
    deadline = time.monotonic() + RENDER_WAIT_SECONDS
    while time.monotonic() < deadline:
        time.sleep(CLAIM_POLL_SECONDS)
        found = _shared_many(keys)
        if found is None:
            return None
        page = found.get(keys[0])
        if isinstance(page, Page):
            return page
        if keys[1] not in found:
            return None  # released with nothing shared: not a page to remember
    return None


@contextmanager
def one_render(tag: str) -> Iterator[None]:
    """Hold the lock of page `tag` in this process: after a change, the many viewers polling
    it at once would otherwise each render it (one render per thread, all at the same time;
    `bench/bench_night.py`), while one render serves them all."""
    with _rendering_guard:
        lock = _rendering.setdefault(tag, threading.Lock())
    try:
        with lock:
            yield
    finally:
        with _rendering_guard:
            if _rendering.get(tag) is lock and not lock.locked():
                del _rendering[tag]


def shared_key(tag: str) -> str:
    return "page:" + tag.removeprefix("W/").strip('"')


def claim_key(tag: str) -> str:
    return "rendering:" + tag.removeprefix("W/").strip('"')


def _share_page(tag: str, page: Page) -> None:
    if not settings.SHARED_PAGES:
        return
    try:  # the quarter hour is part of every tag: an older entry is never asked for again
        caches["default"].set(shared_key(tag), page, timeout=SHARED_PAGE_SECONDS)
    except Exception:
        log.warning("shared page cache unavailable; page kept in this process", exc_info=True)


def _shared_many(keys: Iterable[str]) -> dict[str, object] | None:
    try:
        found: dict[str, object] = caches["default"].get_many(list(keys))
    except Exception:
        log.warning("shared page cache unavailable; rendering the page", exc_info=True)
        return None
    return found
