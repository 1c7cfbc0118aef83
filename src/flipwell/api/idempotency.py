"""The ``Idempotency-Key`` header: every API write (POST, PUT, PATCH, DELETE) is safe to retry.

A client sends a key it chose for one write (a UUID, say). The first request with that key
runs and its answer is stored; the same key with the same request (method, path, body)
within ``IDEMPOTENCY_KEY_HOURS`` (24 hours) gets the stored status, headers and body again,
marked ``Idempotent-Replayed: true``, and nothing is written twice. The same key with another
request is a 409 ``idempotency_key_reused``. Keys are the sender's own: stored per league and
API token (or per personal link, for the ``/me/`` writes), so another token's same key is a
new request. An answer of a server error (5xx) is not stored: the retry runs again. Without
the header a write runs as before (score entry's body field ``idempotency_key`` keeps its own
meaning).

`idempotent` wraps every operation's run (one decorator for the whole API, in `api.py`), and
`document_idempotency` adds the header to every write in the OpenAPI schema.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, MutableMapping
from typing import Any

from django.conf import settings
from django.core.exceptions import RequestDataTooBig
from django.http import HttpRequest, HttpResponse
from django.http.response import HttpResponseBase

from flipwell.api.errors import error_response
from flipwell.api.tokens import token_for_secret
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
_SERVER_ERROR = 500

Run = Callable[..., HttpResponseBase]


def idempotent(run: Run) -> Run:
    """Wrap an operation's run: a write with an ``Idempotency-Key`` header runs once per key
    (see the module docstring); anything else runs as it is."""

    @functools.wraps(run)
    def run_once(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        key = request.headers.get(HEADER)
        if request.method not in WRITE_METHODS or key is None:
            return run(request, *args, **kwargs)
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
                keep=_kept,
            )
        except KeyReusedError as error:
            used = error.stored.created_at.isoformat(timespec="seconds")
            message = (
                f"This {HEADER} was used at {used} for another request (another path or "
                "body); send a new key for a new request."
            )
            return error_response("idempotency_key_reused", message, 409, {HEADER: [message]})
        if isinstance(answer, Answer):
            return _replayed(answer)
        return answer

    return run_once


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
    token = token_for_secret(secret.strip())
    if token is None:
        return None
    where = "installation" if token.league_id is None else f"league:{token.league_id}"
    return where, f"token:{token.pk}"


def _kept(response: HttpResponseBase) -> Answer | None:
    """The answer stored for retries: any but a server error (then the retry runs again)."""
    if response.status_code >= _SERVER_ERROR or not isinstance(response, HttpResponse):
        return None
    return Answer(
        status=response.status_code,
        headers=dict(response.items()),
        body=response.content.decode("utf-8", errors="replace"),
    )


def _replayed(answer: Answer) -> HttpResponse:
    response = HttpResponse(answer.body, status=answer.status)
    for name, value in answer.headers.items():
        response[name] = value
    response[REPLAYED] = "true"
    return response


_PARAMETER = {
    "name": HEADER,
    "in": "header",
    "required": False,
    "schema": {
        "type": "string",
        "minLength": 1,
        "maxLength": MAX_KEY_LENGTH,
        "pattern": f"^[!-~]{{1,{MAX_KEY_LENGTH}}}$",
    },
    "description": (
        "A key you choose for this write (a UUID, say), to retry it safely: the same key with "
        "the same request within {hours} hours gets the stored answer again (header "
        f"`{REPLAYED}: true`) and nothing is written twice; the same key with another request "
        "is a 409 `idempotency_key_reused`. Keys are per API token (per personal link for "
        "/me/). 1 to 255 visible ASCII characters."
    ),
}


def document_idempotency(schema: MutableMapping[str, Any]) -> None:
    """Add the ``Idempotency-Key`` header to every write of the OpenAPI `schema`, and the
    ``Idempotent-Replayed`` header to its success answers."""
    parameter = {
        **_PARAMETER,
        "description": str(_PARAMETER["description"]).format(hours=settings.IDEMPOTENCY_KEY_HOURS),
    }
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
            operation.setdefault("parameters", []).append(dict(parameter))
            for status, response in operation.get("responses", {}).items():
                if str(status).startswith("2"):
                    response.setdefault("headers", {}).update(replayed)
