"""Error fields name the request as sent (issue 26 §3): every key of an error's `fields` is a
path into the request's JSON body, query or path, never a service's model field or a
pydantic branch; an unknown id in the body is a 422 on its field; no message names an
internal model."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import flipwell.api as api_package
from flipwell.api.errors import ALL_FIELDS
from tests import factories as f
from tests.api.conftest import post, token
from tests.league.league_night import game, start

pytestmark = pytest.mark.django_db

INTERNAL = re.compile(
    r"matches the given query|ScoreSubmission|SeasonEntry|GroupMember|LedgerEntry|PlayerMerge"
)


def _paths(body: object, prefix: str = "") -> set[str]:
    """Every dotted path into a JSON body (objects' keys and lists' indexes)."""
    found: set[str] = set()
    items = (
        body.items()
        if isinstance(body, dict)
        else enumerate(body)
        if isinstance(body, list)
        else ()
    )
    for key, value in items:
        path = f"{prefix}{key}"
        found |= {path} | _paths(value, f"{path}.")
    return found


def _refusals(client, night):
    """(body sent, answer) of refusals across the API's writes."""
    secret = token(night.official)
    meet = start(night)
    played = game(meet, 1, 1)
    players = [x.player for x in played.group.members.order_by("position")]
    other = f.SeasonFactory()
    sheet = {
        "entered_by": players[0].pk,
        "scores": [
            {"player": p.pk, "machine_score": 1000 * (i + 1)} for i, p in enumerate(players)
        ],
        "idempotency_key": "k-1",
    }
    submission = post(client, f"/api/v1/games/{played.pk}/scores", sheet, secret).json()
    post(client, f"/api/v1/games/{played.pk}/forfeits", {"player": players[3].pk}, secret)
    bodies = {
        f"/api/v1/leagues/{night.league.slug}/ledger": [
            {"kind": "kitty_spend", "account": "kitty", "amount_cents": 100, "reason": "nope"},
            {"kind": "dues_paid", "account": "dues", "amount_cents": 100, "season_id": other.pk},
            {"kind": "dues_paid", "account": "dues", "amount_cents": 100, "player_id": 10**9},
        ],
        f"/api/v1/leagues/{night.league.slug}/player-merges": [
            {"kept_player_id": players[0].pk, "merged_player_id": players[1].pk, "reason": "x"},
            {"kept_player_id": players[0].pk, "merged_player_id": 10**9, "reason": "x"},
        ],
        f"/api/v1/submissions/{submission['submission']['id']}/confirm": [
            {"confirmed_by": players[1].pk},
            {"confirmed_by": 10**9},
        ],
        f"/api/v1/meets/{meet.pk}/violations": [
            {"player": players[0].pk, "kind": "nope", "reason": "x"},
            {"player": 10**9, "kind": "interference", "reason": "x"},
        ],
        f"/api/v1/groups/{played.group.pk}/next-game": [
            {"machine": 10**9, "chosen_by": players[0].pk},
        ],
        f"/api/v1/games/{played.pk}/scores": [
            {**sheet, "idempotency_key": "k-2", "scores": [{"player": 10**9, "machine_score": 1}]},
        ],
    }
    return [
        (body, post(client, url, body, secret)) for url, sent in bodies.items() for body in sent
    ]


def test_error_fields_are_paths_into_the_request_sent(client, night):
    """issue 26 §3: the ledger answered `reason.literal['coin_mech_failure',...]` and `season`
    for `season_id`, a merge `merged`, a refused confirmation `scores`."""
    refusals = _refusals(client, night)

    strays = [
        (body, answer.status_code, key)
        for body, answer in refusals
        for key in answer.json()["error"]["fields"]
        if key not in _paths(body) | {ALL_FIELDS}
    ]

    assert {answer.status_code for _, answer in refusals} == {422}
    assert strays == []


def test_a_services_refusal_is_keyed_by_the_field_sent(client, night):
    """issue 26 §3: the ledger answered `season` for `season_id`, a merge `merged` for
    `merged_player_id`."""
    secret = token(night.official)
    first, second = night.players[:2]

    ledger = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/ledger",
        {
            "kind": "dues_paid",
            "account": "dues",
            "amount_cents": 100,
            "season_id": f.SeasonFactory().pk,
        },
        secret,
    )
    merge = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/player-merges",
        {"kept_player_id": first.pk, "merged_player_id": second.pk, "reason": "x"},
        secret,
    )

    assert list(ledger.json()["error"]["fields"]) == ["season_id"]
    assert list(merge.json()["error"]["fields"]) == ["merged_player_id"]


def test_a_value_outside_a_union_of_literals_is_one_message_on_its_field(client, night):
    """issue 26 §3: the ledger answered one key per branch, `reason.literal['coin_mech_...']`."""
    response = post(
        client,
        f"/api/v1/leagues/{night.league.slug}/ledger",
        {"kind": "kitty_spend", "account": "kitty", "amount_cents": 100, "reason": "nope"},
        token(night.official),
    )

    fields = response.json()["error"]["fields"]
    assert (response.status_code, list(fields), len(fields["reason"])) == (422, ["reason"], 1)
    assert fields["reason"][0].startswith("must be 'coin_mech_failure' or 'bonus_credits' or ")


def test_unknown_id_in_the_body_is_422_on_its_field(client, night):
    """issue 26 §3: an unknown id in the body was a 404 "No Player matches the given query"."""
    secret = token(night.official)
    meet = start(night)
    group = game(meet, 1, 1).group
    picker = group.members.order_by("position").first().player

    machine = post(
        client,
        f"/api/v1/groups/{group.pk}/next-game",
        {"machine": 10**9, "chosen_by": picker.pk},
        secret,
    )
    player = post(client, f"/api/v1/meets/{meet.pk}/absences", {"player": 10**9}, secret)

    assert (machine.status_code, list(machine.json()["error"]["fields"])) == (422, ["machine"])
    assert (player.status_code, list(player.json()["error"]["fields"])) == (422, ["player"])


def test_no_error_message_names_an_internal_model(client, night):
    """issue 26 §3: messages said "No Machine matches the given query." or named
    `ScoreSubmission` / `SeasonEntry`."""
    answers = [answer for _, answer in _refusals(client, night)]
    answers += [
        client.get(url)
        for url in (
            "/api/v1/seasons/999999",
            "/api/v1/meets/999999",
            "/api/v1/games/999999",
            f"/api/v1/seasons/{night.season.pk}/players/999999/history",
            "/api/v1/leagues/nope",
        )
    ]
    secret = token(night.official)
    answers += [
        post(client, url, {"reason": "x"}, secret)
        for url in (
            "/api/v1/submissions/999999/confirm",
            f"/api/v1/leagues/{night.league.slug}/ledger/999999/reversal",
            f"/api/v1/leagues/{night.league.slug}/player-merges/999999/undo",
            "/api/v1/violations/999999/remedies",
            "/api/v1/corrections/999999/answers",
        )
    ]

    messages = [
        message
        for answer in answers
        for error in [answer.json()["error"]]
        for message in [error["message"], *(m for ms in error["fields"].values() for m in ms)]
    ]

    assert [m for m in messages if INTERNAL.search(m)] == []


def test_a_title_of_control_characters_is_422_not_500(client):
    """issue 26 §3 (found by the schema run): Python strips \\x1c as a space, the query's
    pattern did not refuse it, and the rules then failed on an empty title."""
    f.LeagueFactory(slug="arcade")
    response = client.get("/api/v1/special-rulings?league=arcade&machine_title=%1C")

    assert (response.status_code, list(response.json()["error"]["fields"])) == (
        422,
        ["machine_title"],
    )


def test_no_endpoint_looks_up_with_get_object_or_404():
    """issue 26 §3: Django's lookup answers "No Machine matches the given query.", naming
    a model, and a 404 for an id in the body; the API's lookups are `flipwell.api.queries`."""
    sources = Path(api_package.__file__).parent.rglob("*.py")

    users = [p.name for p in sources if "get_object_or_404" in p.read_text()]

    assert users == []
