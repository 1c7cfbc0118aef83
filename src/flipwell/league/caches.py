"""Every cache flipwell keeps, in one place: what it holds, its key, and when it is dropped.

Nothing in `flipwell.rules` caches: the rules compute from the facts they are given, every
time. What is derived from the facts is kept here, always under a key that holds what it was
derived from, so an entry is never invalidated: a change of the facts gives a new revision
(`flipwell.league.models.results.new_revision`), and the old key is simply never asked again.

Each cache: what it holds; its key; when an entry is dropped.
- *fold memo*: a season's fold in this process; (season, revision, kind); least recently
  used past `FOLD_MEMO_SIZE`.
- *stored folds*: the same in `DerivedResult` rows, read by every worker; the scope
  ``fold:<season>:<kind>:<build>`` and the season's revision; its row is overwritten by the
  next revision's fold, and other builds' rows are deleted when this build stores its first.
- *page memo*: an anonymous page in this process; its entity tag (`flipwell.http_cache`:
  build, league revision, quarter hour, variant, site, path); least recently used past
  `PAGE_MEMO_SIZE`.
- *shared pages*: the same in the shared cache (Redis, with ``SHARED_PAGES``); ``page:<tag>``;
  after a quarter hour (the tag holds it).
- *render claims*: which worker renders a page now; ``rendering:<tag>``; released after the
  render, or expired after `RENDER_CLAIM_SECONDS`.

A fold's *kind* is the numbers alone or *explained* (every point with its reason); *build* is
a fingerprint of the code (`build`), so a fold pickled by other code is never read. The
shared cache holds nothing needed for correctness: when it fails, the page is rendered.
`flipwell.league.compiled` keeps each hot query's SQL per database engine: code, not data.

`forget` empties this process's memos (tests, and a restore in a running process).
"""

from __future__ import annotations

import functools
import hashlib
import logging
import os
import pickle
import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Generic, TypeVar

from django.conf import settings
from django.core.cache import caches
from django.db import IntegrityError, transaction
from django.utils import timezone

import flipwell
from flipwell.league import models as m

log = logging.getLogger(__name__)
K = TypeVar("K")
V = TypeVar("V")
FOLD_MEMO_SIZE = 64
"""Season folds kept in each process (a 48 x 20 season is a few hundred KB)."""
PAGE_MEMO_SIZE = 512
"""Pages kept per process (a standings page is ~50 KB: at most ~25 MB)."""
SHARED_PAGE_SECONDS = 15 * 60
"""A shared page's life: the quarter hour its tag holds (`flipwell.http_cache.quarter_hour`)."""
RENDER_WAIT_SECONDS = 2.0
"""How long a worker waits for a page another worker claimed to render (a board renders in
tens of milliseconds; a claim older than this is taken for a worker that died rendering)."""
RENDER_CLAIM_SECONDS = 30
"""When a claim to render expires by itself, if its worker never released it."""
CLAIM_POLL_SECONDS = 0.01
CODE_SUFFIXES = (".py", ".html", ".js", ".css", ".svg")


@functools.cache
def build() -> str:
    """A short fingerprint of flipwell's code and templates: equal on every server that runs
    the same code, different after any change (computed once per process, a few ms)."""
    digest = hashlib.blake2b(digest_size=8)
    root = Path(flipwell.__file__).parent
    for path in sorted(root.rglob("*")):
        if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(root)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()


class LeastRecentlyUsed(Generic[K, V]):
    """A map of at most `size` items that forgets the least recently used first; safe for a
    threaded server."""

    def __init__(self, size: int) -> None:
        self._size = size
        self._items: OrderedDict[K, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: K) -> V | None:
        with self._lock:
            found = self._items.get(key)
            if found is not None:
                self._items.move_to_end(key)
            return found

    def put(self, key: K, value: V) -> None:
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self._size:
                self._items.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._items.clear()


def forget() -> None:
    """Empty this process's fold memo and page memo (tests; a restore in a running process)."""
    _folds.clear()
    _pages.clear()


# --- Season folds ------------------------------------------------------------------------

FoldKey = tuple[int, int, bool]
"""(season id, revision, explained)."""

_folds: LeastRecentlyUsed[FoldKey, object] = LeastRecentlyUsed(FOLD_MEMO_SIZE)


def remembered_fold(key: FoldKey) -> object | None:
    """The fold this process keeps for `key`, if any."""
    return _folds.get(key)


def remember_fold(key: FoldKey, folded: object) -> None:
    _folds.put(key, folded)


def stored_fold(season: int, revision: int, *, explain: bool) -> object | None:
    """The fold stored for `season` at `revision` by this build, unpickled; None if none."""
    payload = (
        m.DerivedResult.objects.filter(scope=_fold_scope(season, explain), revision=revision)
        .values_list("payload", flat=True)
        .first()
    )
    return None if payload is None else pickle.loads(bytes(payload))  # written by store only


def stored_folds(revisions: dict[int, int]) -> dict[int, object]:
    """The numbers folds stored at these revisions (season id -> revision), in one query."""
    scopes = {_fold_scope(season, False): season for season in revisions}
    rows = m.DerivedResult.objects.filter(scope__in=list(scopes)).values_list(
        "scope", "revision", "payload"
    )
    return {
        scopes[scope]: pickle.loads(bytes(payload))  # written by store_fold only
        for scope, revision, payload in rows
        if revision == revisions[scopes[scope]]
    }


def store_fold(season: int, revision: int, folded: object, *, explain: bool) -> None:
    """Store `folded` as the season's fold at `revision`, replacing the one before: one
    query in the common case. Inside the caller's transaction."""
    payload = pickle.dumps(folded, protocol=pickle.HIGHEST_PROTOCOL)
    scope = _fold_scope(season, explain)
    rows = m.DerivedResult.objects.filter(scope=scope)
    fields = {"revision": revision, "payload": payload, "computed_at": timezone.now()}
    if rows.update(**fields):
        return  # the common case: a new revision of a fold this build stored
    try:
        with transaction.atomic():  # a savepoint: a writer's transaction survives a clash
            m.DerivedResult.objects.create(scope=scope, **fields)
    except IntegrityError:  # another process stored this build's first fold meanwhile
        rows.update(**fields)
        return
    # Folds stored by other builds of the code are never read again.
    prefix = _fold_prefix(season, explain)
    m.DerivedResult.objects.filter(scope__startswith=prefix).exclude(scope=scope).delete()


def _fold_prefix(season: int, explain: bool) -> str:
    return f"fold:{season}:{'explained' if explain else 'numbers'}:"


def _fold_scope(season: int, explain: bool) -> str:
    return _fold_prefix(season, explain) + build()


# --- Pages -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Page:
    """A rendered page as it is served again."""

    status: int
    content: bytes
    content_type: str


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
