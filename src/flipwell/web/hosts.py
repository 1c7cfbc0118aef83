"""The ``Host`` a request names: its name in ``ALLOWED_HOSTS`` and its port in ``ALLOWED_PORTS``.

Words:
- *host*: what ``request.get_host()`` answers: the ``Host`` header (or ``SERVER_NAME``), its
  name checked by Django against ``ALLOWED_HOSTS``, which ignores the port.
- *port*: the port the host names, if any. Absolute links built from the request (the API's
  ``next``, a group's QR code, a player's personal link shown to the official) carry it, so a
  forged ``Host: 127.0.0.1:31337`` would put a dead or hostile address in them. Only a port in
  ``ALLOWED_PORTS`` (see `flipwell.settings`) is accepted; a host without a port always is.

A refused host raises Django's ``DisallowedHost``: a 400 answer, logged by
``django.security.DisallowedHost``, as Django does for a name not allowed. E-mails never use
the request's host at all: their links start with ``FLIPWELL_SITE_URL``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse
from django.http.request import split_domain_port


def port_allowed(port: str, allowed: list[str]) -> bool:
    """Whether a host naming `port` ("" for none) may be served."""
    return not port or "*" in allowed or port in allowed


def check_host(request: HttpRequest) -> None:
    """Raise DisallowedHost unless the request's host has an allowed name and port; keep it
    as ``request.checked_host`` (what `request.get_host()` gives, without checking again)."""
    host = request.get_host()  # raises DisallowedHost for a name not in ALLOWED_HOSTS
    _domain, port = split_domain_port(host)
    if not port_allowed(port, list(settings.ALLOWED_PORTS)):
        raise DisallowedHost(
            f"Invalid HTTP_HOST header: {host!r}. The port {port} is not one this server "
            "answers on; you may need to add it to ALLOWED_PORTS."
        )
    request.checked_host = host  # type: ignore[attr-defined]


class AllowedHostMiddleware:
    """Refuses (400) a request whose host is not allowed, before anything reads the host (an
    HTTPS redirect, a page that builds absolute links)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        check_host(request)
        return self.get_response(request)
