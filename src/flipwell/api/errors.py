"""One error shape for every refusal: ``{"error": {"code", "message", "fields"}}``.

Words: *fields* maps a field (a dotted path into the request body or a query or path
parameter; ``line N, column`` for a CSV upload) to its messages. Statuses: 400 malformed
input, 401 no valid token, 403 not allowed, 404 not found, 409 conflict (another request won,
or a reused idempotency key), 413 a body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE``, 415 a
body that is not sent as JSON, 422 input that is well-formed but not valid (from the schema or
from a service's rule). Nothing a client sends can produce a 500; should flipwell fail anyway,
the 500 is in the error shape too, with no detail (the exception is logged on
``django.request``, as Django logs its own 500s).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError

from flipwell.api.parsing import UnsupportedMediaTypeError
from flipwell.api.schemas import ErrorOut
from flipwell.league.players_csv import PlayersCsvError
from flipwell.league.services import ConflictError

ERROR_STATUSES = frozenset({400, 401, 403, 404, 409, 413, 415, 422})
ERROR_RESPONSES: dict[frozenset[int], type[ErrorOut]] = {ERROR_STATUSES: ErrorOut}
"""Every operation documents these statuses with the error shape."""
ALL_FIELDS = "__all__"
# The first parts of a ninja error location that are not the client's field names.
_LOCATION_SOURCES = ("body", "query", "path", "header", "form", "file", "cookie")
# Clearer words than pydantic's for the strict input schemas' refusals (by error type).
_SCHEMA_MESSAGES = {
    "extra_forbidden": "is not a field of this request; leave it out",
    "int_type": "must be a whole number (a JSON integer, not a string, a fraction or true)",
    "bool_type": "must be true or false",
    "string_type": "must be a JSON string",
}
logger = logging.getLogger("django.request")


def error_body(
    code: str, message: str, fields: Mapping[str, Sequence[str]] | None = None
) -> dict[str, Any]:
    """The error shape as a dict."""
    return {
        "error": {
            "code": code,
            "message": message,
            "fields": {k: list(v) for k, v in (fields or {}).items()},
        }
    }


def error_response(
    code: str, message: str, status: int, fields: Mapping[str, Sequence[str]] | None = None
) -> JsonResponse:
    """A JSON response in the error shape (for views outside ninja, e.g. unknown URLs)."""
    return JsonResponse(error_body(code, message, fields), status=status)


def install_error_handlers(api: NinjaAPI) -> None:
    """Answer every refusal in the error shape (see the module docstring)."""

    def respond(request: HttpRequest, status: int, body: dict[str, Any]) -> HttpResponse:
        return api.create_response(request, body, status=status)

    def on_conflict(request: HttpRequest, exc: ConflictError) -> HttpResponse:
        return respond(request, 409, _from_django(exc, code=exc.conflict))

    def on_invalid(request: HttpRequest, exc: ValidationError) -> HttpResponse:
        return respond(request, 422, _from_django(exc, code="invalid"))

    def on_csv(request: HttpRequest, exc: PlayersCsvError) -> HttpResponse:
        where = f"line {exc.line}" if exc.column is None else f"line {exc.line}, {exc.column}"
        body = error_body(
            "invalid",
            f"The file has a bad row; nothing was imported: {exc}.",
            {where: [exc.message]},
        )
        return respond(request, 422, body)

    def on_forbidden(request: HttpRequest, exc: PermissionDenied) -> HttpResponse:
        message = str(exc) or "You may not do this."
        return respond(request, 403, error_body("forbidden", message))

    def on_not_found(request: HttpRequest, exc: Http404) -> HttpResponse:
        message = str(exc) or "Not found."
        return respond(request, 404, error_body("not_found", message))

    def on_schema(request: HttpRequest, exc: NinjaValidationError) -> HttpResponse:
        fields: dict[str, list[str]] = {}
        for problem in exc.errors:
            fields.setdefault(_field_name(problem.get("loc", ())), []).append(
                _schema_message(problem)
            )
        if any(problem.get("type") == "json_invalid" for problem in exc.errors):
            return respond(request, 400, error_body("malformed", "The body is not JSON.", fields))
        return respond(
            request, 422, error_body("invalid_input", "Some input is not valid.", fields)
        )

    def on_http(request: HttpRequest, exc: HttpError) -> HttpResponse:
        if isinstance(exc.__cause__, UnsupportedMediaTypeError):  # ninja wraps the parser's error
            body = error_body("unsupported_media_type", str(exc.__cause__))
            return respond(request, 415, body)
        if isinstance(exc, AuthenticationError) or exc.status_code == 401:
            body = error_body(
                "not_authenticated",
                "Send a valid API token: 'Authorization: Bearer fw_...'. An official of the "
                "league issues one.",
            )
            return respond(request, 401, body)
        status = exc.status_code if exc.status_code in ERROR_STATUSES else 400
        return respond(request, status, error_body(_CODES.get(status, "malformed"), str(exc)))

    def on_too_big(request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        message = f"The request body is too large: at most {limit} bytes."
        return respond(request, 413, error_body("too_large", message))

    def on_crash(request: HttpRequest, exc: Exception) -> HttpResponse:
        logger.error(
            "Internal Server Error: %s",
            request.path,
            exc_info=exc,
            extra={"status_code": 500, "request": request},
        )
        message = "flipwell failed on this request; the error is logged for its administrator."
        return respond(request, 500, error_body("server_error", message))

    _register(api, ConflictError, on_conflict)
    _register(api, ValidationError, on_invalid)
    _register(api, PlayersCsvError, on_csv)
    _register(api, PermissionDenied, on_forbidden)
    _register(api, Http404, on_not_found)
    _register(api, NinjaValidationError, on_schema)
    _register(api, HttpError, on_http)
    _register(api, RequestDataTooBig, on_too_big)
    _register(api, Exception, on_crash)


def _register(
    api: NinjaAPI, error: type[Exception], handler: Callable[[HttpRequest, Any], HttpResponse]
) -> None:
    api.add_exception_handler(error, handler)


_CODES = {
    400: "malformed",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    409: "conflict",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid",
}


def _from_django(exc: ValidationError, *, code: str) -> dict[str, Any]:
    if hasattr(exc, "error_dict"):
        fields = dict(exc.message_dict)
        general = fields.pop(ALL_FIELDS, [])
        message = (
            " ".join(general) if general else " ".join(m for ms in fields.values() for m in ms)
        )
        return error_body(code, message, fields)
    return error_body(code, " ".join(exc.messages))


def _schema_message(problem: Mapping[str, Any]) -> str:
    message = _SCHEMA_MESSAGES.get(str(problem.get("type")))
    return message or str(problem.get("msg", "is not valid"))


def _field_name(location: Sequence[Any]) -> str:
    parts = [str(p) for p in location]
    if parts and parts[0] == "body":
        parts = parts[2:]  # "body", then the name of the body's parameter
    elif parts and parts[0] in _LOCATION_SOURCES:
        parts = parts[1:]
    return ".".join(parts) or ALL_FIELDS
