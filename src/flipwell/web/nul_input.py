"""Refusing the NUL character in a web request's form data and query string.

Words: *NUL* is the character of code 0. No text a person types contains it, SQLite stores
it but cuts the text there on some reads, and PostgreSQL refuses it outright (a 500 once it
reaches a query). So a page's form or query that carries one is refused here, before any view,
with a 400 and a plain sentence: which field, what to do. The JSON API (``/api/``) checks its
own input (every text field of its schemas refuses NUL) and answers in its own error shape.
A file's content is not form data: the form that reads an uploaded file checks it (the
roster CSV, `flipwell.web.forms.players`).
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, QueryDict

NUL = "\x00"
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


def field_with_nul(data: QueryDict) -> str | None:
    """The name of the first field of `data` whose name or a value holds NUL (None: none)."""
    for name, values in data.lists():
        if NUL in name or any(NUL in value for value in values):
            return name
    return None


class NulInputMiddleware:
    """Answers 400 to a page request whose query string or form data holds NUL (see above)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        if not request.path_info.startswith("/api/"):
            found = field_with_nul(request.GET)
            if found is None and request.content_type in FORM_TYPES:
                found = field_with_nul(request.POST)
            if found is not None:
                shown = found.replace(NUL, "").strip()[:40] or "(no name)"
                return HttpResponseBadRequest(
                    f"The field “{shown}” holds a NUL character (code 0), which no text may "
                    "contain and flipwell cannot store. Remove it (retype the text rather than "
                    "pasting it) and send again.\n",
                    content_type="text/plain; charset=utf-8",
                )
        return self.get_response(request)
