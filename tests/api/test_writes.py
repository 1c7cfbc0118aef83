"""Writes with a token: scopes and leagues, every write endpoint, idempotent score entry."""

from __future__ import annotations

import pytest

from flipwell.league import models as m
from flipwell.league.models import ApiToken
from flipwell.league.services.tokens import revoke_api_token
from tests import factories as f
from tests.api.conftest import bearer, keyed, token
from tests.league.league_night import DATE, game, start

pytestmark = pytest.mark.django_db


def _post(client, url, body, secret):
    return client.post(url, body, content_type="application/json", **keyed(secret))


def _sheet(meet, group_number=1, game_number=1):
    played = game(meet, group_number, game_number)
    players = [x.player for x in played.group.members.order_by("position")]
    return played, players


def test_write_without_token_is_401(client, night):
    response = client.post(
        f"/api/v1/seasons/{night.season.pk}/players",
        {"first_name": "Ann", "last_name": "Bell"},
        content_type="application/json",
    )

    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"


def test_token_of_another_league_is_403(client, night):
    other = f.LeagueOfficialFactory()
    secret = token(other)

    response = _post(
        client,
        f"/api/v1/seasons/{night.season.pk}/players",
        {"first_name": "Ann", "last_name": "Bell"},
        secret,
    )

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    assert not m.Player.objects.filter(last_name="Bell").exists()


def test_token_without_the_scope_is_403(client, night):
    secret = token(night.official, "scores")

    response = _post(
        client,
        f"/api/v1/seasons/{night.season.pk}/meets/start",
        {"number": 1, "date": DATE.isoformat()},
        secret,
    )

    assert response.status_code == 403
    assert "manage" in response.json()["error"]["message"]


def test_revoked_token_is_401(client, night):
    secret = token(night.official)
    revoke_api_token(token=ApiToken.objects.get(), actor=night.user)

    response = client.get(f"/api/v1/leagues/{night.league.slug}/treasury", **bearer(secret))

    assert response.status_code == 401


def test_token_acts_as_its_issuer_whose_role_is_checked(client, night):
    secret = token(night.official)
    night.official.delete()  # no longer an official of the league

    response = _post(
        client,
        f"/api/v1/seasons/{night.season.pk}/players",
        {"first_name": "Ann", "last_name": "Bell"},
        secret,
    )

    assert response.status_code == 403


def test_register_player(client, night):
    secret = token(night.official, "manage")

    response = _post(
        client,
        f"/api/v1/seasons/{night.season.pk}/players",
        {"first_name": "Ann", "last_name": "Bell", "ifpa_number": 4242, "ifpa_rank": 900},
        secret,
    )

    assert response.status_code == 201
    body = response.json()
    assert (body["first_name"], body["ifpa_number"], body["ifpa_rank_at_start"]) == (
        "Ann",
        4242,
        900,
    )


def test_register_player_field_errors(client, night):
    secret = token(night.official, "manage")

    response = _post(
        client,
        f"/api/v1/seasons/{night.season.pk}/players",
        {"first_name": "", "last_name": "Bell", "joined_at_meet": 0},
        secret,
    )

    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_input"
    assert set(error["fields"]) == {"first_name", "joined_at_meet"}


def test_service_refusal_is_422_keyed_by_field(client, night):
    secret = token(night.official, "manage")

    response = _post(
        client,
        f"/api/v1/seasons/{night.season.pk}/players",
        {"first_name": "Ann", "last_name": "Bell", "joined_at_meet": 99},
        secret,
    )

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["joined_at_meet"]


def test_malformed_json_is_400(client, night):
    secret = token(night.official, "manage")

    response = client.post(
        f"/api/v1/seasons/{night.season.pk}/players",
        "{not json",
        content_type="application/json",
        **bearer(secret),
    )

    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed"


def test_start_meet_submit_confirm_forfeit_and_close(client, night):
    secret = token(night.official, "scores", "manage")

    started = _post(
        client,
        f"/api/v1/seasons/{night.season.pk}/meets/start",
        {"number": 1, "date": DATE.isoformat(), "seed": 7},
        secret,
    )
    meet = m.Meet.objects.get(season=night.season, number=1)
    played, players = _sheet(meet)
    sheet = {
        "entered_by": players[0].pk,
        "scores": [
            {"player": p.pk, "machine_score": 1_000_000 * (i + 1)} for i, p in enumerate(players)
        ],
        "idempotency_key": "sheet-1",
    }
    submitted = _post(client, f"/api/v1/games/{played.pk}/scores", sheet, secret)
    replayed = _post(client, f"/api/v1/games/{played.pk}/scores", sheet, secret)
    reused = _post(
        client,
        f"/api/v1/games/{played.pk}/scores",
        {**sheet, "scores": [{**x, "machine_score": 5} for x in sheet["scores"]]},
        secret,
    )
    submission_id = submitted.json()["submission"]["id"]
    confirmed = _post(
        client,
        f"/api/v1/submissions/{submission_id}/confirm",
        {"confirmed_by": players[1].pk},
        secret,
    )
    again = _post(
        client,
        f"/api/v1/submissions/{submission_id}/confirm",
        {"confirmed_by": players[2].pk},
        secret,
    )
    other, others = _sheet(meet, group_number=2)
    forfeit = _post(client, f"/api/v1/games/{other.pk}/forfeits", {"player": others[3].pk}, secret)
    unfinished = _post(client, f"/api/v1/meets/{meet.pk}/close", {}, secret)
    closed = _post(
        client, f"/api/v1/meets/{meet.pk}/close", {"override_reason": "power cut"}, secret
    )

    assert started.status_code == 201  # issue 34 §1: a start was a 200 without Location
    assert started["Location"] == f"http://testserver/api/v1/meets/{meet.pk}"
    assert started.json()["meet"]["status"] == "open"
    assert (submitted.status_code, replayed.status_code) == (201, 201)
    assert replayed.headers["Idempotent-Replayed"] == "true"  # the body key, recognised
    assert replayed.json()["submission"] == submitted.json()["submission"]
    assert submitted.json()["points"] == replayed.json()["points"]
    assert reused.status_code == 409
    assert list(reused.json()["error"]["fields"]) == ["idempotency_key"]
    assert confirmed.status_code == 200
    assert confirmed.json()["confirmed_by"] == players[1].pk
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "game_already_confirmed"  # issue 26 §2
    assert forfeit.status_code == 201
    assert forfeit.json()["countable"] is True
    assert (unfinished.status_code, unfinished.json()["error"]["code"]) == (409, "meet_unfinished")
    assert closed.status_code == 200
    assert closed.json()["meet"]["status"] == "closed"


def test_scores_of_a_player_outside_the_group_are_refused(client, night):
    secret = token(night.official, "scores")
    meet = start(night)
    played, players = _sheet(meet)
    stranger = f.PlayerFactory()

    response = _post(
        client,
        f"/api/v1/games/{played.pk}/scores",
        {
            "entered_by": stranger.pk,
            "scores": [{"player": p.pk, "machine_score": 10} for p in players],
            "idempotency_key": "k",
        },
        secret,
    )

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["entered_by"]


def test_scores_on_another_leagues_game_are_403(client, night):
    meet = start(night)
    played, players = _sheet(meet)
    secret = token(f.LeagueOfficialFactory(), "scores")

    response = _post(
        client,
        f"/api/v1/games/{played.pk}/scores",
        {
            "entered_by": players[0].pk,
            "scores": [{"player": p.pk, "machine_score": 10} for p in players],
            "idempotency_key": "k",
        },
        secret,
    )

    assert response.status_code == 403
    assert not m.ScoreSubmission.objects.exists()


def test_negative_or_oversized_machine_score_is_422(client, night):
    secret = token(night.official, "scores")
    meet = start(night)
    played, players = _sheet(meet)

    response = _post(
        client,
        f"/api/v1/games/{played.pk}/scores",
        {
            "entered_by": players[0].pk,
            "scores": [
                {"player": players[0].pk, "machine_score": -1},
                {"player": players[1].pk, "machine_score": 2**64},
            ],
            "idempotency_key": "k",
        },
        secret,
    )

    assert response.status_code == 422
    assert set(response.json()["error"]["fields"]) == {
        "scores.0.machine_score",
        "scores.1.machine_score",
    }


def test_ledger_entry_and_private_treasury(client, night):
    secret = token(night.official, "manage", "read_private")
    entry = night.season.entries.first()

    recorded = _post(
        client,
        f"/api/v1/leagues/{night.league.slug}/ledger",
        {
            "kind": "dues_paid",
            "account": "dues",
            "amount_cents": 2000,
            "season_id": night.season.pk,
            "player_id": entry.player_id,
        },
        secret,
    )
    public = client.get(f"/api/v1/leagues/{night.league.slug}/treasury")
    private = client.get(f"/api/v1/leagues/{night.league.slug}/treasury", **bearer(secret))

    assert recorded.status_code == 201
    assert recorded.json()["amount_cents"] == 2000
    assert public.status_code == 401
    assert private.json()["dues_cents"] == 2000
    assert private.json()["entries"][0]["player"]["id"] == entry.player_id


def test_treasury_needs_the_read_private_scope(client, night):
    secret = token(night.official, "scores")

    response = client.get(f"/api/v1/leagues/{night.league.slug}/treasury", **bearer(secret))

    assert response.status_code == 403


def test_overdraft_is_refused_with_a_field(client, night):
    secret = token(night.official, "manage")

    response = _post(
        client,
        f"/api/v1/leagues/{night.league.slug}/ledger",
        {
            "kind": "treasury_expense",
            "account": "treasury",
            "amount_cents": 100,
            "reason": "prizes",
        },
        secret,
    )

    assert (response.status_code, response.json()["error"]["code"]) == (409, "overdraft")
    assert response.json()["error"]["fields"]


def test_import_players_reports_every_bad_line_and_writes_nothing(client, night):
    secret = token(night.official, "manage")
    before = m.SeasonEntry.objects.count()
    text = (
        "first_name,last_name,ifpa_number,ifpa_rank\n"
        "Ann,Bell,101,5\n"
        ",Cole,102,\n"
        "Dee,Dunn,abc,7\n"
        "Eve,Ross,103,x\n"
    )

    response = _post(
        client, f"/api/v1/seasons/{night.season.pk}/players/import", {"csv": text}, secret
    )

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == [
        "line 3, first_name",
        "line 4, ifpa_number",
        "line 5, ifpa_rank",
    ]
    assert m.SeasonEntry.objects.count() == before


def test_import_players(client, night):
    secret = token(night.official, "manage")
    text = "first_name,last_name,ifpa_number,ifpa_rank\nAnn,Bell,101,5\nBo,Cole,,\n"

    response = _post(
        client, f"/api/v1/seasons/{night.season.pk}/players/import", {"csv": text}, secret
    )

    assert response.status_code == 201
    assert [(e["last_name"], e["ifpa_number"]) for e in response.json()["entries"]] == [
        ("Bell", 101),
        ("Cole", None),
    ]


def test_scores_entered_on_a_stale_version_are_409(client, night):
    """An entry that names the version it saw (none yet) is refused once another player's
    entry was stored meanwhile; nothing is written (issue 8, fault 3)."""
    secret = token(night.official, "scores")
    meet = start(night)
    played, players = _sheet(meet)
    sheet = {
        "entered_by": players[0].pk,
        "scores": [{"player": p.pk, "machine_score": 10 * (i + 1)} for i, p in enumerate(players)],
        "idempotency_key": "first",
        "seen_version": 0,
    }
    first = _post(client, f"/api/v1/games/{played.pk}/scores", sheet, secret)

    stale = _post(
        client,
        f"/api/v1/games/{played.pk}/scores",
        {**sheet, "entered_by": players[1].pk, "idempotency_key": "second"},
        secret,
    )
    fixed = _post(
        client,
        f"/api/v1/games/{played.pk}/scores",
        {**sheet, "idempotency_key": "third", "seen_version": 1},
        secret,
    )

    assert first.status_code == 201
    assert stale.status_code == 409
    assert stale.json()["error"]["message"] == (
        f"{players[0]} entered game 1's scores meanwhile (version 1); your entry was not "
        "saved: check them, then confirm or fix them."
    )
    assert fixed.status_code == 201
    assert list(played.submissions.values_list("idempotency_key", flat=True)) == [
        "first",
        "third",
    ]
