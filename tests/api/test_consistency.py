"""The same thing looks the same everywhere in the API (issue 26 §3): a ledger entry's kind,
high scores' machine and league, every status an enum in the schema, every 201 with its
Location."""

from __future__ import annotations

import inspect
import re

import pytest

from flipwell.api.api import api
from flipwell.api.endpoints import files, me, public
from tests import factories as f
from tests.api.conftest import post, token

STATUS_LIKE = re.compile(r"(^|_)(status|kind|state|decision|outcome)s?$")


def _resolved(schema: dict, components: dict) -> dict:
    while "$ref" in schema:
        schema = components[schema["$ref"].split("/")[-1]]
    return schema


def _is_enum(schema: dict, components: dict) -> bool:
    schema = _resolved(schema, components)
    if "enum" in schema or "const" in schema:
        return True
    for key in ("anyOf", "oneOf"):
        if key in schema:
            return all(
                _is_enum(s, components) or _resolved(s, components).get("type") == "null"
                for s in schema[key]
            )
    if schema.get("type") == "array":
        return _is_enum(schema["items"], components)
    return False


def test_every_status_kind_and_state_in_the_schema_is_an_enum():
    """issue 26 §3: a match's, a playoff night's, a night's and a coming meet's status and a
    ledger entry's or special ruling's kind were free strings in the schema."""
    components = api.get_openapi_schema()["components"]["schemas"]

    free = [
        f"{name}.{field}"
        for name, schema in components.items()
        for field, spec in schema.get("properties", {}).items()
        if STATUS_LIKE.search(field) and not _is_enum(spec, components)
    ]

    assert free == []


def _sends_location(view) -> bool:
    """`created` sets the Location: called by the view, or by `write` given a location."""
    source = inspect.getsource(view)
    return "created(" in source or ("write(" in source and "location=" in source)


def test_every_operation_answering_201_sends_location():
    """issue 26 §3: no 201 carried a Location; `created` sets it."""
    operations = [
        operation
        for router in (public.router, files.router, me.router)
        for path_view in router.path_operations.values()
        for operation in path_view.operations
        if 201 in operation.response_models
    ]

    without = [o.view_func.__name__ for o in operations if not _sends_location(o.view_func)]

    assert len(operations) > 25
    assert without == []


@pytest.mark.django_db
def test_ledger_entry_kind_is_the_same_in_the_reply_and_the_treasury(client, night):
    """issue 26 §3: the POST answered kind 'payment' where the treasury said 'kitty_in'."""
    secret = token(night.official)

    booked = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/ledger",
        {"kind": "kitty_in", "account": "kitty", "amount_cents": 500},
        secret,
    ).json()
    reversed_ = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/ledger/{booked['id']}/reversal",
        {"reason": "Entered twice"},
        secret,
    ).json()
    listed = client.get(
        f"/api/v1/leagues/{night.league.slug}/treasury", HTTP_AUTHORIZATION=f"Bearer {secret}"
    ).json()["entries"]

    assert [(booked["id"], booked["kind"]), (reversed_["id"], reversed_["kind"])] == [
        (line["id"], line["kind"]) for line in listed
    ]
    assert booked["kind"] == "kitty_in"


@pytest.mark.django_db
def test_high_scores_carry_the_machine_id_and_the_league(client, golden):
    """issue 26 §3: high scores named the machine by title only, and no league."""
    league = golden.league
    machine = f.MachineFactory(league=league, title="Zzz Only Here")
    titles = {m.title: m.pk for m in league.machines.order_by("-pk")}

    machines = client.get(f"/api/v1/leagues/{league.slug}/high-scores").json()["results"]

    assert machines
    assert {x["league"] for x in machines} == {league.slug}
    assert [x["machine_id"] for x in machines] == [titles.get(x["machine"]) for x in machines]
    assert None not in [x["machine_id"] for x in machines]
    assert machine.pk not in [x["machine_id"] for x in machines]  # no scores on it yet
