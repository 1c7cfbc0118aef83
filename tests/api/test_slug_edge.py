"""A league slug is checked at the edge like an id: a NUL byte or any text no slug can be
answers 404 or 422, on SQLite and PostgreSQL (whose text cannot hold NUL), for every route
with a slug, found by walking the URL resolver so that a new route is covered."""

from __future__ import annotations

import re
import uuid

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from tests import factories as f
from tests.api.conftest import bearer, token

pytestmark = pytest.mark.django_db

PARAMETER = re.compile(r"<(?:(\w+):)?(\w+)>")
BAD_SLUGS = ("%00", "x%00", "a%00b", "%C3%A9", "x%0A")
JSON = "application/json"
METHODS = ("get", "post", "put", "patch", "delete")


def _routes(patterns, prefix: str = ""):
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            yield from _routes(pattern.url_patterns, prefix + str(pattern.pattern))
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern)


def slug_routes(start: str) -> list[str]:
    """Every route under `start` with a league slug, once."""
    found = {r for r in _routes(get_resolver().url_patterns) if r.startswith(start)}
    return sorted(r for r in found if any(m[1] == "slug" for m in PARAMETER.findall(r)))


def path_of(route: str, slug: str) -> str:
    return "/" + PARAMETER.sub(lambda m: slug if m[2] == "slug" else "1", route)


def test_slug_routes_are_found():
    api = slug_routes("api/")

    assert "api/v1/leagues/<slug>" in api
    assert "api/v1/leagues/<slug>/players/<player_id>/stats" in api
    assert len(api) >= 20


@pytest.mark.parametrize("route", slug_routes("api/"))
def test_api_slug_with_nul_or_no_slug_text_refused_at_the_edge(client, route):
    official = f.LeagueOfficialFactory()
    secret = token(official)
    for slug in BAD_SLUGS:
        for method in METHODS:
            for auth in ({}, bearer(secret)):
                body = {} if method == "get" else {"data": "{}", "content_type": JSON}
                key = {"Idempotency-Key": uuid.uuid4().hex}
                headers = {} if method == "get" else {"headers": key}
                response = getattr(client, method)(path_of(route, slug), **body, **headers, **auth)

                assert response.status_code in (401, 403, 404, 405, 422), (
                    method,
                    slug,
                    response.status_code,
                    response.content[:300],
                )
                if method == "get" and response.status_code == 422:
                    assert "slug" in response.content.decode()


def test_api_league_read_with_nul_in_its_slug_names_the_slug(client):
    response = client.get("/api/v1/leagues/x%00/seasons")

    assert response.status_code == 422
    assert response["Content-Type"].startswith("application/json")
    assert "slug" in response.content.decode()


@pytest.mark.parametrize(
    "route", [r for r in slug_routes("") if not r.startswith("api/")] or ["none"]
)
def test_web_slug_with_nul_not_found(client, route):
    for slug in BAD_SLUGS:
        response = client.get(path_of(route, slug))

        assert response.status_code == 404, (slug, response.status_code)
