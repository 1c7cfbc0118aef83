"""The ``Idempotency-Key`` header: every API write (POST, PUT, PATCH, DELETE) is safe to retry.

A client sends a key it chose for one write (a UUID, say). The first request with that key
runs and its answer is stored; the same key with the same request (method, path, body)
within ``IDEMPOTENCY_KEY_HOURS`` (24 hours) gets the first answer again: its status, its
headers (``Location`` included) and its body, marked ``Idempotent-Replayed: true``, and
nothing is written twice. The headers that belong to each request (``Vary``,
``X-Request-ID``, CORS) are set on the replay as on the first answer, by the same middleware
(`flipwell.api.contract`): the replay runs inside the operation's note. The same key with
another request is a 409 ``idempotency_key_reused``. Keys are the sender's own: stored per
league and API token (or per personal link, for the ``/me/`` writes), so another token's same
key is a new request. An answer of a server error (5xx) is not stored: the retry runs again.

Words:
- *fact write*: a write that records a fact that counts (a violation, a forfeit, a
  malfunction, money, a notice, a correction, ...; `key_required`). Without the header it is
  refused, 428 ``idempotency_key_required``, before anything runs: sent again without a key
  after a lost answer, it would be stored twice (a second offense, a malfunction counted twice
  in a machine's reliability) or refused as a duplicate a client cannot tell from a real
  conflict. Other writes take the key but do not need it: a second send is the same thing
  (it sets a value, changes a state once, or names what it creates).
- *body key*: score entry carries its own retry key in its body (``idempotency_key``,
  `key_in_body`); without the header it is the request's key, so a retry by either key gets
  the same replay. A sheet whose stored answer is gone (older than the key's lifetime) is
  still recognised by the service from its key: the endpoint then answers as the first time,
  marked replayed (`mark_replayed`).

`install_idempotency` wraps every operation's run (before `flipwell.api.contract` notes the
operation, so the note wraps the replay too), and `document_idempotency` adds the header to
every write in the OpenAPI schema (required on the fact writes, with their 428).
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Iterable, MutableMapping
from typing import Any, TypeVar

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase
from ninja import Router
from ninja.decorators import decorate_view

from flipwell.api.contract import LOCATION_ATTRIBUTE
from flipwell.api.errors import error_response
from flipwell.api.tokens import request_token
from flipwell.league.idempotency import (
    MAX_KEY_LENGTH,
    Answer,
    KeyReusedError,
    fingerprint,
    key_problem,
    once,
)
from flipwell.league.player_link_tokens import DeadLinkError
from flipwell.league.services.player_links import live_link

HEADER = "Idempotency-Key"
REPLAYED = "Idempotent-Replayed"
WRITE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
KEY_REQUIRED_STATUS = 428
_SERVER_ERROR = 500
_REQUIRED_ATTRIBUTE = "_flipwell_key_required"
_BODY_KEY_ATTRIBUTE = "_flipwell_body_key"
_REPLAYED_ATTRIBUTE = "_flipwell_replayed"
# Marks on an operation's schema, read and removed by `document_idempotency`.
_REQUIRED_MARK = "x-flipwell-idempotency-key-required"
_BODY_KEY_MARK = "x-flipwell-idempotency-body-key"
KEY_REQUIRED_MESSAGE = (
    f"This write records a fact that counts, so it needs an {HEADER} header: a key you "
    "choose for this one write (a UUID, say), sent again unchanged when you retry it. A retry "
    "with the key is answered from the first answer instead of being stored twice (without "
    "one, a retry after a lost answer would record the fact a second time)."
)

Run = Callable[..., HttpResponseBase]
V = TypeVar("V", bound=Callable[..., Any])


def key_required(view: V) -> V:
    """Mark an endpoint as a fact write (see the module's words): its requests without an
    ``Idempotency-Key`` header are refused with a 428. Put it below the route."""
    setattr(view, _REQUIRED_ATTRIBUTE, True)
    return view


def key_in_body(field: str) -> Callable[[V], V]:
    """Mark an endpoint whose JSON body carries its own retry key in `field` (a *body key*):
    without the header, the field's value is the request's key. Put it below the route."""

    def mark(view: V) -> V:
        setattr(view, _BODY_KEY_ATTRIBUTE, field)
        return view

    return mark


def mark_replayed(request: HttpRequest) -> None:
    """Mark the answer to `request` as the replay of an earlier one, for a write that
    recognised the retry itself (a body key whose stored answer is gone)."""
    setattr(request, _REPLAYED_ATTRIBUTE, True)


def install_idempotency(routers: Iterable[Router]) -> None:
    """Make every write of `routers` run once per key (see the module docstring). Called once
    the endpoints are declared, before `flipwell.api.contract.mark_operations`."""
    for router in routers:
        for path_view in router.path_operations.values():
            for operation in path_view.operations:
                if WRITE_METHODS.isdisjoint(operation.methods):
                    continue
                required = bool(getattr(operation.view_func, _REQUIRED_ATTRIBUTE, False))
                field = getattr(operation.view_func, _BODY_KEY_ATTRIBUTE, None)
                marks = {_REQUIRED_MARK: required, _BODY_KEY_MARK: field}
                extra = {k: v for k, v in marks.items() if v}
                operation.openapi_extra = {**(operation.openapi_extra or {}), **extra}
                decorate_view(_once_per_key(required=required, body_key=field))(operation.view_func)


def _once_per_key(*, required: bool, body_key: str | None) -> Callable[[Run], Run]:
    def around(run: Run) -> Run:
        @functools.wraps(run)
        def run_once(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            answer = _answer(request, run, args, kwargs, required=required, body_key=body_key)
            if getattr(request, _REPLAYED_ATTRIBUTE, False):
                answer[REPLAYED] = "true"
            return answer

        return run_once

    return around


def _answer(
    request: HttpRequest,
    run: Run,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    required: bool,
    body_key: str | None,
) -> HttpResponseBase:
    """The write's answer: run once per key, replayed, or refused (400, 409, 428)."""
    key, source = request.headers.get(HEADER), HEADER
    if key is not None:
        problem = key_problem(key)
        if problem is not None:
            return error_response(
                "malformed", f"The {HEADER} header {problem}.", 400, {HEADER: [problem]}
            )
    owner = _owner(request, kwargs)
    try:
        body = request.body
    except RequestDataTooBig:
        owner = None  # the run answers 413
    if owner is None:  # no valid token or link: the run refuses it (401, 404)
        return run(request, *args, **kwargs)
    if key is None and body_key is not None:
        key, source = _key_in(body, body_key), body_key
    if key is None:
        if required:
            return error_response("idempotency_key_required", KEY_REQUIRED_MESSAGE, 428, {})
        return run(request, *args, **kwargs)
    scope, sender = owner
    try:
        answer = once(
            scope=scope,
            sender=sender,
            key=key,
            fingerprint=fingerprint(
                method=request.method or "", path=request.get_full_path(), body=body
            ),
            write=lambda: run(request, *args, **kwargs),
            keep=lambda response: _kept(request, response),
        )
    except KeyReusedError as error:
        used = error.stored.created_at.isoformat(timespec="seconds")
        message = (
            f"This key ({source}) was used at {used} for another request (another path or "
            "body); send a new key for a new request."
        )
        return error_response("idempotency_key_reused", message, 409, {source: [message]})
    if isinstance(answer, Answer):
        mark_replayed(request)
        return _replayed(answer)
    return answer


def _key_in(body: bytes, field: str) -> str | None:
    """The body key `field` of a JSON `body`, when it is a valid key (else None: the
    endpoint's own validation and service judge it)."""
    try:
        value = json.loads(body).get(field)
    except (ValueError, AttributeError):
        return None
    if not isinstance(value, str) or key_problem(value) is not None:
        return None
    return value


def _owner(request: HttpRequest, kwargs: dict[str, Any]) -> tuple[str, str] | None:
    """(scope, sender) of the request's key: a personal link's league and link for the
    ``/me/{token}`` writes, else the API token's league and token; None when neither is
    valid. An installation token's keys are the installation's (it has no league)."""
    if "token" in kwargs:
        try:
            link = live_link(str(kwargs["token"]))
        except DeadLinkError:
            return None
        return f"league:{link.season.league_id}", f"link:{link.pk}"
    scheme, _, secret = request.headers.get("Authorization", "").partition(" ")
    if scheme.lower() != "bearer":
        return None
    token = request_token(request, secret.strip())
    if token is None:
        return None
    where = "installation" if token.league_id is None else f"league:{token.league_id}"
    return where, f"token:{token.pk}"


def _kept(request: HttpRequest, response: HttpResponseBase) -> Answer | None:
    """The answer stored for retries: any but a server error (then the retry runs again),
    with the ``Location`` the middleware gives a 201 (`flipwell.api.contract.created`)."""
    if response.status_code >= _SERVER_ERROR or not isinstance(response, HttpResponse):
        return None
    headers = dict(response.items())
    location = getattr(request, LOCATION_ATTRIBUTE, None)
    if response.status_code == 201 and location:
        headers["Location"] = request.build_absolute_uri(location)
    return Answer(
        status=response.status_code,
        headers=headers,
        body=response.content.decode("utf-8", errors="replace"),
    )


def _replayed(answer: Answer) -> HttpResponse:
    response = HttpResponse(answer.body, status=answer.status)
    for name, value in answer.headers.items():
        response[name] = value
    return response


_PARAMETER = {
    "name": HEADER,
    "in": "header",
    "schema": {
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_KEY_LENGTH,
        "pattern": f"^[!-~]{{1,{MAX_KEY_LENGTH}}}$",
    },
    "description": (
        "A key you choose for this write (a UUID, say), to retry it safely: the same key with "
        "the same request within {hours} hours gets the first answer again (its status, "
        f"headers and body, with `{REPLAYED}: true`) and nothing is written twice; the same "
        "key with another request is a 409 `idempotency_key_reused`. Keys are per API token "
        "(per personal link for /me/). 1 to 255 visible ASCII characters. {need}"
    ),
}
_REQUIRED = (
    "Required: this write records a fact that counts; without the header it is refused with "
    "a 428 `idempotency_key_required` and nothing is stored."
)
_OPTIONAL = "Optional: a second send of this write is the same thing (or refused as such)."
_BODY_KEY = (
    "Optional: without it, the body's `{field}` is this request's key (a retry by either "
    "key gets the same replay)."
)


def document_idempotency(schema: MutableMapping[str, Any]) -> None:
    """Add the ``Idempotency-Key`` header to every write of the OpenAPI `schema` (required,
    with a 428 answer, on the fact writes), and the ``Idempotent-Replayed`` header to its
    answers."""
    replayed = {
        REPLAYED: {
            "description": "true when this is the stored answer of an earlier request with "
            f"the same {HEADER}.",
            "schema": {"type": "string", "enum": ["true"]},
        }
    }
    for operations in schema.get("paths", {}).values():
        for method, operation in operations.items():
            if method.upper() not in WRITE_METHODS:
                continue
            required = bool(operation.pop(_REQUIRED_MARK, False))
            operation.setdefault("parameters", []).append(_parameter(operation, required))
            responses = operation.setdefault("responses", {})
            if required:
                responses[KEY_REQUIRED_STATUS] = _key_required_answer(responses)
            for status, response in responses.items():
                if str(status).startswith("2"):
                    response.setdefault("headers", {}).update(replayed)


def _parameter(operation: MutableMapping[str, Any], required: bool) -> dict[str, Any]:
    field = operation.pop(_BODY_KEY_MARK, None)
    if required:
        need = _REQUIRED
    elif field is not None:
        need = _BODY_KEY.format(field=field)
    else:
        need = _OPTIONAL
    text = str(_PARAMETER["description"])
    return {
        **_PARAMETER,
        "required": required,
        "description": text.format(hours=settings.IDEMPOTENCY_KEY_HOURS, need=need),
    }


def _key_required_answer(responses: MutableMapping[Any, Any]) -> dict[str, Any]:
    """The 428's documentation, in the error shape the operation's other refusals have."""
    shape = next(
        (r["content"] for s, r in responses.items() if str(s).startswith("4") and "content" in r),
        None,
    )
    answer: dict[str, Any] = {
        "description": (
            f"Precondition Required: the {HEADER} header is missing (code "
            "`idempotency_key_required`); nothing was stored."
        )
    }
    if shape is not None:
        answer["content"] = shape
    return answer
