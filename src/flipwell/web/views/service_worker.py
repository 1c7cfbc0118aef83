"""The score sheet's service worker, served at ``/sheet/service-worker.js``.

Words:
- *service worker*: the static file ``flipwell/sheet-sw.js``, which keeps the sheet's shell so
  a phone can reload its sheet without network (the file's comment says how).
- *scope*: the pages a worker may answer for. It may not reach above the folder its script is
  served from, so the script is served from ``/sheet/`` (scope ``/sheet/``, every group's
  sheet), not from ``/static/flipwell/``; the Content-Security-Policy allows it (worker-src
  'self'). Served by this view rather than by the static files' server so that it is the same
  under ``make run``, WhiteNoise and the test server, none of which may add the
  ``Service-Worker-Allowed`` header a /static/ script would need.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from django.contrib.staticfiles import finders
from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_GET

SERVICE_WORKER = "flipwell/sheet-sw.js"


@cache
def _script() -> bytes:
    found = finders.find(SERVICE_WORKER)
    if not isinstance(found, str):
        raise RuntimeError(f"the static file {SERVICE_WORKER} is missing from the installation")
    return Path(found).read_bytes()


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The worker's script. Never kept by a cache: the browser checks it at each visit, so a
    new version reaches the phones at once."""
    response = HttpResponse(_script(), content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    return response
