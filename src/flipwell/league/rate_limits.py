"""Rate limits: how often one sender did one thing lately, counted where every worker sees it.

Words:
- *window*: a stretch of clock time (a number of seconds); counts start again at each
  window's end (fixed windows: simple, and the same on every cache).
- *key*: what is counted, as parts: the kind of request first, then whom and what it
  concerns (a league, a machine, a client address...). A limit that concerns a league is
  keyed by its league (and machine), so one league's senders never silence another's.
- *shared cache*: Django's ``limits`` cache (`flipwell.settings`): Redis when ``REDIS_URL``
  is set, else a table of the database (``LIMITS_CACHE_TABLE``, made by ``migrate``). Every
  worker and process of the installation counts in it, so a limit is the installation's,
  never one per worker. Two requests counted at the very same instant may both read the
  same count: a limit is held to within a request or two, which is what it is for.
"""

from __future__ import annotations

import hashlib
import math
import time

from django.core.cache import BaseCache, caches

LIMITS_CACHE = "limits"
"""The alias of the shared cache in ``settings.CACHES``."""
KEY_PREFIX = "flipwell:limit"


def shared_cache() -> BaseCache:
    """The cache every worker counts in."""
    return caches[LIMITS_CACHE]


def _key(parts: tuple[str | int, ...], window: int, now: float) -> str:
    kind, *rest = (str(part) for part in parts)
    # Keys of any length and characters (an e-mail address, a client address) fit every cache.
    digest = hashlib.sha256("\x1f".join(rest).encode()).hexdigest()[:32]
    return f"{KEY_PREFIX}:{kind}:{digest}:{window}:{int(now // window)}"


def count(
    *parts: str | int, window: int, now: float | None = None, cache: BaseCache | None = None
) -> int:
    """Count one more request for the key `parts` in the current window of `window` seconds;
    the window's count so far, this request included."""
    now = time.time() if now is None else now
    cache = shared_cache() if cache is None else cache
    key = _key(parts, window, now)
    if cache.add(key, 1, timeout=window):
        return 1
    try:
        counted_now = int(cache.incr(key))
    except ValueError:  # expired between add and incr: a new window has begun
        cache.add(key, 1, timeout=window)
        return 1
    # The database cache's incr stores the count again with the default timeout (five
    # minutes): the count must last to its window's end.
    cache.touch(key, timeout=window)
    return counted_now


def counted(
    *parts: str | int, window: int, now: float | None = None, cache: BaseCache | None = None
) -> int:
    """The current window's count for the key `parts`, without counting."""
    now = time.time() if now is None else now
    cache = shared_cache() if cache is None else cache
    return int(cache.get(_key(parts, window, now), 0))


def seconds_left(window: int, now: float | None = None) -> int:
    """Seconds until the current window of `window` seconds ends (at least 1): a
    ``Retry-After``."""
    now = time.time() if now is None else now
    return max(1, math.ceil(window - now % window))
