"""Query parameters: the server refuses exactly what the OpenAPI schema forbids (issue 34 §4:
`GET /special-rulings?machine_title=<U+FEFF>` was accepted though the schema forbids it,
and `make test` failed or passed by the draw). Read on a league's list, so a 422 is the
title's, not a missing league's."""

from __future__ import annotations

import re

import pytest

from tests import factories as f

pytestmark = pytest.mark.django_db

PATH = "/api/v1/leagues/{slug}/special-rulings"


@pytest.fixture
def url():
    return PATH.format(slug=f.LeagueFactory().slug)


def _machine_title_pattern(client) -> str:
    spec = client.get("/api/v1/openapi.json").json()
    operation = spec["paths"][PATH]["get"]
    (param,) = [p for p in operation["parameters"] if p["name"] == "machine_title"]
    (text,) = [s for s in param["schema"]["anyOf"] if s.get("type") == "string"]
    return str(text["pattern"])


@pytest.mark.parametrize(
    "title",
    ["", " ", "\ufeff", "\u200b", "\u00a0", "\x85", "\u2028", "\u3000", " \ufeff\u200b "],
    ids=["empty", "space", "bom", "zero-width", "nbsp", "nel", "line-sep", "ideographic", "mix"],
)
def test_special_rulings_with_an_invisible_machine_title_is_422_in_plain_words(client, url, title):
    """RA-a: rulings in force on a title; a title nobody can see names no machine."""
    response = client.get(url, {"machine_title": title})

    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_input"
    (message,) = error["fields"]["machine_title"]
    assert "visible character" in message or "at least 1 character" in message


@pytest.mark.parametrize("title", ["", "\ufeff", "\u200b", "\x85", "\x1f", "a\x1fb"])
def test_special_rulings_machine_title_schema_forbids_what_the_server_refuses(client, url, title):
    """The schema's pattern, read as a client's ECMAScript engine would (no `\\s`, whose
    members differ between engines), forbids each refused title."""
    pattern = _machine_title_pattern(client)

    assert "\\s" not in pattern
    assert len(title) < 1 or not re.fullmatch(pattern, title)
    assert client.get(url, {"machine_title": title}).status_code == 422


@pytest.mark.parametrize("title", ["Ghostbusters", "Attack from Mars", "\ufeffMedieval Madness"])
def test_special_rulings_with_a_visible_machine_title_is_answered(client, url, title):
    pattern = _machine_title_pattern(client)

    assert re.fullmatch(pattern, title)
    assert client.get(url, {"machine_title": title}).status_code == 200
