"""Every list is a page of one shape, and a cursor pages only the list it came from
(issue 34 §1)."""

from __future__ import annotations

import pytest

from tests import factories as f

pytestmark = pytest.mark.django_db


def _schema_of(spec, schema):
    ref = schema.get("$ref", "")
    return spec["components"]["schemas"][ref.rsplit("/", 1)[-1]] if ref else schema


def test_every_read_of_a_list_answers_a_page(client):
    """issue 34 §1: high-scores (and a game's photos) answered a bare array."""
    spec = client.get("/api/v1/openapi.json").json()
    bare, unpaged = [], []
    for path, operations in spec["paths"].items():
        read = operations.get("get")
        content = (read or {}).get("responses", {}).get("200", {}).get("content", {})
        if "application/json" not in content:
            continue
        schema = _schema_of(spec, content["application/json"]["schema"])
        if schema.get("type") == "array":
            bare.append(path)
        elif schema.get("properties", {}).get("results", {}).get("type") == "array":
            parameters = {p["name"] for p in read.get("parameters", [])}
            if (
                set(schema["properties"]) != {"results", "next"}
                or not {
                    "cursor",
                    "limit",
                }
                <= parameters
            ):
                unpaged.append(path)

    assert bare == []
    assert unpaged == []


def test_a_cursor_of_one_list_is_refused_by_another(client):
    """issue 34 §1: a cursor was a bare position, taken by any list."""
    leagues = [f.LeagueFactory() for _ in range(3)]
    page = client.get("/api/v1/leagues?limit=1").json()
    cursor = page["next"].split("cursor=")[1].split("&")[0]
    slug = leagues[0].slug

    same = client.get(f"/api/v1/leagues?limit=1&cursor={cursor}")
    other = client.get(f"/api/v1/leagues/{slug}/special-rulings?cursor={cursor}")
    filtered = client.get(f"/api/v1/leagues/{slug}/machines?cursor={cursor}")

    assert same.status_code == 200
    assert [other.status_code, filtered.status_code] == [422, 422]
    assert list(other.json()["error"]["fields"]) == ["cursor"]
    assert "another list's" in other.json()["error"]["fields"]["cursor"][0]


def test_a_cursor_of_one_leagues_list_is_refused_by_anothers(client):
    first, second = f.LeagueFactory(), f.LeagueFactory()
    for league in (first, second):
        f.MachineFactory.create_batch(3, league=league)
    page = client.get(f"/api/v1/leagues/{first.slug}/machines?limit=1").json()
    cursor = page["next"].split("cursor=")[1].split("&")[0]

    own = client.get(f"/api/v1/leagues/{first.slug}/machines?limit=1&cursor={cursor}")
    other = client.get(f"/api/v1/leagues/{second.slug}/machines?limit=1&cursor={cursor}")

    assert own.status_code == 200
    assert other.status_code == 422


def test_a_page_size_may_change_between_pages(client):
    for _ in range(4):
        f.LeagueFactory()
    page = client.get("/api/v1/leagues?limit=1").json()

    bigger = client.get(page["next"].replace("limit=1", "limit=3"))

    assert bigger.status_code == 200
    assert len(bigger.json()["results"]) == 3
