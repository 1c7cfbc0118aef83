"""Security headers Django 5.2 does not set itself (SecurityMiddleware sets HSTS, nosniff,
Referrer-Policy and, over HTTPS, Cross-Origin-Opener-Policy; XFrameOptionsMiddleware sets
X-Frame-Options).

Words:
- *Content-Security-Policy*: every script, style, image, font and connection must come from
  this site ('self'); no inline script or style attribute, no eval, no plugin, no framing by
  another site, forms post only here. Everything flipwell needs is vendored and served by the
  app, so nothing else is needed; a template must therefore never use ``style=""`` or
  ``<script>`` bodies, only classes and static files.
- *Permissions-Policy*: the browser features flipwell never uses are switched off for it and
  for anything it embeds.
"""

from __future__ import annotations

from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

from flipwell.content_policy import CONTENT_SECURITY_POLICY

PERMISSIONS_POLICY = ", ".join(
    f"{feature}=()"
    for feature in (
        "accelerometer",
        "camera",
        "geolocation",
        "gyroscope",
        "magnetometer",
        "microphone",
        "payment",
        "usb",
    )
)
REFERRER_POLICY = "same-origin"


class SecurityHeadersMiddleware:
    """Adds the Content-Security-Policy, Permissions-Policy and Referrer-Policy headers to
    every response that does not set its own."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response.headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
        response.headers.setdefault("Permissions-Policy", PERMISSIONS_POLICY)
        response.headers.setdefault("Referrer-Policy", REFERRER_POLICY)
        return response
