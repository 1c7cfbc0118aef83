"""The NinjaAPI instance: /api/v1/, its OpenAPI schema and its self-hosted docs page.

django-ninja builds the schema (/api/v1/openapi.json) from the endpoints' type hints and the
pydantic schemas; the docs page (/api/v1/docs) is Swagger UI from django-ninja's own static
files (``ninja`` is an installed app, so ninja serves them instead of loading a CDN), so it
works at a venue without internet.
"""

from __future__ import annotations

from typing import Any

from ninja import NinjaAPI
from ninja.openapi.docs import Swagger
from ninja.openapi.schema import OpenAPISchema

from flipwell.api.contract import mark_operations
from flipwell.api.endpoints import (
    files,
    league_writes,
    machine_care,
    me,
    meet_records,
    meet_writes,
    notices,
    people,
    photos,
    playoff_writes,
    public,
    setup_writes,
    writes,
)
from flipwell.api.errors import install_error_handlers
from flipwell.api.idempotency import document_idempotency, idempotent
from flipwell.api.parsing import JsonOnlyParser


class FlipwellApi(NinjaAPI):
    """ninja's API, whose schema also documents the headers `flipwell.api.contract` sends and
    the ``Idempotency-Key`` header of every write (`flipwell.api.idempotency`)."""

    def get_openapi_schema(self, **kwargs: Any) -> OpenAPISchema:
        schema = super().get_openapi_schema(**kwargs)
        for operations in schema.get("paths", {}).values():
            for method, operation in operations.items():
                responses = operation.get("responses", {})
                for methods, status, header, text in DOCUMENTED_HEADERS:
                    if status in responses and method in methods:
                        headers = responses[status].setdefault("headers", {})
                        headers[header] = {"description": text, "schema": {"type": "string"}}
        document_idempotency(schema)
        return schema


ANY = ("get", "post", "put", "patch", "delete")
DOCUMENTED_HEADERS = (
    (ANY, 201, "Location", "Where to read what was created (or the resource it belongs to)."),
    (ANY, 401, "WWW-Authenticate", "Bearer: send 'Authorization: Bearer fw_...'."),
    (("get",), 200, "ETag", "The read's entity tag: send it in If-None-Match for a 304."),
)

api = FlipwellApi(
    title="flipwell API",
    version="1",
    description=(
        "Read a league's seasons, meets, scores, standings and playoffs; write with an API "
        "token an official issues (a league's token), or set a league up from nothing with an "
        "installation token (scope `leagues`: open leagues; its other scopes work in the "
        "leagues where its account holds the role). League points are JSON numbers with an "
        "exact fraction beside them (`league_points_exact`); lists are pages with a `next` "
        'link; every error is `{"error": {"code", "message", "fields"}}`. Every write takes an '
        "`Idempotency-Key` header: sent again with the same key and body, it is answered "
        "from the first answer (`Idempotent-Replayed: true`) and not done twice."
    ),
    docs=Swagger(),
    urls_namespace="api-v1",
    parser=JsonOnlyParser(),
)
install_error_handlers(api)
# Every write runs once per Idempotency-Key (flipwell.api.idempotency); reads pass through.
api.add_decorator(idempotent, mode="view")
# The writes' endpoints are on public.router, which serves both methods of a path.
WRITE_MODULES = (
    writes,
    machine_care,
    meet_writes,
    meet_records,
    league_writes,
    playoff_writes,
    notices,
    people,
    photos,
    setup_writes,
)
api.add_router("", public.router)
api.add_router("", files.router)
api.add_router("", me.router)
mark_operations([public.router, files.router, me.router])
