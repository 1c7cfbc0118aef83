"""The NinjaAPI instance: /api/v1/, its OpenAPI schema and its self-hosted docs page.

django-ninja builds the schema (/api/v1/openapi.json) from the endpoints' type hints and the
pydantic schemas; the docs page (/api/v1/docs) is Swagger UI served from this app's static
files (vendored from the npm registry, see static/flipwell_api/swagger-ui/VENDORED.txt), so it
works at a venue without internet.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from ninja import NinjaAPI
from ninja.openapi.docs import Swagger

from flipwell.api.endpoints import (
    files,
    league_writes,
    meet_writes,
    playoff_writes,
    public,
    writes,
)
from flipwell.api.errors import install_error_handlers
from flipwell.api.parsing import JsonOnlyParser


class SelfHostedSwagger(Swagger):
    """Swagger UI from flipwell's own static files (ninja's default loads it from a CDN)."""

    def render_page(self, request: HttpRequest, api: NinjaAPI, **kwargs: Any) -> HttpResponse:
        settings = {**self.settings, "url": self.get_openapi_url(api, kwargs)}
        context = {"swagger_settings": json.dumps(settings), "api": api}
        return render(request, "flipwell_api/swagger.html", context)


api = NinjaAPI(
    title="flipwell API",
    version="1",
    description=(
        "Read a league's seasons, meets, scores, standings and playoffs; write with an API "
        "token an official issues. League points are JSON numbers with an exact fraction "
        "beside them (`league_points_exact`); lists are pages with a `next` link; every "
        'error is `{"error": {"code", "message", "fields"}}`.'
    ),
    docs=SelfHostedSwagger(),
    urls_namespace="api-v1",
    parser=JsonOnlyParser(),
)
install_error_handlers(api)
# The writes' endpoints are on public.router, which serves both methods of a path.
WRITE_MODULES = (writes, meet_writes, league_writes, playoff_writes)
api.add_router("", public.router)
api.add_router("", files.router)
