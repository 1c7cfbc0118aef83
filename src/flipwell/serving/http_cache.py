"""Conditional requests and remembered pages, keyed by the league's revision.

Words:
- *revision lookup*: the league revision of the object a URL names, found from one of its
  arguments (`LOOKUPS`: a league slug, a season, meet, game, group or playoff night id) with
  one indexed query (`flipwell.league.selectors.revisions`); None when the object does not
  exist.
- *variant*: whom a page is rendered for. "anon" for a visitor without a session; otherwise a
  hash of his session and CSRF cookies: a signed-in page names its user and holds a form
  token of his session, and both cookies change when he signs in or out.
- *entity tag* (ETag): a weak tag hashed from the code's build, the revision, the quarter
  hour (pages say "tonight": see `quarter_hour`), the variant, whether htmx asked for a
  fragment (``HX-Request``), the site the request was addressed to (scheme, host and port:
  absolute links in a page, the API's ``next`` or a QR code, carry it) and the path with its
  query. Equal tags mean equal pages: a page rendered for one address is never served, from
  the memo or the shared cache, to a request for another.
- *page memo*: anonymous pages kept in this process by tag, so an unchanged page is served
  again without running its view (a public page is read far more often than it changes).
  A page missing from it is rendered by one thread at a time: the others that ask for it
  meanwhile wait and are served that render.
- *shared pages*: with a cache every worker shares (``SHARED_PAGES``, on with ``REDIS_URL``),
  a page missing from the memo is looked up there before it is rendered, and a render is put
  there too: after a change, one worker renders a page and the others fetch it (a league
  night's board was otherwise rendered once per worker after every score). The shared cache
  holds nothing needed for correctness: when it fails, the page is rendered.
- *render claim*: with shared pages, the worker about to render a page first claims it in the
  shared cache (an atomic ``add``); a worker that finds it claimed waits for the page to be
  shared (at most `RENDER_WAIT_SECONDS`) instead of rendering it too, and renders it itself
  if the claim is released with nothing shared (a page not to be remembered) or held too
  long (a worker that died rendering). After a score, the board's viewers polling four
  workers at once then cost one render, not four, on cores the writes share.

Where pages are kept and when they are dropped: the table in `flipwell.serving`.

A GET whose ``If-None-Match`` holds the tag is answered ``304 Not Modified`` after that one
query. Every answer says ``Cache-Control: no-cache`` (keep it, but ask again each time) and
``Vary: HX-Request, Cookie, Accept-Encoding`` (a fragment and its page differ, and so do
variants and a kept page's compressed body, `flipwell.serving.pages`; both bodies share the
weak tag: they are the same page). A request
carrying flash messages is served by its view unchanged: they must show once, on a page of
their own.

Both front ends use this (web views directly, API operations through django-ninja's
``decorate_view``); it lives above them, like the settings and the URL configuration.
"""

from __future__ import annotations

import hashlib
import re
import time
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.validators import slug_re
from django.http import HttpRequest, HttpResponse, HttpResponseBase, HttpResponseNotModified
from django.utils.cache import patch_vary_headers
from django.utils.http import parse_etags

from flipwell.league.derived import caches
from flipwell.league.derived.caches import build
from flipwell.league.selectors import revisions
from flipwell.serving import pages

View = Callable[..., HttpResponseBase]
LOOKUPS: dict[str, Callable[[Any], int | None]] = {
    "slug": revisions.by_slug,
    "season_id": revisions.by_season,
    "meet_id": revisions.by_meet,
    "game_id": revisions.by_game,
    "group_id": revisions.by_group,
    "night_id": revisions.by_playoff_night,
}
MESSAGES_COOKIE = "messages"
ANONYMOUS = "anon"
QUARTER_HOUR_SECONDS = pages.SHARED_PAGE_SECONDS
_ACCEPTS_GZIP = re.compile(r"\bgzip\b")
"""Django's GZipMiddleware's reading of Accept-Encoding."""
SLUG_MAX = 60
"""The longest league slug (League.slug)."""


def forget_pages() -> None:
    """Empty this process's memos (tests)."""
    caches.forget()


def conditional_on_revision(argument: str) -> Callable[[View], View]:
    """Decorate a GET view whose page depends only on the league revision found from its URL
    argument `argument` (a key of `LOOKUPS`), the variant and the request's path: answer 304
    to a matching If-None-Match, serve an anonymous page from the memo, and tag every answer.
    """
    lookup = LOOKUPS[argument]

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            if request.method not in ("GET", "HEAD") or MESSAGES_COOKIE in request.COOKIES:
                return view(request, *args, **kwargs)
            revision = _revision(lookup, argument, kwargs.get(argument))
            if revision is None:
                return view(request, *args, **kwargs)  # its own 404
            return _answer(request, entity_tag(request, revision), view, args, kwargs)

        return wrapper

    return decorate


def _revision(lookup: Callable[[Any], int | None], argument: str, value: object) -> int | None:
    """The revision `lookup` finds for the URL argument, or None for a value the view will
    refuse itself (an API operation's arguments reach here before its own validation)."""
    if argument == "slug":  # a league's slug (SlugField): never NUL or other text to look up
        slug = value if isinstance(value, str) else ""
        return lookup(slug) if 0 < len(slug) <= SLUG_MAX and slug_re.match(slug) else None
    text = str(value)
    return lookup(int(text)) if text.isascii() and text.isdigit() and len(text) < 19 else None


def entity_tag(request: HttpRequest, revision: int) -> str:
    """The weak entity tag of the page `request` asks for at `revision` (see module words)."""
    parts = (
        build(),
        str(revision),
        str(quarter_hour()),
        variant(request),
        "fragment" if getattr(request, "htmx", False) else "page",  # django-htmx's reading
        f"{request.scheme}://{_host(request)}",
        request.get_full_path(),
    )
    digest = hashlib.blake2b("\n".join(parts).encode(), digest_size=12).hexdigest()
    return f'W/"{digest}"'


def _host(request: HttpRequest) -> str:
    """The request's host, as the host check at its start found it (checking it again is a
    tenth of a remembered page's time in Django), else as Django finds it."""
    checked = getattr(request, "checked_host", None)
    return checked if isinstance(checked, str) else request.get_host()


def quarter_hour() -> int:
    """The number of quarter hours since the epoch. Pages say "tonight" in their league's own
    zone; every zone's offset is a whole number of quarter hours, so a page's date can only
    change when this does. (Cheaper than asking Django for the local date, which was a third
    of a remembered page's time.)"""
    return int(time.time()) // QUARTER_HOUR_SECONDS


def variant(request: HttpRequest) -> str:
    """Whom the page is for: "anon" without a session, else a hash of the session's cookies."""
    session = request.COOKIES.get(settings.SESSION_COOKIE_NAME)
    if not session:
        return ANONYMOUS
    csrf = request.COOKIES.get(settings.CSRF_COOKIE_NAME, "")
    return hashlib.blake2b(f"{session}\n{csrf}".encode(), digest_size=12).hexdigest()


def _answer(
    request: HttpRequest, tag: str, view: View, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> HttpResponseBase:
    anonymous = variant(request) == ANONYMOUS
    if _matches(request, tag):
        return _tagged(HttpResponseNotModified(), tag, anonymous=anonymous)
    if not anonymous:
        return _rendered(request, tag, view, args, kwargs, anonymous=False)
    page = pages.remembered_page(tag)
    if page is None:
        with pages.one_render(tag):  # the viewers who asked meanwhile wait, then share it
            page = pages.remembered_page(tag) or pages.shared_page(tag)
            claimed = page is None and pages.claim_render(tag)
            if page is None and not claimed:
                page = pages.rendered_elsewhere(tag)  # another worker renders it: wait
            if page is None:
                try:
                    return _rendered(request, tag, view, args, kwargs, anonymous=True)
                finally:
                    if claimed:
                        pages.release_claim(tag)
            pages.remember_page(tag, page, share=False)
    return _served(request, page, tag)


def _served(request: HttpRequest, page: pages.Page, tag: str) -> HttpResponseBase:
    """A kept page's answer: its compressed body to a client that accepts gzip."""
    if page.gzipped is not None and _ACCEPTS_GZIP.search(
        request.headers.get("Accept-Encoding", "")
    ):
        response = HttpResponse(page.gzipped, status=page.status, content_type=page.content_type)
        response["Content-Encoding"] = "gzip"
    else:
        response = HttpResponse(page.content, status=page.status, content_type=page.content_type)
    return _tagged(response, tag, anonymous=True)


def _rendered(
    request: HttpRequest,
    tag: str,
    view: View,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    anonymous: bool,
) -> HttpResponseBase:
    """Run the view; remember an anonymous page it rendered."""
    response = view(request, *args, **kwargs)
    if response.status_code != 200:
        return response
    if anonymous and isinstance(response, HttpResponse) and _rememberable(request, response):
        page = pages.Page.of(200, response.content, response["Content-Type"])
        pages.remember_page(tag, page)
        return _served(request, page, tag)
    return _tagged(response, tag, anonymous=anonymous)


def _matches(request: HttpRequest, tag: str) -> bool:
    header = request.META.get("HTTP_IF_NONE_MATCH")
    if not header:
        return False
    wanted = parse_etags(header)
    bare = tag.removeprefix("W/")
    return any(candidate.removeprefix("W/") == bare for candidate in wanted)


def _rememberable(request: HttpRequest, response: HttpResponse) -> bool:
    """A page that sets no cookie and holds no form token (none of a session's own)."""
    return not response.cookies and not request.META.get("CSRF_COOKIE_NEEDS_UPDATE")


def _tagged(response: HttpResponseBase, tag: str, *, anonymous: bool) -> HttpResponseBase:
    response["ETag"] = tag
    response["Cache-Control"] = "no-cache" if anonymous else "private, no-cache"
    patch_vary_headers(response, ("HX-Request", "Cookie", "Accept-Encoding"))
    return response
