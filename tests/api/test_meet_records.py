"""A meet's records read back with a token (issue 34 §2: a client could write a meet's
forfeits, malfunctions, compensatory games, violations and rulings but not list them):
``GET /meets/{id}/forfeits``, ``/malfunctions``, ``/compensatory-games``, ``/violations``,
``/rulings``. What the API's writes stored reads back, a page at a time, with the fold's
result for what the rules derive, sealed to the meet's league, in a fixed number of
queries."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from flipwell.league import models as m
from flipwell.league.services.malfunctions.compensatory import request_compensatory_game
from flipwell.league.services.malfunctions.report import report_malfunction
from tests import factories as f
from tests.api.conftest import bearer, post, token
from tests.league.league_night import build_night, game, play, start

pytestmark = pytest.mark.django_db

KINDS = ("forfeits", "malfunctions", "compensatory-games", "violations", "rulings")


def _read(client, meet, kind, night_secret, **query):
    return client.get(f"/api/v1/meets/{meet.pk}/{kind}", query, **bearer(night_secret))


def _catastrophic(night, first_game):
    """A catastrophic malfunction on players[3]'s first ball: a compensatory game is owed."""
    report_malfunction(
        game=first_game,
        player=night.players[3],
        ball=1,
        reason_code="power_loss",
        ball_in_play=False,
        actor=night.user,
    )


def test_forfeit_written_through_the_api_reads_back(client, night, meet, first_game, night_secret):
    """§2.4, R2.4-g: the recorded forfeit, with its author, reason, note and countability."""
    written = post(
        client,
        f"/api/v1/games/{first_game.pk}/forfeits",
        {"player": night.players[2].pk, "reason": "late", "countable": False, "note": "Bus."},
        night_secret,
    )

    response = _read(client, meet, "forfeits", night_secret)

    assert (written.status_code, response.status_code) == (201, 200)
    (item,) = response.json()["results"]
    assert item["id"] == written.json()["id"]
    assert item["source"] == "recorded"
    assert item["game"] == {"id": first_game.pk, "group": 1, "number": 1}
    assert item["player"] == {"id": night.players[2].pk, "name": str(night.players[2])}
    assert (item["reason"], item["countable"], item["note"]) == ("late", False, "Bus.")
    assert item["recorded_by"] == night.user.username
    assert item["recorded_at"] is not None
    assert response.json()["next"] is None


def test_forfeit_of_a_score_sheet_reads_back_as_the_sheets(
    client, night, meet, first_game, night_secret
):
    """R2.4-a: a player with no score on the counted sheet forfeits the game."""
    a = night.players
    play(first_game, {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: None})

    (item,) = _read(client, meet, "forfeits", night_secret).json()["results"]

    assert (item["id"], item["source"], item["player"]["id"]) == (None, "score_sheet", a[3].pk)
    assert (item["reason"], item["recorded_by"], item["countable"]) == (None, None, True)


def test_malfunction_written_through_the_api_reads_back(
    client, night, meet, first_game, night_secret
):
    """§7.3: a forced tilt by a stuck ball is a major malfunction (R7.3-e)."""
    written = post(
        client,
        f"/api/v1/games/{first_game.pk}/malfunctions",
        {
            "player": night.players[0].pk,
            "ball": 2,
            "reason_code": "forced_tilt_stuck_ball",
            "problem": "Ball stuck in the pop bumpers",
        },
        night_secret,
    )

    (item,) = _read(client, meet, "malfunctions", night_secret).json()["results"]

    assert item["id"] == written.json()["id"]
    assert (item["kind"], item["reason_code"], item["ball"]) == (
        "major",
        "forced_tilt_stuck_ball",
        2,
    )
    assert (item["machine_id"], item["machine"]) == (
        first_game.machine_id,
        first_game.machine.title,
    )
    assert item["problem"] == "Ball stuck in the pop bumpers"
    assert item["recorded_by"] == night.user.username
    assert item["game"]["id"] == first_game.pk


def test_compensatory_game_reads_back_with_the_score_the_fold_counts(
    client, night, meet, first_game, night_secret
):
    """R7.3-m: the final score is the original plus the compensatory game's, less what the
    official subtracted (R7.3-n): read from the fold once the game's scores are confirmed."""
    a = night.players
    _catastrophic(night, first_game)
    request_compensatory_game(game=first_game, player=a[3], actor=night.user)
    written = post(
        client,
        f"/api/v1/games/{first_game.pk}/compensatory-games",
        {"player": a[3].pk, "new_score": 90, "leading_subtracted": 5, "reason": "Lit jackpot"},
        night_secret,
    )
    before = _read(client, meet, "compensatory-games", night_secret).json()["results"]
    play(first_game, {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: 10})

    (item,) = _read(client, meet, "compensatory-games", night_secret).json()["results"]

    assert written.status_code == 201
    assert (before[0]["id"], before[0]["score"], before[0]["entered"]) == (
        written.json()["id"],
        None,
        None,
    )
    assert (item["id"], item["new_score"], item["leading_subtracted"]) == (
        written.json()["id"],
        90,
        5,
    )
    assert item["request_id"] == m.CompensatoryRequest.objects.get().pk
    assert item["balls"] >= 1
    assert (item["entered"], item["score"]) == (10, 10 + 90 - 5)
    assert item["recorded_by"] == night.user.username


def test_compensatory_game_granted_and_not_played_reads_back_waiting(
    client, night, meet, first_game, night_secret
):
    """R7.3-p: a granted request is open until its score is recorded."""
    _catastrophic(night, first_game)
    granted = post(
        client,
        f"/api/v1/games/{first_game.pk}/compensatory-requests",
        {"player": night.players[3].pk},
        night_secret,
    )

    (item,) = _read(client, meet, "compensatory-games", night_secret).json()["results"]

    assert (item["request_id"], item["balls"]) == (granted.json()["id"], granted.json()["balls"])
    assert (item["id"], item["new_score"], item["score"]) == (None, None, None)


def test_violation_reads_back_with_the_penalty_the_fold_decides(
    client, night, meet, first_game, night_secret
):
    """§8.5, R8.5-a, R8.5-b: detrimental conduct is serious: offense 1, a game forfeited; the
    read gives the fold's decision, the same as the write's answer."""
    a = night.players
    play(first_game, {a[0]: 900, a[1]: 50, a[2]: 30, a[3]: 10})
    written = post(
        client,
        f"/api/v1/meets/{meet.pk}/violations",
        {
            "player": a[1].pk,
            "kind": "detrimental_conduct",
            "game": first_game.pk,
            "reason": "Seen by the LO",
        },
        night_secret,
    ).json()

    (item,) = _read(client, meet, "violations", night_secret).json()["results"]

    assert item["id"] == written["violation_id"]
    assert (item["kind"], item["serious"], item["reason"]) == (
        "detrimental_conduct",
        True,
        "Seen by the LO",
    )
    assert item["game"] == {"id": first_game.pk, "group": 1, "number": 1}
    assert item["recorded_by"] == night.user.username
    penalty = item["penalty"]
    assert (penalty["offense"], penalty["effect"], penalty["game"]) == (
        written["offense"],
        written["effect"],
        written["game"],
    )
    assert (penalty["offense"], penalty["effect"]) == (1, "game_forfeit")
    assert penalty["rules"] == written["rules"]


def test_turn_ruling_written_through_the_api_reads_back(
    client, night, meet, first_game, night_secret
):
    """R7.5-a: a slow-play warning, with the official's reason."""
    written = post(
        client,
        f"/api/v1/games/{first_game.pk}/slow-play-warnings",
        {"player": night.players[0].pk, "reason": "Took two minutes to plunge."},
        night_secret,
    )

    (item,) = _read(client, meet, "rulings", night_secret).json()["results"]

    assert written.status_code == 201
    assert (item["id"], item["kind"]) == (written.json()["id"], "slow_play_warning")
    assert item["reason"] == "Took two minutes to plunge."
    assert item["player"]["id"] == night.players[0].pk
    assert item["game"]["id"] == first_game.pk
    assert item["recorded_by"] == night.user.username


def test_rulings_list_an_officials_ruling_about_a_game(
    client, night, meet, first_game, night_secret
):
    """R2.4-g: a forfeit designated not countable is an official's ruling about the game."""
    post(
        client,
        f"/api/v1/games/{first_game.pk}/forfeits",
        {"player": night.players[2].pk, "countable": False, "note": "Ill."},
        night_secret,
    )

    (item,) = _read(client, meet, "rulings", night_secret).json()["results"]

    assert (item["kind"], item["reason"]) == ("forfeit_not_countable", "Ill.")
    assert (item["game"]["id"], item["player"]["id"]) == (first_game.pk, night.players[2].pk)


def test_meet_records_are_pages_with_a_next_link(client, night, meet, first_game, night_secret):
    """Every list is a page: three forfeits, two a page."""
    for player in night.players[:3]:
        post(client, f"/api/v1/games/{first_game.pk}/forfeits", {"player": player.pk}, night_secret)

    first_page = _read(client, meet, "forfeits", night_secret, limit=2).json()
    second_page = client.get(first_page["next"], **bearer(night_secret)).json()

    read = [i["player"]["id"] for i in first_page["results"] + second_page["results"]]
    assert (len(first_page["results"]), second_page["next"]) == (2, None)
    assert sorted(read) == sorted(p.pk for p in night.players[:3])


def test_meet_records_of_table_rows_are_pages_by_id(client, night, meet, first_game, night_secret):
    """The malfunctions' pages follow their ids: the second starts after the first's last."""
    for ball in (1, 2, 3):
        report_malfunction(
            game=first_game,
            player=night.players[0],
            ball=ball,
            reason_code="forced_tilt_stuck_ball",
            actor=night.user,
        )

    first_page = _read(client, meet, "malfunctions", night_secret, limit=2).json()
    second_page = client.get(first_page["next"], **bearer(night_secret)).json()

    assert [i["ball"] for i in first_page["results"] + second_page["results"]] == [1, 2, 3]
    assert second_page["next"] is None


@pytest.mark.parametrize("kind", KINDS)
def test_meet_records_need_a_token(client, meet, kind):
    """They name who recorded what and why, which no public read shows."""
    response = client.get(f"/api/v1/meets/{meet.pk}/{kind}")

    assert response.status_code == 401


@pytest.mark.parametrize("kind", KINDS)
def test_meet_records_with_another_leagues_token_are_refused(client, meet, kind):
    """A league's records are its own: another league's token reads none of them."""
    other = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)

    response = client.get(f"/api/v1/meets/{meet.pk}/{kind}", **bearer(token(other)))

    assert response.status_code == 403
    assert "another league" in response.json()["error"]["message"]


@pytest.mark.parametrize("kind", KINDS)
def test_meet_records_of_no_meet_are_404(client, night_secret, kind):
    response = client.get(f"/api/v1/meets/999999/{kind}", **bearer(night_secret))

    assert response.status_code == 404


@pytest.mark.parametrize(
    ("kind", "status"),
    [
        ("forfeits", 200),
        ("malfunctions", 200),
        ("compensatory-games", 200),
        ("violations", 403),
        ("rulings", 403),
    ],
)
def test_meet_records_scopes(client, night, meet, kind, status):
    """The facts of play need scope scores (a score keeper's client); violations and rulings,
    disciplinary records, need read_private (a league official's)."""
    scores_only = token(night.official, "scores")

    assert _read(client, meet, kind, scores_only).status_code == status


def _queries(client, meet, kind, night_secret) -> int:
    with CaptureQueriesContext(connection) as captured:
        response = _read(client, meet, kind, night_secret)
    assert response.status_code == 200
    return len(captured.captured_queries)


def _record_everything(client, night, meet, night_secret, many):
    """Each kind of record `many` times: forfeits and violations in group 2, malfunctions,
    turn rulings and compensatory games in group 1."""
    ones, twos = (
        [mb.player for mb in game(meet, number, 1).group.members.order_by("position")]
        for number in (1, 2)
    )
    first, second = game(meet, 1, 1), game(meet, 2, 1)
    writes = []
    for player in twos[:many]:
        writes.append((f"/games/{second.pk}/forfeits", {"player": player.pk}))
        writes.append(
            (
                f"/meets/{meet.pk}/violations",
                {"player": player.pk, "kind": "violence", "reason": "Hit"},
            )
        )
    for player in ones[:many]:
        writes.append(
            (f"/games/{first.pk}/slow-play-warnings", {"player": player.pk, "reason": "Slow."})
        )
    writes.append(
        (
            f"/games/{first.pk}/malfunctions",
            {"player": ones[0].pk, "ball": 1, "reason_code": "power_loss", "ball_in_play": False},
        )
    )
    writes += [(f"/games/{first.pk}/compensatory-requests", {"player": p.pk}) for p in ones[:many]]
    for path, body in writes:
        assert post(client, f"/api/v1{path}", body, night_secret).status_code == 201, (path, body)


@pytest.mark.parametrize("kind", KINDS)
def test_meet_records_run_a_fixed_number_of_queries(client, kind):
    """No query in a loop: a meet with one record of each kind and one with three read in
    the same number of queries."""
    counts = []
    for many in (1, 3):
        night = build_night()
        meet = start(night)
        secret = token(night.official)
        _record_everything(client, night, meet, secret, many)
        assert len(_read(client, meet, kind, secret).json()["results"]) >= many
        counts.append(_queries(client, meet, kind, secret))

    assert counts[0] == counts[1]


def test_rulings_list_a_ruling_about_the_meet_as_a_whole(
    client, night, meet, first_game, night_secret
):
    """A52: closing a meet with unfinished business is the official's ruling about the meet;
    it reads back with no game."""
    closed = post(
        client,
        f"/api/v1/meets/{meet.pk}/close",
        {"override_reason": "Venue closing."},
        night_secret,
    )

    items = _read(client, meet, "rulings", night_secret).json()["results"]

    assert closed.status_code == 200, closed.content
    (item,) = [i for i in items if i["kind"] == "meet_closed_unfinished"]
    assert (item["reason"], item["game"], item["player"]) == ("Venue closing.", None, None)
