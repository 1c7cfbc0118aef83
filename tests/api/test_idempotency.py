"""Idempotency keys of score entry are scoped per league and token (issue 8, fault 10).

A client chooses its keys; another league's client, or another token, may choose the same
one. Only a retry by the same token in the same league is a replay (the first answer again, 201
with ``Idempotent-Replayed: true``, issue 34 §1) or, with another sheet, a conflict (409);
anyone else's same key is a new entry (201).
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from flipwell.league import models as m
from flipwell.web.scoresheet_tokens import scoresheet_path
from tests.api.conftest import bearer, token
from tests.league.league_night import Night, build_night, game, start

pytestmark = pytest.mark.django_db


def _submit(client, night: Night, secret: str, *, key: str, top: int = 900):
    """POST group 1's game-1 sheet of the night's started meet with `key`."""
    played = game(m.Meet.objects.get(season=night.season, number=1), 1, 1)
    players = [x.player_id for x in played.group.members.order_by("position")]
    body = {
        "entered_by": players[0],
        "scores": [{"player": p, "machine_score": top - i} for i, p in enumerate(players)],
        "idempotency_key": key,
    }
    return client.post(
        f"/api/v1/games/{played.pk}/scores", body, content_type="application/json", **bearer(secret)
    )


def _started_night() -> Night:
    night = build_night()
    start(night)
    return night


def test_submit_scores_same_key_in_two_leagues_both_created(client):
    first, second = _started_night(), _started_night()

    in_first = _submit(client, first, token(first.official, "scores"), key="tablet-1")
    in_second = _submit(client, second, token(second.official, "scores"), key="tablet-1")

    assert (in_first.status_code, in_second.status_code) == (201, 201)
    assert in_second.json()["replayed"] is False
    assert m.ScoreSubmission.objects.filter(idempotency_key="tablet-1").count() == 2


def test_submit_scores_same_key_from_another_token_of_the_league_created(client):
    night = _started_night()
    _submit(client, night, token(night.official, "scores"), key="tablet-1")

    other = _submit(client, night, token(night.official, "scores"), key="tablet-1", top=800)

    assert other.status_code == 201
    assert other.json()["submission"]["version"] == 2


def test_submit_scores_same_key_same_token_same_sheet_replays_stored_entry(client):
    night = _started_night()
    secret = token(night.official, "scores")
    created = _submit(client, night, secret, key="tablet-1")

    replayed = _submit(client, night, secret, key="tablet-1")

    assert (created.status_code, replayed.status_code) == (201, 201)
    assert replayed.headers["Idempotent-Replayed"] == "true"
    assert replayed.json() == created.json()
    assert m.ScoreSubmission.objects.count() == 1


def test_submit_scores_same_key_same_token_other_sheet_is_409(client):
    night = _started_night()
    secret = token(night.official, "scores")
    _submit(client, night, secret, key="tablet-1")

    reused = _submit(client, night, secret, key="tablet-1", top=800)

    error = reused.json()["error"]
    assert reused.status_code == 409
    assert (error["code"], list(error["fields"])) == ("idempotency_key_reused", ["idempotency_key"])
    assert m.ScoreSubmission.objects.count() == 1


def test_submit_scores_key_of_the_sheet_link_is_new_for_a_token(client):
    """The sheet link and an API token are different senders: one key is two entries."""
    night = _started_night()
    played = game(m.Meet.objects.get(season=night.season, number=1), 1, 1)
    players = [x.player_id for x in played.group.members.order_by("position")]
    form = {"idempotency_key": "tablet-1", "entered_by": str(players[0])}
    form.update({"game": str(played.pk), "seen_version": "0"})  # the sheet names its game
    form.update({f"score_{p}": str(900 - i) for i, p in enumerate(players)})
    from_sheet = client.post(scoresheet_path(played.group) + "enter/", form)

    from_token = _submit(client, night, token(night.official, "scores"), key="tablet-1")

    assert (from_sheet.status_code, from_token.status_code) == (302, 201)
    assert m.ScoreSubmission.objects.filter(idempotency_key="tablet-1").count() == 2


def test_a_write_reads_its_token_once(client):
    """Its key's owner, the contract and the authentication ask for the same token: one
    query, not one each (a write's cost is on every phone's tap)."""
    night = _started_night()
    secret = token(night.official, "scores")

    with CaptureQueriesContext(connection) as queries:
        answer = _submit(client, night, secret, key="tablet-1")

    assert answer.status_code == 201
    assert sum('FROM "league_apitoken"' in q["sql"] for q in queries.captured_queries) == 1
