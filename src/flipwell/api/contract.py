"""What every answer under /api/ has in common, whatever answered it.

Words:
- *operation*: a django-ninja endpoint; `mark_operations` makes each one note itself on the
  request (`operation_of`) before it runs, so the error handlers and the middleware know it.
- *private read*: an operation whose answer belongs to whoever asked: one that needs an API
  token, or one marked `private` (a personal link's page). It is sent with
  ``Cache-Control: private, no-store`` and with CORS headers only for a *configured origin*.
- *public read*: any other GET under /api/. A page in a browser on another site may read it:
  it is sent with ``Access-Control-Allow-Origin: *`` (never with credentials: a browser sends
  no cookie with it), and a preflight ``OPTIONS`` is answered. Its answer depends on the
  ``Authorization`` header (a token that is not live is a 401), so it says
  ``Vary: Authorization``.
- *configured origin*: an origin of ``FLIPWELL_CORS_ORIGINS`` (none by default). A page of
  such an origin may call every operation, writes and token reads included, with a token in
  ``Authorization``: its preflight is allowed the path's methods and the headers a write
  sends (`REQUEST_HEADERS`), and the answer names the origin (``Vary: Origin``). No other
  origin can write from a browser. Every answer to a browser exposes `EXPOSED_HEADERS`.
- *content type*: every JSON answer is ``application/json`` exactly (JSON is UTF-8, RFC 8259:
  no ``charset``); an answer without a body (204, 304) has no content type.
- *error shape*: `flipwell.api.errors`. Django's own refusals under /api/ (a method the path
  does not serve, an unknown path, a form's missing CSRF token, a crash page) are HTML; the
  middleware answers them in the error shape instead, and so does `bad_request` (Django's
  ``handler400``) for a request refused before the middleware runs (a ``Host`` not served).
  gunicorn's own refusals (a malformed request, a request line or header too long) are in
  the error shape too (`flipwell.gunicorn_worker`).

Also: ``HEAD`` is answered as ``GET`` without the body; every 200 to a GET carries an ETag
(the league's revision's where the endpoint has one, else a hash of the body) and a request
whose ``If-None-Match`` holds it, or ``*``, is answered ``304``; a 201 carries ``Location``
(`created`); a 401 carries ``WWW-Authenticate: Bearer``; a request to a public read that
sends an ``Authorization`` header with a token that is not live (unknown, revoked, or not a
bearer token) is a 401 like any other, not served as if no token was sent.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.core.exceptions import DisallowedHost
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.utils.cache import get_conditional_response, patch_vary_headers, set_response_etag
from django.views import defaults
from ninja import NinjaAPI, Router, Status
from ninja.decorators import decorate_view
from ninja.operation import Operation, PathView

from flipwell.api.errors import (
    BEARER_CHALLENGE,
    OPERATION_ATTRIBUTE,
    error_body,
    error_response,
    not_authenticated,
)
from flipwell.api.schemas.common import ErrorOut
from flipwell.api.tokens import request_token
from flipwell.league.refusals import RateLimitedError

API_PREFIX = "/api/"
PRIVATE_ATTRIBUTE = "_flipwell_private"
LOCATION_ATTRIBUTE = "_flipwell_location"
PRIVATE_CACHE = "private, no-store"
PREFLIGHT_MAX_AGE = 86_400
READ_METHODS = ("GET", "HEAD", "OPTIONS")
JSON = "application/json"
REQUEST_HEADERS = "Authorization, Content-Type, Idempotency-Key, If-None-Match"
"""The headers a configured origin's page may send (a write's; the API reads no If-Match)."""
EXPOSED_HEADERS = "ETag, Location, Idempotent-Replayed, X-Request-ID, Retry-After, WWW-Authenticate"
"""The headers of an answer a page of another origin may read."""
View = Callable[..., Any]


def private(view: View) -> View:
    """Mark an endpoint as a private read (see the module's words); put it below the route."""
    setattr(view, PRIVATE_ATTRIBUTE, True)
    return view


def created(request: HttpRequest, body: Any, location: str) -> Status[Any]:
    """A 201 answer of `body`, its ``Location`` the API path `location` of what was created
    (or, for a fact with no URL of its own, of the resource it belongs to)."""
    setattr(request, LOCATION_ATTRIBUTE, location)
    return Status(201, body)


RATE_LIMITED: dict[int, type[ErrorOut]] = {429: ErrorOut}
"""The answer of an operation a limit applies to (with ``Retry-After``): add it to its
``response``."""


def answer_rate_limits(api: NinjaAPI) -> None:
    """Answer a service's `RateLimitedError` 429 in the error shape, its code the limit's, with
    ``Retry-After`` (seconds)."""

    def on_rate_limited(request: HttpRequest, exc: Any) -> HttpResponse:
        limited: RateLimitedError = exc  # ninja types its handlers' error loosely
        body = error_body(limited.limit, " ".join(limited.messages))
        response = api.create_response(request, body, status=429)
        response["Retry-After"] = str(limited.retry_after)
        return response

    api.add_exception_handler(RateLimitedError, on_rate_limited)


def operation_of(request: HttpRequest) -> Operation | None:
    """The operation that answered `request`, once it ran (None: not an operation's path)."""
    found = getattr(request, OPERATION_ATTRIBUTE, None)
    return found if isinstance(found, Operation) else None


def is_private(operation: Operation | None) -> bool:
    """Whether an operation is a private read or write (a token's, or marked `private`)."""
    return operation is not None and (
        bool(operation.auth_callbacks) or getattr(operation.view_func, PRIVATE_ATTRIBUTE, False)
    )


def mark_operations(routers: list[Router]) -> None:
    """Make every operation of `routers` note itself on the request before it runs, and refuse
    a public operation's request that sends a token that is not live (see module words).
    Called once the endpoints are declared: the note then runs first, before a 304."""
    for router in routers:
        for path_view in router.path_operations.values():
            for operation in path_view.operations:
                decorate_view(_noting(operation))(operation.view_func)


def _noting(operation: Operation) -> Callable[[View], View]:
    def around(run: View) -> View:
        @wraps(run)
        def noted(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            setattr(request, OPERATION_ATTRIBUTE, operation)
            if not operation.auth_callbacks and _sends_dead_token(request):
                return not_authenticated()
            response: HttpResponseBase = run(request, *args, **kwargs)
            return response

        return noted

    return around


def _sends_dead_token(request: HttpRequest) -> bool:
    header = request.META.get("HTTP_AUTHORIZATION")
    if header is None:
        return False
    scheme, _, secret = header.strip().partition(" ")
    return scheme.lower() != "bearer" or request_token(request, secret.strip()) is None


class ApiContractMiddleware:
    """Apply the module's rules to every answer under /api/."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponseBase]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponseBase:
        if not request.path.startswith(API_PREFIX):
            return self.get_response(request)
        method = request.method or "GET"
        if method == "HEAD":
            request.method = "GET"
        response = self.get_response(request)
        if method == "OPTIONS":
            response = _options(request, response)
        response = _in_error_shape(request, method, response)
        if method in ("GET", "HEAD") and response.status_code == 200:
            response = _conditional(request, response)
        _headers(request, method, response)
        _content_type(response)
        if method == "HEAD" and isinstance(response, HttpResponse):
            length = len(response.content)
            response.content = b""
            response["Content-Length"] = str(length)
        return response


def bad_request(request: HttpRequest, exception: Exception) -> HttpResponseBase:
    """Django's ``handler400`` (a request Django refuses before any view, such as a ``Host``
    it does not serve: `flipwell.web.hosts`): under /api/ the error shape, elsewhere Django's
    own page. The middleware never sees these: the host is checked before it runs."""
    if not request.path.startswith(API_PREFIX):
        return defaults.bad_request(request, exception)
    if isinstance(exception, DisallowedHost):
        message = (
            "This server does not answer for the host this request names (its Host header, "
            "name or port): send it to the installation's own address."
        )
        return error_response("host_not_allowed", message, 400)
    return error_response("malformed", "The request is malformed.", 400)


def _allowed(response: HttpResponseBase) -> list[str]:
    methods = [m.strip() for m in response.get("Allow", "").split(",") if m.strip()]
    if "GET" in methods:
        methods.append("HEAD")
    return sorted({*methods, "OPTIONS"})


def _options(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """OPTIONS: the methods the path serves (ninja answered 405 with them), and a browser's
    CORS preflight: a configured origin's for any path, any origin's for a public read."""
    if response.status_code != 405:
        return response
    allowed = _allowed(response)
    answer = HttpResponse(status=204)
    answer["Allow"] = ", ".join(allowed)
    if not request.headers.get("Access-Control-Request-Method"):
        return answer
    origin = configured_origin(request)
    if origin is not None:
        answer["Access-Control-Allow-Origin"] = origin
        answer["Access-Control-Allow-Methods"] = ", ".join(allowed)
        answer["Access-Control-Allow-Headers"] = REQUEST_HEADERS
        answer["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE)
        patch_vary_headers(answer, ("Origin",))
    elif _serves_public_read(request):
        answer["Access-Control-Allow-Origin"] = "*"
        answer["Access-Control-Allow-Methods"] = ", ".join(READ_METHODS)
        answer["Access-Control-Allow-Headers"] = "If-None-Match"
        answer["Access-Control-Max-Age"] = str(PREFLIGHT_MAX_AGE)
    return answer


def configured_origin(request: HttpRequest) -> str | None:
    """The request's ``Origin`` when it is one of ``FLIPWELL_CORS_ORIGINS``, else None."""
    origin = request.headers.get("Origin", "").strip().lower()
    return origin if origin and origin in settings.CORS_ORIGINS else None


def _serves_public_read(request: HttpRequest) -> bool:
    """Whether the path the request resolved to has a GET operation that is not private."""
    match = getattr(request, "resolver_match", None)
    cells = getattr(getattr(match, "func", None), "__closure__", None) or ()
    # ninja's view of a path is a closure over its PathView, which lists its operations.
    views = [c.cell_contents for c in cells if isinstance(c.cell_contents, PathView)]
    return any(
        "GET" in operation.methods and not is_private(operation)
        for view in views
        for operation in view.operations
    )


_KEPT_HEADERS = ("Allow", "WWW-Authenticate", "Retry-After", "X-Request-ID")


def _in_error_shape(
    request: HttpRequest, method: str, response: HttpResponseBase
) -> HttpResponseBase:
    """Django's own HTML refusal, answered in the error shape."""
    if response.status_code < 400 or "json" in response.get("Content-Type", ""):
        return response
    status = response.status_code
    content = getattr(response, "content", b"")
    if status == 404:
        answer = error_response("not_found", f"No API endpoint at {request.path}.", 404)
    elif status == 405:
        allowed = ", ".join(_allowed(response))
        message = f"{method} is not served at {request.path}: use {allowed}."
        answer = error_response("method_not_allowed", message, 405)
        answer["Allow"] = allowed
    elif status == 403 and b"CSRF" in content:
        message = (
            "Refused: this looks like a browser form without its CSRF token. The API takes "
            "JSON with an API token ('Authorization: Bearer fw_...'), not a signed-in session."
        )
        answer = error_response("forbidden", message, 403)
    elif status >= 500:
        message = "flipwell failed on this request; the error is logged for its administrator."
        answer = error_response("server_error", message, status)
    else:
        answer = error_response("refused", "The request is refused.", status)
    for header in _KEPT_HEADERS:
        if header in response and header not in answer:
            answer[header] = response[header]
    return answer


def _conditional(request: HttpRequest, response: HttpResponseBase) -> HttpResponseBase:
    """Tag a read's 200 (by its body when the endpoint gave no tag) and answer 304 to an
    If-None-Match that holds the tag or ``*``."""
    if response.streaming or not isinstance(response, HttpResponse):
        return response
    if not response.has_header("ETag"):
        set_response_etag(response)
        if not response.has_header("Cache-Control"):
            response["Cache-Control"] = "no-cache"
    answer = get_conditional_response(request, etag=response["ETag"], response=response)
    if answer is None:
        return response
    if answer is not response:  # a 304: keep what a cache needs of the 200
        for header in ("Cache-Control", "Vary"):
            if header in response:
                answer[header] = response[header]
    return answer


def _headers(request: HttpRequest, method: str, response: HttpResponseBase) -> None:
    operation = operation_of(request)
    location = getattr(request, LOCATION_ATTRIBUTE, None)
    if response.status_code == 201 and location:
        response["Location"] = request.build_absolute_uri(location)
    if response.status_code == 401 and not response.has_header("WWW-Authenticate"):
        response["WWW-Authenticate"] = BEARER_CHALLENGE
    if method == "OPTIONS":
        return  # `_options` answered it
    reading = method in ("GET", "HEAD")
    if reading and is_private(operation):
        response["Cache-Control"] = PRIVATE_CACHE
    patch_vary_headers(response, ("Authorization",))
    if reading and not is_private(operation):
        response["Access-Control-Allow-Origin"] = "*"
        response["Access-Control-Expose-Headers"] = EXPOSED_HEADERS
        return
    if settings.CORS_ORIGINS:
        patch_vary_headers(response, ("Origin",))
    origin = configured_origin(request)
    if origin is not None:
        response["Access-Control-Allow-Origin"] = origin
        response["Access-Control-Expose-Headers"] = EXPOSED_HEADERS


def _content_type(response: HttpResponseBase) -> None:
    """One content type for JSON (see the module's words); none for an answer without body."""
    if response.status_code in (204, 304):
        if response.has_header("Content-Type"):
            del response["Content-Type"]
    elif response.get("Content-Type", "").split(";")[0].strip() == JSON:
        response["Content-Type"] = JSON
