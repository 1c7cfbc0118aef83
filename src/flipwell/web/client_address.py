"""The address a request came from, as sign-in and password-reset limits count it."""

from __future__ import annotations

import hashlib
import hmac
import ipaddress

from django.conf import settings
from django.http import HttpRequest


def client_address(request: HttpRequest) -> str:
    """The client address failed sign-ins are counted by (``AXES_CLIENT_IP_CALLABLE``): the
    connection's, or behind the proxy (``BEHIND_PROXY``) the last address it forwarded."""
    remote = str(request.META.get("REMOTE_ADDR", ""))
    if not settings.BEHIND_PROXY:
        return remote
    forwarded = str(request.META.get("HTTP_X_FORWARDED_FOR", "")).split(",")[-1].strip()
    try:
        return str(ipaddress.ip_address(forwarded))
    except ValueError:  # no header (a request that bypassed the proxy) or a bad one
        return remote


def address_hash(request: HttpRequest) -> str:
    """A keyed hash of `client_address` (HMAC-SHA256 with the secret key, 32 hex digits):
    enough to count one address's public posts, never the address itself."""
    digest = hmac.new(
        settings.SECRET_KEY.encode(), client_address(request).encode(), hashlib.sha256
    )
    return digest.hexdigest()[:32]
