"""Reading a request body: JSON only, said so by its Content-Type.

Words: a *JSON content type* is ``application/json`` or any ``application/...+json``, with
any parameters (``; charset=utf-8``). A body sent as another type (a form, text/plain) is
refused with a 415 in the error shape (`flipwell.api.errors`), even when its text happens to
be JSON: a client that says form data means form data.
"""

from __future__ import annotations

from django.http import HttpRequest
from ninja.parser import Parser
from ninja.types import DictStrAny

JSON = "application/json"


class UnsupportedMediaTypeError(ValueError):
    """A body whose Content-Type is not JSON; the message names the type sent."""


def is_json(content_type: str) -> bool:
    """Whether a Content-Type (without parameters) is a JSON content type."""
    kind = content_type.strip().lower()
    return kind == JSON or (kind.startswith("application/") and kind.endswith("+json"))


class JsonOnlyParser(Parser):
    """ninja's JSON parser that first refuses a body of another content type."""

    def parse_body(self, request: HttpRequest) -> DictStrAny:
        if not is_json(request.content_type or ""):
            sent = request.content_type or "no Content-Type"
            raise UnsupportedMediaTypeError(
                f"The body must be JSON, sent with 'Content-Type: {JSON}' (this request "
                f"sent {sent})."
            )
        return super().parse_body(request)
