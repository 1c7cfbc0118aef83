"""The console's write abilities that the API lacked (issue 34 §2): editing a player, personal
links, making a forfeit non-countable, withdrawing an announced absence or lateness or an
absence for the rest of the match, refreshing IFPA ranks from a CSV, starting the next season,
removing a meet's photos and correcting a playoff match's sheet.

Each is the console's service behind the console's permission: every ability is checked here
for its success, for the tokens that may not use it (a token without its scope, an official
demoted to scorekeeper, another league's token, no token; nothing written), for a retry with
one Idempotency-Key (stored once), and for a refused body (the error shape, on its field).
"""

from __future__ import annotations

import datetime
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from flipwell.league import models as m
from flipwell.league.services.forfeits import record_forfeit
from flipwell.league.services.match_absences import record_match_absence
from flipwell.league.services.meets.announcements import announce_absence, announce_lateness
from flipwell.league.services.meets.schedule import schedule_meet
from flipwell.league.services.player_links import issue_player_link
from flipwell.league.services.playoff_sheets.confirmation import confirm_playoff_scores
from flipwell.league.services.playoff_sheets.corrections import request_playoff_correction
from flipwell.league.services.playoff_sheets.entry import submit_playoff_scores
from flipwell.league.services.playoff_sheets.game_start import start_playoff_game_on_sheet
from tests import factories as f
from tests.api.conftest import bearer, token
from tests.league.league_night import Night, game, group, start

pytestmark = pytest.mark.django_db

ROSTER_CSV = "first_name,last_name,ifpa_number,ifpa_rank\n"


def _send(client, method: str, url: str, body: object, secret: str | None, key: str | None = None):
    headers = {} if secret is None else bearer(secret)
    headers["HTTP_IDEMPOTENCY_KEY"] = key or uuid.uuid4().hex  # a fresh key unless one is given
    send = getattr(client, method)
    if body is None:
        return send(url, **headers)
    return send(url, body, content_type="application/json", **headers)


def _csv(*lines: str) -> str:
    return ROSTER_CSV + "\n".join(lines) + "\n"


# --- the abilities, each ready to be sent ---------------------------------------------------


@dataclass(frozen=True)
class Ability:
    """One write, prepared: who may send it (`official`, with `scope`), what it sends, and a
    request whose body (or path) it refuses (`refused`: method, url, body, status, field)."""

    official: m.LeagueOfficial
    method: str
    url: str
    body: dict[str, Any] | None
    scope: str
    refused: tuple[str, str, dict[str, Any] | None, int, str]


def _edit_player(night: Night) -> Ability:
    url = f"/api/v1/seasons/{night.season.pk}/players/{night.players[0].pk}"
    body = {"first_name": "Annabel", "last_name": "Lee", "ifpa_number": 4242}
    return Ability(
        night.official, "put", url, body, "manage",
        ("put", url, {**body, "first_name": ""}, 422, "first_name"),
    )  # fmt: skip


def _issue_links(night: Night) -> Ability:
    url = f"/api/v1/seasons/{night.season.pk}/player-links"
    stranger = f.PlayerFactory()
    wrong = f"/api/v1/seasons/{night.season.pk}/players/{stranger.pk}/link"
    return Ability(night.official, "post", url, None, "manage", ("post", wrong, None, 404, ""))


def _issue_link(night: Night) -> Ability:
    url = f"/api/v1/seasons/{night.season.pk}/players/{night.players[1].pk}/link"
    stranger = f"/api/v1/seasons/{night.season.pk}/players/{f.PlayerFactory().pk}/link"
    return Ability(night.official, "post", url, None, "manage", ("post", stranger, None, 404, ""))


def _revoke_link(night: Night) -> Ability:
    issue_player_link(season=night.season, player=night.players[2], actor=night.user)
    url = f"/api/v1/seasons/{night.season.pk}/players/{night.players[2].pk}/link"
    none = f"/api/v1/seasons/{night.season.pk}/players/{night.players[3].pk}/link"
    return Ability(night.official, "delete", url, None, "manage", ("delete", none, None, 404, ""))


def _refresh_ranks(night: Night) -> Ability:
    first = night.players[0]
    url = f"/api/v1/seasons/{night.season.pk}/ifpa-ranks"
    body = {"csv": _csv(f"{first.first_name},{first.last_name},,77")}
    bad = {"csv": _csv("Nobody,Here,,5")}  # every such line in the message, no one field
    return Ability(night.official, "post", url, body, "manage", ("post", url, bad, 422, ""))


def _next_season(night: Night) -> Ability:
    url = f"/api/v1/seasons/{night.season.pk}/next-season"
    body = {"name": "Summer 2026", "leave_out": [night.players[7].pk]}
    bad = {"name": night.season.name}
    return Ability(night.official, "post", url, body, "manage", ("post", url, bad, 422, "name"))


def _withdraw_notice(night: Night) -> Ability:
    meet = schedule_meet(
        season=night.season, number=1, date=datetime.date(2099, 1, 5), actor=night.user,
        date_reason="Far ahead",
    )  # fmt: skip
    announce_absence(meet=meet, player=night.players[0], actor=night.user)
    url = f"/api/v1/meets/{meet.pk}/notice-withdrawals"
    body = {"player": night.players[0].pk, "kind": "absence"}
    bad = {"player": night.players[1].pk, "kind": "absence"}  # announced nothing
    return Ability(night.official, "post", url, body, "manage", ("post", url, bad, 422, "player"))


def _withdraw_match_absence(night: Night) -> Ability:
    meet = start(night)
    first = group(meet, 1)
    absent = first.members.order_by("position").first().player
    record_match_absence(group=first, players=[absent], actor=night.user)
    url = f"/api/v1/groups/{first.pk}/absence/withdrawals"
    body = {"player": absent.pk, "reason": "He was in the car park"}
    bad = {"player": absent.pk, "reason": ""}
    return Ability(night.official, "post", url, body, "manage", ("post", url, bad, 422, "reason"))


def _non_countable(night: Night) -> Ability:
    meet = start(night)
    played = game(meet, 1, 1)
    player = played.group.members.order_by("position").first().player
    record_forfeit(game=played, player=player, actor=night.user)
    url = f"/api/v1/games/{played.pk}/non-countable-forfeits"
    body = {"player": player.pk, "reason": "Called away to the hospital"}
    other = played.group.members.order_by("position")[1].player  # did not forfeit
    bad = {"player": other.pk, "reason": "No"}
    return Ability(night.official, "post", url, body, "manage", ("post", url, bad, 422, "player"))


def _remove_photos(night: Night) -> Ability:
    meet = start(night)
    m.ScorePhoto.objects.create(game=game(meet, 1, 1), key="abc123", width=4, height=3, bytes=9)
    m.Meet.objects.filter(pk=meet.pk).update(status=m.Meet.Status.CLOSED)
    url = f"/api/v1/meets/{meet.pk}/photos/removal"
    return Ability(
        night.official, "post", url, {"reason": "End of the season"}, "manage",
        ("post", url, {"reason": ""}, 422, "reason"),
    )  # fmt: skip


@dataclass
class Bracket:
    official: m.LeagueOfficial
    season: m.Season
    p: dict[str, m.Player]
    url: str


NAMES = ("Ann", "Bea", "Cal", "Dee", "Eve", "Fay", "Gus", "Hal")
"""Seeds 1..8: SF1 is Ann, Dee, Eve, Hal (seeds 1, 4, 5, 8, R6.3-h)."""


def _bracket() -> Bracket:
    """An 8-player playoff night whose SF1 game 1 is confirmed: Ann 4M, Dee 3M, Eve 2M,
    Hal 1M."""
    official = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    season = f.SeasonFactory(league=official.league, created_at=f.SET_UP_2026)
    for _ in range(5):
        f.MachineFactory(league=official.league)
    playoff = f.PlayoffNightFactory(season=season, cut=8)
    p = {}
    for seed, name in enumerate(NAMES, 1):
        p[name] = f.PlayerFactory(first_name=name, last_name="Test")
        f.QualifierFactory(playoff_night=playoff, player=p[name], seed=seed)
    where = {"season": season, "division": "A", "match": "SF1"}
    start_playoff_game_on_sheet(**where, started_by=p["Ann"])
    scores = {p["Ann"]: 4_000_000, p["Dee"]: 3_000_000, p["Eve"]: 2_000_000, p["Hal"]: 1_000_000}
    sheet = submit_playoff_scores(
        **where, number=1, scores=scores, entered_by=p["Ann"], idempotency_key="k1"
    )
    confirm_playoff_scores(sheet=sheet, confirmed_by=p["Dee"])
    url = f"/api/v1/seasons/{season.pk}/playoffs/A/SF1/corrections"
    return Bracket(official, season, p, url)


def _correction_body(bracket: Bracket, **change: Any) -> dict[str, Any]:
    return {
        "number": 1,
        "scores": [{"player": bracket.p["Hal"].pk, "machine_score": 5_000_000}],
        "requested_by": bracket.p["Hal"].pk,
        "reason": "Hal's score was typed without a digit",
        **change,
    }


def _playoff_correction(night: Night) -> Ability:
    bracket = _bracket()
    outsider = {"requested_by": bracket.p["Bea"].pk}  # plays SF2, not SF1
    return Ability(
        bracket.official, "post", bracket.url, _correction_body(bracket), "scores",
        ("post", bracket.url, _correction_body(bracket, **outsider), 422, "requested_by"),
    )  # fmt: skip


def _answer_correction(night: Night) -> Ability:
    bracket = _bracket()
    correction = request_playoff_correction(
        season=bracket.season, division="A", match="SF1", number=1,
        scores={bracket.p["Hal"].pk: 5_000_000}, requested_by=bracket.p["Hal"], reason="Typo",
    )  # fmt: skip
    url = f"/api/v1/playoff-corrections/{correction.pk}/answers"
    body = {"player": bracket.p["Ann"].pk, "agrees": True}
    bad = {"player": bracket.p["Bea"].pk, "agrees": True}
    return Ability(bracket.official, "post", url, body, "scores", ("post", url, bad, 422, "player"))


ABILITIES: dict[str, Callable[[Night], Ability]] = {
    "edit_player": _edit_player,
    "issue_player_links": _issue_links,
    "issue_player_link": _issue_link,
    "revoke_player_link": _revoke_link,
    "refresh_ifpa_ranks": _refresh_ranks,
    "start_next_season": _next_season,
    "withdraw_announcement": _withdraw_notice,
    "withdraw_match_absence": _withdraw_match_absence,
    "designate_forfeit_non_countable": _non_countable,
    "remove_meet_photos": _remove_photos,
    "request_playoff_correction": _playoff_correction,
    "answer_playoff_correction": _answer_correction,
}


@pytest.fixture(params=sorted(ABILITIES))
def ability(request, night) -> Ability:
    return ABILITIES[request.param](night)


def _audited() -> int:
    """Every service writes an audit event: what the writes under test add."""
    return m.AuditEvent.objects.count()


# --- every ability: success, permissions, retries, refusals ----------------------------------


def test_ability_succeeds_with_a_token_of_its_league(client, ability):
    secret = token(ability.official)
    before = _audited()

    response = _send(client, ability.method, ability.url, ability.body, secret)

    assert response.status_code in (200, 201), response.content
    assert _audited() > before


def test_ability_without_its_scope_is_403(client, ability):
    others = {"manage": ("scores", "read_private"), "scores": ("read_private",)}[ability.scope]
    secret = token(ability.official, *others)
    before = _audited()

    response = _send(client, ability.method, ability.url, ability.body, secret)

    assert response.status_code == 403
    assert response.json()["error"]["code"] == "forbidden"
    assert _audited() == before


def test_ability_of_an_official_demoted_to_scorekeeper(client, ability):
    """A scorekeeper may do what the sheet's players do (scope scores), nothing an official
    alone does (manage)."""
    secret = token(ability.official)
    m.LeagueOfficial.objects.filter(pk=ability.official.pk).update(
        role=m.LeagueOfficial.Role.SCOREKEEPER
    )
    before = _audited()

    response = _send(client, ability.method, ability.url, ability.body, secret)

    if ability.scope == "manage":
        assert response.status_code == 403
        assert _audited() == before
    else:
        assert response.status_code in (200, 201), response.content


def test_ability_with_another_leagues_token_is_403(client, ability):
    stranger = f.LeagueOfficialFactory(role=m.LeagueOfficial.Role.LEAGUE_OFFICIAL)
    secret = token(stranger)
    before = _audited()

    response = _send(client, ability.method, ability.url, ability.body, secret)

    assert response.status_code == 403
    assert "another league" in response.json()["error"]["message"]
    assert _audited() == before


def test_ability_without_a_token_is_401(client, ability):
    before = _audited()

    response = _send(client, ability.method, ability.url, ability.body, None)

    assert response.status_code == 401
    assert _audited() == before


def test_ability_retried_with_its_idempotency_key_is_done_once(client, ability):
    secret = token(ability.official)
    before = _audited()
    first = _send(client, ability.method, ability.url, ability.body, secret, key="retry-1")
    once = _audited()

    again = _send(client, ability.method, ability.url, ability.body, secret, key="retry-1")

    assert first.status_code in (200, 201), first.content
    assert once > before
    assert (again.status_code, again.content) == (first.status_code, first.content)
    assert again["Idempotent-Replayed"] == "true"
    assert _audited() == once


def test_ability_refuses_a_bad_request_in_the_error_shape(client, ability):
    method, url, body, status, field = ability.refused
    secret = token(ability.official)
    before = _audited()

    response = _send(client, method, url, body, secret)

    assert response.status_code == status, response.content
    error = response.json()["error"]
    assert set(error) == {"code", "message", "fields"}
    assert error["message"]
    if field:
        assert field in error["fields"], error
    assert _audited() == before


# --- what each ability does -----------------------------------------------------------------


def test_edit_player_saves_the_name_and_ifpa_number(client, night):
    ability = _edit_player(night)

    response = _send(client, "put", ability.url, ability.body, token(night.official))

    assert response.status_code == 200
    player = night.players[0]
    assert response.json() == {
        "id": player.pk, "first_name": "Annabel", "last_name": "Lee", "ifpa_number": 4242,
    }  # fmt: skip
    player.refresh_from_db()
    assert (player.first_name, player.ifpa_number) == ("Annabel", 4242)


def test_edit_player_with_another_players_ifpa_number_is_422(client, night):
    taken = night.players[1]
    taken.ifpa_number = 555
    taken.save()
    url = f"/api/v1/seasons/{night.season.pk}/players/{night.players[0].pk}"
    body = {"first_name": "A", "last_name": "B", "ifpa_number": 555}

    response = _send(client, "put", url, body, token(night.official))

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["ifpa_number"]


def test_issue_player_links_then_list_them(client, night):
    secret = token(night.official)
    url = f"/api/v1/seasons/{night.season.pk}/player-links"

    issued = _send(client, "post", url, None, secret)
    listed = client.get(url, **bearer(secret))

    assert issued.status_code == 201
    assert len(issued.json()["issued"]) == 8
    assert listed.status_code == 200
    links = listed.json()["results"]
    assert sorted(link["player_id"] for link in links) == sorted(p.pk for p in night.players)
    me = client.get(links[0]["api"])
    assert me.status_code == 200
    assert links[0]["page"] == f"/me/{links[0]['token']}/"


def test_list_player_links_needs_the_manage_scope(client, night):
    url = f"/api/v1/seasons/{night.season.pk}/player-links"

    response = client.get(url, **bearer(token(night.official, "read_private", "scores")))

    assert response.status_code == 403


def test_issue_player_link_again_revokes_the_old_one(client, night):
    old = issue_player_link(season=night.season, player=night.players[1], actor=night.user)
    url = f"/api/v1/seasons/{night.season.pk}/players/{night.players[1].pk}/link"

    response = _send(client, "post", url, None, token(night.official))

    assert response.status_code == 201
    old.refresh_from_db()
    assert old.revoked_at is not None
    assert response.json()["id"] != old.pk
    assert response["Location"].endswith(f"/api/v1/seasons/{night.season.pk}/player-links")


def test_revoke_player_link_stops_it(client, night):
    ability = _revoke_link(night)

    response = _send(client, "delete", ability.url, None, token(night.official))

    assert response.status_code == 200
    assert response.json()["revoked_at"] is not None
    assert client.get(response.json()["api"]).status_code == 404


def test_refresh_ifpa_ranks_r3_1_b(client, night):
    ability = _refresh_ranks(night)

    response = _send(client, "post", ability.url, ability.body, token(night.official))

    assert response.status_code == 200
    body = response.json()
    first = night.players[0]
    assert body["changed"] == [
        {"player": {"id": first.pk, "name": str(first)}, "old_rank": 1, "new_rank": 77}
    ]
    assert len(body["not_in_file"]) == 7
    entry = m.SeasonEntry.objects.get(season=night.season, player=first)
    assert entry.ifpa_rank_at_start == 77


def test_refresh_ifpa_ranks_after_week_1_started_is_409_r3_1_b(client, night):
    start(night)
    ability = _refresh_ranks(night)

    response = _send(client, "post", ability.url, ability.body, token(night.official))

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "season_started"


def test_refresh_ifpa_ranks_bad_line_is_422_on_its_line(client, night):
    url = f"/api/v1/seasons/{night.season.pk}/ifpa-ranks"
    body = {"csv": _csv("Ann,Lee,notanumber,5")}

    response = _send(client, "post", url, body, token(night.official))

    assert response.status_code == 422
    assert next(iter(response.json()["error"]["fields"])).startswith("line 2")


def test_start_next_season_carries_the_players_but_those_left_out(client, night):
    ability = _next_season(night)

    response = _send(client, "post", ability.url, ability.body, token(night.official))

    assert response.status_code == 201
    new = m.Season.objects.get(pk=response.json()["id"])
    assert response["Location"].endswith(f"/api/v1/seasons/{new.pk}")
    assert new.name == "Summer 2026"
    carried = set(new.entries.values_list("player_id", flat=True))
    assert carried == {p.pk for p in night.players[:7]}


def test_start_next_season_leaving_out_a_stranger_is_422(client, night):
    url = f"/api/v1/seasons/{night.season.pk}/next-season"
    body = {"name": "Summer 2026", "leave_out": [f.PlayerFactory().pk]}

    response = _send(client, "post", url, body, token(night.official))

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["leave_out"]


def test_withdraw_announced_absence_r3_1_d(client, night):
    ability = _withdraw_notice(night)

    response = _send(client, "post", ability.url, ability.body, token(night.official))

    assert response.status_code == 200
    assert response.json()["player_id"] == night.players[0].pk
    assert not m.AnnouncedAbsence.objects.exists()


def test_withdraw_lateness_notice_r2_2_a(client, night):
    ability = _withdraw_notice(night)
    meet = m.Meet.objects.get(season=night.season, number=1)
    announce_lateness(meet=meet, player=night.players[3], actor=night.user)
    body = {"player": night.players[3].pk, "kind": "lateness"}

    response = _send(client, "post", ability.url, body, token(night.official))

    assert response.status_code == 200
    assert not m.LatenessNotice.objects.exists()
    assert m.AnnouncedAbsence.objects.count() == 1


def test_withdraw_announcement_once_the_meet_started_is_409(client, night):
    meet = start(night)
    url = f"/api/v1/meets/{meet.pk}/notice-withdrawals"
    body = {"player": night.players[0].pk, "kind": "absence"}

    response = _send(client, "post", url, body, token(night.official))

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "meet_already_started"


def test_withdraw_announcement_of_an_unknown_kind_is_422(client, night):
    ability = _withdraw_notice(night)

    response = _send(
        client, "post", ability.url, {**ability.body, "kind": "holiday"}, token(night.official)
    )

    assert response.status_code == 422
    assert list(response.json()["error"]["fields"]) == ["kind"]


def test_withdraw_match_absence_r2_4_a(client, night):
    ability = _withdraw_match_absence(night)

    response = _send(client, "post", ability.url, ability.body, token(night.official))

    assert response.status_code == 200
    assert response.json()["from_game"] == 1
    assert not m.MatchAbsence.objects.exists()


def test_designate_forfeit_non_countable_r2_4_g(client, night):
    ability = _non_countable(night)

    response = _send(client, "post", ability.url, ability.body, token(night.official))

    assert response.status_code == 201
    assert response.json()["countable"] is False
    assert m.Forfeit.objects.get(pk=response.json()["id"]).countable is False
    assert m.Ruling.objects.filter(reason__contains="hospital").exists()


def test_remove_meet_photos(client, night):
    ability = _remove_photos(night)

    response = _send(client, "post", ability.url, ability.body, token(night.official))

    assert response.status_code == 200
    assert response.json()["removed"] == 1
    assert m.ScorePhoto.objects.get().removed_at is not None


def test_remove_photos_of_an_open_meet_is_409(client, night):
    meet = start(night)

    response = _send(
        client, "post", f"/api/v1/meets/{meet.pk}/photos/removal", {"reason": "x"},
        token(night.official),
    )  # fmt: skip

    assert response.status_code == 409  # the meet's state forbids it now


def test_playoff_correction_applied_when_every_other_player_agrees_r3_d(client, db):
    bracket = _bracket()
    secret = token(bracket.official, "scores")
    asked = _send(client, "post", bracket.url, _correction_body(bracket), secret)
    assert asked.status_code == 201, asked.content
    assert asked.json()["status"] == "pending"
    url = f"/api/v1/playoff-corrections/{asked.json()['id']}/answers"

    for name in ("Ann", "Dee", "Eve"):
        answered = _send(
            client, "post", url, {"player": bracket.p[name].pk, "agrees": True}, secret
        )
        assert answered.status_code == 200, answered.content

    assert answered.json()["status"] == "applied"
    hal = m.PlayoffResult.objects.get(player=bracket.p["Hal"], game__number=1)
    assert hal.machine_score == 5_000_000
    audited = m.AuditEvent.objects.filter(action__startswith="playoffs.correction_")
    assert {event.actor_id for event in audited} == {bracket.official.user_id}


def test_playoff_correction_refused_when_one_player_disagrees_r3_d(client, db):
    bracket = _bracket()
    secret = token(bracket.official, "scores")
    asked = _send(client, "post", bracket.url, _correction_body(bracket), secret)
    url = f"/api/v1/playoff-corrections/{asked.json()['id']}/answers"

    answered = _send(client, "post", url, {"player": bracket.p["Ann"].pk, "agrees": False}, secret)

    assert answered.json()["status"] == "refused"
    hal = m.PlayoffResult.objects.get(player=bracket.p["Hal"], game__number=1)
    assert hal.machine_score == 1_000_000


def test_playoff_correction_while_one_waits_is_409(client, db):
    bracket = _bracket()
    secret = token(bracket.official, "scores")
    _send(client, "post", bracket.url, _correction_body(bracket), secret)

    again = _send(client, "post", bracket.url, _correction_body(bracket, reason="Again"), secret)

    assert again.status_code == 409
    assert again.json()["error"]["code"] == "correction_pending"


def test_answer_an_entry_that_is_no_correction_is_404(client, db):
    bracket = _bracket()
    entry = m.PlayoffSheet.objects.get(status="confirmed")

    response = _send(
        client, "post", f"/api/v1/playoff-corrections/{entry.pk}/answers",
        {"player": bracket.p["Ann"].pk, "agrees": True}, token(bracket.official),
    )  # fmt: skip

    assert response.status_code == 404
