"""The API's surface a browser or a generated client meets (issue 34 §1): one JSON content
type, CORS preflights that are not HTML, writes from the origins an installation lists
(FLIPWELL_CORS_ORIGINS), exposed headers, ``Vary: Authorization`` on public reads, and what
the OpenAPI document says of 304, 429 and the installation."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from flipwell.env import cors_origins
from tests.api.conftest import bearer, post, token

pytestmark = pytest.mark.django_db

CLUB = "https://club.example.org"


def test_every_json_answer_is_exactly_application_json(client, night):
    """issue 34 §1: ninja's answers said ``application/json; charset=utf-8``, the error shape
    of unknown paths ``application/json``."""
    slug = night.league.slug
    answers = [
        client.get(f"/api/v1/leagues/{slug}"),  # a read
        client.get("/api/v1/nothing/here"),  # Django's 404, in the error shape
        client.get(f"/api/v1/leagues/{slug}/treasury"),  # 401
        client.get("/api/v1/leagues?limit=0"),  # 422 from the schema
        client.get(f"/api/v1/seasons/{night.season.pk}/export.json"),  # a JSON file
        post(client, f"/api/v1/seasons/{night.season.pk}/players", {}, token(night.official)),
    ]

    assert [a["Content-Type"] for a in answers] == ["application/json"] * len(answers)


def test_a_preflight_is_never_html(client, night):
    """issue 34 §1: a preflight of a write path was a 204 typed ``text/html``."""
    answer = client.options(
        f"/api/v1/seasons/{night.season.pk}/meets/start",
        HTTP_ORIGIN="https://stats.example.org",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
    )

    assert answer.status_code == 204
    assert "Content-Type" not in answer
    assert "Access-Control-Allow-Origin" not in answer  # no origin is configured


def test_a_configured_origin_may_write(client, night, settings):
    """issue 34 §1: no web page of another site could write, whatever the installation said."""
    settings.CORS_ORIGINS = [CLUB]
    secret = token(night.official)
    url = f"/api/v1/seasons/{night.season.pk}/players"

    preflight = client.options(
        url,
        HTTP_ORIGIN=CLUB,
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST",
        HTTP_ACCESS_CONTROL_REQUEST_HEADERS="authorization, content-type, idempotency-key",
    )
    written = client.post(
        url,
        {"first_name": "Ann", "last_name": "Bell"},
        content_type="application/json",
        HTTP_ORIGIN=CLUB,
        HTTP_IDEMPOTENCY_KEY="club-1",
        **bearer(secret),
    )

    assert preflight.status_code == 204
    assert preflight["Access-Control-Allow-Origin"] == CLUB
    assert preflight["Access-Control-Allow-Methods"] == "GET, HEAD, OPTIONS, POST"
    assert preflight["Access-Control-Allow-Headers"] == (
        "Authorization, Content-Type, Idempotency-Key, If-None-Match"
    )
    assert "Origin" in preflight["Vary"]
    assert written.status_code == 201
    assert written["Access-Control-Allow-Origin"] == CLUB
    assert "Access-Control-Allow-Credentials" not in written
    exposed = [h.strip() for h in written["Access-Control-Expose-Headers"].split(",")]
    assert {"Idempotent-Replayed", "X-Request-ID", "Location", "ETag"} <= set(exposed)
    assert "Origin" in written["Vary"]


def test_another_origin_may_not_write(client, night, settings):
    settings.CORS_ORIGINS = [CLUB]
    url = f"/api/v1/seasons/{night.season.pk}/players"

    preflight = client.options(
        url, HTTP_ORIGIN="https://elsewhere.example.org", HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST"
    )
    written = post(client, url, {"first_name": "Ann", "last_name": "Bell"}, token(night.official))

    assert "POST" not in preflight["Access-Control-Allow-Methods"]  # only the public read's
    assert written.status_code == 201
    assert "Access-Control-Allow-Origin" not in written


def test_public_reads_vary_on_authorization_and_expose_their_headers(client, night):
    """issue 34 §1: a public read's answer depends on the token sent (a dead one is a 401),
    but did not say so; ``X-Request-ID`` was not exposed."""
    url = f"/api/v1/seasons/{night.season.pk}/standings"

    read = client.get(url, HTTP_ORIGIN="https://stats.example.org")
    unchanged = client.get(url, HTTP_IF_NONE_MATCH=read["ETag"])

    assert "Authorization" in [v.strip() for v in read["Vary"].split(",")]
    assert "Authorization" in [v.strip() for v in unchanged["Vary"].split(",")]
    assert read["Access-Control-Allow-Origin"] == "*"
    exposed = [h.strip() for h in read["Access-Control-Expose-Headers"].split(",")]
    assert {"ETag", "X-Request-ID", "Idempotent-Replayed"} <= set(exposed)


@pytest.mark.parametrize(
    "value",
    ["club.example.org", "https://club.example.org/", "https://club.example.org/x", "ftp://x"],
)
def test_a_cors_origin_other_than_an_origin_is_refused(value):
    with pytest.raises(ImproperlyConfigured, match="is not an origin"):
        cors_origins([value])


def test_cors_origins_are_kept_as_a_browser_sends_them():
    assert cors_origins(["HTTPS://Club.Example.org:8443"]) == ["https://club.example.org:8443"]


def _spec(client):
    return client.get("/api/v1/openapi.json").json()


def test_openapi_lists_304_on_every_read(client):
    """issue 34 §1: every read answers 304 to a matching If-None-Match; the document said
    nothing of it."""
    spec = _spec(client)
    reads = [op for ops in spec["paths"].values() for method, op in ops.items() if method == "get"]
    without = [
        op["operationId"]
        for op in reads
        if "304" not in op["responses"]
        or "If-None-Match" not in [p["name"] for p in op.get("parameters", [])]
    ]

    assert reads
    assert without == []


def test_openapi_lists_429_with_retry_after_where_a_limit_applies(client):
    """issue 34 §1: the photo refusal limit answered a 422 and the document had no 429."""
    operation = _spec(client)["paths"]["/api/v1/games/{game_id}/photos"]["post"]

    assert operation["responses"]["429"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/ErrorOut"
    }
    assert "Retry-After" in operation["responses"]["429"]["headers"]


def test_openapi_servers_name_the_installation(client, settings):
    """issue 34 §1: ``servers`` was empty; it is FLIPWELL_SITE_URL (the test client's own)."""
    named = _spec(client)["servers"]
    settings.SITE_URL = ""
    unnamed = _spec(client)["servers"]

    assert [s["url"] for s in named] == ["http://testserver"]
    assert [s["url"] for s in unnamed] == ["/"]


def test_openapi_says_json_is_application_json(client):
    spec = _spec(client)
    types = {
        media
        for ops in spec["paths"].values()
        for op in ops.values()
        for answer in op["responses"].values()
        for media in answer.get("content", {})
    }

    assert "application/json" in types
    assert not any("charset" in media for media in types)
    assert "application/json` exactly" in spec["info"]["description"]


def test_a_host_not_served_is_the_error_shape_under_api(client):
    """issue 34 §1: a disallowed Host was Django's HTML 400, under /api/ too."""
    api = client.get("/api/v1/leagues", HTTP_HOST="evil.example.org")
    page = client.get("/", HTTP_HOST="evil.example.org")

    assert api.status_code == 400
    assert api["Content-Type"] == "application/json"
    assert api.json()["error"]["code"] == "host_not_allowed"
    assert api["X-Request-ID"]
    assert page.status_code == 400
    assert page["Content-Type"].startswith("text/html")
