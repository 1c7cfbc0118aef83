"""The NinjaAPI instance: /api/v1/, its OpenAPI schema and its self-hosted docs page.

django-ninja builds the schema (/api/v1/openapi.json) from the endpoints' type hints and the
pydantic schemas; the docs page (/api/v1/docs) is Swagger UI from django-ninja's own static
files (``ninja`` is an installed app, so ninja serves them instead of loading a CDN), so it
works at a venue without internet.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.openapi.docs import Swagger
from ninja.openapi.schema import OpenAPISchema
from ninja.operation import Operation

from flipwell.api.contract import JSON, answer_rate_limits, mark_operations
from flipwell.api.endpoints import (
    amendments,
    files,
    league_writes,
    machine_care,
    me,
    meet_records,
    meet_writes,
    night_incidents,
    notices,
    officials,
    people,
    photos,
    playoff_writes,
    public,
    ratings,
    roster_writes,
    setup_writes,
    signups,
    writes,
)
from flipwell.api.errors import install_error_handlers
from flipwell.api.idempotency import document_idempotency, install_idempotency
from flipwell.api.parsing import JsonOnlyParser
from flipwell.api.refusal_codes import document_refusals
from flipwell.content_policy import CONTENT_SECURITY_POLICY


class FlipwellApi(NinjaAPI):
    """ninja's API, whose schema also documents what `flipwell.api.contract` adds (headers,
    the 304 of every read), the ``Idempotency-Key`` header of every write
    (`flipwell.api.idempotency`), the error codes each operation can answer
    (`flipwell.api.refusal_codes`) and the installation it is served from (``servers``)."""

    def get_openapi_schema(self, **kwargs: Any) -> OpenAPISchema:
        schema = super().get_openapi_schema(**kwargs)
        for operations in schema.get("paths", {}).values():
            for method, operation in operations.items():
                responses = operation.get("responses", {})
                if method == "get":
                    _document_not_modified(operation)
                for methods, status, header, text in DOCUMENTED_HEADERS:
                    if status in responses and method in methods:
                        headers = responses[status].setdefault("headers", {})
                        headers[header] = {"description": text, "schema": {"type": "string"}}
        document_idempotency(schema)
        schema["servers"] = [installation()]
        document_refusals(schema, self.views(), ERROR_REF)
        return schema

    def get_openapi_operation_id(self, operation: Operation) -> str:
        """ninja's operationId (the view's module and name), but from the module a view's
        module names in ``OPERATION_MODULE`` when its endpoints moved there from it: an
        operationId is a client's method name, kept when the code is split."""
        view = operation.view_func
        module = getattr(sys.modules[view.__module__], "OPERATION_MODULE", view.__module__)
        return f"{module}_{view.__name__}".replace(".", "_")

    def get_content_type(self) -> str:
        return JSON  # exactly, as every JSON answer under /api/ (flipwell.api.contract)

    def views(self) -> dict[str, Callable[..., Any]]:
        """Every operation's view, by its operationId."""
        return {
            operation.operation_id or self.get_openapi_operation_id(operation): operation.view_func
            for _prefix, router in self._routers
            for path_view in router.path_operations.values()
            for operation in path_view.operations
        }


def installation() -> dict[str, str]:
    """The OpenAPI server object of this installation: ``FLIPWELL_SITE_URL``, else the server
    that serves the document (a relative URL)."""
    if settings.SITE_URL:
        return {"url": settings.SITE_URL, "description": "This flipwell installation."}
    return {
        "url": "/",
        "description": "The server this document was read from (FLIPWELL_SITE_URL is not set).",
    }


def _document_not_modified(operation: dict[str, Any]) -> None:
    """A read's ``If-None-Match`` parameter and its 304 answer."""
    operation.setdefault("parameters", []).append(
        {
            "name": "If-None-Match",
            "in": "header",
            "required": False,
            "schema": {"type": "string"},
            "description": "ETags of answers you hold (or `*`): 304 when the read's current "
            "ETag is among them.",
        }
    )
    operation["responses"][304] = {
        "description": "Not modified: the answer you hold (its ETag sent in If-None-Match) is "
        "current. No body.",
    }


ERROR_REF = "#/components/schemas/ErrorOut"
ANY = ("get", "post", "put", "patch", "delete")
DOCUMENTED_HEADERS = (
    (ANY, 201, "Location", "Where to read what was created (or the resource it belongs to)."),
    (ANY, 401, "WWW-Authenticate", "Bearer: send 'Authorization: Bearer fw_...'."),
    (("get",), 200, "ETag", "The read's entity tag: send it in If-None-Match for a 304."),
    (("get",), 304, "ETag", "The read's entity tag, unchanged."),
    (ANY, 429, "Retry-After", "Seconds to wait before sending it again."),
)


class SelfHostedSwagger(Swagger):
    """ninja's Swagger UI under flipwell's Content-Security-Policy, with one exception: its
    stylesheet draws the arrows of its selects (the ``servers`` list among them) as ``data:``
    SVG images, so this page alone may show ``data:`` images (no script can come that way)."""

    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: Any) -> HttpResponse:
        page = super().render_page(request, api, **kwargs)
        page["Content-Security-Policy"] = CONTENT_SECURITY_POLICY.replace(
            "img-src 'self' blob:", "img-src 'self' blob: data:"
        )
        return page


api = FlipwellApi(
    title="flipwell API",
    version="1",
    description=(
        "Read a league's seasons, meets, scores, standings and playoffs; write with an API "
        "token an official issues (a league's token), or set a league up from nothing with an "
        "installation token (scope `leagues`: open leagues; its other scopes work in the "
        "leagues where its account holds the role). League points are JSON numbers with an "
        "exact fraction beside them (`league_points_exact`); lists are pages with a `next` "
        'link; every error is `{"error": {"code", "message", "fields"}}`; every JSON answer is '
        "`application/json` exactly (UTF-8, no charset parameter). Every read answers an ETag "
        "and 304 to a matching `If-None-Match`; a limit on how often something may be sent "
        "answers 429 with `Retry-After`. A web page of another site may read public data; "
        "an installation lists the sites whose pages may also write (FLIPWELL_CORS_ORIGINS). "
        "Every write takes an "
        "`Idempotency-Key` header: sent again with the same key and body, it is answered "
        "with the first answer, its status, headers and body (`Idempotent-Replayed: true`), "
        "and not done twice. The writes that record a fact that counts (a violation, a "
        "forfeit, a malfunction, money, ...) require it: without it they answer 428 "
        "`idempotency_key_required`."
    ),
    docs=SelfHostedSwagger(),
    urls_namespace="api-v1",
    parser=JsonOnlyParser(),
)
install_error_handlers(api)
answer_rate_limits(api)
# These modules' endpoints are on public.router, which serves both methods of a path: they
# are imported for their routes.
ROUTE_MODULES = (
    ratings,
    writes,
    machine_care,
    meet_writes,
    night_incidents,
    meet_records,
    league_writes,
    playoff_writes,
    notices,
    officials,
    people,
    photos,
    setup_writes,
    roster_writes,
    amendments,
    signups,
)
api.add_router("", public.router)
api.add_router("", files.router)
api.add_router("", me.router)
# Every write runs once per Idempotency-Key (flipwell.api.idempotency), inside the operation's
# note (flipwell.api.contract), so a replay gets the same headers as the first answer.
install_idempotency([public.router, files.router, me.router])
mark_operations([public.router, files.router, me.router])
