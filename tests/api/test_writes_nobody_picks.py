"""A group nobody can continue, by the API (issue 27 §3): the official chooses or draws the
next machine when nobody played the previous game (R5-c, A66), and records a group's absence
for every remaining game of its match (R2.4-a, §2.5)."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from tests.api.conftest import post, token
from tests.league.league_night import free_machine, game, next_game, play

pytestmark = pytest.mark.django_db


@pytest.fixture
def nobody_played(night, meet):
    """Group 1 all late for game 1: its confirmed sheet has every score empty."""
    a = night.players
    play(game(meet, 1, 1), {a[0]: None, a[1]: None, a[2]: None, a[3]: None})
    return game(meet, 1, 1)


def test_official_chooses_next_machine(client, night, meet, nobody_played):
    """issue 27 §3, A66: 201 with game 2 on the official's machine, chosen by no player."""
    machine = free_machine(meet, 1)

    response = post(
        client,
        f"/api/v1/groups/{nobody_played.group_id}/next-game/by-official",
        {"machine": machine.pk},
        token(night.official, "manage"),
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["number"], body["machine_id"], body["chosen_by"]) == (2, machine.pk, None)


def test_official_draws_next_machine(client, night, meet, nobody_played):
    """issue 27 §3, A66: a null machine is drawn at random, reproducibly from its seed."""
    response = post(
        client,
        f"/api/v1/groups/{nobody_played.group_id}/next-game/by-official",
        {"machine": None, "seed": 9},
        token(night.official, "manage"),
    )

    assert response.status_code == 201
    assert response.json()["machine_id"] != nobody_played.machine_id  # R5-e
    assert m.AuditEvent.objects.get(action="game.machine_chosen").data["seed"] == 9


def test_official_chooses_while_a_player_picks_is_422(client, night, meet):
    """A66: the official chooses only when nobody may pick (R5-c). Who picks is the
    request's mistake (422), as a pick by the wrong player is (issue 34 §1)."""
    a = night.players
    played = play(game(meet, 1, 1), {a[0]: 100, a[1]: 50, a[2]: 30, a[3]: 10}).game

    response = post(
        client,
        f"/api/v1/groups/{played.group_id}/next-game/by-official",
        {},
        token(night.official, "manage"),
    )

    assert response.status_code == 422
    assert response.json()["error"]["code"] == "player_picks"
    assert m.Game.objects.filter(group=played.group).count() == 1


def test_player_pick_when_nobody_played_is_422_official_chooses(client, night, meet, nobody_played):
    """issue 27 §3, A66: the player's pick names the way on, no longer a dead end."""
    response = post(
        client,
        f"/api/v1/groups/{nobody_played.group_id}/next-game",
        {"machine": free_machine(meet, 1).pk, "chosen_by": night.players[3].pk},
        token(night.official, "scores"),
    )

    assert response.status_code == 422
    assert response.json()["error"]["code"] == "official_chooses"


def test_record_match_absence_of_a_whole_group(client, night, meet):
    """issue 27 §3, R2.4-a, §2.5: every remaining game forfeited, 4 countable forfeits each."""
    group = game(meet, 1, 1).group
    players = [p.pk for p in night.players[:4]]

    response = post(
        client,
        f"/api/v1/groups/{group.pk}/absence",
        {"players": players, "note": "No-show", "seed": 2},
        token(night.official, "manage"),
    )

    assert response.status_code == 201
    assert (response.json()["forfeits"], response.json()["from_game"]) == (16, 1)
    assert len(response.json()["games"]) == 4
    assert m.MatchAbsence.objects.filter(group=group).count() == 4


def test_record_match_absence_with_a_null_note_says_why_in_its_own_words(client, night, meet):
    """A null note is the service's none: the forfeits say the absence's own reason."""
    group = game(meet, 1, 1).group

    response = post(
        client,
        f"/api/v1/groups/{group.pk}/absence",
        {"players": [night.players[0].pk], "note": None},
        token(night.official, "manage"),
    )

    notes = set(m.MatchAbsence.objects.filter(group=group).values_list("note", flat=True))
    assert response.status_code == 201
    assert notes == {"Absent for the rest of the match."}


def test_record_match_absence_of_a_player_of_another_group_is_422(client, night, meet):
    group = game(meet, 1, 1).group

    response = post(
        client,
        f"/api/v1/groups/{group.pk}/absence",
        {"players": [night.players[6].pk]},
        token(night.official, "manage"),
    )

    assert (response.status_code, list(response.json()["error"]["fields"])) == (422, ["players"])
    assert not m.MatchAbsence.objects.exists()


def test_record_match_absence_without_a_note_is_201(client, night, meet):
    """A left-out note is none, as a null one (it was a 500)."""
    group = game(meet, 1, 1).group

    response = post(
        client,
        f"/api/v1/groups/{group.pk}/absence",
        {"players": [night.players[0].pk]},
        token(night.official, "manage"),
    )

    assert response.status_code == 201
    assert m.MatchAbsence.objects.get().note == "Absent for the rest of the match."


def test_scores_of_a_player_absent_for_the_rest_of_the_match_are_422(client, night, meet):
    """issue 33 §1, R2.4-a: recorded absent during game 1, his score on game 2 is refused
    with a message naming him (today it was stored and counted)."""
    a = night.players
    group = game(meet, 1, 1).group
    recorded = post(
        client,
        f"/api/v1/groups/{group.pk}/absence",
        {"players": [a[3].pk], "note": "Went home"},
        token(night.official, "manage"),
    )
    play(game(meet, 1, 1), {a[0]: 400, a[1]: 300, a[2]: 200, a[3]: None})
    game_2 = next_game(meet, 1, a[2])

    response = post(
        client,
        f"/api/v1/games/{game_2.pk}/scores",
        {
            "entered_by": a[0].pk,
            "scores": [
                {"player": p.pk, "machine_score": s}
                for p, s in zip(a[:4], (400, 300, 200, 900), strict=True)
            ],
            "idempotency_key": "dan-back",
        },
        token(night.official, "scores"),
    )

    assert response.status_code == 422
    assert (recorded.status_code, recorded.json()["from_game"]) == (201, 1)
    assert response.json()["error"]["fields"]["scores.3.machine_score"] == [
        f"{a[3]} is absent for the rest of the match (recorded from game 1): game 2 is their "
        "forfeit, so their score stays empty (R2.4-a)."
    ]
    assert not m.ScoreSubmission.objects.filter(game=game_2).exists()
