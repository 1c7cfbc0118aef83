"""Whether htmx made a request, as django-htmx's `HtmxMiddleware` reads it (typed)."""

from __future__ import annotations

from django.http import HttpRequest


def asked_by_htmx(request: HttpRequest) -> bool:
    """True for a request htmx made (``HX-Request: true``): it wants a fragment, not a page."""
    return bool(getattr(request, "htmx", False))
