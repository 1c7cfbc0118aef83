"""flipwell's Content-Security-Policy, one place for every layer that answers a page: the web
pages (`flipwell.web.middleware` sets it on every response that has none) and the API's docs
page (`flipwell.api.api`). See `flipwell.web.middleware` for what it allows and why."""

from __future__ import annotations

CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        # blob: a photo of the score shown on the phone before (or without) sending it.
        "img-src 'self' blob:",
        "font-src 'self'",
        "connect-src 'self'",
        "manifest-src 'self'",
        "worker-src 'self'",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ]
)
