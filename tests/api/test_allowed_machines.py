"""GET /groups/{id}/allowed-machines (issue 34 §1): who may pick a group's next machine now,
which machines the §5 rules allow (R5-d..g, R4-b, R7.3-r) and why each other machine of the
league is not, as a stable code, plain words and the rules; the next-game write accepts
exactly the machines it lists as allowed."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from flipwell.league.services.meet_machines.declarations import declare_machine_unplayable
from tests import factories as f
from tests.api.conftest import bearer, post, token
from tests.league.league_night import game, next_game, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def picked(night, meet):
    """Group 1's game 1 confirmed: Dee (last) picks game 2's machine (R5-c)."""
    a = night.players
    play(game(meet, 1, 1), {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 100})
    return game(meet, 1, 1).group


def url(group: m.Group) -> str:
    return f"/api/v1/groups/{group.pk}/allowed-machines"


def test_allowed_machines_names_the_picker_and_every_machine(client, night, meet, picked):
    # R5-c, A21: the last of game 1 picks; R5-e: game 1's machine is refused; R5-d: group 2's
    # machine in play is refused; the other six are allowed.
    response = client.get(url(picked))

    assert response.status_code == 200
    body = response.json()
    assert body["picker"] == {
        "kind": "player",
        "player_id": night.players[3].pk,
        "player_name": str(night.players[3]),
        "reason": None,
        "text": "last place among those who played game 1",
        "rules": ["R5-c", "A21"],
    }
    assert (body["group_id"], body["group_number"], body["meet_id"], body["game_number"]) == (
        picked.pk,
        1,
        meet.pk,
        2,
    )
    played = game(meet, 1, 1).machine
    in_use = game(meet, 2, 1).machine
    refused = {r["id"]: (r["code"], r["rules"]) for r in body["refused"]}
    assert refused == {
        played.pk: ("already_played", ["R5-e", "R4-b"]),
        in_use.pk: ("in_use", ["R5-d"]),
    }
    assert sorted(a["id"] for a in body["allowed"]) == sorted(
        x.pk for x in night.machines if x.pk not in refused
    )
    assert [a["title"] for a in body["allowed"]] == sorted(
        (a["title"] for a in body["allowed"]), key=str.casefold
    )
    assert (body["fallback"], body["repeats"]) == (False, False)


def test_allowed_machines_unplayable_machine_refused_in_plain_words(client, night, meet, picked):
    # R7.3-r
    broken = next(x for x in night.machines if x.pk != game(meet, 1, 1).machine_id)
    declare_machine_unplayable(meet=meet, machine=broken, reason="Flipper stuck", actor=night.user)

    body = client.get(url(picked)).json()

    (line,) = [r for r in body["refused"] if r["id"] == broken.pk]
    assert (line["code"], line["reason"], line["rules"]) == (
        "unplayable",
        "out of service (declared unplayable)",
        ["R7.3-r"],
    )
    assert broken.pk not in [a["id"] for a in body["allowed"]]


def test_allowed_machines_while_a_game_is_in_play_nobody_picks(client, meet):
    # R5-c: game 1 has no confirmed scores yet.
    body = client.get(url(game(meet, 1, 1).group)).json()

    assert body["picker"]["kind"] == "nobody"
    assert body["picker"]["reason"] == "game_not_confirmed"
    assert (body["allowed"], body["refused"]) == ([], [])


def test_allowed_machines_when_nobody_played_the_official_picks(client, night, meet):
    # A66: every player forfeited game 1.
    a = night.players
    play(game(meet, 1, 1), {a[0]: None, a[1]: None, a[2]: None, a[3]: None})

    body = client.get(url(game(meet, 1, 1).group)).json()

    assert (body["picker"]["kind"], body["picker"]["player_id"]) == ("official", None)
    assert body["picker"]["rules"] == ["R5-c", "A66"]
    assert len(body["allowed"]) == 6


def test_allowed_machines_once_the_match_is_complete(client, night, meet, picked):
    # R4-b: four games.
    a = night.players
    for number in (2, 3, 4):
        play(next_game(meet, 1, a[3]), {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: 100})
        assert game(meet, 1, number).number == number

    body = client.get(url(picked)).json()

    assert (body["picker"]["kind"], body["picker"]["reason"], body["game_number"]) == (
        "nobody",
        "match_complete",
        None,
    )


def test_allowed_machines_is_public_and_needs_no_token(client, picked, night):
    anonymous = client.get(url(picked))
    with_token = client.get(url(picked), **bearer(token(night.official, "scores")))

    assert (anonymous.status_code, with_token.status_code) == (200, 200)
    assert anonymous.json() == with_token.json()


def test_allowed_machines_of_an_unknown_group_is_404(client, meet):
    response = client.get("/api/v1/groups/999999/allowed-machines")

    assert response.status_code == 404
    assert response.json()["error"]["message"] == "No group 999999."


def test_allowed_machines_never_lists_another_leagues_machine(client, night, picked):
    stranger = f.MachineFactory()

    body = client.get(url(picked)).json()

    listed = [x["id"] for x in body["allowed"]] + [x["id"] for x in body["refused"]]
    assert stranger.pk not in listed
    assert sorted(listed) == sorted(x.pk for x in night.machines)


def test_next_game_accepts_exactly_the_allowed_machines(client, night, meet, picked):
    # R5-d, R5-e: each refused machine is refused with its listed reason; an allowed one
    # is accepted.
    body = client.get(url(picked)).json()
    secret = token(night.official, "scores")
    chooser = night.players[3].pk

    answers = {
        tuple(r["rules"]): post(
            client,
            f"/api/v1/groups/{picked.pk}/next-game",
            {"machine": r["id"], "chosen_by": chooser},
            secret,
        )
        for r in body["refused"]
    }
    chosen = post(
        client,
        f"/api/v1/groups/{picked.pk}/next-game",
        {"machine": body["allowed"][0]["id"], "chosen_by": chooser},
        secret,
    )

    for rules, answer in answers.items():
        assert answer.status_code == 422
        message = answer.json()["error"]["fields"]["machine"][0]
        assert f"({', '.join(rules)}); allowed:" in message
    assert chosen.status_code == 201
    assert chosen.json()["machine_id"] == body["allowed"][0]["id"]


def test_allowed_machines_answers_304_until_the_league_changes(client, night, meet, picked):
    # A client polling the list costs one query while nothing changed; a choice changes it.
    first = client.get(url(picked))
    again = client.get(url(picked), HTTP_IF_NONE_MATCH=first["ETag"])
    choice = next_game(meet, 1, night.players[3])
    after = client.get(url(picked), HTTP_IF_NONE_MATCH=first["ETag"])

    assert (again.status_code, after.status_code) == (304, 200)
    assert after.json()["picker"]["reason"] == "game_not_confirmed"
    assert choice.number == 2
