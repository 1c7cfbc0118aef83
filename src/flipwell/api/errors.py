"""One error shape for every refusal: ``{"error": {"code", "message", "fields"}}``.

Words: *code* is a stable snake_case name of the check that refused, for programs
(``meet_not_today``, ``stale_version``); *message* says it for people. *fields* maps a field
to its messages: a dotted path into the request as it was sent (a key of the JSON body,
``scores.0.machine_score`` inside it, or a query or path parameter), ``line N, column`` for a
CSV upload, or ``request`` (`WHOLE_REQUEST`) for the messages about the request as a whole,
which are also the error's ``message``. A service names its refusals by its own arguments or
model fields (``season``, ``merged``): the body schema's attribute of that name stands for the
field sent under its alias (``season_id``, ``merged_player_id``; `flipwell.api.arguments`), a
service's ``x`` is taken for the request's ``x_id`` when only that was sent, and a name the
request does not contain is about the request as a whole (``request``, `request_field`). A
refusal about players of a list of lines (a sheet's ``scores``) names each line sent
(``scores.2.player``; `flipwell.league.refusals.Refusal`). pydantic's locations are walked
along the body sent, so a union's or a literal's branch (``literal['a','b']``) never shows.

Statuses: 400 malformed input, 401 no valid token (with ``WWW-Authenticate: Bearer``),
403 not allowed, 404 not found, 405 a method the path does not serve, 409 the league's state
forbids the request now, 413 a body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE``, 415 a body
that is not sent as JSON, 422 the request itself is wrong. Nothing a client sends can produce
a 500; should flipwell fail anyway, the 500 is in the error shape too, with no detail (the
exception is logged on ``django.request``, as Django logs its own 500s).

409 or 422, decided once: 409 when the state of the league forbids it now, whatever the
request says: it was already done (``forfeit_already_recorded``,
``compensatory_already_granted``, ``meet_already_closed``), it is not ready yet
(``meet_unfinished``, ``meet_not_today``, ``game_not_confirmed``), or another request won
(``stale_version``, ``game_already_confirmed``, ``idempotency_key_reused``); sent again
later, the same request may pass (or never, being done). 422 when the request itself is
wrong and must change to pass: a value out of range, an unknown name, a player not in the
group, a machine the rules do not allow (``machine_not_allowed``), a pick by the wrong player.

Codes: a service's refusal is a `Refusal` (422) or a `ConflictError` (409) with its code
(`flipwell.league.refusals`, where `CODES` lists each with its meaning); the handler answers
that code and status. The API's own codes: ``malformed`` (400), ``not_authenticated`` (401),
``forbidden`` (403), ``not_found`` (404), ``too_large`` (413), ``unsupported_media_type``
(415), ``invalid_input`` (422, the body or a parameter does not fit the schema),
``invalid_csv`` (422, a bad row of an uploaded CSV), ``invalid`` (422, a value a model's
validators refuse). The OpenAPI document lists, for each operation and status, every code it
can answer (`flipwell.api.refusal_codes`).
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig, ValidationError
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.http.request import RawPostDataException
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError
from ninja.errors import ValidationError as NinjaValidationError

from flipwell.api.parsing import UnsupportedMediaTypeError
from flipwell.api.schemas.common import ErrorOut
from flipwell.league.players_csv import PlayersCsvError
from flipwell.league.refusals import Refusal

ERROR_STATUSES = frozenset({400, 401, 403, 404, 409, 413, 415, 422})
ERROR_RESPONSES: dict[frozenset[int], type[ErrorOut]] = {ERROR_STATUSES: ErrorOut}
"""Every operation documents these statuses with the error shape."""
WHOLE_REQUEST = "request"
"""The key in *fields* of the messages about the request as a whole (no one field of it)."""
ALL_FIELDS = WHOLE_REQUEST  # its older name
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
_CSV_PLACE = re.compile(r"^line \d+(, .+)?$")
OPERATION_ATTRIBUTE = "_flipwell_operation"
"""Where an operation notes itself on the request (`flipwell.api.contract`)."""
NOT_AUTHENTICATED = (
    "Send a valid API token: 'Authorization: Bearer fw_...'. An official of the league issues one."
)
BEARER_CHALLENGE = 'Bearer realm="flipwell"'

_ABSENT = object()


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


def not_authenticated() -> JsonResponse:
    """The 401 for a missing, unknown or revoked token, with its ``WWW-Authenticate``."""
    response = error_response("not_authenticated", NOT_AUTHENTICATED, 401)
    response["WWW-Authenticate"] = BEARER_CHALLENGE
    return response


def install_error_handlers(api: NinjaAPI) -> None:
    """Answer every refusal in the error shape (see the module docstring): one handler per
    kind of error (`_HANDLERS`), each a named step below."""
    for error, handler in _HANDLERS:
        _register(api, error, partial(handler, api))


def _register(
    api: NinjaAPI, error: type[Exception], handler: Callable[[HttpRequest, Any], HttpResponse]
) -> None:
    api.add_exception_handler(error, handler)


def _respond(
    api: NinjaAPI, request: HttpRequest, status: int, body: dict[str, Any]
) -> HttpResponse:
    return api.create_response(request, body, status=status)


def _on_refusal(api: NinjaAPI, request: HttpRequest, exc: Refusal) -> HttpResponse:
    """A service's refusal: its code and status (422, or 409 for a `ConflictError`)."""
    body = _from_django(exc, code=exc.refusal, request=request)
    return _respond(api, request, exc.status, body)


def _on_invalid(api: NinjaAPI, request: HttpRequest, exc: ValidationError) -> HttpResponse:
    """A value a model's validators refuse: 422 ``invalid``."""
    return _respond(api, request, 422, _from_django(exc, code="invalid", request=request))


def _on_csv(api: NinjaAPI, request: HttpRequest, exc: PlayersCsvError) -> HttpResponse:
    """A bad row of an uploaded CSV: 422 ``invalid_csv``, naming its line (and column)."""
    where = f"line {exc.line}" if exc.column is None else f"line {exc.line}, {exc.column}"
    body = error_body(
        "invalid_csv",
        f"The file has a bad row; nothing was imported: {exc}.",
        {where: [exc.message]},
    )
    return _respond(api, request, 422, body)


def _on_forbidden(api: NinjaAPI, request: HttpRequest, exc: PermissionDenied) -> HttpResponse:
    message = str(exc) or "You may not do this."
    return _respond(api, request, 403, error_body("forbidden", message))


def _on_not_found(api: NinjaAPI, request: HttpRequest, exc: Http404) -> HttpResponse:
    message = str(exc) or "Not found."
    return _respond(api, request, 404, error_body("not_found", message))


def _on_schema(api: NinjaAPI, request: HttpRequest, exc: NinjaValidationError) -> HttpResponse:
    """Input that does not fit the schema: 422 ``invalid_input`` with a message per field
    sent (a union of literals: one message naming the choices), 400 for a body not JSON."""
    fields: dict[str, list[str]] = {}
    allowed: dict[str, list[str]] = {}  # a union of literals: one message for the field
    body = _sent_body(request)
    for problem in exc.errors:
        field = _field_name(problem.get("loc", ()), body)
        expected = (problem.get("ctx") or {}).get("expected")
        if problem.get("type") == "literal_error" and expected:
            allowed.setdefault(field, []).append(str(expected))
        else:
            fields.setdefault(field, []).append(_schema_message(problem))
    for field, choices in allowed.items():
        fields.setdefault(field, []).append(f"must be {' or '.join(choices)}")
    if any(problem.get("type") == "json_invalid" for problem in exc.errors):
        return _respond(api, request, 400, error_body("malformed", "The body is not JSON.", fields))
    return _respond(
        api, request, 422, error_body("invalid_input", "Some input is not valid.", fields)
    )


def _on_http(api: NinjaAPI, request: HttpRequest, exc: HttpError) -> HttpResponse:
    """ninja's own errors: a body not sent as JSON (415), no valid token (401, with its
    challenge), or another status it raises."""
    if isinstance(exc.__cause__, UnsupportedMediaTypeError):  # ninja wraps the parser's error
        body = error_body("unsupported_media_type", str(exc.__cause__))
        return _respond(api, request, 415, body)
    if isinstance(exc, AuthenticationError) or exc.status_code == 401:
        answer = _respond(api, request, 401, error_body("not_authenticated", NOT_AUTHENTICATED))
        answer["WWW-Authenticate"] = BEARER_CHALLENGE
        return answer
    status = exc.status_code if exc.status_code in ERROR_STATUSES else 400
    return _respond(api, request, status, error_body(_CODES.get(status, "malformed"), str(exc)))


def _on_too_big(api: NinjaAPI, request: HttpRequest, exc: RequestDataTooBig) -> HttpResponse:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    message = f"The request body is too large: at most {limit} bytes."
    return _respond(api, request, 413, error_body("too_large", message))


def _on_crash(api: NinjaAPI, request: HttpRequest, exc: Exception) -> HttpResponse:
    """Any other exception: logged on ``django.request``, answered 500 with no detail."""
    logger.error(
        "Internal Server Error: %s",
        request.path,
        exc_info=exc,
        extra={"status_code": 500, "request": request},
    )
    message = "flipwell failed on this request; the error is logged for its administrator."
    return _respond(api, request, 500, error_body("server_error", message))


_HANDLERS: tuple[tuple[type[Exception], Callable[..., HttpResponse]], ...] = (
    (Refusal, _on_refusal),
    (ValidationError, _on_invalid),
    (PlayersCsvError, _on_csv),
    (PermissionDenied, _on_forbidden),
    (Http404, _on_not_found),
    (NinjaValidationError, _on_schema),
    (HttpError, _on_http),
    (RequestDataTooBig, _on_too_big),
    (Exception, _on_crash),
)
"""The error kinds answered in the error shape and the step that answers each, in the order
they are registered."""


_CODES = {
    400: "malformed",
    401: "not_authenticated",
    403: "forbidden",
    404: "not_found",
    413: "too_large",
    415: "unsupported_media_type",
    422: "invalid",
}


def _from_django(
    exc: ValidationError, *, code: str, request: HttpRequest | None = None
) -> dict[str, Any]:
    if hasattr(exc, "error_dict"):
        fields: dict[str, list[str]] = {}
        for name, messages in exc.message_dict.items():
            key = name if request is None else request_field(request, name)
            for line in _lines_about(request, key, exc) or [key]:
                fields.setdefault(line, []).extend(messages)
        general = fields.get(WHOLE_REQUEST, [])
        message = (
            " ".join(general) if general else " ".join(m for ms in fields.values() for m in ms)
        )
        return error_body(code, message, fields)
    return error_body(code, " ".join(exc.messages), {WHOLE_REQUEST: exc.messages})


def _lines_about(request: HttpRequest | None, key: str, exc: ValidationError) -> list[str]:
    """The paths ``key.N.part`` of the lines of the list sent at `key` that name a player a
    `Refusal` is about (its `players`), in the order sent; none when it names none."""
    players = getattr(exc, "players", None)
    if request is None or not players:
        return []
    value: Any = _sent_body(request)
    for step in key.split("."):
        value = _child(value, step)
    if not isinstance(value, list):
        return []
    part = getattr(exc, "part", "player")
    return [
        f"{key}.{index}.{part}"
        for index, line in enumerate(value)
        if isinstance(line, dict) and line.get("player") in players
    ]


def request_field(request: HttpRequest, name: str) -> str:
    """The field of the request sent that a service's refusal named `name` is about: the
    name sent for the body's attribute `name` (its alias), `name` or ``name_id`` when the
    request has it, else ``__all__``; a place in an uploaded CSV (``line N, column``) as it
    is."""
    if _CSV_PLACE.match(name):
        return name  # a place in the uploaded file (see the module's words)
    sent_as = _body_fields(request)
    for candidate in (sent_as.get(name), name, f"{name}_id"):
        if candidate and _in_request(request, candidate):
            return candidate
    return WHOLE_REQUEST


def _in_request(request: HttpRequest, path: str) -> bool:
    """Whether the dotted `path` is a field of the request sent: a query or path parameter,
    a part of a multipart form (a photo), or a path into its JSON body."""
    if path == WHOLE_REQUEST or path in request.GET or path in _body_fields(request).values():
        return True
    if _is_form(request) and (path in request.POST or path in request.FILES):
        return True
    match = getattr(request, "resolver_match", None)
    if match is not None and path in match.kwargs:
        return True
    value: Any = _sent_body(request)
    for part in path.split("."):
        value = _child(value, part)
        if value is _ABSENT:
            return False
    return True


def _is_form(request: HttpRequest) -> bool:
    return (request.content_type or "") == "multipart/form-data"


def _body_fields(request: HttpRequest) -> dict[str, str]:
    """The fields of the endpoint's body schema (sent or not): each attribute's name -> its
    name in the request (its alias, else the same)."""
    operation = getattr(request, OPERATION_ATTRIBUTE, None)
    names: dict[str, str] = {}
    for model in getattr(operation, "models", ()):
        if getattr(model, "__ninja_param_source__", None) != "body":
            continue
        for field in model.model_fields.values():
            schema_fields = getattr(field.annotation, "model_fields", {})
            names |= {name: info.alias or name for name, info in schema_fields.items()}
    return names


def _sent_body(request: HttpRequest) -> Any:
    """The JSON body sent, or None (none, or not JSON)."""
    try:
        return json.loads(request.body) if request.body else None
    except (ValueError, RawPostDataException):  # not JSON, or read as a stream (an upload)
        return None


def _child(value: Any, part: str) -> Any:
    if isinstance(value, dict):
        return value.get(part, _ABSENT)
    if isinstance(value, list) and part.isdigit() and int(part) < len(value):
        return value[int(part)]
    return _ABSENT


def _schema_message(problem: Mapping[str, Any]) -> str:
    message = _SCHEMA_MESSAGES.get(str(problem.get("type")))
    return message or str(problem.get("msg", "is not valid"))


def _field_name(location: Sequence[Any], body: Any = None) -> str:
    """The request's field a pydantic error location points at.

    A body location is walked along the body sent: a key or index found is kept; a name not
    found is kept only last (a missing field), and anything else is a branch pydantic names
    (``literal['a','b']``, ``int``, a union's tag) and is dropped. A query, path or header
    location is its parameter's name."""
    parts = [str(p) for p in location]
    if not parts or parts[0] not in _LOCATION_SOURCES:
        return ".".join(parts) or WHOLE_REQUEST
    if parts[0] != "body":
        return parts[1] if len(parts) > 1 else WHOLE_REQUEST
    kept: list[str] = []
    value = body
    rest = parts[2:]  # "body", then the name of the body's parameter
    for index, part in enumerate(rest):
        child = _child(value, part)
        if child is not _ABSENT:
            kept.append(part)
            value = child
        elif isinstance(value, dict) and index == len(rest) - 1 and part.isidentifier():
            kept.append(part)
        elif not isinstance(value, (dict, list)):
            break
    return ".".join(kept) or WHOLE_REQUEST
