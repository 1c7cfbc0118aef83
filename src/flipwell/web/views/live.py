"""The live stream of a league's revision (``/live/<slug>/events/``): see `flipwell.serving.live`.

Public like the pages it serves (the TV, the meet board, the score sheets): it says that
something of the league changed, by its revision, and, to the stream of a meet board
(``?board=<meet id>``) or of the standings (``?standings=<season id>``), the page's public
parts that changed (`flipwell.web.live_parts`).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.views.decorators.http import require_GET

from flipwell.league.selectors import revisions
from flipwell.serving import live
from flipwell.web import live_parts


@require_GET
def events(request: HttpRequest, slug: str) -> HttpResponse:
    """The stream's head: the current revision at once when the client is behind (see
    `flipwell.serving.live.known_revision`); the hub sends the rest when it takes the stream
    over. A stream that watches pages and is handed off gets no revision in its head: the hub
    sends a client that is behind its first event itself, with every part of its pages (so
    a reconnection fetches no page)."""
    found = revisions.league_by_slug(slug)
    if found is None:
        raise Http404("No such league.")
    league_id, revision = found
    try:
        watches = live_parts.watches(slug, league_id, request.GET)
    except live_parts.WatchQueryError as bad:
        return HttpResponseBadRequest(str(bad), content_type="text/plain; charset=utf-8")
    known = live.known_revision(request.headers.get("Last-Event-ID"), request.GET.get("revision"))
    streaming = bool(request.META.get(live.CAN_HAND_OFF_KEY))
    retry = live.LONG_RETRY_MS if streaming else live.SHORT_RETRY_MS
    with_parts = streaming and bool(watches)
    response = HttpResponse(
        live.head(revision, revision if with_parts else known, retry_ms=retry),
        content_type=live.CONTENT_TYPE,
    )
    response["Cache-Control"] = "no-cache, no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy passes each event on at once
    if with_parts:
        request.META[live.STREAM_KEY] = live.Opened(league_id, known or 0, watches)
    elif streaming:
        request.META[live.STREAM_KEY] = live.Opened(league_id, revision)
    return response
