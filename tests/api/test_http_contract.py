"""What every answer under /api/ has in common (issue 26 §3): JSON for Django's own refusals,
HEAD and OPTIONS, 401 with its challenge, ETags and 304 on every read, private caching of
token reads, CORS on public reads only."""

from __future__ import annotations

import json

import pytest
from django.http import HttpResponseForbidden, HttpResponseServerError
from django.test import Client

from flipwell.api.contract import ApiContractMiddleware
from flipwell.league.models import ApiToken
from flipwell.league.player_link_tokens import token_for
from flipwell.league.services.player_links import issue_player_link
from flipwell.league.services.tokens import revoke_api_token
from tests import factories as f
from tests.api.conftest import bearer, post, token

pytestmark = pytest.mark.django_db


def _is_error_shape(response, status: int, code: str) -> bool:
    body = json.loads(response.content)
    return (
        response.status_code == status
        and response["Content-Type"].startswith("application/json")
        and body["error"]["code"] == code
        and set(body["error"]) == {"code", "message", "fields"}
    )


def test_method_not_served_is_405_json_with_allow(client, night):
    """issue 26 §3: a 405 was Django's text page."""
    response = client.delete(f"/api/v1/leagues/{night.league.slug}")

    assert _is_error_shape(response, 405, "method_not_allowed")
    assert response["Allow"] == "GET, HEAD, OPTIONS"


def test_unknown_paths_under_api_are_404_json(client):
    """issue 26 §3: /api/ outside /api/v1/ answered the web app's HTML 404."""
    answers = [
        client.get("/api/v1/nothing/here"),
        client.get("/api/v2/leagues"),
        client.get("/api/"),
    ]

    assert [_is_error_shape(a, 404, "not_found") for a in answers] == [True, True, True]


def test_post_without_csrf_token_under_api_is_json(night):
    """issue 26 §3: a form post with a session but without its CSRF token was Django's HTML
    403 page (an unknown path is a 404 whatever is posted to it)."""
    browser = Client(enforce_csrf_checks=True)
    browser.force_login(night.user)

    response = browser.post("/api/v1/anything", {"a": "b"})

    assert _is_error_shape(response, 404, "not_found")


def test_head_is_answered_as_get_without_a_body(client, night):
    """issue 26 §3: HEAD was a 405."""
    got = client.get(f"/api/v1/leagues/{night.league.slug}")
    head = client.head(f"/api/v1/leagues/{night.league.slug}")

    assert (head.status_code, head.content) == (200, b"")
    assert head["ETag"] == got["ETag"]
    assert head["Content-Length"] == str(len(got.content))


def test_options_lists_the_methods_and_answers_a_cors_preflight(client, night):
    """issue 26 §3: OPTIONS was a 405 in HTML, and a browser's preflight was refused."""
    plain = client.options(f"/api/v1/seasons/{night.season.pk}/players")
    preflight = client.options(
        f"/api/v1/seasons/{night.season.pk}/standings",
        HTTP_ORIGIN="https://stats.example.org",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
    )

    assert (plain.status_code, plain["Allow"]) == (204, "GET, HEAD, OPTIONS, POST")
    assert preflight.status_code == 204
    assert preflight["Access-Control-Allow-Origin"] == "*"
    assert "GET" in preflight["Access-Control-Allow-Methods"]
    assert "Access-Control-Allow-Credentials" not in preflight


def test_a_token_read_answers_no_cors_preflight(client, night):
    """issue 26 §3: a read that needs a token is never offered to another site."""
    preflight = client.options(
        f"/api/v1/leagues/{night.league.slug}/treasury",
        HTTP_ORIGIN="https://stats.example.org",
        HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
    )

    assert preflight.status_code == 204
    assert "Access-Control-Allow-Origin" not in preflight


def test_401_says_how_to_authenticate(client, night):
    """issue 26 §3: a 401 had no WWW-Authenticate."""
    response = client.get(f"/api/v1/leagues/{night.league.slug}/treasury")

    assert _is_error_shape(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_revoked_or_unknown_token_is_401_on_a_public_read(client, night):
    """issue 26 §3: a public read ignored a bad token and answered 200."""
    secret = token(night.official)
    revoke_api_token(token=ApiToken.objects.get(), actor=night.user)
    url = f"/api/v1/seasons/{night.season.pk}/standings"

    revoked = client.get(url, **bearer(secret))
    unknown = client.get(url, **bearer("fw_not-a-token"))
    basic = client.get(url, HTTP_AUTHORIZATION="Basic dXNlcjpwYXNz")
    without = client.get(url)

    assert [r.status_code for r in (revoked, unknown, basic, without)] == [401, 401, 401, 200]
    assert revoked["WWW-Authenticate"].startswith("Bearer")


def test_every_read_has_an_etag_and_answers_304(client, night):
    """issue 26 §3: leagues, special rulings, a person's stats and the exports had no ETag;
    `If-None-Match: *` was a 200."""
    f.SpecialRulingFactory(
        league=night.league, machine_title="Ghostbusters", reproduction_notes="hit the ramp"
    )
    entry = night.season.entries.first()
    urls = [
        "/api/v1/leagues",
        f"/api/v1/special-rulings?league={night.league.slug}",
        f"/api/v1/leagues/{night.league.slug}/special-rulings",
        f"/api/v1/players/{entry.player_id}/stats",
        f"/api/v1/seasons/{night.season.pk}/export.json",
        f"/api/v1/seasons/{night.season.pk}/standings.csv",
        f"/api/v1/seasons/{night.season.pk}/meets.ics",
        f"/api/v1/seasons/{night.season.pk}/standings",
    ]

    tags = [client.get(url).get("ETag") for url in urls]
    again = [
        client.get(u, HTTP_IF_NONE_MATCH=t).status_code for u, t in zip(urls, tags, strict=True)
    ]
    star = [client.get(url, HTTP_IF_NONE_MATCH="*").status_code for url in urls]
    missing = client.get("/api/v1/seasons/999999/standings", HTTP_IF_NONE_MATCH="*")

    assert None not in tags
    assert again == [304] * len(urls)
    assert star == [304] * len(urls)
    assert missing.status_code == 404


def test_public_reads_send_cors_and_token_reads_are_private(client, night):
    """issue 26 §3: a stats site could not read standings from a browser; a token's read
    must never be shared with another site or kept by a cache."""
    secret = token(night.official)

    public = client.get(
        f"/api/v1/seasons/{night.season.pk}/standings", HTTP_ORIGIN="https://stats.example.org"
    )
    treasury = client.get(
        f"/api/v1/leagues/{night.league.slug}/treasury",
        HTTP_ORIGIN="https://stats.example.org",
        **bearer(secret),
    )

    assert public["Access-Control-Allow-Origin"] == "*"
    assert "Access-Control-Allow-Credentials" not in public
    assert treasury.status_code == 200
    assert treasury["Cache-Control"] == "private, no-store"
    assert "Access-Control-Allow-Origin" not in treasury


def test_a_personal_link_read_is_private(client, night):
    """issue 26 §3: the personal link's page holds the player's e-mail address."""
    entry = night.season.entries.first()
    link = issue_player_link(season=night.season, player=entry.player, actor=night.user)

    response = client.get(f"/api/v1/me/{token_for(link)}")

    assert response.status_code == 200
    assert response["Cache-Control"] == "private, no-store"
    assert "Access-Control-Allow-Origin" not in response


def test_writes_answer_201_with_location(client, night):
    """issue 26 §3: a 201 had no Location."""
    secret = token(night.official)

    response = post(
        client,
        f"/api/v1/seasons/{night.season.pk}/players",
        {"first_name": "Ann", "last_name": "Bell"},
        secret,
    )
    player_id = response.json()["player_id"]

    assert response.status_code == 201
    assert response["Location"] == (
        f"http://testserver/api/v1/seasons/{night.season.pk}/players/{player_id}/history"
    )
    assert client.get(response["Location"]).status_code == 200


def test_djangos_html_refusals_under_api_become_the_error_shape(rf):
    """issue 26 §3: whatever answers under /api/ in HTML (Django's CSRF page, its 500 page)
    is answered in the error shape, keeping the status."""
    pages = {
        403: HttpResponseForbidden("<h1>Forbidden (403)</h1><p>CSRF verification failed.</p>"),
        500: HttpResponseServerError("<h1>Server Error (500)</h1>"),
    }

    answers = {
        status: ApiContractMiddleware(lambda request, page=page: page)(rf.post("/api/v1/x"))
        for status, page in pages.items()
    }

    assert _is_error_shape(answers[403], 403, "forbidden")
    assert "CSRF" in json.loads(answers[403].content)["error"]["message"]
    assert _is_error_shape(answers[500], 500, "server_error")
