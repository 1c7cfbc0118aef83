"""The bare view: the benchmarks' yardstick, mounted only when ``FLIPWELL_BENCH_URLS`` is on.

`bench/bench_http.py` measures every public page against this view under the same server:
it goes through the whole middleware stack but reads no database and renders no template, so
its requests per second are what the server and Django alone can do on this machine. Its page
is static HTML of about the size of a small public page (3.5 KB).
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse

_ROWS = "\n".join(
    f"<tr><td>{rank}</td><td>Player {rank:02d}</td><td>{100 - rank}</td></tr>"
    for rank in range(1, 68)
)
BARE_PAGE = (
    "<!doctype html>\n<html lang=en><head><meta charset=utf-8><title>Bare</title></head>\n"
    f"<body><h1>Bare page</h1>\n<table>\n{_ROWS}\n</table></body></html>\n"
).encode()


def bare(request: HttpRequest) -> HttpResponse:
    """The same static page on every request (no database, no template)."""
    return HttpResponse(BARE_PAGE, content_type="text/html; charset=utf-8")


class DeliberateFailureError(RuntimeError):
    """Raised by `fail`: the error the tests expect to see logged with its traceback."""


def fail(request: HttpRequest) -> HttpResponse:
    """Always fails (500), mounted only with ``FLIPWELL_TEST_URLS``: the serve test checks
    that an unhandled error is logged on stdout with its traceback and request id."""
    raise DeliberateFailureError("a deliberate failure (FLIPWELL_TEST_URLS)")
