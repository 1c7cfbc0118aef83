"""Serving a score photo (`flipwell.league.models.photos`) to someone the view let through.

Each view that serves one first checks who asks exactly as for the page that shows it (the
group's sheet link, the league's console, an API token of the league): a photo has no address
of its own. The answer is the clean JPEG, kept by the browser only (``private``: never by a
shared cache or proxy), never sniffed as anything else.
"""

from __future__ import annotations

from django.core.files.storage import default_storage
from django.http import Http404, HttpResponse

from flipwell.league import models as m

MAX_AGE = 24 * 3600
"""A photo never changes once kept: the phone may keep it a day."""


def photo_response(photo: m.ScorePhoto) -> HttpResponse:
    """The photo's file as an image/jpeg answer (404 when its file is gone). Read whole: a
    kept photo is small (its long side is limited)."""
    try:
        with default_storage.open(photo.storage_name, "rb") as file:
            content = file.read()
    except FileNotFoundError as error:
        raise Http404("This photo's file is missing.") from error
    response = HttpResponse(content, content_type="image/jpeg")
    response["Cache-Control"] = f"private, max-age={MAX_AGE}"
    response["Content-Disposition"] = 'inline; filename="score-photo.jpg"'
    response["X-Content-Type-Options"] = "nosniff"
    return response
