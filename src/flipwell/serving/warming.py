"""Pages rendered before their viewers ask: after a league's change, the pages its viewers
were watching are rendered before the live event tells them to ask again.

Without this, a score confirmed at a league night sends an event to every stream of the
league, and its viewers all ask at once for the board and the standings at the new revision:
the first of them waits for the render (the others wait on it, `flipwell.serving.pages`), on
cores the night's writes share. Those waits were the slow 1% of a night's pages
(`bench/bench_nights.py`, docs/scaling.md [G]). Rendered before the event goes out, every
viewer is served a kept page.

Words:
- *watched page*: an anonymous page served at least `WATCHED_AFTER` times (a 304 included)
  at one revision of its league, in this process (a board or standings page that live
  viewers refresh, not a page one visitor opened once); or, when the standings changed,
  since the standings last changed: a live page showing the standings is asked for only when
  they change (`flipwell.serving.live`), not at every revision. Kept as the parts of the
  request its entity tag is made of (`flipwell.serving.http_cache.entity_tag`: scheme, host,
  path and query, fragment or page), by revision and by the revision's standings part, for
  the last `REVISIONS_KEPT` of each, at most `PAGES_PER_REVISION` pages each.
- *warming*: the live hub (`flipwell.serving.live.Hub`), told of a league's new revision,
  renders the pages watched at the revision its streams had, through Django's whole
  middleware as an anonymous GET, before it sends the event (`warm`). The render is kept
  under the page's new tag as any anonymous render is (the page memo, and the shared pages
  when every worker shares them, where the render claim makes one worker render it: the
  other workers' hubs do not wait for it, their viewers fetch it from there). A warming
  render is not itself a view: it never makes a page watched.

Only pages that viewers watched at the previous revision are rendered: a league whose pages
nobody is watching costs its writes nothing. A page is rendered at most once per revision,
by whichever asks first, the hub or a viewer. A warming that fails is logged and the event
goes out anyway: its viewers render the page themselves, as without warming.
"""

from __future__ import annotations

import io
import logging
import threading
import time
from collections import Counter
from collections.abc import Iterable
from functools import cache
from typing import Any

from django.core.handlers.wsgi import WSGIHandler, WSGIRequest
from django.http import HttpRequest

from flipwell.league.derived.caches import LeastRecentlyUsed
from flipwell.league.revisions import standings_part

logger = logging.getLogger("flipwell.serving.warming")

WATCHED_AFTER = 2
"""Views at one revision that make a page watched."""
REVISIONS_KEPT = 512
"""Revisions whose watched pages this process remembers (one per league being watched is
enough: the hub asks only for the revision its streams had)."""
PAGES_PER_REVISION = 16
"""Distinct pages counted per revision: a league's live pages are its board, standings, TV
and a few players', fragment and page; a crawler's thousand pages are not watched."""
WARMING_KEY = "flipwell.serving.warming"
"""The environ key of a warming render (not counted as a view)."""
REQUEST_KEYS = (
    "wsgi.url_scheme",
    "SERVER_NAME",
    "SERVER_PORT",
    "SCRIPT_NAME",
    "PATH_INFO",
    "QUERY_STRING",
    "HTTP_HOST",
    "HTTP_X_FORWARDED_PROTO",
    "HTTP_X_FORWARDED_HOST",
    "HTTP_X_FORWARDED_PORT",
    "HTTP_HX_REQUEST",
)
"""What a page's request keeps to be made again: what its tag depends on (the site it was
addressed to, through the proxy's headers when the server trusts them; its path and query;
whether htmx asked for a fragment)."""

Watched = tuple[tuple[str, str], ...]
"""A watched page: its request's `REQUEST_KEYS` and their values."""

_views: LeastRecentlyUsed[int, Counter[Watched]] = LeastRecentlyUsed(REVISIONS_KEPT)
"""The views of each page by the revision they were at."""
_standings_views: LeastRecentlyUsed[int, Counter[Watched]] = LeastRecentlyUsed(REVISIONS_KEPT)
"""The same by the revisions' standings part: what was watched since the standings last
changed (a page showing them is asked for only when they change, `flipwell.serving.live`)."""
_views_lock = threading.Lock()


def saw(revision: int, request: HttpRequest) -> None:
    """Count one anonymous view of `request`'s page at `revision` (any request thread)."""
    if ahead(request):
        return
    page = tuple((key, str(request.META[key])) for key in REQUEST_KEYS if key in request.META)
    with _views_lock:
        _count(_views, revision, page)
        _count(_standings_views, standings_part(revision), page)


def _count(views: LeastRecentlyUsed[int, Counter[Watched]], key: int, page: Watched) -> None:
    counted = views.get(key)
    if counted is None:
        counted = Counter()
        views.put(key, counted)
    if page in counted or len(counted) < PAGES_PER_REVISION:
        counted[page] += 1


def ahead(request: HttpRequest) -> bool:
    """Whether `request` is a render ahead (`warm`'s), not a viewer's."""
    return bool(request.META.get(WARMING_KEY))


def watched(earlier: Iterable[int], now: int) -> list[Watched]:
    """The pages to render at revision `now` of a league whose viewers had the revisions
    `earlier`, most viewed first: those watched at each earlier revision; and where the
    standings changed since, those watched since they last changed (a standings page is not
    asked for at a revision that left them as they were)."""
    total: Counter[Watched] = Counter()
    with _views_lock:
        for revision in set(earlier):
            if standings_part(revision) == standings_part(now):
                total.update(_views.get(revision) or {})
            else:
                total.update(_standings_views.get(standings_part(revision)) or {})
    return [page for page, count in total.most_common() if count >= WATCHED_AFTER]


def warm(earlier: Iterable[int], now: int) -> int:
    """Render at revision `now` the pages watched at the `earlier` revisions of its league
    (`watched`), each kept under its tag; how many were rendered or found kept."""
    done = 0
    for page in watched(earlier, now):
        began = time.perf_counter()
        try:
            response = _handler().get_response(WSGIRequest(_environ(page)))
        except Exception:  # the viewers render it themselves
            logger.warning("a watched page could not be rendered ahead", exc_info=True)
            continue
        done += response.status_code == 200
        logger.debug(
            "rendered ahead: %s %s in %.1f ms",
            response.status_code,
            dict(page).get("PATH_INFO"),
            (time.perf_counter() - began) * 1000,
            extra={"fragment": "HTTP_HX_REQUEST" in dict(page)},
        )
    return done


def _environ(page: Watched) -> dict[str, Any]:
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "GET",
        "SCRIPT_NAME": "",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "127.0.0.1",
        "wsgi.input": io.BytesIO(),
        "wsgi.errors": io.StringIO(),
        WARMING_KEY: True,
    }
    environ.update(page)
    return environ


@cache
def _handler() -> WSGIHandler:
    """Django's handler with the whole middleware, made once per process (the hub's thread
    calls it without the request signals: its database connection stays the hub's)."""
    return WSGIHandler()
